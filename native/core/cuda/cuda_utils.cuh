// CUDA-only helpers shared by the backend's .cu files. Included only from .cu files.
#pragma once

#include <cuda_runtime.h>

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
