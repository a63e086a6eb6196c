#include <algorithm>
#include <cstring>
#include <string>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/transfer.hpp"
#include "ops/interop/arrow.hpp"

namespace gpudf {
namespace {

std::string where(size_t chunk) { return "arrow chunk " + std::to_string(chunk) + ": "; }

template <typename O>
O offset_at(const uint8_t* offsets, int64_t i) {
  O v;
  std::memcpy(&v, offsets + i * static_cast<int64_t>(sizeof(O)), sizeof(O));
  return v;
}

/// Checks a chunk's buffers cover its rows, so nothing below reads out of bounds.
void validate(TypeId type, const ArrowChunk& c, size_t index) {
  GPUDF_EXPECTS(c.length >= 0 && c.offset >= 0, InvalidArgument, where(index) + "negative length or offset");
  const int64_t bit_end = c.offset + c.length;
  const int64_t end = c.length;  // values, offsets and indices start at the first row
  if (c.length == 0) return;     // nothing will be read (empty chunks may have empty buffers)
  if (c.validity)
    GPUDF_EXPECTS(c.validity_bytes >= bitmap_bytes(bit_end), InvalidArgument,
                  where(index) + "validity bitmap shorter than offset + length");
  if (c.dictionary) {
    GPUDF_EXPECTS(c.dictionary->type() == type && c.dictionary->device().kind() == DeviceKind::Cpu,
                  Internal, where(index) + "dictionary of the wrong type or device");
    int64_t iw = value_width(c.index_type);
    GPUDF_EXPECTS(iw > 0 && !is_string(c.index_type) && c.index_type != TypeId::Bool &&
                      c.index_type != TypeId::Float32 && c.index_type != TypeId::Float64,
                  Dtype, where(index) + "dictionary indices must be integers");
    GPUDF_EXPECTS(c.values_bytes >= end * iw, InvalidArgument, where(index) + "index buffer too small");
    return;
  }
  if (type == TypeId::Bool) {
    GPUDF_EXPECTS(c.values_bytes >= bitmap_bytes(bit_end), InvalidArgument, where(index) + "bool buffer too small");
  } else if (is_string(type)) {
    const int64_t ow = offset_width(type);
    GPUDF_EXPECTS(c.offsets_bytes >= (end + 1) * ow, InvalidArgument, where(index) + "offsets buffer too small");
    // Offsets must be non-decreasing and inside the character buffer.
    int64_t prev = ow == 4 ? offset_at<int32_t>(c.offsets, 0) : offset_at<int64_t>(c.offsets, 0);
    GPUDF_EXPECTS(prev >= 0, InvalidArgument, where(index) + "negative string offset");
    for (int64_t i = 1; i <= end; ++i) {
      int64_t cur = ow == 4 ? offset_at<int32_t>(c.offsets, i) : offset_at<int64_t>(c.offsets, i);
      GPUDF_EXPECTS(cur >= prev, InvalidArgument, where(index) + "string offsets decrease");
      prev = cur;
    }
    GPUDF_EXPECTS(prev <= c.values_bytes, InvalidArgument, where(index) + "string offsets past the data buffer");
  } else {
    GPUDF_EXPECTS(c.values_bytes >= end * value_width(type), InvalidArgument,
                  where(index) + "values buffer too small");
  }
}

/// Dictionary indices widened to int64, with -1 for null rows; range-checked.
HostVector<int64_t> decode_indices(const ArrowChunk& c, size_t index) {
  HostVector<int64_t> out(static_cast<size_t>(c.length));
  const int64_t dict_size = c.dictionary->size();
  type_dispatch(c.index_type, [&]<TypeId I>() {
    using T = storage_t<I>;
    if constexpr (std::is_arithmetic_v<T>) {
      const T* idx = reinterpret_cast<const T*>(c.values);
      for (int64_t i = 0; i < c.length; ++i) {
        if (c.validity && !bit_is_set(c.validity, c.offset + i)) {
          out[i] = -1;
          continue;
        }
        T raw;
        std::memcpy(&raw, idx + i, sizeof(T));
        auto v = static_cast<int64_t>(raw);
        GPUDF_EXPECTS(raw >= T(0) && v >= 0 && v < dict_size, InvalidArgument,
                      where(index) + "dictionary index " + std::to_string(v) + " out of range");
        out[i] = v;
      }
    }
  });
  return out;
}

struct Planned {
  int64_t string_bytes = 0;
  std::vector<HostVector<int64_t>> indices;  // per chunk, for dictionary chunks
};

int64_t string_span(TypeId type, const uint8_t* offsets, int64_t begin, int64_t end) {
  if (offset_width(type) == 4) return int64_t(offset_at<int32_t>(offsets, end)) - offset_at<int32_t>(offsets, begin);
  return offset_at<int64_t>(offsets, end) - offset_at<int64_t>(offsets, begin);
}

/// Writes chunk rows [pos, pos + length) of `out` (a compact host column).
struct ChunkWriter {
  template <TypeId T>
  void operator()(Column& out, const ArrowChunk& c, const HostVector<int64_t>* indices,
                  int64_t pos, int64_t& char_pos) const {
    using S = storage_t<T>;
    if (c.length == 0) return;
    uint8_t* valid = out.has_validity() ? out.validity()->data() : nullptr;
    if constexpr (std::is_arithmetic_v<S>) {
      S* dst = reinterpret_cast<S*>(out.data()->data()) + pos;
      if (indices) {
        const ColumnView dict = c.dictionary->view();
        const S* dv = dict.values<S>();
        for (int64_t i = 0; i < c.length; ++i) {
          int64_t k = (*indices)[i];
          bool ok = k >= 0 && dict.is_valid(k);
          dst[i] = ok ? dv[k] : S(0);
          if (valid && ok) set_bit(valid, pos + i);
        }
        return;
      }
      if (T == TypeId::Bool) {
        for (int64_t i = 0; i < c.length; ++i) dst[i] = S(bit_is_set(c.values, c.offset + i));
      } else if (c.length) {
        std::memcpy(dst, c.values, size_t(c.length) * sizeof(S));
      }
    } else {
      using O = typename S::offset_type;
      O* offs = reinterpret_cast<O*>(out.offsets()->data()) + pos;
      uint8_t* chars = out.data() ? out.data()->data() : nullptr;
      if (indices) {
        const ColumnView dict = c.dictionary->view();
        const O* doff = dict.string_offsets<O>();
        for (int64_t i = 0; i < c.length; ++i) {
          offs[i] = static_cast<O>(char_pos);
          int64_t k = (*indices)[i];
          if (k < 0 || !dict.is_valid(k)) continue;
          int64_t len = int64_t(doff[k + 1]) - doff[k];
          if (len) std::memcpy(chars + char_pos, dict.data + doff[k], size_t(len));
          char_pos += len;
          if (valid) set_bit(valid, pos + i);
        }
        return;
      }
      const int64_t first = offset_at<O>(c.offsets, 0);
      for (int64_t i = 0; i < c.length; ++i)
        offs[i] = static_cast<O>(char_pos + (offset_at<O>(c.offsets, i) - first));
      int64_t span = offset_at<O>(c.offsets, c.length) - first;
      if (span) std::memcpy(chars + char_pos, c.values + first, size_t(span));
      char_pos += span;
    }
  }
};

}  // namespace

ColumnPtr import_arrow(Device& target, TypeId type, const std::vector<ArrowChunk>& chunks) {
  Planned plan;
  plan.indices.resize(chunks.size());
  int64_t total = 0;
  bool nullable = false;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const ArrowChunk& c = chunks[i];
    validate(type, c, i);
    total += c.length;
    if (c.dictionary) {
      plan.indices[i] = decode_indices(c, i);
      nullable = true;  // cheap to decide exactly below; the count is fixed up at the end
      if (is_string(type)) {
        const ColumnView dict = c.dictionary->view();
        for (int64_t k : plan.indices[i])
          if (k >= 0 && dict.is_valid(k))
            plan.string_bytes += string_span(type, dict.offsets + dict.offset * offset_width(type), k, k + 1);
      }
      continue;
    }
    if (c.validity && count_set_bits(c.validity, c.offset, c.offset + c.length) != c.length)
      nullable = true;
    if (is_string(type) && c.length) plan.string_bytes += string_span(type, c.offsets, 0, c.length);
  }

  ColumnPtr out = Column::allocate(cpu_device(), type, total, nullable, plan.string_bytes);
  int64_t pos = 0;
  int64_t char_pos = 0;
  uint8_t* valid = nullable ? out->validity()->data() : nullptr;
  for (size_t i = 0; i < chunks.size(); ++i) {
    const ArrowChunk& c = chunks[i];
    const bool dict = static_cast<bool>(c.dictionary);
    if (valid && !dict) {
      if (c.validity) copy_bits(valid, pos, c.validity, c.offset, c.length);
      else set_bits(valid, pos, pos + c.length);
    }
    type_dispatch(type, ChunkWriter{}, *out, c, dict ? &plan.indices[i] : nullptr, pos, char_pos);
    pos += c.length;
  }
  if (is_string(type)) {
    if (offset_width(type) == 4) reinterpret_cast<int32_t*>(out->offsets()->data())[total] = static_cast<int32_t>(char_pos);
    else reinterpret_cast<int64_t*>(out->offsets()->data())[total] = char_pos;
  }
  int64_t nulls = nullable ? total - count_set_bits(valid, 0, total) : 0;
  auto host = std::make_shared<Column>(cpu_device(), type, total, out->data(), out->offsets(),
                                       nulls ? out->validity() : nullptr, nulls);
  return copy_to_device(host, target);
}

}  // namespace gpudf
