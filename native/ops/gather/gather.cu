// CUDA gather: grid-stride kernels over the shared per-row rules in gather.hpp. Strings take two
// passes: lengths, an exclusive scan (CUB) into the offsets, then the bytes.
#include <climits>

#include <cub/device/device_scan.cuh>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "ops/gather/gather.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = kBlockThreads;

__global__ void range_kernel(IndexReader idx, int64_t n, long long* lo, long long* hi) {
  long long mn = LLONG_MAX, mx = LLONG_MIN;
  GPUDF_GRID_STRIDE(i, n) {
    long long k = idx(i);
    mn = k < mn ? k : mn;
    mx = k > mx ? k : mx;
  }
  atomicMin(lo, mn);
  atomicMax(hi, mx);
}

template <typename W>
__global__ void gather_fixed_kernel(const W* in, IndexReader idx, int64_t n, W* out) {
  GPUDF_GRID_STRIDE(i, n) out[i] = gathered_value(in, idx(i));
}

__global__ void gather_validity_kernel(ColumnView src, IndexReader idx, int64_t n, uint8_t* bits) {
  GPUDF_GRID_STRIDE(b, (n + 7) / 8) bits[b] = gather_validity_byte(src, idx, n, b);
}

template <typename O>
__global__ void string_lengths_kernel(ColumnView src, IndexReader idx, int64_t n, int64_t* lens) {
  GPUDF_GRID_STRIDE(i, n) lens[i] = gathered_string_length<O>(src, idx(i));
  if (blockIdx.x == 0 && threadIdx.x == 0) lens[n] = 0;
}

template <typename O>
__global__ void string_copy_kernel(ColumnView src, IndexReader idx, int64_t n, const int64_t* starts,
                                   O* offs, uint8_t* chars) {
  GPUDF_GRID_STRIDE(i, n + 1) {
    offs[i] = static_cast<O>(starts[i]);
    if (i == n) continue;
    int64_t row = idx(i);
    int64_t len = gathered_string_length<O>(src, row);
    if (len == 0) continue;  // also "no row" (negative index): offsets[row] is not read
    const uint8_t* from = src.data + src.string_offsets<O>()[row];
    for (int64_t j = 0; j < len; ++j) chars[starts[i] + j] = from[j];
  }
}

template <typename O>
ColumnPtr gather_strings(const ColumnView& src, IndexReader idx, int64_t n, bool nullable,
                         cudaStream_t stream) {
  Device& dev = *src.device;
  BufferPtr starts = Buffer::allocate(dev, size_t(n + 1) * sizeof(int64_t));
  auto* s = reinterpret_cast<int64_t*>(starts->data());
  string_lengths_kernel<O><<<grid_for(n), kBlock, 0, stream>>>(src, idx, n, s);
  GPUDF_CUDA_TRY(cudaGetLastError());
  int64_t total = exclusive_scan_cuda(dev, s, n);
  ColumnPtr out = Column::allocate(dev, src.type, n, nullable, total);
  string_copy_kernel<O><<<grid_for(n + 1), kBlock, 0, stream>>>(
      src, idx, n, s, reinterpret_cast<O*>(out->offsets()->data()),
      out->data() ? out->data()->data() : nullptr);
  GPUDF_CUDA_TRY(cudaGetLastError());
  return out;
}

template <typename W>
void launch_fixed(const ColumnView& src, IndexReader idx, int64_t n, uint8_t* out, cudaStream_t stream) {
  gather_fixed_kernel<W><<<grid_for(n), kBlock, 0, stream>>>(
      reinterpret_cast<const W*>(src.data) + src.offset, idx, n, reinterpret_cast<W*>(out));
  GPUDF_CUDA_TRY(cudaGetLastError());
}

}  // namespace

int64_t exclusive_scan_cuda(Device& dev, int64_t* data, int64_t n) {
  cudaStream_t stream = cuda_current_stream();
  size_t temp_bytes = 0;
  GPUDF_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, data, data, n + 1, stream));
  BufferPtr temp = Buffer::allocate(dev, std::max<size_t>(temp_bytes, 1));
  GPUDF_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp->data(), temp_bytes, data, data, n + 1, stream));
  int64_t total = 0;
  GPUDF_CUDA_TRY(cudaMemcpyAsync(&total, data + n, sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return total;
}

IndexRange index_range_cuda(IndexReader idx, int64_t n) {
  cudaStream_t stream = cuda_current_stream();
  DeviceScalar<long long> lo(stream), hi(stream);
  long long init[2] = {LLONG_MAX, LLONG_MIN};
  GPUDF_CUDA_TRY(cudaMemcpyAsync(lo.get(), &init[0], sizeof(long long), cudaMemcpyHostToDevice, stream));
  GPUDF_CUDA_TRY(cudaMemcpyAsync(hi.get(), &init[1], sizeof(long long), cudaMemcpyHostToDevice, stream));
  range_kernel<<<std::min(grid_for(n), 1024), kBlock, 0, stream>>>(idx, n, lo.get(), hi.get());
  GPUDF_CUDA_TRY(cudaGetLastError());
  return IndexRange{lo.value(stream), hi.value(stream)};
}

ColumnPtr gather_cuda(const ColumnView& src, IndexReader idx, int64_t n, bool nullable) {
  cudaStream_t stream = cuda_current_stream();
  ColumnPtr out;
  nullable = nullable || src.validity != nullptr;
  if (n == 0 && !is_string(src.type)) return Column::allocate(*src.device, src.type, 0, nullable);
  if (src.type == TypeId::Utf8) {
    out = gather_strings<int32_t>(src, idx, n, nullable, stream);
  } else if (src.type == TypeId::LargeUtf8) {
    out = gather_strings<int64_t>(src, idx, n, nullable, stream);
  } else {
    out = Column::allocate(*src.device, src.type, n, nullable);
    uint8_t* dst = out->data()->data();
    switch (value_width(src.type)) {
      case 1: launch_fixed<uint8_t>(src, idx, n, dst, stream); break;
      case 2: launch_fixed<uint16_t>(src, idx, n, dst, stream); break;
      case 4: launch_fixed<uint32_t>(src, idx, n, dst, stream); break;
      default: launch_fixed<uint64_t>(src, idx, n, dst, stream); break;
    }
  }
  if (nullable && n > 0) {
    gather_validity_kernel<<<grid_for((n + 7) / 8), kBlock, 0, stream>>>(src, idx, n,
                                                                          out->validity()->data());
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

namespace {
__global__ void compose_rows_kernel(const int64_t* outer, const int64_t* inner, int64_t n, int64_t* out) {
  GPUDF_GRID_STRIDE(i, n) out[i] = composed_row(outer, inner[i]);
}
}  // namespace

void compose_rows_cuda(const int64_t* outer, const int64_t* inner, int64_t n, int64_t* out) {
  if (n == 0) return;
  cudaStream_t stream = cuda_current_stream();
  compose_rows_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(outer, inner, n, out);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace gpudf::detail
