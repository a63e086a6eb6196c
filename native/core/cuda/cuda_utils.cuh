// CUDA-only helpers shared by the backend's .cu files. Included only from .cu files.
#pragma once

#include <cuda_runtime.h>

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/device.hpp"
#include "core/error.hpp"

namespace gpudf {

/// Throws gpudf::Error (or OutOfMemoryError for allocation failures) when a CUDA call fails.
void cuda_check(cudaError_t status, const char* what, std::size_t bytes = 0);

#define GPUDF_CUDA_TRY(call) ::gpudf::cuda_check((call), #call)

/// The calling thread's stream (one non-blocking stream per executing thread).
cudaStream_t cuda_current_stream();

/// Threads per block of the element-wise kernels, and a grid for n elements (grid-stride loops
/// cover the rest beyond 65535 blocks).
inline constexpr int kBlockThreads = 256;
inline int grid_for(int64_t n) {
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>((n + kBlockThreads - 1) / kBlockThreads, 65535)));
}

/// for (int64_t i = ...; i < n; ...) over this thread's share of [0, n).
#define GPUDF_GRID_STRIDE(i, n)                                                  \
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < (n); \
       i += int64_t(gridDim.x) * blockDim.x)

/// Relaxed atomic reads and writes of words that threads share with no ordering between them: a
/// slot that others fill with atomicCAS, a flag many threads set. Plain accesses there are data
/// races in CUDA's memory model (GPUs tolerate them, but the compiler may cache or tear them), and
/// ThreadSanitizer reports them in the simulator's TSan build.
template <typename T>
__device__ __forceinline__ T atomic_load_relaxed(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*const_cast<T*>(p)).load(cuda::std::memory_order_relaxed);
}
template <typename T>
__device__ __forceinline__ void atomic_store_relaxed(T* p, T v) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(v, cuda::std::memory_order_relaxed);
}

/// One value in device memory, zero-initialised; value() copies it back after the stream drains.
template <typename T>
class DeviceScalar {
 public:
  explicit DeviceScalar(cudaStream_t stream) : ptr_(static_cast<T*>(cuda_device().allocate(sizeof(T)))) {
    GPUDF_CUDA_TRY(cudaMemsetAsync(ptr_, 0, sizeof(T), stream));
  }
  ~DeviceScalar() { cuda_device().deallocate(ptr_, sizeof(T)); }
  DeviceScalar(const DeviceScalar&) = delete;
  DeviceScalar& operator=(const DeviceScalar&) = delete;
  T* get() const { return ptr_; }
  T value(cudaStream_t stream) const {
    T host{};
    GPUDF_CUDA_TRY(cudaMemcpyAsync(&host, ptr_, sizeof(T), cudaMemcpyDeviceToHost, stream));
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return host;
  }

 private:
  T* ptr_;
};

}  // namespace gpudf
