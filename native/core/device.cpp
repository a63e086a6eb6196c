#include "core/device.hpp"

#include "core/error.hpp"

namespace gpudf {

void* Device::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  std::size_t padded = padded_size(bytes);
  void* p = do_allocate(padded);  // throws OutOfMemoryError
  int64_t live = live_.fetch_add(static_cast<int64_t>(padded)) + static_cast<int64_t>(padded);
  count_.fetch_add(1);
  int64_t peak = peak_.load();
  while (live > peak && !peak_.compare_exchange_weak(peak, live)) {
  }
  return p;
}

void Device::deallocate(void* ptr, std::size_t bytes) noexcept {
  if (ptr == nullptr) return;
  std::size_t padded = padded_size(bytes);
  do_deallocate(ptr, padded);
  live_.fetch_sub(static_cast<int64_t>(padded));
  count_.fetch_sub(1);
}

void Device::copy(void* dst, const void* src, std::size_t n, CopyKind kind) {
  if (kind != CopyKind::DeviceToDevice && this->kind() == DeviceKind::Cuda) copied_.fetch_add(int64_t(n), std::memory_order_relaxed);
  do_copy(dst, src, n, kind);
}

MemoryStats Device::stats() const noexcept {
  return MemoryStats{live_.load(), peak_.load(), count_.load()};
}

DeviceSelection select_device(const std::string& mode) {
  const CudaStatus& cuda = cuda_status();
  if (mode == "cpu") return {&cpu_device(), "requested by GPUDF_DEVICE=cpu"};
  if (mode == "cuda") {
    GPUDF_EXPECTS(cuda.available, DeviceUnavailable,
                  "GPUDF_DEVICE=cuda but the CUDA backend cannot run here: " + cuda.reason);
    return {&cuda_device(), "requested by GPUDF_DEVICE=cuda"};
  }
  GPUDF_EXPECTS(mode == "auto" || mode.empty(), InvalidArgument,
                "GPUDF_DEVICE must be auto, cpu or cuda, got '" + mode + "'");
  if (cuda.available) return {&cuda_device(), "auto: found " + cuda.gpu_name};
  return {&cpu_device(), "auto: " + cuda.reason};
}

}  // namespace gpudf
