// HostVector: a std::vector whose large buffers come from the CPU device's allocator, which
// keeps freed large blocks for reuse and backs fresh ones with huge pages. Host scratch that
// scales with the rows or the groups (per-group accumulators, row hashes, partitioned rows)
// would otherwise be mapped fresh by malloc on every call, and on a VM the first touch of each
// 4 KiB page costs more than the pass that fills it.
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"

namespace gpudf {

template <typename T>
struct HostAllocator {
  using value_type = T;
  /// Below this, malloc's own free lists serve as well.
  static constexpr std::size_t kLarge = std::size_t(1) << 20;

  HostAllocator() = default;
  template <typename U>
  HostAllocator(const HostAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kLarge) return static_cast<T*>(cpu_device().allocate(bytes));
    try {
      return static_cast<T*>(::operator new(bytes));
    } catch (const std::bad_alloc&) {  // the size is known here: say it
      throw OutOfMemoryError(bytes, "host allocation of " + std::to_string(bytes) + " bytes failed");
    }
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= kLarge) cpu_device().deallocate(p, bytes);
    else ::operator delete(p);
  }
  template <typename U>
  bool operator==(const HostAllocator<U>&) const noexcept { return true; }
};

template <typename T>
using HostVector = std::vector<T, HostAllocator<T>>;

/// An uninitialised buffer of T from HostAllocator, for scratch that is written before it is
/// read (a std::vector would zero it first: a pass of its own). get(n) grows it, dropping what
/// it held.
template <typename T>
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t n) { get(n); }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept : data_(o.data_), cap_(o.cap_) {
    o.data_ = nullptr;
    o.cap_ = 0;
  }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      data_ = o.data_;
      cap_ = o.cap_;
      o.data_ = nullptr;
      o.cap_ = 0;
    }
    return *this;
  }
  ~HostBuffer() { reset(); }

  /// At least n elements (the contents are not kept when it grows).
  T* get(std::size_t n) {
    if (n > cap_) {
      reset();
      data_ = HostAllocator<T>().allocate(n);
      cap_ = n;
    }
    return data_;
  }
  T* data() const noexcept { return data_; }
  void reset() noexcept {
    if (data_) HostAllocator<T>().deallocate(data_, cap_);
    data_ = nullptr;
    cap_ = 0;
  }

 private:
  T* data_ = nullptr;
  std::size_t cap_ = 0;
};

/// A std::string whose large buffers come from HostAllocator (byte buffers a reader gathers).
using HostString = std::basic_string<char, std::char_traits<char>, HostAllocator<char>>;

}  // namespace gpudf
