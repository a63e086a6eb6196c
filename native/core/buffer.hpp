// An owning, device-resident byte buffer. Columns share Buffers through shared_ptr, which is what
// makes slices O(1) and lets a Series outlive the DataFrame it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/device.hpp"

namespace gpudf {

class Buffer {
 public:
  /// Allocates `bytes` on `device` (padded to 64 bytes). Throws OutOfMemoryError.
  static std::shared_ptr<Buffer> allocate(Device& device, std::size_t bytes) {
    return std::shared_ptr<Buffer>(new Buffer(device, bytes));
  }
  ~Buffer() { device_->deallocate(ptr_, size_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  Device& device() const noexcept { return *device_; }
  std::size_t size() const noexcept { return size_; }
  /// Bytes actually held, padding included (what memory accounting counts).
  std::size_t capacity() const noexcept { return padded_size(size_); }
  uint8_t* data() noexcept { return static_cast<uint8_t*>(ptr_); }
  const uint8_t* data() const noexcept { return static_cast<const uint8_t*>(ptr_); }

 private:
  Buffer(Device& device, std::size_t bytes)
      : device_(&device), ptr_(device.allocate(bytes)), size_(bytes) {}
  Device* device_;
  void* ptr_;
  std::size_t size_;
};

using BufferPtr = std::shared_ptr<Buffer>;

}  // namespace gpudf
