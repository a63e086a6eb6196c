// Compiled only into builds without the CUDA backend (no nvcc, or GPUDF_CUDA=OFF).
#include "core/device.hpp"
#include "core/error.hpp"

namespace gpudf {

const CudaStatus& cuda_status() {
  static const CudaStatus status{false, false, "built without CUDA", "", 0};
  return status;
}

Device& cuda_device() {
  GPUDF_FAIL(DeviceUnavailable, "the CUDA backend cannot run here: built without CUDA");
}

}  // namespace gpudf
