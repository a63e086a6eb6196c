#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"

namespace gpudf {
namespace {

constexpr std::size_t kHuge = std::size_t(2) << 20;

/// Freed large blocks kept for reuse by size (multiples of 2 MiB), up to kCapacity bytes: a
/// fresh block costs a page fault and a kernel zeroing per page on first touch, which measured
/// larger than the work itself for joins and filters over 1e7 rows. A block larger than a
/// quarter of the capacity is never kept; when keeping one would pass the capacity, the cache
/// is emptied first. Live-byte accounting (Device) counts blocks in use only.
class BlockCache {
 public:
  static constexpr std::size_t kCapacity = std::size_t(1) << 30;

  void* take(std::size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    bytes_ -= size;
    return p;
  }

  void give(void* p, std::size_t size) {
    if (size > kCapacity / 4) {
      std::free(p);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes_ + size > kCapacity) {
      for (auto& [block_size, blocks] : free_)
        for (void* b : blocks) std::free(b);
      free_.clear();
      bytes_ = 0;
    }
    try {
      free_[size].push_back(p);
      bytes_ += size;
    } catch (...) {  // no memory for the bookkeeping: just free the block
      std::free(p);
    }
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::size_t, std::vector<void*>> free_;
  std::size_t bytes_ = 0;
};

class CpuDevice final : public Device {
 public:
  DeviceKind kind() const noexcept override { return DeviceKind::Cpu; }
  std::string name() const override { return "cpu"; }

  void do_copy(void* dst, const void* src, std::size_t n, CopyKind) override {
    if (n) std::memcpy(dst, src, n);
  }
  void memset(void* dst, int value, std::size_t n) override {
    if (n) std::memset(dst, value, n);
  }

 protected:
  void* do_allocate(std::size_t padded_bytes) override {
    // Large buffers: 2 MiB aligned and marked for transparent huge pages. A first touch of a
    // 4 KiB page costs microseconds in a VM; 160 MB of fresh scratch measured 1 s of page
    // faults with 4 KiB pages and 25 ms with huge pages. Freed ones are reused (BlockCache).
    void* p;
    if (padded_bytes >= kHuge) {
      const std::size_t size = huge_size(padded_bytes);
      p = cache_.take(size);
      if (p == nullptr) {
        p = std::aligned_alloc(kHuge, size);
        if (p) madvise(p, size, MADV_HUGEPAGE);
      }
    } else {
      p = std::aligned_alloc(kBufferAlignment, padded_bytes);
    }
    if (p == nullptr) {
      throw OutOfMemoryError(padded_bytes, "host allocation of " + std::to_string(padded_bytes) +
                                               " bytes failed", -1, "cpu");
    }
    return p;
  }
  void do_deallocate(void* ptr, std::size_t padded_bytes) noexcept override {
    if (padded_bytes >= kHuge) cache_.give(ptr, huge_size(padded_bytes));
    else std::free(ptr);
  }

 private:
  static std::size_t huge_size(std::size_t bytes) { return (bytes + kHuge - 1) / kHuge * kHuge; }
  BlockCache cache_;
};

}  // namespace

Device& cpu_device() {
  // Never destroyed: a buffer freed during exit (a worker thread, a finalizer) must still find
  // its device and block cache, and the cached blocks stay reachable from here, so
  // LeakSanitizer reports none of them.
  static CpuDevice* device = new CpuDevice();
  return *device;
}

}  // namespace gpudf
