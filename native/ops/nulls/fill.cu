// CUDA side of fill.hpp: the fill sources as one Thrust inclusive max-scan of "row if valid,
// else -1" (a backward fill scans the reversed rows), interpolation one thread per validity
// byte, and the pivot scatter.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <type_traits>

#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "ops/gather/gather.hpp"
#include "ops/nulls/fill.hpp"
#include "ops/sort/thrust_allocator.cuh"

namespace gpudf::detail {
namespace {

/// Scan position j -> the row it stands for (reversed for a backward fill), or -1 when null.
struct ValidRowKey {
  ColumnView c;
  bool backward;
  __host__ __device__ int64_t operator()(int64_t j) const {
    const int64_t i = backward ? c.size - 1 - j : j;
    // Backward: the nearest valid row at or after i is the smallest, so scan the negated rows
    // with max (n - 1 - row) and map back.
    if (!c.is_valid(i)) return -1;
    return backward ? c.size - 1 - i : i;
  }
};

__global__ void finish_sources_kernel(const int64_t* scanned, int64_t n, bool backward, int64_t limit, int64_t* out) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    int64_t src;
    if (!backward) {
      src = scanned[i];
    } else {
      const int64_t s = scanned[n - 1 - i];
      src = s < 0 ? -1 : n - 1 - s;
    }
    out[i] = limited_source(i, src, limit);
  }
}

template <typename S, typename O>
__global__ void interpolate_kernel(ColumnView c, const int64_t* prev, const int64_t* next, O* dst, uint8_t* bits) {
  const int64_t n = c.size;
  const int64_t bytes = (n + 7) / 8;
  const S* v = c.values<S>();
  for (int64_t b = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; b < bytes; b += int64_t(gridDim.x) * blockDim.x) {
    uint32_t byte = 0;
    const int64_t end = n < (b + 1) * 8 ? n : (b + 1) * 8;
    for (int64_t i = b * 8; i < end; ++i) {
      O value{};
      if (interpolated_value<S, O>(c, v, i, prev[i], next[i], &value)) byte |= 1u << (i - b * 8);
      dst[i] = value;
    }
    bits[b] = static_cast<uint8_t>(byte);
  }
}

struct InterpolateCuda {
  template <TypeId T>
  void operator()(const ColumnView& c, const int64_t* prev, const int64_t* next, Column& out) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S> && T != TypeId::Bool) {
      cudaStream_t stream = cuda_current_stream();
      const int64_t bytes = (c.size + 7) / 8;
      uint8_t* bits = out.validity()->data();
      if (out.type() == TypeId::Float32) {
        interpolate_kernel<S, float><<<grid_for(bytes), kBlockThreads, 0, stream>>>(
            c, prev, next, reinterpret_cast<float*>(out.data()->data()), bits);
      } else {
        interpolate_kernel<S, double><<<grid_for(bytes), kBlockThreads, 0, stream>>>(
            c, prev, next, reinterpret_cast<double*>(out.data()->data()), bits);
      }
      GPUDF_CUDA_TRY(cudaGetLastError());
      GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    } else {
      GPUDF_FAIL(Dtype, "interpolate needs a numeric column");
    }
  }
};

__global__ void fill_minus_one_kernel(int64_t* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) out[i] = -1;
}

__global__ void scatter_cells_kernel(IndexReader r, IndexReader c, int64_t n, int64_t rows, int64_t* out) {
  for (int64_t k = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; k < n; k += int64_t(gridDim.x) * blockDim.x) {
    out[c(k) * rows + r(k)] = k;
  }
}

}  // namespace

void fill_source_rows_cuda(const ColumnView& c, bool backward, int64_t limit, int64_t* out) {
  const int64_t n = c.size;
  Device& dev = *c.device;
  cudaStream_t stream = cuda_current_stream();
  BufferPtr scratch = Buffer::allocate(dev, size_t(n) * sizeof(int64_t));
  auto* scanned = reinterpret_cast<int64_t*>(scratch->data());
  auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int64_t>(0), ValidRowKey{c, backward});
  ThrustAllocator alloc(dev);
  thrust::inclusive_scan(thrust::cuda::par_nosync(alloc).on(stream), keys, keys + n, scanned, thrust::maximum<int64_t>());
  finish_sources_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(scanned, n, backward, limit, out);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));  // before `scratch` goes back to the pool
}

void interpolate_cuda(const ColumnView& c, const int64_t* prev, const int64_t* next, Column& out) {
  type_dispatch(c.type, InterpolateCuda{}, c, prev, next, out);
}

void scatter_cells_cuda(const ColumnView& row_of, const ColumnView& col_of, int64_t rows, int64_t cols, int64_t* out) {
  cudaStream_t stream = cuda_current_stream();
  const int64_t total = rows * cols;
  fill_minus_one_kernel<<<grid_for(total), kBlockThreads, 0, stream>>>(out, total);
  GPUDF_CUDA_TRY(cudaGetLastError());
  IndexReader r{row_of.data, row_of.offset, row_of.type}, c{col_of.data, col_of.offset, col_of.type};
  scatter_cells_kernel<<<grid_for(row_of.size), kBlockThreads, 0, stream>>>(r, c, row_of.size, rows, out);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace gpudf::detail
