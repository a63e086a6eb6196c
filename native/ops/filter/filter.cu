// CUDA filter: the selected row indices by CUB DeviceSelect::Flagged, then one gather per
// column (validity packed 32 rows per thread, so no atomics; strings: lengths, scan, bytes).
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "core/cuda/cuda_utils.cuh"
#include "ops/filter/filter.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = 256;
int grid_for(int64_t n) { return int(std::min<int64_t>((n + kBlock - 1) / kBlock, 65535)); }

struct Selects {
  ColumnView mask;
  __device__ bool operator()(int64_t i) const { return mask_selects(mask, i); }
};

template <typename T>
__global__ void gather_fixed(const T* in, const int64_t* idx, int64_t n, T* out) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < n; j += int64_t(gridDim.x) * blockDim.x)
    out[j] = in[idx[j]];
}

__global__ void gather_validity(ColumnView in, const int64_t* idx, int64_t n, uint32_t* out) {
  const int64_t words = (n + 31) / 32;
  for (int64_t w = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; w < words; w += int64_t(gridDim.x) * blockDim.x) {
    uint32_t word = 0;
    for (int k = 0; k < 32 && w * 32 + k < n; ++k)
      if (in.is_valid(idx[w * 32 + k])) word |= 1u << k;
    out[w] = word;
  }
}

template <typename O>
__global__ void selected_lengths(ColumnView in, const int64_t* idx, int64_t n, int64_t* len) {
  const O* off = in.string_offsets<O>();
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < n; j += int64_t(gridDim.x) * blockDim.x)
    len[j] = int64_t(off[idx[j] + 1] - off[idx[j]]);
}

template <typename O>
__global__ void gather_strings(ColumnView in, const int64_t* idx, const int64_t* starts, int64_t n, O* out_off,
                               char* out) {
  const O* off = in.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(in.data);
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < n; j += int64_t(gridDim.x) * blockDim.x) {
    out_off[j] = O(starts[j]);
    const O b = off[idx[j]], e = off[idx[j] + 1];
    if (j == n - 1) out_off[n] = O(starts[j] + (e - b));
    for (O k = b; k < e; ++k) out[starts[j] + (k - b)] = src[k];
  }
}

template <typename O>
ColumnPtr gather_string_column(const ColumnView& v, const int64_t* idx, int64_t n, cudaStream_t stream) {
  Device& dev = cuda_device();
  BufferPtr starts = Buffer::allocate(dev, size_t(n + 1) * sizeof(int64_t));
  int64_t* st = reinterpret_cast<int64_t*>(starts->data());
  GPUDF_CUDA_TRY(cudaMemsetAsync(st, 0, size_t(n + 1) * sizeof(int64_t), stream));
  if (n) selected_lengths<O><<<grid_for(n), kBlock, 0, stream>>>(v, idx, n, st);
  const int64_t total = exclusive_scan_cuda(dev, st, n);
  ColumnPtr out = Column::allocate(dev, v.type, n, v.validity != nullptr, total);
  O* out_off = reinterpret_cast<O*>(out->offsets()->data());
  if (n == 0) GPUDF_CUDA_TRY(cudaMemsetAsync(out_off, 0, sizeof(O), stream));
  else
    gather_strings<O><<<grid_for(n), kBlock, 0, stream>>>(v, idx, st, n, out_off,
                                                          reinterpret_cast<char*>(out->data() ? out->data()->data() : nullptr));
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

/// The selected row indices in order (n entries allocated, the count returned).
BufferPtr select_indices(const ColumnView& mask, cudaStream_t stream, int64_t& m) {
  Device& dev = cuda_device();
  const int64_t n = mask.size;
  BufferPtr idx_buf = Buffer::allocate(dev, size_t(n) * sizeof(int64_t));
  int64_t* idx = reinterpret_cast<int64_t*>(idx_buf->data());
  DeviceScalar<int64_t> count(stream);
  thrust::counting_iterator<int64_t> rows(0);
  thrust::transform_iterator<Selects, thrust::counting_iterator<int64_t>, bool> flags(rows, Selects{mask});
  size_t temp_bytes = 0;
  GPUDF_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, temp_bytes, rows, flags, idx, count.get(), n, stream));
  BufferPtr temp = Buffer::allocate(dev, temp_bytes);
  GPUDF_CUDA_TRY(cub::DeviceSelect::Flagged(temp->data(), temp_bytes, rows, flags, idx, count.get(), n, stream));
  m = count.value(stream);
  return idx_buf;
}

}  // namespace

ColumnPtr selected_rows_cuda(const ColumnView& mask) {
  cudaStream_t stream = cuda_current_stream();
  int64_t m = 0;
  BufferPtr idx = select_indices(mask, stream, m);
  return std::make_shared<Column>(cuda_device(), TypeId::Int64, m, idx, nullptr, nullptr, 0);
}

std::vector<ColumnPtr> filter_cuda(const std::vector<ColumnPtr>& columns, const ColumnView& mask) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = cuda_device();
  // Selected row indices, in order.
  int64_t m = 0;
  BufferPtr idx_buf = select_indices(mask, stream, m);
  const int64_t* idx = reinterpret_cast<const int64_t*>(idx_buf->data());

  std::vector<ColumnPtr> out;
  for (const ColumnPtr& c : columns) {
    const ColumnView v = c->view();
    ColumnPtr o;
    if (v.type == TypeId::Utf8) o = gather_string_column<int32_t>(v, idx, m, stream);
    else if (v.type == TypeId::LargeUtf8) o = gather_string_column<int64_t>(v, idx, m, stream);
    else {
      o = Column::allocate(dev, v.type, m, v.validity != nullptr);
      if (m) {
        const int64_t w = value_width(v.type);
        const uint8_t* src = v.data + v.offset * w;
        uint8_t* dst = o->data()->data();
        switch (w) {
          case 1: gather_fixed<<<grid_for(m), kBlock, 0, stream>>>(src, idx, m, dst); break;
          case 2: gather_fixed<<<grid_for(m), kBlock, 0, stream>>>(reinterpret_cast<const uint16_t*>(src), idx, m, reinterpret_cast<uint16_t*>(dst)); break;
          case 4: gather_fixed<<<grid_for(m), kBlock, 0, stream>>>(reinterpret_cast<const uint32_t*>(src), idx, m, reinterpret_cast<uint32_t*>(dst)); break;
          default: gather_fixed<<<grid_for(m), kBlock, 0, stream>>>(reinterpret_cast<const uint64_t*>(src), idx, m, reinterpret_cast<uint64_t*>(dst)); break;
        }
      }
    }
    if (v.validity && m)
      gather_validity<<<grid_for((m + 31) / 32), kBlock, 0, stream>>>(v, idx, m, reinterpret_cast<uint32_t*>(o->validity()->data()));
    GPUDF_CUDA_TRY(cudaGetLastError());
    out.push_back(std::move(o));
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

namespace {
/// Bit bit_offset + rows[i] of 32-bit words; rows may share a word, so atomicOr.
__global__ void rows_bitmap_kernel(const int64_t* rows, int64_t n, int64_t bit_offset, uint32_t* words) {
  GPUDF_GRID_STRIDE(i, n) {
    const int64_t b = bit_offset + rows[i];
    atomicOr(words + (b >> 5), 1u << (b & 31));
  }
}
__global__ void and_bytes_kernel(uint8_t* bits, const uint8_t* and_bits, int64_t bytes) {
  GPUDF_GRID_STRIDE(b, bytes) bits[b] &= and_bits[b];
}
}  // namespace

void rows_bitmap_cuda(const int64_t* rows, int64_t n, int64_t bit_offset, uint8_t* bits, int64_t bytes, const uint8_t* and_bits) {
  cudaStream_t stream = cuda_current_stream();
  // Word-aligned (buffers are 64-byte padded): the words cover every byte of the bitmap.
  GPUDF_CUDA_TRY(cudaMemsetAsync(bits, 0, size_t((bytes + 3) / 4 * 4), stream));
  if (n) rows_bitmap_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(rows, n, bit_offset, reinterpret_cast<uint32_t*>(bits));
  if (and_bits && bytes) and_bytes_kernel<<<grid_for(bytes), kBlockThreads, 0, stream>>>(bits, and_bits, bytes);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace gpudf::detail
