#include "ops/concat/concat.hpp"

#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/thread_pool.hpp"

namespace gpudf {
namespace detail {
namespace {

template <typename O>
int64_t span_of(const ColumnView& p) {
  const O* o = p.string_offsets<O>();
  return int64_t(o[p.size]) - int64_t(o[0]);
}

template <typename O>
void copy_offsets(const ColumnView& p, O* out, int64_t char_pos) {
  const O* in = p.string_offsets<O>();
  const int64_t base = int64_t(in[0]);
  cpu_pool().parallel_for(p.size, 1 << 16, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) out[i] = static_cast<O>(int64_t(in[i]) - base + char_pos);
  });
}

}  // namespace

std::vector<int64_t> string_spans(const std::vector<ColumnView>& parts) {
  std::vector<int64_t> spans;
  if (!is_string(parts.front().type)) return spans;
#ifdef GPUDF_WITH_CUDA
  if (parts.front().device->kind() == DeviceKind::Cuda) return string_spans_cuda(parts);
#endif
  for (const ColumnView& p : parts)
    spans.push_back(p.type == TypeId::Utf8 ? span_of<int32_t>(p) : span_of<int64_t>(p));
  return spans;
}

ColumnPtr concat_cpu(const std::vector<ColumnView>& parts, const std::vector<int64_t>& spans) {
  const TypeId type = parts.front().type;
  int64_t rows = 0, bytes = 0;
  bool nullable = false;
  for (const ColumnView& p : parts) rows += p.size, nullable |= p.validity != nullptr;
  for (int64_t s : spans) bytes += s;
  ColumnPtr out = Column::allocate(cpu_device(), type, rows, nullable, bytes);
  int64_t at = 0, char_pos = 0;
  for (size_t k = 0; k < parts.size(); ++k) {
    const ColumnView& p = parts[k];
    if (nullable) {
      uint8_t* bits = out->validity()->data();
      if (p.validity) copy_bits(bits, at, p.validity, p.offset, p.size);
      else set_bits(bits, at, at + p.size);
    }
    if (is_string(type)) {
      if (type == TypeId::Utf8) copy_offsets<int32_t>(p, reinterpret_cast<int32_t*>(out->offsets()->data()) + at, char_pos);
      else copy_offsets<int64_t>(p, reinterpret_cast<int64_t*>(out->offsets()->data()) + at, char_pos);
      int64_t first = type == TypeId::Utf8 ? p.string_offsets<int32_t>()[0] : p.string_offsets<int64_t>()[0];
      if (spans[k]) std::memcpy(out->data()->data() + char_pos, p.data + first, size_t(spans[k]));
      char_pos += spans[k];
    } else if (p.size) {
      const int64_t w = value_width(type);
      std::memcpy(out->data()->data() + at * w, p.data + p.offset * w, size_t(p.size * w));
    }
    at += p.size;
  }
  if (type == TypeId::Utf8) reinterpret_cast<int32_t*>(out->offsets()->data())[rows] = int32_t(char_pos);
  if (type == TypeId::LargeUtf8) reinterpret_cast<int64_t*>(out->offsets()->data())[rows] = char_pos;
  return out;
}

}  // namespace detail

ColumnPtr concat(const std::vector<ColumnView>& parts) {
  GPUDF_EXPECTS(!parts.empty(), InvalidArgument, "concat needs at least one column");
  for (const ColumnView& p : parts) {
    GPUDF_EXPECTS(p.type == parts.front().type, Dtype,
                  "concat: dtypes differ (" + std::string(type_name(parts.front().type)) + " and " +
                      std::string(type_name(p.type)) + ")");
    GPUDF_EXPECTS(p.device == parts.front().device, InvalidArgument, "concat: columns on different devices");
  }
  std::vector<int64_t> spans = detail::string_spans(parts);
  int64_t bytes = 0;
  for (int64_t s : spans) bytes += s;
  GPUDF_EXPECTS(parts.front().type != TypeId::Utf8 || bytes <= INT32_MAX, InvalidArgument,
                "concat: the utf8 result would hold " + std::to_string(bytes) +
                    " bytes of text, over utf8's 2^31-1 limit; cast to large_utf8 first");
#ifdef GPUDF_WITH_CUDA
  if (parts.front().device->kind() == DeviceKind::Cuda) return detail::concat_cuda(parts, spans);
#endif
  return detail::concat_cpu(parts, spans);
}

}  // namespace gpudf
