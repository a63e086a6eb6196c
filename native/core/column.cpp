#include "core/column.hpp"

#include "core/error.hpp"
#include "ops/nulls/null_count.hpp"

namespace gpudf {

Column::Column(Device& device, TypeId type, int64_t size, BufferPtr data, BufferPtr offsets,
               BufferPtr validity, int64_t null_count, int64_t offset)
    : device_(&device),
      type_(type),
      size_(size),
      offset_(offset),
      null_count_(validity ? null_count : 0),
      data_(std::move(data)),
      offsets_(std::move(offsets)),
      validity_(std::move(validity)) {
  GPUDF_EXPECTS(size >= 0 && offset >= 0, Internal, "negative column size or offset");
}

std::shared_ptr<Column> Column::allocate(Device& device, TypeId type, int64_t size, bool nullable,
                                         int64_t string_bytes) {
  GPUDF_EXPECTS(size >= 0 && string_bytes >= 0, InvalidArgument, "negative column size");
  auto n = static_cast<std::size_t>(size);
  BufferPtr data, offsets, validity;
  if (is_string(type)) {
    GPUDF_EXPECTS(type == TypeId::LargeUtf8 || string_bytes <= INT32_MAX, InvalidArgument,
                  "utf8 column holds more than 2^31-1 bytes of text; use large_utf8");
    offsets = Buffer::allocate(device, (n + 1) * static_cast<std::size_t>(offset_width(type)));
    data = Buffer::allocate(device, static_cast<std::size_t>(string_bytes));
  } else {
    data = Buffer::allocate(device, n * static_cast<std::size_t>(value_width(type)));
  }
  if (nullable) {
    validity = Buffer::allocate(device, static_cast<std::size_t>(bitmap_bytes(size)));
    if (validity->size()) device.memset(validity->data(), 0, validity->capacity());
  }
  return std::make_shared<Column>(device, type, size, std::move(data), std::move(offsets),
                                  std::move(validity), kUnknownNullCount);
}

int64_t Column::null_count() const {
  int64_t known = null_count_.load();
  if (known != kUnknownNullCount) return known;
  int64_t counted = count_nulls(view());
  null_count_.store(counted);
  return counted;
}

ColumnView Column::view() const {
  ColumnView v;
  v.type = type_;
  v.size = size_;
  v.offset = offset_;
  v.validity = validity_ ? validity_->data() : nullptr;
  v.offsets = offsets_ ? offsets_->data() : nullptr;
  v.data = data_ ? data_->data() : nullptr;
  v.null_count = null_count_.load();
  v.device = device_;
  return v;
}

std::shared_ptr<Column> Column::slice(int64_t offset, int64_t length) const {
  GPUDF_EXPECTS(offset >= 0 && length >= 0 && offset <= size_ && length <= size_ - offset,
                InvalidArgument,
                "slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                    ") is outside a column of " + std::to_string(size_) + " rows");
  int64_t nulls = validity_ ? kUnknownNullCount : 0;
  if (offset == 0 && length == size_) nulls = null_count_.load();
  return std::make_shared<Column>(*device_, type_, length, data_, offsets_, validity_, nulls,
                                  offset_ + offset);
}

std::size_t Column::buffer_bytes() const noexcept {
  std::size_t total = 0;
  for (const BufferPtr* b : {&data_, &offsets_, &validity_})
    if (*b) total += (*b)->capacity();
  return total;
}

std::size_t Column::owned_bytes() const noexcept {
  std::size_t total = 0;
  for (const BufferPtr* b : {&data_, &offsets_, &validity_})
    if (*b && b->use_count() == 1) total += (*b)->capacity();
  return total;
}

Table::Table(std::vector<ColumnPtr> columns) : columns_(std::move(columns)) {
  if (!columns_.empty()) num_rows_ = columns_.front()->size();
  for (const auto& c : columns_)
    GPUDF_EXPECTS(c && c->size() == num_rows_, InvalidArgument,
                  "table columns must all have the same length");
}

Table Table::slice(int64_t offset, int64_t length) const {
  std::vector<ColumnPtr> out;
  out.reserve(columns_.size());
  for (const auto& c : columns_) out.push_back(c->slice(offset, length));
  Table t(std::move(out));
  if (columns_.empty()) t.num_rows_ = 0;
  return t;
}

}  // namespace gpudf
