// The Device interface: where buffers live and how bytes move. Two implementations: cpu (aligned
// host memory, native/core/cpu_device.cpp) and cuda (a stream-ordered pool, native/core/cuda/).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudf {

enum class DeviceKind : int32_t { Cpu = 0, Cuda = 1 };

enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };

struct MemoryStats {
  int64_t live_bytes = 0;
  int64_t peak_bytes = 0;
  int64_t live_allocations = 0;
};

/// Every allocation is 64-byte aligned and its size rounded up to 64 bytes (Arrow's advice), so
/// kernels may read whole words past a buffer's logical end.
inline constexpr std::size_t kBufferAlignment = 64;

inline constexpr std::size_t padded_size(std::size_t bytes) {
  return (bytes + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment;
}

class Device {
 public:
  virtual ~Device() = default;
  virtual DeviceKind kind() const noexcept = 0;
  virtual std::string name() const = 0;

  /// Allocates padded_size(bytes) bytes; throws OutOfMemoryError naming `bytes`. 0 -> nullptr.
  void* allocate(std::size_t bytes);
  /// Frees a pointer from allocate() with the same `bytes`.
  void deallocate(void* ptr, std::size_t bytes) noexcept;

  /// Copies n bytes; synchronous from the caller's point of view. Host <-> device bytes are
  /// counted (copied_bytes()).
  void copy(void* dst, const void* src, std::size_t n, CopyKind kind);
  virtual void memset(void* dst, int value, std::size_t n) = 0;

  MemoryStats stats() const noexcept;

  /// The most live bytes allowed on this device (-1: no limit). An allocate() that would pass
  /// it throws OutOfMemoryError carrying the request, the limit and the device before asking
  /// the system, so a query that cannot fit fails instead of the OS killing the process.
  void set_limit(int64_t bytes) noexcept { limit_.store(bytes < 0 ? -1 : bytes); }
  int64_t limit() const noexcept { return limit_.load(); }
  /// Bytes copied between host and device through copy() since the process started (what a
  /// query profile reports per operator on CUDA; kernels' own reads of single values and the
  /// CPU device, which never copies, add nothing).
  int64_t copied_bytes() const noexcept { return copied_.load(std::memory_order_relaxed); }

 protected:
  virtual void do_copy(void* dst, const void* src, std::size_t n, CopyKind kind) = 0;
  virtual void* do_allocate(std::size_t padded_bytes) = 0;
  virtual void do_deallocate(void* ptr, std::size_t padded_bytes) noexcept = 0;

 private:
  std::atomic<int64_t> live_{0};
  std::atomic<int64_t> peak_{0};
  std::atomic<int64_t> count_{0};
  std::atomic<int64_t> copied_{0};
  std::atomic<int64_t> limit_{-1};
};

/// The host device (process-wide).
Device& cpu_device();

/// What the CUDA backend can do here; probed once, never throws.
struct CudaStatus {
  bool compiled = false;   // this build contains the CUDA backend
  bool available = false;  // a usable GPU and driver were found
  std::string reason;      // why not, when !available
  std::string gpu_name;
  int64_t memory_bytes = 0;
};
const CudaStatus& cuda_status();

/// The CUDA device; throws DeviceUnavailable when cuda_status().available is false.
Device& cuda_device();

/// Device selection for the process: mode is "auto", "cpu" or "cuda".
struct DeviceSelection {
  Device* device = nullptr;
  std::string reason;
};
DeviceSelection select_device(const std::string& mode);

}  // namespace gpudf
