// Dynamic and rolling windows, CUDA backend: the pipeline of dynamic_pipeline.hpp with each
// per-element step a grid-stride kernel over its functor, the scans Thrust exclusive_scan and the
// order check a Thrust transform-reduction (min).
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>
#include <thrust/scan.h>

#include "core/cuda/cuda_utils.cuh"
#include "ops/dynamic/dynamic_pipeline.hpp"
#include "ops/sort/thrust_allocator.cuh"

namespace gpudf::dynamic::detail {
namespace {

template <typename F>
__global__ void for_each_block_kernel(int64_t n, F f) {
  GPUDF_GRID_STRIDE(i, n) f(i, i + 1);
}

/// f(i) as a block of one element, so for_each launches through for_each_block.
template <typename F>
struct EachElement {
  F f;
  __device__ void operator()(int64_t i, int64_t) const { f(i); }
};

struct CudaBackend {
  template <typename F>
  static void for_each(int64_t n, const F& f) {
    for_each_block(n, EachElement<F>{f});
  }
  template <typename F>
  static void for_each_block(int64_t n, const F& f) {
    if (n == 0) return;
    cudaStream_t stream = cuda_current_stream();
    for_each_block_kernel<F><<<grid_for(n), kBlockThreads, 0, stream>>>(n, f);
    GPUDF_CUDA_TRY(cudaGetLastError());
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  static int64_t exclusive_scan(const int64_t* in, int64_t* out, int64_t n) {
    if (n == 0) return 0;
    cudaStream_t stream = cuda_current_stream();
    ThrustAllocator alloc(cuda_device());
    thrust::exclusive_scan(thrust::cuda::par_nosync(alloc).on(stream), in, in + n, out, int64_t(0));
    const int64_t last_in = read(in + (n - 1)), last_out = read(out + (n - 1));
    return last_in + last_out;
  }
  static int64_t min(const int64_t* p, int64_t n) {
    if (n == 0) return kMax;
    cudaStream_t stream = cuda_current_stream();
    ThrustAllocator alloc(cuda_device());
    return thrust::reduce(thrust::cuda::par_nosync(alloc).on(stream), p, p + n, kMax, thrust::minimum<int64_t>());
  }
  static int64_t max(const int64_t* p, int64_t n) {
    if (n == 0) return kMin;
    cudaStream_t stream = cuda_current_stream();
    ThrustAllocator alloc(cuda_device());
    return thrust::reduce(thrust::cuda::par_nosync(alloc).on(stream), p, p + n, kMin, thrust::maximum<int64_t>());
  }
  template <typename F>
  static int64_t min_of(int64_t n, const F& f) {
    if (n == 0) return kMax;
    cudaStream_t stream = cuda_current_stream();
    ThrustAllocator alloc(cuda_device());
    return thrust::transform_reduce(thrust::cuda::par_nosync(alloc).on(stream), thrust::counting_iterator<int64_t>(0),
                                    thrust::counting_iterator<int64_t>(n), f, kMax, thrust::minimum<int64_t>());
  }
  template <typename T>
  static T read(const T* p) {
    cudaStream_t stream = cuda_current_stream();
    T host{};
    GPUDF_CUDA_TRY(cudaMemcpyAsync(&host, p, sizeof(T), cudaMemcpyDeviceToHost, stream));
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return host;
  }
};

}  // namespace

DynamicWindows dynamic_windows_cuda(Device& dev, TypeId type, const Inputs& in, const WindowSpec& spec) {
  return run_dynamic<CudaBackend>(dev, type, in, spec);
}

WindowRows rolling_windows_cuda(Device& dev, const Inputs& in, const WindowSpec& spec) {
  return run_rolling<CudaBackend>(dev, in, spec);
}

}  // namespace gpudf::dynamic::detail
