// A Thrust temporary-memory allocator over a gpudf Device, so Thrust's scratch space is counted
// in memory() and comes from the device's stream-ordered pool like every other buffer.
#pragma once

#include <cstddef>

#include "core/device.hpp"

namespace gpudf {

class ThrustAllocator {
 public:
  using value_type = char;
  explicit ThrustAllocator(Device& device) : device_(&device) {}
  char* allocate(std::ptrdiff_t bytes) { return static_cast<char*>(device_->allocate(size_t(bytes))); }
  void deallocate(char* p, size_t bytes) { device_->deallocate(p, bytes); }

 private:
  Device* device_;
};

}  // namespace gpudf
