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
/// Mid-size buffers (a morsel's columns and scratch): from kMid up to kHuge, in kMidStep steps.
constexpr std::size_t kMid = std::size_t(128) << 10;
constexpr std::size_t kMidStep = std::size_t(64) << 10;

/// Freed blocks kept for reuse by size, up to `capacity` bytes: a fresh block costs a page fault
/// and a kernel zeroing per page on first touch, which measured larger than the work itself for
/// joins and filters over 1e7 rows (large blocks), and 7 % of a pipelined TPC-H Q1 (the
/// morsels' mid-size buffers, which glibc maps and trims again and again). A block larger than
/// a quarter of the capacity is never kept; when keeping one would pass the capacity, the
/// cache is emptied first. Live-byte accounting (Device) counts blocks in use only.
class BlockCache {
 public:
  explicit BlockCache(std::size_t capacity) : kCapacity(capacity) {}

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
  const std::size_t kCapacity;
  std::mutex mutex_;
  std::unordered_map<std::size_t, std::vector<void*>> free_;
  std::size_t bytes_ = 0;
};

#if defined(__SANITIZE_ADDRESS__)
/// Under AddressSanitizer mid-size blocks are not kept, so a use after free of the sizes most
/// test data has stays a report.
constexpr bool kKeepMid = false;
#else
constexpr bool kKeepMid = true;
#endif

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
    } else if (kKeepMid && padded_bytes >= kMid) {
      const std::size_t size = mid_size(padded_bytes);
      p = mid_cache_.take(size);
      if (p == nullptr) p = std::aligned_alloc(kBufferAlignment, size);
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
    else if (kKeepMid && padded_bytes >= kMid) mid_cache_.give(ptr, mid_size(padded_bytes));
    else std::free(ptr);
  }

 private:
  static std::size_t huge_size(std::size_t bytes) { return (bytes + kHuge - 1) / kHuge * kHuge; }
  static std::size_t mid_size(std::size_t bytes) { return (bytes + kMidStep - 1) / kMidStep * kMidStep; }
  BlockCache cache_{std::size_t(1) << 30};
  BlockCache mid_cache_{std::size_t(64) << 20};
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
