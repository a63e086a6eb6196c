#include <cstdlib>
#include <cstring>

#include "core/device.hpp"
#include "core/error.hpp"

namespace gpudf {
namespace {

class CpuDevice final : public Device {
 public:
  DeviceKind kind() const noexcept override { return DeviceKind::Cpu; }
  std::string name() const override { return "cpu"; }

  void copy(void* dst, const void* src, std::size_t n, CopyKind) override {
    if (n) std::memcpy(dst, src, n);
  }
  void memset(void* dst, int value, std::size_t n) override {
    if (n) std::memset(dst, value, n);
  }

 protected:
  void* do_allocate(std::size_t padded_bytes) override {
    void* p = std::aligned_alloc(kBufferAlignment, padded_bytes);
    if (p == nullptr) {
      throw OutOfMemoryError(padded_bytes, "host allocation of " + std::to_string(padded_bytes) +
                                               " bytes failed");
    }
    return p;
  }
  void do_deallocate(void* ptr, std::size_t) noexcept override { std::free(ptr); }
};

}  // namespace

Device& cpu_device() {
  static CpuDevice device;
  return device;
}

}  // namespace gpudf
