#include <algorithm>
#include <cstring>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "ops/interop/arrow.hpp"

namespace gpudf {

ArrowExportSizes arrow_export_sizes(const Column& column) {
  GPUDF_EXPECTS(column.device().kind() == DeviceKind::Cpu, Internal, "arrow_export needs a host column");
  const ColumnView v = column.view();
  ArrowExportSizes s;
  s.null_count = column.null_count();
  if (s.null_count > 0) s.validity_bytes = bitmap_bytes(v.size);
  if (v.type == TypeId::Bool) {
    s.values_bytes = bitmap_bytes(v.size);
  } else if (is_string(v.type)) {
    const int64_t ow = offset_width(v.type);
    s.offsets_bytes = (v.size + 1) * ow;
    if (ow == 4) s.values_bytes = int64_t(v.string_offsets<int32_t>()[v.size]) - v.string_offsets<int32_t>()[0];
    else s.values_bytes = v.string_offsets<int64_t>()[v.size] - v.string_offsets<int64_t>()[0];
  } else {
    s.values_bytes = v.size * value_width(v.type);
  }
  return s;
}

namespace {

template <typename O>
void write_offsets(const ColumnView& v, uint8_t* out_offsets, uint8_t* out_values) {
  const O* src = v.string_offsets<O>();
  O* dst = reinterpret_cast<O*>(out_offsets);
  const O base = src[0];
  for (int64_t i = 0; i <= v.size; ++i) dst[i] = src[i] - base;
  const int64_t bytes = int64_t(src[v.size]) - base;
  if (bytes) std::memcpy(out_values, v.data + base, size_t(bytes));
}

}  // namespace

void arrow_export(const Column& column, uint8_t* validity, uint8_t* offsets, uint8_t* values) {
  const ArrowExportSizes s = arrow_export_sizes(column);
  const ColumnView v = column.view();
  if (s.validity_bytes) {
    std::memset(validity, 0, size_t(s.validity_bytes));
    copy_bits(validity, 0, v.validity, v.offset, v.size);
  }
  if (v.type == TypeId::Bool) {
    // Pack the byte-per-value storage into Arrow's LSB-first bits, one output byte at a time.
    const uint8_t* src = v.values<uint8_t>();
    for (int64_t b = 0; b < s.values_bytes; ++b) {
      uint8_t byte = 0;
      const int64_t lo = b * 8;
      const int64_t n = std::min<int64_t>(8, v.size - lo);
      for (int64_t j = 0; j < n; ++j) byte |= uint8_t((src[lo + j] != 0) << j);
      values[b] = byte;
    }
  } else if (v.type == TypeId::Utf8) {
    write_offsets<int32_t>(v, offsets, values);
  } else if (v.type == TypeId::LargeUtf8) {
    write_offsets<int64_t>(v, offsets, values);
  } else if (s.values_bytes) {
    std::memcpy(values, v.data + v.offset * value_width(v.type), size_t(s.values_bytes));
  }
}

}  // namespace gpudf
