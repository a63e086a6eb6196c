// CUDA backend of the reductions: the tiled reduction as one block per tile (the same shape as
// the CPU's fold_tile, so float sums agree bit for bit). The sort-based order statistics,
// distinct counts and value counts are in reduce_sorted.cu. Per-element logic:
// reduce_functors.hpp.
#include <vector>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "ops/reduce/reduce.hpp"
#include "ops/reduce/reduce_cuda.cuh"
#include "ops/reduce/reduce_functors.hpp"

namespace gpudf::reduce_detail {
namespace {

template <typename Fold>
__global__ void tile_kernel(Fold f, int64_t n, typename Fold::Acc* out) {
  using Acc = typename Fold::Acc;
  __shared__ Acc lanes[kLanes];
  const int l = threadIdx.x;
  const int64_t base = int64_t(blockIdx.x) * kTile;
  Acc acc = f.identity();
  for (int k = 0; k < kSteps; ++k) {
    const int64_t i = base + int64_t(k) * kLanes + l;
    acc = f.combine(acc, i < n ? f.load(i) : f.identity());
  }
  lanes[l] = acc;
  __syncthreads();
  for (int s = kLanes / 2; s > 0; s >>= 1) {
    if (l < s) lanes[l] = f.combine(lanes[l], lanes[l + s]);
    __syncthreads();
  }
  if (l == 0) out[blockIdx.x] = lanes[0];
}

template <typename Fold>
typename Fold::Acc tiled_reduce_cuda(const Fold& f, int64_t n) {
  using Acc = typename Fold::Acc;
  if (n <= 0) return f.identity();
  cudaStream_t stream = cuda_current_stream();
  int64_t tiles = (n + kTile - 1) / kTile;
  BufferPtr partials = Buffer::allocate(cuda_device(), size_t(tiles) * sizeof(Acc));
  tile_kernel<<<unsigned(tiles), kLanes, 0, stream>>>(f, n, typed<Acc>(partials));
  GPUDF_CUDA_TRY(cudaGetLastError());
  while (tiles > 1) {
    const int64_t m = tiles;
    tiles = (m + kTile - 1) / kTile;
    BufferPtr next = Buffer::allocate(cuda_device(), size_t(tiles) * sizeof(Acc));
    tile_kernel<<<unsigned(tiles), kLanes, 0, stream>>>(PartialsFold<Fold>{f, typed<Acc>(partials)}, m,
                                                         typed<Acc>(next));
    GPUDF_CUDA_TRY(cudaGetLastError());
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));  // before `partials` is freed
    partials = std::move(next);
  }
  Acc host{};
  GPUDF_CUDA_TRY(cudaMemcpyAsync(&host, partials->data(), sizeof(Acc), cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return host;
}

struct CudaFolds {
  template <typename Fold>
  static typename Fold::Acc run(const Fold& f, int64_t n) {
    return tiled_reduce_cuda(f, n);
  }
};
using Cuda = FoldPrimitives<CudaFolds>;

}  // namespace

double sum_double_cuda(const ColumnView& v, bool centered_square, double center) {
  return Cuda::sum_double(v, centered_square, center);
}
uint64_t sum_wrap_cuda(const ColumnView& v) { return Cuda::sum_wrap(v); }
double prod_double_cuda(const ColumnView& v) { return Cuda::prod_double(v); }
uint64_t prod_wrap_cuda(const ColumnView& v) { return Cuda::prod_wrap(v); }
int64_t arg_extreme_cuda(const ColumnView& v, bool want_max) { return Cuda::arg_extreme(v, want_max); }

}  // namespace gpudf::reduce_detail
