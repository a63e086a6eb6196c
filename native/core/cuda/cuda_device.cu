// The CUDA Device: memory from the device's stream-ordered pool (cudaMallocAsync), one
// non-blocking stream per executing thread, synchronous copies from the caller's point of view.
// Every op synchronises its stream before returning, so a buffer freed on another thread's
// stream is never still in use.
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>

#include "core/cuda/cuda_utils.cuh"

namespace gpudf {

void cuda_check(cudaError_t status, const char* what, std::size_t bytes) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear the sticky-free error state so later calls can proceed
  std::string message = std::string(what) + ": " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation) {
    throw OutOfMemoryError(bytes, "GPU out of memory allocating " + std::to_string(bytes) +
                                      " bytes (" + message + ")", -1, "cuda");
  }
  throw Error(ErrorCode::Internal, message);
}

namespace {

int g_ordinal = 0;

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int ordinal, std::string gpu_name)
      : ordinal_(ordinal), gpu_name_(std::move(gpu_name)) {
    GPUDF_CUDA_TRY(cudaSetDevice(ordinal_));
    cudaMemPool_t pool;
    GPUDF_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, ordinal_));
    // Keep freed memory in the pool instead of returning it to the driver at every sync.
    uint64_t threshold = UINT64_MAX;
    GPUDF_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    // The default memory limit: what the device has free when gpudf starts using it, so a
    // query that cannot fit fails with OutOfMemoryError naming the limit.
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) set_limit(static_cast<int64_t>(free_bytes));
    else cudaGetLastError();
  }
  DeviceKind kind() const noexcept override { return DeviceKind::Cuda; }
  std::string name() const override { return "cuda:" + std::to_string(ordinal_) + " " + gpu_name_; }

  void do_copy(void* dst, const void* src, std::size_t n, CopyKind) override {
    if (n == 0) return;
    cudaStream_t s = cuda_current_stream();
    GPUDF_CUDA_TRY(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, s));
    GPUDF_CUDA_TRY(cudaStreamSynchronize(s));
  }
  void memset(void* dst, int value, std::size_t n) override {
    if (n == 0) return;
    cudaStream_t s = cuda_current_stream();
    GPUDF_CUDA_TRY(cudaMemsetAsync(dst, value, n, s));
    GPUDF_CUDA_TRY(cudaStreamSynchronize(s));
  }

 protected:
  void* do_allocate(std::size_t padded_bytes) override {
    void* p = nullptr;
    cudaError_t status = cudaMallocAsync(&p, padded_bytes, cuda_current_stream());
    cuda_check(status, "cudaMallocAsync", padded_bytes);
    return p;
  }
  void do_deallocate(void* ptr, std::size_t) noexcept override {
    if (cudaFreeAsync(ptr, cuda_current_stream()) != cudaSuccess) cudaGetLastError();
  }

 private:
  int ordinal_;
  std::string gpu_name_;
};

CudaStatus probe() {
  CudaStatus s;
  s.compiled = true;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    // Any error here means "no GPU" (no driver, no device, driver too old...).
    s.reason = (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice)
                   ? std::string(err == cudaErrorNoDevice ? "no CUDA device" : "no CUDA driver")
                   : std::string("CUDA unavailable: ") + cudaGetErrorString(err);
    return s;
  }
  if (count == 0) {
    s.reason = "no CUDA device";
    return s;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, g_ordinal) != cudaSuccess) {
    cudaGetLastError();
    s.reason = "cannot read CUDA device properties";
    return s;
  }
  s.gpu_name = prop.name;
  s.memory_bytes = static_cast<int64_t>(prop.totalGlobalMem);
  if (prop.major < 8) {
    s.reason = s.gpu_name + " has compute capability " + std::to_string(prop.major) + "." +
               std::to_string(prop.minor) + "; gpudf needs 8.0 or newer";
    return s;
  }
  int pools = 0;
  cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, g_ordinal);
  if (!pools) {
    s.reason = s.gpu_name + " does not support stream-ordered memory pools";
    return s;
  }
  s.available = true;
  s.reason = "found " + s.gpu_name;
  return s;
}

}  // namespace

cudaStream_t cuda_current_stream() {
  // Created on first use by each thread and kept for the thread's life.
  thread_local cudaStream_t stream = [] {
    cudaStream_t s = nullptr;
    GPUDF_CUDA_TRY(cudaSetDevice(g_ordinal));
    GPUDF_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
  }();
  return stream;
}

const CudaStatus& cuda_status() {
  static const CudaStatus status = probe();
  return status;
}

Device& cuda_device() {
  const CudaStatus& s = cuda_status();
  GPUDF_EXPECTS(s.available, DeviceUnavailable, "the CUDA backend cannot run here: " + s.reason);
  // Deliberately never destroyed: tearing down CUDA objects during process exit races the
  // driver's own shutdown.
  static CudaDevice* device = new CudaDevice(g_ordinal, s.gpu_name);
  return *device;
}

}  // namespace gpudf
