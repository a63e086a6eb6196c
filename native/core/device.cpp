#include "core/device.hpp"

#include "core/error.hpp"

namespace gpudf {

void* Device::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  GPUDF_EXPECTS(bytes <= (std::size_t(1) << 62), InvalidArgument,
                "an allocation of " + std::to_string(bytes) + " bytes is beyond any device");
  std::size_t padded = padded_size(bytes);
  const int64_t want = static_cast<int64_t>(padded);
  // The bytes are reserved before the system is asked, so concurrent allocations cannot pass
  // the limit together.
  int64_t live = live_.fetch_add(want) + want;
  const int64_t limit = limit_.load();
  if (limit >= 0 && live > limit) {
    live_.fetch_sub(want);
    const std::string dev = kind() == DeviceKind::Cuda ? "cuda" : "cpu";
    throw OutOfMemoryError(bytes, "allocating " + std::to_string(bytes) + " bytes on " + dev + " would pass its memory limit of " +
                                      std::to_string(limit) + " bytes (" + std::to_string(live - want) + " in use)",
                           limit, dev);
  }
  void* p = nullptr;
  try {
    p = do_allocate(padded);  // throws OutOfMemoryError
  } catch (...) {
    live_.fetch_sub(want);
    throw;
  }
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
