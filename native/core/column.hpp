// Column (owning, shares its Buffers) and ColumnView (non-owning, what kernels take).
// Layout is Arrow's: values, LSB-first validity bitmap, offsets for strings. Lengths and offsets
// are 64-bit. Element i of a column is stored at position offset + i of every buffer (bit
// offset + i of the bitmap, entries offset + i and offset + i + 1 of string offsets).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/bitmask.hpp"
#include "core/buffer.hpp"
#include "core/hd.hpp"
#include "core/types.hpp"

namespace gpudf {

inline constexpr int64_t kUnknownNullCount = -1;

struct ColumnView {
  TypeId type = TypeId::Float64;
  int64_t size = 0;
  int64_t offset = 0;
  const uint8_t* validity = nullptr;  // nullptr: no nulls
  const uint8_t* offsets = nullptr;   // strings: int32 (utf8) or int64 (large_utf8) entries
  const uint8_t* data = nullptr;
  int64_t null_count = kUnknownNullCount;
  Device* device = nullptr;

  GPUDF_HD bool is_valid(int64_t i) const {
    return validity == nullptr || bit_is_set(validity, offset + i);
  }
  template <typename T>
  GPUDF_HD const T* values() const {
    return reinterpret_cast<const T*>(data) + offset;
  }
  template <typename O>
  GPUDF_HD const O* string_offsets() const {
    return reinterpret_cast<const O*>(offsets) + offset;
  }
};

/// True when the column's buffers live on a CUDA device (never in a CPU-only build): the one
/// test ops use to pick their backend.
inline bool on_cuda(const ColumnView& v) {
#ifdef GPUDF_WITH_CUDA
  return v.device != nullptr && v.device->kind() == DeviceKind::Cuda;
#else
  (void)v;
  return false;
#endif
}

/// The same test for a device.
inline bool on_cuda(const Device& d) {
#ifdef GPUDF_WITH_CUDA
  return d.kind() == DeviceKind::Cuda;
#else
  (void)d;
  return false;
#endif
}

class Column {
 public:
  /// Takes shared ownership of the buffers, all on `device`. `null_count` may be
  /// kUnknownNullCount; it is then counted on first request.
  Column(Device& device, TypeId type, int64_t size, BufferPtr data, BufferPtr offsets,
         BufferPtr validity, int64_t null_count, int64_t offset = 0);

  /// A column of `size` values whose buffers are allocated but not initialised; validity
  /// allocated (and cleared) only when `nullable`. Strings get `string_bytes` of character data.
  static std::shared_ptr<Column> allocate(Device& device, TypeId type, int64_t size,
                                          bool nullable, int64_t string_bytes = 0);

  TypeId type() const noexcept { return type_; }
  int64_t size() const noexcept { return size_; }
  int64_t offset() const noexcept { return offset_; }
  Device& device() const noexcept { return *device_; }
  bool has_validity() const noexcept { return validity_ != nullptr; }
  const BufferPtr& data() const noexcept { return data_; }
  const BufferPtr& offsets() const noexcept { return offsets_; }
  const BufferPtr& validity() const noexcept { return validity_; }

  /// Number of nulls; counted (on this column's device) the first time it is needed.
  int64_t null_count() const;

  ColumnView view() const;

  /// O(1): a column sharing these buffers. Requires 0 <= offset, offset + length <= size().
  std::shared_ptr<Column> slice(int64_t offset, int64_t length) const;

  /// Bytes held by the buffers this column references (the whole buffers, shared or not).
  std::size_t buffer_bytes() const noexcept;
  /// Bytes of the buffers that no other column references (a slice or share of another column
  /// owns none of its parent's bytes).
  std::size_t owned_bytes() const noexcept;

 private:
  Device* device_;
  TypeId type_;
  int64_t size_;
  int64_t offset_;
  mutable std::atomic<int64_t> null_count_;
  BufferPtr data_, offsets_, validity_;
};

using ColumnPtr = std::shared_ptr<Column>;

/// A set of equal-length columns.
class Table {
 public:
  Table() = default;
  explicit Table(std::vector<ColumnPtr> columns);
  int64_t num_rows() const noexcept { return num_rows_; }
  std::size_t num_columns() const noexcept { return columns_.size(); }
  const ColumnPtr& column(std::size_t i) const { return columns_.at(i); }
  const std::vector<ColumnPtr>& columns() const noexcept { return columns_; }
  Table slice(int64_t offset, int64_t length) const;

 private:
  std::vector<ColumnPtr> columns_;
  int64_t num_rows_ = 0;
};

}  // namespace gpudf
