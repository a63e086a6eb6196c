// The string ops on CUDA: one thread per row (grid-stride) running the same GPUDF_HD per-row code
// as the CPU. Variable-length results: a sizing kernel, an exclusive scan of the sizes, a
// writing kernel; fixed-width results set their validity bits with atomicOr.
#include <limits>

#include "core/bitmask.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "ops/gather/gather.hpp"
#include "ops/strings/strings.hpp"

namespace gpudf::strings::detail {
namespace {

template <typename O>
struct TransformRows {
  const O* off;
  const char* src;
  TransformArgs t;
  __device__ int64_t operator()(int64_t i, char* out) const {
    return apply_transform(t, src + off[i], int64_t(off[i + 1] - off[i]), out);
  }
};

struct FormatRows {
  const uint8_t* data;
  int64_t offset;
  TypeId type;
  Format f;
  __device__ int64_t operator()(int64_t i, char* out) const {
    const int64_t x = type == TypeId::Date32 ? int64_t(reinterpret_cast<const int32_t*>(data)[offset + i])
                                             : reinterpret_cast<const int64_t*>(data)[offset + i];
    return format_temporal(f, type, x, out);
  }
};

template <typename F>
__global__ void size_kernel(F rows, const uint8_t* bits, int64_t bit_offset, int64_t n, int64_t* sizes) {
  GPUDF_GRID_STRIDE(i, n) {
    sizes[i] = bits && !bit_is_set(bits, bit_offset + i) ? 0 : rows(i, nullptr);
    if (i == n - 1) sizes[n] = 0;
  }
}

template <typename O, typename F>
__global__ void write_kernel(F rows, const uint8_t* bits, int64_t bit_offset, int64_t n, const int64_t* starts,
                             O* out_off, char* dst, uint32_t* out_bits) {
  GPUDF_GRID_STRIDE(i, n) {
    out_off[i] = O(starts[i]);
    if (i == n - 1) out_off[n] = O(starts[n]);
    const bool valid = !bits || bit_is_set(bits, bit_offset + i);
    if (!valid) continue;
    if (out_bits) atomicOr(out_bits + (i >> 5), 1u << (i & 31));
    if (dst) rows(i, dst + starts[i]);
  }
}

/// A string column of n rows from `rows` (valid where the input's bitmap says so).
template <typename O, typename F>
ColumnPtr build_strings(TypeId type, int64_t n, const uint8_t* bits, int64_t bit_offset, const F& rows) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  if (n == 0) {
    ColumnPtr out = Column::allocate(dev, type, 0, bits != nullptr, 0);
    dev.memset(out->offsets()->data(), 0, out->offsets()->size());
    return out;
  }
  BufferPtr starts = Buffer::allocate(dev, size_t(n + 1) * sizeof(int64_t));
  int64_t* st = reinterpret_cast<int64_t*>(starts->data());
  size_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(rows, bits, bit_offset, n, st);
  GPUDF_CUDA_TRY(cudaGetLastError());
  const int64_t total = gpudf::detail::exclusive_scan_cuda(dev, st, n);
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the strings exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  ColumnPtr out = Column::allocate(dev, type, n, bits != nullptr, total);
  write_kernel<O><<<grid_for(n), kBlockThreads, 0, stream>>>(
      rows, bits, bit_offset, n, st, reinterpret_cast<O*>(out->offsets()->data()),
      total && out->data() ? reinterpret_cast<char*>(out->data()->data()) : nullptr,
      out->validity() ? reinterpret_cast<uint32_t*>(out->validity()->data()) : nullptr);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

/// bad holds n - (first failing row), so the largest is the first; 0: none.
template <typename O>
__global__ void parse_kernel(const O* off, const char* src, const uint8_t* bits, int64_t bit_offset, int64_t n,
                             TypeId to, Format f, uint8_t* data, uint32_t* out_bits, unsigned long long* bad) {
  GPUDF_GRID_STRIDE(i, n) {
    int64_t x = 0;
    bool ok = false;
    if (!bits || bit_is_set(bits, bit_offset + i)) {
      ok = parse_temporal(f, src + off[i], int64_t(off[i + 1] - off[i]), to, x);
      if (!ok) atomicMax(bad, static_cast<unsigned long long>(n - i));
    }
    if (to == TypeId::Date32) reinterpret_cast<int32_t*>(data)[i] = ok ? int32_t(x) : 0;
    else reinterpret_cast<int64_t*>(data)[i] = ok ? x : 0;
    if (ok) atomicOr(out_bits + (i >> 5), 1u << (i & 31));
  }
}

template <typename O>
ColumnPtr parse_typed(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  const int64_t n = v.size;
  ColumnPtr out = Column::allocate(dev, to, n, true);
  first_bad = -1;
  if (n == 0) return out;
  DeviceScalar<unsigned long long> bad(stream);
  parse_kernel<O><<<grid_for(n), kBlockThreads, 0, stream>>>(
      v.string_offsets<O>(), reinterpret_cast<const char*>(v.data), v.validity, v.offset, n, to, f,
      out->data()->data(), reinterpret_cast<uint32_t*>(out->validity()->data()), bad.get());
  GPUDF_CUDA_TRY(cudaGetLastError());
  const unsigned long long b = bad.value(stream);
  if (b) first_bad = n - int64_t(b);
  return out;
}

template <typename O>
ColumnPtr transform_typed(const ColumnView& v, const TransformArgs& t) {
  TransformRows<O> rows{v.string_offsets<O>(), reinterpret_cast<const char*>(v.data), t};
  return build_strings<O>(v.type, v.size, v.validity, v.offset, rows);
}

}  // namespace

ColumnPtr parse_temporal_cuda(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad) {
  return v.type == TypeId::Utf8 ? parse_typed<int32_t>(v, to, f, first_bad) : parse_typed<int64_t>(v, to, f, first_bad);
}

ColumnPtr format_temporal_cuda(const ColumnView& v, const Format& f) {
  FormatRows rows{v.data, v.offset, v.type, f};
  return build_strings<int32_t>(TypeId::Utf8, v.size, v.validity, v.offset, rows);
}

ColumnPtr transform_cuda(const ColumnView& v, const TransformArgs& t) {
  return v.type == TypeId::Utf8 ? transform_typed<int32_t>(v, t) : transform_typed<int64_t>(v, t);
}

}  // namespace gpudf::strings::detail
