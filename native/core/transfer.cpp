#include "core/transfer.hpp"

#include <cstring>

#include "core/dispatch.hpp"
#include "core/error.hpp"

namespace gpudf {
namespace {

BufferPtr copy_buffer(const BufferPtr& src, Device& target, CopyKind kind) {
  if (!src) return nullptr;
  BufferPtr dst = Buffer::allocate(target, src->size());
  Device& copier = kind == CopyKind::DeviceToHost ? src->device() : target;
  copier.copy(dst->data(), src->data(), src->size(), kind);
  return dst;
}

template <typename O>
void rebase_offsets(uint8_t* out, const uint8_t* in, int64_t n) {
  const O* src = reinterpret_cast<const O*>(in);
  O* dst = reinterpret_cast<O*>(out);
  O base = src[0];
  for (int64_t i = 0; i <= n; ++i) dst[i] = src[i] - base;
}

}  // namespace

ColumnPtr copy_to_device(const ColumnPtr& column, Device& target) {
  if (&column->device() == &target) return column;
  GPUDF_EXPECTS(column->device().kind() == DeviceKind::Cpu || target.kind() == DeviceKind::Cpu,
                Internal, "device-to-device column copies are not supported");
  CopyKind kind = target.kind() == DeviceKind::Cpu ? CopyKind::DeviceToHost : CopyKind::HostToDevice;
  int64_t nulls = column->has_validity() ? column->view().null_count : 0;
  return std::make_shared<Column>(target, column->type(), column->size(),
                                  copy_buffer(column->data(), target, kind),
                                  copy_buffer(column->offsets(), target, kind),
                                  copy_buffer(column->validity(), target, kind), nulls,
                                  column->offset());
}

ColumnPtr to_host(const ColumnPtr& column) {
  if (column->device().kind() == DeviceKind::Cpu) return column;
  return to_host(column->view());
}

ColumnPtr to_host(const ColumnView& v) {
  Device& src = *v.device;
  Device& host = cpu_device();
  const int64_t n = v.size;
  const auto d2h = CopyKind::DeviceToHost;

  BufferPtr validity;
  if (v.validity) {
    int64_t b0 = v.offset >> 3;
    int64_t b1 = bitmap_bytes(v.offset + n);
    BufferPtr raw = Buffer::allocate(host, static_cast<size_t>(b1 - b0));
    src.copy(raw->data(), v.validity + b0, raw->size(), d2h);
    validity = Buffer::allocate(host, static_cast<size_t>(bitmap_bytes(n)));
    if (validity->size()) std::memset(validity->data(), 0, validity->capacity());
    copy_bits(validity->data(), 0, raw ? raw->data() : nullptr, v.offset & 7, n);
  }

  BufferPtr data, offsets;
  if (is_string(v.type)) {
    const int64_t ow = offset_width(v.type);
    BufferPtr raw = Buffer::allocate(host, static_cast<size_t>((n + 1) * ow));
    src.copy(raw->data(), v.offsets + v.offset * ow, raw->size(), d2h);
    offsets = Buffer::allocate(host, raw->size());
    int64_t first = 0, last = 0;
    if (ow == 4) {
      first = reinterpret_cast<const int32_t*>(raw->data())[0];
      last = reinterpret_cast<const int32_t*>(raw->data())[n];
      rebase_offsets<int32_t>(offsets->data(), raw->data(), n);
    } else {
      first = reinterpret_cast<const int64_t*>(raw->data())[0];
      last = reinterpret_cast<const int64_t*>(raw->data())[n];
      rebase_offsets<int64_t>(offsets->data(), raw->data(), n);
    }
    data = Buffer::allocate(host, static_cast<size_t>(last - first));
    src.copy(data ? data->data() : nullptr, v.data + first, static_cast<size_t>(last - first), d2h);
  } else {
    const int64_t w = value_width(v.type);
    data = Buffer::allocate(host, static_cast<size_t>(n * w));
    src.copy(data->data(), v.data + v.offset * w, data->size(), d2h);
  }
  return std::make_shared<Column>(host, v.type, n, std::move(data), std::move(offsets),
                                  std::move(validity), v.null_count);
}

}  // namespace gpudf
