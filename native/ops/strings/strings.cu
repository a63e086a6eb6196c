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

/// hard counts the float rows the fast path cannot decide.
template <typename O>
__global__ void parse_number_kernel(const O* off, const char* src, const uint8_t* bits, int64_t bit_offset, int64_t n,
                                    TypeId to, const uint64_t* pow5, uint8_t* data, uint32_t* out_bits,
                                    unsigned long long* hard) {
  GPUDF_GRID_STRIDE(i, n) {
    const char* s = src + off[i];
    const int64_t len = int64_t(off[i + 1] - off[i]);
    bool ok = false;
    const bool valid = !bits || bit_is_set(bits, bit_offset + i);
    switch (to) {
      case TypeId::Int64: {
        int64_t x = 0;
        ok = valid && parse_int64(s, len, x);
        reinterpret_cast<int64_t*>(data)[i] = ok ? x : 0;
        break;
      }
      case TypeId::UInt64: {
        uint64_t x = 0;
        ok = valid && parse_uint64(s, len, x);
        reinterpret_cast<uint64_t*>(data)[i] = ok ? x : 0;
        break;
      }
      case TypeId::Bool: {
        int64_t x = 0;
        ok = valid && parse_bool(s, len, x);
        data[i] = ok ? uint8_t(x) : 0;
        break;
      }
      default: {
        double x = 0;
        const FloatParse r = valid ? parse_float_fast(s, len, x, pow5) : FloatParse::Bad;
        const bool midpoint = to == TypeId::Float32 && r == FloatParse::Ok && float_midpoint(x);
        if (r == FloatParse::Hard || midpoint) atomicAdd(hard, 1ull);
        ok = r == FloatParse::Ok && !midpoint;
        if (to == TypeId::Float32) reinterpret_cast<float*>(data)[i] = ok ? float(x) : 0.f;
        else reinterpret_cast<double*>(data)[i] = ok ? x : 0.0;
        break;
      }
    }
    if (ok) atomicOr(out_bits + (i >> 5), 1u << (i & 31));
  }
}

template <typename O>
ColumnPtr parse_number_typed(const ColumnView& v, TypeId to, int64_t& hard) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  const int64_t n = v.size;
  ColumnPtr out = Column::allocate(dev, to, n, true);
  hard = 0;
  if (n == 0) return out;
  DeviceScalar<unsigned long long> count(stream);
  // The powers of five for the floats the fast path leaves (float_by_products), on the device.
  BufferPtr pow5;
  if (to == TypeId::Float32 || to == TypeId::Float64) {
    pow5 = Buffer::allocate(dev, sizeof kPow5Table);
    dev.copy(pow5->data(), kPow5Table, sizeof kPow5Table, CopyKind::HostToDevice);
  }
  parse_number_kernel<O><<<grid_for(n), kBlockThreads, 0, stream>>>(
      v.string_offsets<O>(), reinterpret_cast<const char*>(v.data), v.validity, v.offset, n, to,
      pow5 ? reinterpret_cast<const uint64_t*>(pow5->data()) : nullptr, out->data()->data(),
      reinterpret_cast<uint32_t*>(out->validity()->data()), count.get());
  GPUDF_CUDA_TRY(cudaGetLastError());
  hard = int64_t(count.value(stream));
  return out;
}

struct ConcatRows {
  ConcatArgs a;
  __device__ int64_t operator()(int64_t i, char* out) const { return concat_row(a, i, out); }
};

/// Validity of concat: written as a byte per row, then packed by the writer.
__global__ void concat_valid_kernel(ConcatArgs a, int64_t n, uint32_t* bits) {
  GPUDF_GRID_STRIDE(i, n) {
    if (concat_valid(a, i)) atomicOr(bits + (i >> 5), 1u << (i & 31));
  }
}

struct FormatIntRows {
  const uint8_t* data;
  int64_t offset;
  TypeId type;
  __device__ int64_t operator()(int64_t i, char* out) const {
    const int64_t k = offset + i;
    switch (type) {
      case TypeId::Bool: {
        const bool b = data[k] != 0;
        const char* t = b ? "true" : "false";
        if (out)
          for (int j = 0; j < (b ? 4 : 5); ++j) out[j] = t[j];
        return b ? 4 : 5;
      }
      case TypeId::Int8: return format_int(reinterpret_cast<const int8_t*>(data)[k], false, out);
      case TypeId::Int16: return format_int(reinterpret_cast<const int16_t*>(data)[k], false, out);
      case TypeId::Int32: return format_int(reinterpret_cast<const int32_t*>(data)[k], false, out);
      case TypeId::Int64: return format_int(reinterpret_cast<const int64_t*>(data)[k], false, out);
      case TypeId::UInt8: return format_int(reinterpret_cast<const uint8_t*>(data)[k], true, out);
      case TypeId::UInt16: return format_int(reinterpret_cast<const uint16_t*>(data)[k], true, out);
      case TypeId::UInt32: return format_int(reinterpret_cast<const uint32_t*>(data)[k], true, out);
      default: return format_int(int64_t(reinterpret_cast<const uint64_t*>(data)[k]), true, out);
    }
  }
};

}  // namespace

ColumnPtr parse_number_cuda(const ColumnView& v, TypeId to, int64_t& hard) {
  return v.type == TypeId::Utf8 ? parse_number_typed<int32_t>(v, to, hard) : parse_number_typed<int64_t>(v, to, hard);
}

ColumnPtr format_number_cuda(const ColumnView& v) {
  FormatIntRows rows{v.data, v.offset, v.type};
  return build_strings<int32_t>(TypeId::Utf8, v.size, v.validity, v.offset, rows);
}

ColumnPtr concat_cuda(const std::vector<ColumnView>& cols, const std::string& lits, const std::vector<int64_t>& lit_off,
                      bool skip_nulls, int64_t rows) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  // The views, the literal text and its offsets in one device buffer.
  const size_t views_bytes = cols.size() * sizeof(ColumnView);
  const size_t off_bytes = lit_off.size() * sizeof(int64_t);
  BufferPtr meta = Buffer::allocate(dev, views_bytes + off_bytes + lits.size() + 1);
  uint8_t* base = meta->data();
  if (views_bytes) dev.copy(base, cols.data(), views_bytes, CopyKind::HostToDevice);
  dev.copy(base + views_bytes, lit_off.data(), off_bytes, CopyKind::HostToDevice);
  if (!lits.empty()) dev.copy(base + views_bytes + off_bytes, lits.data(), lits.size(), CopyKind::HostToDevice);
  ConcatArgs a;
  a.cols = reinterpret_cast<const ColumnView*>(base);
  a.k = int32_t(cols.size());
  a.lit_off = reinterpret_cast<const int64_t*>(base + views_bytes);
  a.lits = reinterpret_cast<const char*>(base + views_bytes + off_bytes);
  a.skip_nulls = skip_nulls;
  // Sizes and bytes through the shared builder with no input bitmap; then the validity.
  ColumnPtr out = build_strings<int32_t>(TypeId::Utf8, rows, nullptr, 0, ConcatRows{a});
  bool nullable = false;
  for (const ColumnView& c : cols) nullable = nullable || c.validity != nullptr;
  if (skip_nulls || !nullable || rows == 0) return out;
  BufferPtr bits = Buffer::allocate(dev, size_t(bitmap_bytes(rows)));
  dev.memset(bits->data(), 0, bits->size());
  concat_valid_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(a, rows, reinterpret_cast<uint32_t*>(bits->data()));
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return std::make_shared<Column>(dev, TypeId::Utf8, rows, out->data(), out->offsets(), bits, kUnknownNullCount);
}

/// join_segments, per row: its bytes plus a separator when valid (w), and whether it is (nv);
/// both with a trailing 0 for the exclusive scans.
template <typename O>
__global__ void join_weigh_kernel(const O* off, const uint8_t* bits, int64_t bit_offset, int64_t n, int64_t sep_len,
                                  int64_t* w, int64_t* nv) {
  GPUDF_GRID_STRIDE(i, n) {
    const bool valid = !bits || bit_is_set(bits, bit_offset + i);
    w[i] = valid ? int64_t(off[i + 1] - off[i]) + sep_len : 0;
    nv[i] = valid ? 1 : 0;
    if (i == n - 1) w[n] = nv[n] = 0;
  }
}

/// Segment g spans rows [begin[g], begin[g + 1]); null when it holds a null and nulls count.
__device__ inline bool join_segment_null(const int64_t* begin, const int64_t* nv, int64_t g, bool ignore_nulls) {
  return !ignore_nulls && nv[begin[g + 1]] - nv[begin[g]] < begin[g + 1] - begin[g];
}

/// Each segment's byte length (w and nv scanned): its rows' bytes less one separator.
__global__ void join_size_kernel(const int64_t* begin, const int64_t* w, const int64_t* nv, int64_t count, int64_t sep_len,
                                 bool ignore_nulls, int64_t* sizes, uint32_t* out_bits) {
  GPUDF_GRID_STRIDE(g, count) {
    const bool null = join_segment_null(begin, nv, g, ignore_nulls);
    const int64_t values = nv[begin[g + 1]] - nv[begin[g]];
    sizes[g] = null ? 0 : w[begin[g + 1]] - w[begin[g]] - (values > 0 ? sep_len : 0);
    if (!null && out_bits) atomicOr(out_bits + (g >> 5), 1u << (g & 31));
    if (g == count - 1) sizes[count] = 0;
  }
}

/// Each valid row's bytes at its place in its segment, and the separator after all but the last.
template <typename O, typename G>
__global__ void join_write_kernel(const O* off, const char* src, const uint8_t* bits, int64_t bit_offset, const G* seg,
                                  int64_t n, const int64_t* begin, const int64_t* w, const int64_t* nv, const int64_t* start,
                                  const char* sep, int64_t sep_len, bool ignore_nulls, char* dst) {
  GPUDF_GRID_STRIDE(i, n) {
    if (bits && !bit_is_set(bits, bit_offset + i)) continue;
    const int64_t g = int64_t(seg[i]);
    if (join_segment_null(begin, nv, g, ignore_nulls)) continue;
    const int64_t at = w[i] - w[begin[g]];
    const int64_t len = int64_t(off[i + 1] - off[i]);
    char* out = dst + start[g];
    for (int64_t k = 0; k < len; ++k) out[at + k] = src[off[i] + k];
    if (at + len < start[g + 1] - start[g])
      for (int64_t k = 0; k < sep_len; ++k) out[at + len + k] = sep[k];
  }
}

template <typename O>
__global__ void join_offsets_kernel(const int64_t* start, int64_t count, O* out_off) {
  GPUDF_GRID_STRIDE(g, count + 1) out_off[g] = O(start[g]);
}

template <typename O, typename G>
ColumnPtr join_segments_typed(const ColumnView& v, const G* seg, const ColumnView& sizes, int64_t count,
                              const std::string& sep, bool ignore_nulls) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  const int64_t n = v.size;
  const int64_t sep_len = int64_t(sep.size());
  // begin: the segments' first rows; w / nv: the rows' weights and valid counts, scanned.
  BufferPtr scratch = Buffer::allocate(dev, size_t(2 * (n + 1) + 2 * (count + 1)) * sizeof(int64_t) + sep.size() + 1);
  int64_t* begin = reinterpret_cast<int64_t*>(scratch->data());
  int64_t* w = begin + (count + 1);
  int64_t* nv = w + (n + 1);
  int64_t* start = nv + (n + 1);
  char* sep_dev = reinterpret_cast<char*>(start + (count + 1));
  if (count > 0) dev.copy(begin, sizes.values<int64_t>(), size_t(count) * sizeof(int64_t), CopyKind::DeviceToDevice);
  GPUDF_EXPECTS(gpudf::detail::exclusive_scan_cuda(dev, begin, count) == n, Internal,
                "join_segments: the sizes do not add up to the rows");
  if (sep_len) dev.copy(sep_dev, sep.data(), sep.size(), CopyKind::HostToDevice);
  if (n > 0) {
    join_weigh_kernel<O><<<grid_for(n), kBlockThreads, 0, stream>>>(v.string_offsets<O>(), v.validity, v.offset, n, sep_len, w, nv);
    GPUDF_CUDA_TRY(cudaGetLastError());
  } else {
    dev.memset(w, 0, 2 * sizeof(int64_t));  // w[0] and nv[0]
  }
  gpudf::detail::exclusive_scan_cuda(dev, w, n);
  gpudf::detail::exclusive_scan_cuda(dev, nv, n);
  ColumnPtr out = Column::allocate(dev, v.type, count, !ignore_nulls, 0);
  uint32_t* out_bits = out->validity() ? reinterpret_cast<uint32_t*>(out->validity()->data()) : nullptr;
  if (out_bits) dev.memset(out_bits, 0, out->validity()->size());
  int64_t total = 0;
  if (count > 0) {
    join_size_kernel<<<grid_for(count), kBlockThreads, 0, stream>>>(begin, w, nv, count, sep_len, ignore_nulls, start, out_bits);
    GPUDF_CUDA_TRY(cudaGetLastError());
    total = gpudf::detail::exclusive_scan_cuda(dev, start, count);
  } else {
    dev.memset(start, 0, sizeof(int64_t));
  }
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the strings exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  BufferPtr data = Buffer::allocate(dev, size_t(std::max<int64_t>(total, 1)));
  if (n > 0 && total > 0) {
    join_write_kernel<O, G><<<grid_for(n), kBlockThreads, 0, stream>>>(
        v.string_offsets<O>(), reinterpret_cast<const char*>(v.data), v.validity, v.offset, seg, n, begin, w, nv, start,
        sep_dev, sep_len, ignore_nulls, reinterpret_cast<char*>(data->data()));
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  join_offsets_kernel<O><<<grid_for(count + 1), kBlockThreads, 0, stream>>>(start, count, reinterpret_cast<O*>(out->offsets()->data()));
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return std::make_shared<Column>(dev, v.type, count, data, out->offsets(), out->validity(), kUnknownNullCount);
}

ColumnPtr join_segments_cuda(const ColumnView& v, const ColumnView& segment_of, const ColumnView& sizes, int64_t count,
                             const std::string& sep, bool ignore_nulls) {
  const bool wide = v.type == TypeId::LargeUtf8;
  if (segment_of.type == TypeId::Int32) {
    const int32_t* seg = segment_of.values<int32_t>();
    return wide ? join_segments_typed<int64_t>(v, seg, sizes, count, sep, ignore_nulls)
                : join_segments_typed<int32_t>(v, seg, sizes, count, sep, ignore_nulls);
  }
  const int64_t* seg = segment_of.values<int64_t>();
  return wide ? join_segments_typed<int64_t>(v, seg, sizes, count, sep, ignore_nulls)
              : join_segments_typed<int32_t>(v, seg, sizes, count, sep, ignore_nulls);
}

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
