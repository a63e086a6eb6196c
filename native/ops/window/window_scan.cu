// Window scans, CUDA backend: Thrust inclusive_scan_by_key over rows laid out in scan order (a
// load kernel puts nulls as the identity, a store kernel writes back in row order).
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/scan.h>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "ops/sort/thrust_allocator.cuh"
#include "ops/window/window_functors.hpp"

namespace gpudf::window::detail {
namespace {

template <typename S>
struct Combine {
  ScanOp op;
  __host__ __device__ S operator()(S a, S b) const { return scan_combine<S>(op, a, b); }
};

template <typename S>
__global__ void scan_load_kernel(ColumnView in, ScanOp op, bool reverse, const int32_t* seg, S* vals, int32_t* keys) {
  const int64_t n = in.size;
  GPUDF_GRID_STRIDE(k, n) {
    const int64_t r = reverse ? n - 1 - k : k;
    vals[k] = in.is_valid(r) ? in.values<S>()[r] : scan_identity<S>(op);
    keys[k] = seg ? seg[r] : 0;
  }
}

template <typename S>
__global__ void scan_store_kernel(const S* scanned, int64_t n, bool reverse, S* out) {
  GPUDF_GRID_STRIDE(k, n) out[reverse ? n - 1 - k : k] = scanned[k];
}

}  // namespace

void scan_cuda(const ColumnView& in, ScanOp op, bool reverse, const int32_t* seg, Column& out) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = out.device();
  const int64_t n = in.size;
  type_dispatch(in.type, [&]<TypeId T>() {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S> && T != TypeId::Bool) {
      BufferPtr vals = Buffer::allocate(dev, size_t(n) * sizeof(S));
      BufferPtr scanned = Buffer::allocate(dev, size_t(n) * sizeof(S));
      BufferPtr keys = Buffer::allocate(dev, size_t(n) * sizeof(int32_t));
      S* v = reinterpret_cast<S*>(vals->data());
      S* s = reinterpret_cast<S*>(scanned->data());
      int32_t* k = reinterpret_cast<int32_t*>(keys->data());
      scan_load_kernel<S><<<grid_for(n), kBlockThreads, 0, stream>>>(in, op, reverse, seg, v, k);
      GPUDF_CUDA_TRY(cudaGetLastError());
      ThrustAllocator alloc(dev);
      thrust::inclusive_scan_by_key(thrust::cuda::par_nosync(alloc).on(stream), k, k + n, v, s,
                                    thrust::equal_to<int32_t>(), Combine<S>{op});
      S* o = const_cast<S*>(out.view().values<S>());
      scan_store_kernel<S><<<grid_for(n), kBlockThreads, 0, stream>>>(s, n, reverse, o);
      GPUDF_CUDA_TRY(cudaGetLastError());
      GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    } else {
      GPUDF_FAIL(Dtype, "scan is not supported for dtype " + std::string(type_name(in.type)));
    }
  });
}

}  // namespace gpudf::window::detail
