// CUDA side of parquet_device.hpp: the runs expanded one thread per position (a binary search
// for the position's run), validity packed one thread per byte, the dense positions of valid
// rows by an exclusive scan, values converted and scattered one thread per row; byte arrays
// indexed one thread per PLAIN span, then lengths, a scan for the offsets, and the bytes copied
// one thread per row.
#include <limits>

#include "core/bitmask.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "io/parquet_convert.hpp"
#include "io/parquet_device.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf::parquet {
namespace {

/// The first failure a kernel met: the smallest run (or span) index, and the largest bad value.
struct Failure {
  unsigned long long where;
  unsigned long long value;
};

__global__ void init_failure_kernel(Failure* f) {
  f->where = ~0ull;
  f->value = 0;
}

/// out[i] for positions [0, n): the value of the run covering i plus its base; with `flags`,
/// whether the value is 1 (valid rows from definition levels).
__global__ void expand_runs_kernel(const DeviceRun* runs, int64_t nruns, const uint8_t* streams, int64_t nstream,
                                   int64_t n, bool flags, int64_t* out, Failure* fail) {
  GPUDF_GRID_STRIDE(i, n) {
    int64_t lo = 0, hi = nruns - 1;
    while (lo < hi) {
      const int64_t mid = (lo + hi + 1) / 2;
      if (runs[mid].begin <= i) lo = mid;
      else hi = mid - 1;
    }
    const DeviceRun r = runs[lo];
    int64_t v;
    if (r.kind == kRunSequence) {
      v = i - r.begin;
    } else {
      v = r.kind == kRunRepeat ? r.data
                               : int64_t(unpack_bits(streams + r.data, nstream - r.data, (i - r.begin) * r.width, r.width));
      if (v >= r.limit) {
        atomicMin(&fail->where, static_cast<unsigned long long>(lo));
        atomicMax(&fail->value, static_cast<unsigned long long>(v));
        v = 0;
      }
    }
    out[i] = flags ? int64_t(v == 1) : r.base + v;
  }
}

/// Validity bytes of rows [0, rows) from 0/1 flags.
__global__ void pack_flags_kernel(const int64_t* flags, int64_t rows, uint8_t* bits) {
  const int64_t bytes = (rows + 7) / 8;
  GPUDF_GRID_STRIDE(b, bytes) {
    uint32_t byte = 0;
    for (int k = 0; k < 8 && b * 8 + k < rows; ++k) byte |= uint32_t(flags[b * 8 + k] & 1) << k;
    bits[b] = uint8_t(byte);
  }
}

__device__ inline bool row_valid(const uint8_t* bits, int64_t i) { return !bits || ((bits[i >> 3] >> (i & 7)) & 1); }

/// Row i's pool entry (valid rows only): the index of its dense value.
__device__ inline int64_t entry_of(const int64_t* index, const int64_t* dense, int64_t i) {
  return index[dense ? dense[i] : i];
}

__global__ void scatter_fixed_kernel(FixedConversion conv, const uint8_t* pool, const int64_t* index,
                                     const int64_t* dense, const uint8_t* bits, int64_t rows, bool booleans,
                                     uint8_t* out) {
  GPUDF_GRID_STRIDE(i, rows) {
    uint8_t* dst = out + i * conv.width;
    if (!row_valid(bits, i)) {
      for (int k = 0; k < conv.width; ++k) dst[k] = 0;
      continue;
    }
    const int64_t e = entry_of(index, dense, i);
    if (booleans) dst[0] = uint8_t(e);
    else convert_fixed(conv, pool + e * conv.stored, dst);
  }
}

/// Each span's entries: where their bytes start in the pool and how many there are.
__global__ void index_spans_kernel(const ByteArraySpan* spans, int64_t nspans, const uint8_t* pool, int64_t* start,
                                   int64_t* length, Failure* fail) {
  GPUDF_GRID_STRIDE(s, nspans) {
    const ByteArraySpan sp = spans[s];
    int64_t pos = sp.byte;
    const int64_t end = sp.byte + sp.bytes;
    for (int64_t k = 0; k < sp.count; ++k) {
      int64_t len = sp.fixed;
      if (sp.fixed == 0) {
        if (end - pos < 4) len = -1;
        else {
          len = int64_t(pool[pos]) | int64_t(pool[pos + 1]) << 8 | int64_t(pool[pos + 2]) << 16 | int64_t(pool[pos + 3]) << 24;
          pos += 4;
          if (len > end - pos) len = -1;
        }
      }
      if (len < 0) {
        atomicMin(&fail->where, static_cast<unsigned long long>(s));
        for (; k < sp.count; ++k) start[sp.entry + k] = length[sp.entry + k] = 0;
        break;
      }
      start[sp.entry + k] = pos;
      length[sp.entry + k] = len;
      pos += len;
    }
  }
}

__global__ void string_lengths_kernel(const int64_t* length, const int64_t* index, const int64_t* dense,
                                      const uint8_t* bits, int64_t rows, int64_t* out) {
  GPUDF_GRID_STRIDE(i, rows) { out[i] = row_valid(bits, i) ? length[entry_of(index, dense, i)] : 0; }
}

template <typename O>
__global__ void copy_strings_kernel(const uint8_t* pool, const int64_t* start, const int64_t* index,
                                    const int64_t* dense, const uint8_t* bits, const int64_t* offsets, int64_t rows,
                                    O* out_offsets, char* out) {
  GPUDF_GRID_STRIDE(i, rows) {
    out_offsets[i] = O(offsets[i]);
    if (i == rows - 1) out_offsets[rows] = O(offsets[rows]);
    const int64_t n = offsets[i + 1] - offsets[i];
    if (n == 0) continue;
    const uint8_t* src = pool + start[entry_of(index, dense, i)];
    for (int64_t k = 0; k < n; ++k) out[offsets[i] + k] = char(src[k]);
  }
}

template <typename T>
BufferPtr upload(const T* p, size_t n, cudaStream_t stream) {
  BufferPtr b = Buffer::allocate(cuda_device(), std::max<size_t>(1, n * sizeof(T)));
  if (n) GPUDF_CUDA_TRY(cudaMemcpyAsync(b->data(), p, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  return b;
}

template <typename T>
T* as(const BufferPtr& b) {
  return reinterpret_cast<T*>(b->data());
}

/// Expands `runs` over n positions into a fresh int64 buffer; ERR_PARQUET through `fail_run` when a
/// value is past its run's limit.
class RunExpander {
 public:
  RunExpander(const BufferPtr& streams, int64_t nstream, cudaStream_t stream)
      : streams_(streams), nstream_(nstream), stream_(stream), fail_(stream) {}

  BufferPtr expand(const std::vector<DeviceRun>& runs, int64_t n, bool flags, Failure& failure) {
    BufferPtr out = Buffer::allocate(cuda_device(), size_t(std::max<int64_t>(1, n + 1)) * sizeof(int64_t));
    failure = Failure{~0ull, 0};
    if (n == 0) return out;
    GPUDF_EXPECTS(!runs.empty(), Internal, "Parquet device decoding: positions without runs");
    BufferPtr table = upload(runs.data(), runs.size(), stream_);
    init_failure_kernel<<<1, 1, 0, stream_>>>(fail_.get());
    expand_runs_kernel<<<grid_for(n), kBlockThreads, 0, stream_>>>(as<DeviceRun>(table), int64_t(runs.size()),
                                                                    as<uint8_t>(streams_), nstream_, n, flags,
                                                                    as<int64_t>(out), fail_.get());
    GPUDF_CUDA_TRY(cudaGetLastError());
    failure = fail_.value(stream_);  // synchronises: `table` may go
    return out;
  }

  Failure check_spans(const std::vector<ByteArraySpan>& spans, const BufferPtr& pool, int64_t* start, int64_t* length) {
    Failure failure{~0ull, 0};
    if (spans.empty()) return failure;
    BufferPtr table = upload(spans.data(), spans.size(), stream_);
    init_failure_kernel<<<1, 1, 0, stream_>>>(fail_.get());
    index_spans_kernel<<<grid_for(int64_t(spans.size())), kBlockThreads, 0, stream_>>>(
        as<ByteArraySpan>(table), int64_t(spans.size()), as<uint8_t>(pool), start, length, fail_.get());
    GPUDF_CUDA_TRY(cudaGetLastError());
    return fail_.value(stream_);
  }

 private:
  const BufferPtr& streams_;
  int64_t nstream_;
  cudaStream_t stream_;
  DeviceScalar<Failure> fail_;
};

[[noreturn]] void fail_in(const DevicePlan& plan, int32_t chunk, const std::string& where, const std::string& what) {
  throw Error(ErrorCode::Parquet,
              where + ", row group " + std::to_string(plan.chunk_groups[size_t(chunk)]) + ": " + what);
}

}  // namespace

ColumnPtr decode_on_device(const ColumnSchema& c, const DevicePlan& plan, const std::string& where) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  const int64_t rows = plan.rows;
  const bool strings = c.conv == Conv::Bytes;
  // Levels that are all one run of valid rows need no validity.
  bool nullable = false;
  for (const DeviceRun& r : plan.levels) nullable = nullable || r.kind != kRunRepeat || r.data != 1;
  const FixedConversion conv = strings ? FixedConversion{Conv::Copy, 0, 0} : fixed_conversion(c);
  if (!nullable && plan.all_plain && !strings && c.physical != Physical::Boolean && c.conv == Conv::Copy &&
      conv.stored == conv.width) {
    // Every value PLAIN as the column keeps it: the pool is the column.
    BufferPtr data = upload(plan.pool.data(), size_t(rows * conv.width), stream);
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return std::make_shared<Column>(dev, c.dtype, rows, data, nullptr, nullptr, 0);
  }

  BufferPtr streams = upload(plan.streams.data(), plan.streams.size(), stream);
  BufferPtr pool = upload(plan.pool.data(), plan.pool.size(), stream);
  RunExpander runs(streams, int64_t(plan.streams.size()), stream);
  Failure failure{};

  // Validity and each valid row's dense position.
  BufferPtr validity, dense;
  int64_t nulls = 0;
  if (nullable) {
    dense = runs.expand(plan.levels, rows, true, failure);
    if (failure.where != ~0ull) fail_in(plan, plan.levels[failure.where].chunk, where, "a definition level above the column's maximum");
    validity = Buffer::allocate(dev, size_t(std::max<int64_t>(1, bitmap_bytes(rows))));
    pack_flags_kernel<<<grid_for(bitmap_bytes(rows)), kBlockThreads, 0, stream>>>(as<int64_t>(dense), rows,
                                                                                   as<uint8_t>(validity));
    GPUDF_CUDA_TRY(cudaGetLastError());
    GPUDF_CUDA_TRY(cudaMemsetAsync(as<int64_t>(dense) + rows, 0, sizeof(int64_t), stream));
    nulls = rows - detail::exclusive_scan_cuda(dev, as<int64_t>(dense), rows);
  }
  const int64_t* dense_p = dense ? as<int64_t>(dense) : nullptr;
  const uint8_t* bits = validity ? as<uint8_t>(validity) : nullptr;

  // Each dense value's pool entry (booleans: the value itself).
  const int64_t values = rows - nulls;
  BufferPtr index = runs.expand(plan.indices, values, false, failure);
  if (failure.where != ~0ull) {
    const DeviceRun& r = plan.indices[failure.where];
    if (c.physical == Physical::Boolean) fail_in(plan, r.chunk, where, "a boolean value above 1");
    fail_in(plan, r.chunk, where,
            "dictionary index " + std::to_string(failure.value) + " out of range (the dictionary has " +
                std::to_string(r.limit) + " entries)");
  }

  if (!strings) {
    BufferPtr data = Buffer::allocate(dev, size_t(std::max<int64_t>(1, rows * conv.width)));
    if (rows)
      scatter_fixed_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(conv, as<uint8_t>(pool), as<int64_t>(index),
                                                                          dense_p, bits, rows,
                                                                          c.physical == Physical::Boolean, as<uint8_t>(data));
    GPUDF_CUDA_TRY(cudaGetLastError());
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return std::make_shared<Column>(dev, c.dtype, rows, data, nullptr, validity, nulls);
  }

  BufferPtr start = Buffer::allocate(dev, size_t(std::max<int64_t>(1, plan.entries)) * sizeof(int64_t));
  BufferPtr length = Buffer::allocate(dev, size_t(std::max<int64_t>(1, plan.entries)) * sizeof(int64_t));
  failure = runs.check_spans(plan.spans, pool, as<int64_t>(start), as<int64_t>(length));
  if (failure.where != ~0ull) fail_in(plan, plan.spans[failure.where].chunk, where, "BYTE_ARRAY values runs past the end of the page");
  BufferPtr offsets = Buffer::allocate(dev, size_t(rows + 1) * sizeof(int64_t));
  if (rows)
    string_lengths_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(as<int64_t>(length), as<int64_t>(index), dense_p,
                                                                         bits, rows, as<int64_t>(offsets));
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaMemsetAsync(as<int64_t>(offsets) + rows, 0, sizeof(int64_t), stream));
  const int64_t total = detail::exclusive_scan_cuda(dev, as<int64_t>(offsets), rows);
  const TypeId t = (c.dtype == TypeId::Utf8 && total > std::numeric_limits<int32_t>::max()) ? TypeId::LargeUtf8 : c.dtype;
  BufferPtr out_offsets = Buffer::allocate(dev, size_t(rows + 1) * size_t(offset_width(t)));
  BufferPtr bytes = Buffer::allocate(dev, size_t(std::max<int64_t>(1, total)));
  if (rows == 0) {
    GPUDF_CUDA_TRY(cudaMemsetAsync(out_offsets->data(), 0, size_t(offset_width(t)), stream));
  } else if (offset_width(t) == 4) {
    copy_strings_kernel<int32_t><<<grid_for(rows), kBlockThreads, 0, stream>>>(
        as<uint8_t>(pool), as<int64_t>(start), as<int64_t>(index), dense_p, bits, as<int64_t>(offsets), rows,
        as<int32_t>(out_offsets), as<char>(bytes));
  } else {
    copy_strings_kernel<int64_t><<<grid_for(rows), kBlockThreads, 0, stream>>>(
        as<uint8_t>(pool), as<int64_t>(start), as<int64_t>(index), dense_p, bits, as<int64_t>(offsets), rows,
        as<int64_t>(out_offsets), as<char>(bytes));
  }
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return std::make_shared<Column>(dev, t, rows, bytes, out_offsets, validity, nulls);
}

}  // namespace gpudf::parquet
