#include "ops/filter/filter.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/copy_bytes.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"

namespace gpudf {
namespace detail {
namespace {

constexpr int64_t kChunk = 16384;  // rows per chunk (a multiple of 8; chunk offsets fit uint16)
static_assert(kChunk <= 65536);

template <typename O>
int64_t string_bytes(const ColumnView& v, int64_t i) {
  const O* o = v.string_offsets<O>();
  return int64_t(o[i + 1] - o[i]);
}

int64_t row_bytes(const ColumnView& v, int64_t i) {
  return v.type == TypeId::Utf8 ? string_bytes<int32_t>(v, i) : string_bytes<int64_t>(v, i);
}

/// Sets output bit `pos`; bytes at a chunk's edges may be shared with a neighbour chunk.
void put_bit(uint8_t* bits, int64_t pos, int64_t first, int64_t last) {
  if (pos >> 3 == first >> 3 || pos >> 3 == last >> 3) {
    std::atomic_ref<uint8_t>(bits[pos >> 3]).fetch_or(uint8_t(1u << (pos & 7)));
  } else {
    set_bit(bits, pos);
  }
}

/// The chunk's selected rows as offsets from r0 (branch-free); returns how many.
int64_t select_rows(const ColumnView& mask, int64_t r0, int64_t r1, uint16_t* sel) {
  int64_t k = 0;
  const uint8_t* m = mask.values<uint8_t>();
  if (mask.validity == nullptr) {
    for (int64_t i = r0; i < r1; ++i) {
      sel[k] = uint16_t(i - r0);
      k += m[i] != 0;
    }
  } else {
    for (int64_t i = r0; i < r1; ++i) {
      sel[k] = uint16_t(i - r0);
      k += mask_selects(mask, i);
    }
  }
  return k;
}

/// Selected rows of a chunk (counting only).
int64_t count_rows(const ColumnView& mask, int64_t r0, int64_t r1) {
  int64_t k = 0;
  const uint8_t* m = mask.values<uint8_t>();
  if (mask.validity == nullptr) {
    for (int64_t i = r0; i < r1; ++i) k += m[i] != 0;
  } else {
    for (int64_t i = r0; i < r1; ++i) k += mask_selects(mask, i);
  }
  return k;
}

template <typename O>
void scatter_strings(const ColumnView& in, Column& out, int64_t r0, const uint16_t* sel, int64_t k,
                     int64_t pos, int64_t byte_pos, int64_t end_bytes) {
  const O* off = in.string_offsets<O>();
  O* out_off = reinterpret_cast<O*>(out.offsets()->data());
  char* dst = reinterpret_cast<char*>(out.data()->data());
  const char* src = reinterpret_cast<const char*>(in.data);
  // `end_bytes`: where the next chunk's bytes (another thread's) start.
  const int64_t src_end = int64_t(off[in.size]);
  for (int64_t j = 0; j < k; ++j) {
    const int64_t i = r0 + sel[j];
    const int64_t from = int64_t(off[i]);
    const int64_t len = int64_t(off[i + 1]) - from;
    out_off[pos++] = O(byte_pos);
    copy_string_bytes(dst, byte_pos, end_bytes, src, from, src_end, len);
    byte_pos += len;
  }
}

void scatter_fixed(const ColumnView& in, Column& out, int64_t r0, const uint16_t* sel, int64_t k, int64_t pos) {
  const int64_t w = value_width(in.type);
  const uint8_t* src = in.data + (in.offset + r0) * w;
  uint8_t* dst = out.data()->data();
  switch (w) {
#define GPUDF_SCATTER(W, T)                                                          \
  case W: {                                                                          \
    T* d = reinterpret_cast<T*>(dst) + pos;                                          \
    const T* s = reinterpret_cast<const T*>(src);                                    \
    for (int64_t j = 0; j < k; ++j) d[j] = s[sel[j]];                                \
    break;                                                                           \
  }
    GPUDF_SCATTER(1, uint8_t)
    GPUDF_SCATTER(2, uint16_t)
    GPUDF_SCATTER(4, uint32_t)
    GPUDF_SCATTER(8, uint64_t)
#undef GPUDF_SCATTER
  }
}

}  // namespace

std::vector<ColumnPtr> filter_cpu(const std::vector<ColumnPtr>& columns, const ColumnView& mask) {
  const int64_t n = mask.size;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<ColumnView> views;
  std::vector<size_t> strings;  // indices of string columns
  for (size_t c = 0; c < columns.size(); ++c) {
    views.push_back(columns[c]->view());
    if (is_string(views.back().type)) strings.push_back(c);
  }
  // Pass 1: per chunk, selected rows and (per string column) selected bytes.
  const size_t ns = strings.size();
  std::vector<int64_t> rows(size_t(chunks) + 1, 0), bytes((size_t(chunks) + 1) * ns, 0);
  cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    std::vector<uint16_t> sel;
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t r0 = c * kChunk, r1 = std::min(n, r0 + kChunk);
      if (ns == 0) {
        rows[size_t(c)] = count_rows(mask, r0, r1);
        continue;
      }
      // The selected rows first (branch-free), then their bytes column by column.
      sel.resize(size_t(kChunk));
      const int64_t count = select_rows(mask, r0, r1, sel.data());
      for (size_t s = 0; s < ns; ++s) {
        int64_t b = 0;
        for (int64_t j = 0; j < count; ++j) b += row_bytes(views[strings[s]], r0 + sel[size_t(j)]);
        bytes[size_t(c) * ns + s] = b;
      }
      rows[size_t(c)] = count;
    }
  });
  // Exclusive prefix sums over chunks.
  int64_t total = 0;
  std::vector<int64_t> total_bytes(ns, 0);
  for (int64_t c = 0; c <= chunks; ++c) {
    int64_t r = rows[size_t(c)];
    rows[size_t(c)] = total;
    total += r;
    for (size_t s = 0; s < ns; ++s) {
      int64_t b = bytes[size_t(c) * ns + s];
      bytes[size_t(c) * ns + s] = total_bytes[s];
      total_bytes[s] += b;
    }
  }
  std::vector<ColumnPtr> out;
  for (size_t c = 0, s = 0; c < columns.size(); ++c) {
    const int64_t b = is_string(views[c].type) ? total_bytes[s++] : 0;
    out.push_back(Column::allocate(cpu_device(), views[c].type, total, views[c].validity != nullptr, b));
  }
  // Pass 2: every chunk lists its selected rows once, then moves them in every column.
  cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    std::vector<uint16_t> sel(static_cast<size_t>(kChunk));
    uint16_t* const sel_rows = sel.data();
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t r0 = c * kChunk, r1 = std::min(n, r0 + kChunk);
      const int64_t pos = rows[size_t(c)], end = rows[size_t(c) + 1];
      if (pos == end) continue;
      const int64_t k = select_rows(mask, r0, r1, sel_rows);
      for (size_t col = 0, s = 0; col < columns.size(); ++col) {
        const ColumnView& v = views[col];
        if (is_string(v.type)) {
          const int64_t bp = bytes[size_t(c) * ns + s];
          const int64_t limit = bytes[size_t(c + 1) * ns + s++];  // where the next chunk's bytes start
          if (v.type == TypeId::Utf8) scatter_strings<int32_t>(v, *out[col], r0, sel_rows, k, pos, bp, limit);
          else scatter_strings<int64_t>(v, *out[col], r0, sel_rows, k, pos, bp, limit);
        } else {
          scatter_fixed(v, *out[col], r0, sel_rows, k, pos);
        }
        if (v.validity) {
          uint8_t* bits = out[col]->validity()->data();
          for (int64_t j = 0; j < k; ++j)
            if (v.is_valid(r0 + sel_rows[j])) put_bit(bits, pos + j, pos, end - 1);
        }
      }
    }
  });
  for (size_t k = 0, s = 0; k < columns.size(); ++k) {
    if (!is_string(views[k].type)) continue;
    int64_t tb = total_bytes[s++];
    if (views[k].type == TypeId::Utf8) reinterpret_cast<int32_t*>(out[k]->offsets()->data())[total] = int32_t(tb);
    else reinterpret_cast<int64_t*>(out[k]->offsets()->data())[total] = tb;
  }
  return out;
}

ColumnPtr selected_rows_cpu(const ColumnView& mask) {
  const int64_t n = mask.size;
  const int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<int64_t> rows(size_t(chunks) + 1, 0);
  cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) rows[size_t(c)] = count_rows(mask, c * kChunk, std::min(n, (c + 1) * kChunk));
  });
  int64_t total = 0;
  for (int64_t c = 0; c <= chunks; ++c) {
    const int64_t r = rows[size_t(c)];
    rows[size_t(c)] = total;
    total += r;
  }
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, total, false);
  int64_t* dst = reinterpret_cast<int64_t*>(out->data()->data());
  cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    std::vector<uint16_t> sel(static_cast<size_t>(kChunk));
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t r0 = c * kChunk, r1 = std::min(n, r0 + kChunk);
      if (rows[size_t(c)] == rows[size_t(c) + 1]) continue;
      const int64_t k = select_rows(mask, r0, r1, sel.data());
      int64_t* d = dst + rows[size_t(c)];
      for (int64_t j = 0; j < k; ++j) d[j] = r0 + sel[size_t(j)];
    }
  });
  return out;
}

void rows_bitmap_cpu(const int64_t* rows, int64_t n, int64_t bit_offset, uint8_t* bits, int64_t bytes, const uint8_t* and_bits) {
  if (bytes == 0) return;  // no rows: an empty buffer may have no address (memset's is non-null)
  std::memset(bits, 0, size_t(bytes));
  // Ascending rows: a chunk's bits lie in a run of bytes that it shares with its neighbours only
  // at the ends, so each byte is written once, whole, and only the two end bytes atomically.
  cpu_pool().parallel_for(n, 1 << 16, [&](int64_t i0, int64_t i1) {
    const int64_t first = (bit_offset + rows[i0]) >> 3, last = (bit_offset + rows[i1 - 1]) >> 3;
    auto flush = [&](int64_t byte, uint8_t v) {
      if (byte == first || byte == last) std::atomic_ref<uint8_t>(bits[byte]).fetch_or(v, std::memory_order_relaxed);
      else bits[byte] = v;
    };
    int64_t byte = first;
    uint8_t acc = 0;
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t b = bit_offset + rows[i];
      if ((b >> 3) != byte) {
        flush(byte, acc);
        byte = b >> 3;
        acc = 0;
      }
      acc = uint8_t(acc | (1u << (b & 7)));
    }
    flush(byte, acc);
  });
  if (and_bits)
    cpu_pool().parallel_for(bytes, 1 << 16, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) bits[b] &= and_bits[b];
    });
}

}  // namespace detail

BufferPtr rows_bitmap(const ColumnView& rows, int64_t base_rows, int64_t bit_offset, const uint8_t* and_bits) {
  GPUDF_EXPECTS(rows.type == TypeId::Int64 && rows.validity == nullptr && base_rows >= 0 && bit_offset >= 0, InvalidArgument,
                "rows_bitmap: int64 rows without nulls are required");
  const int64_t bytes = bitmap_bytes(bit_offset + base_rows);
  BufferPtr out = Buffer::allocate(*rows.device, size_t(bytes));
#ifdef GPUDF_WITH_CUDA
  if (rows.device->kind() == DeviceKind::Cuda) {
    detail::rows_bitmap_cuda(rows.values<int64_t>(), rows.size, bit_offset, out->data(), bytes, and_bits);
    return out;
  }
#endif
  detail::rows_bitmap_cpu(rows.values<int64_t>(), rows.size, bit_offset, out->data(), bytes, and_bits);
  return out;
}

namespace {
void check_mask(const ColumnPtr& mask) {
  GPUDF_EXPECTS(mask != nullptr, InvalidArgument, "filter needs a mask");
  GPUDF_EXPECTS(mask->type() == TypeId::Bool, Dtype,
                "filter needs a bool mask, got " + std::string(type_name(mask->type())));
}
}  // namespace

ColumnPtr selected_rows(const ColumnPtr& mask) {
  check_mask(mask);
#ifdef GPUDF_WITH_CUDA
  if (mask->device().kind() == DeviceKind::Cuda) return detail::selected_rows_cuda(mask->view());
#endif
  return detail::selected_rows_cpu(mask->view());
}

std::vector<ColumnPtr> filter(const std::vector<ColumnPtr>& columns, const ColumnPtr& mask) {
  check_mask(mask);
  for (const ColumnPtr& c : columns) {
    GPUDF_EXPECTS(c->size() == mask->size(), InvalidArgument,
                  "filter mask has " + std::to_string(mask->size()) + " rows; the columns have " +
                      std::to_string(c->size()));
    GPUDF_EXPECTS(&c->device() == &mask->device(), InvalidArgument, "filter mask is on another device");
  }
#ifdef GPUDF_WITH_CUDA
  if (mask->device().kind() == DeviceKind::Cuda) return detail::filter_cuda(columns, mask->view());
#endif
  return detail::filter_cpu(columns, mask->view());
}

}  // namespace gpudf
