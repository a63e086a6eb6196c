#include "ops/gather/gather.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "core/copy_bytes.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/nulls/null_count.hpp"

namespace gpudf {
namespace detail {

int64_t parallel_blocks(int64_t n, int64_t grain,
                        const std::function<void(int64_t, int64_t, int64_t)>& fn) {
  if (n <= 0) return 0;
  int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  int64_t blocks = std::clamp<int64_t>(n / std::max<int64_t>(grain, 1), 1, max_blocks);
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) fn(b, b * n / blocks, (b + 1) * n / blocks);
  });
  return blocks;
}

IndexRange index_range_cpu(IndexReader idx, int64_t n) {
  IndexRange total;
  std::mutex m;
  parallel_blocks(n, 1 << 16, [&](int64_t, int64_t begin, int64_t end) {
    IndexRange r{INT64_MAX, INT64_MIN};
    for (int64_t i = begin; i < end; ++i) {
      int64_t k = idx(i);
      r.min = std::min(r.min, k);
      r.max = std::max(r.max, k);
    }
    std::lock_guard<std::mutex> lock(m);
    if (total.max < total.min) total = r;
    total.min = std::min(total.min, r.min);
    total.max = std::max(total.max, r.max);
  });
  return total;
}

namespace {

template <typename W>
void gather_fixed(const ColumnView& src, IndexReader idx, int64_t n, uint8_t* out) {
  const W* in = reinterpret_cast<const W*>(src.data) + src.offset;
  W* dst = reinterpret_cast<W*>(out);
  parallel_blocks(n, 1 << 15, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dst[i] = gathered_value(in, idx(i));
  });
}

template <typename O>
ColumnPtr gather_strings(const ColumnView& src, IndexReader idx, int64_t n, bool nullable) {
  // Pass 1: bytes per block. Pass 2 (same blocks): offsets and bytes from the block's start.
  int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  std::vector<int64_t> block_bytes(static_cast<size_t>(max_blocks) + 1, 0);
  int64_t blocks = parallel_blocks(n, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t sum = 0;
    for (int64_t i = begin; i < end; ++i) sum += gathered_string_length<O>(src, idx(i));
    block_bytes[static_cast<size_t>(b) + 1] = sum;
  });
  for (int64_t b = 0; b < blocks; ++b) block_bytes[size_t(b) + 1] += block_bytes[size_t(b)];
  const int64_t total = block_bytes[size_t(blocks)];
  ColumnPtr out = Column::allocate(cpu_device(), src.type, n, nullable, total);
  O* offs = reinterpret_cast<O*>(out->offsets()->data());
  uint8_t* chars = out->data() ? out->data()->data() : nullptr;
  const O* in_offs = src.string_offsets<O>();
  const int64_t src_end = src.size > 0 ? int64_t(in_offs[src.size]) : 0;
  char* out_chars = reinterpret_cast<char*>(chars);
  const char* in_chars = reinterpret_cast<const char*>(src.data);
  parallel_blocks(n, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t pos = block_bytes[size_t(b)];
    const int64_t block_end = block_bytes[size_t(b) + 1];  // where the next block's bytes start
    for (int64_t i = begin; i < end; ++i) {
      offs[i] = static_cast<O>(pos);
      int64_t row = idx(i);
      int64_t len = gathered_string_length<O>(src, row);
      if (len) copy_string_bytes(out_chars, pos, block_end, in_chars, int64_t(in_offs[row]), src_end, len);
      pos += len;
    }
  });
  offs[n] = static_cast<O>(total);
  return out;
}

}  // namespace

ColumnPtr gather_cpu(const ColumnView& src, IndexReader idx, int64_t n, bool nullable) {
  ColumnPtr out;
  nullable = nullable || src.validity != nullptr;
  if (src.type == TypeId::Utf8) {
    out = gather_strings<int32_t>(src, idx, n, nullable);
  } else if (src.type == TypeId::LargeUtf8) {
    out = gather_strings<int64_t>(src, idx, n, nullable);
  } else {
    out = Column::allocate(cpu_device(), src.type, n, nullable);
    uint8_t* dst = out->data() ? out->data()->data() : nullptr;
    switch (value_width(src.type)) {
      case 1: gather_fixed<uint8_t>(src, idx, n, dst); break;
      case 2: gather_fixed<uint16_t>(src, idx, n, dst); break;
      case 4: gather_fixed<uint32_t>(src, idx, n, dst); break;
      default: gather_fixed<uint64_t>(src, idx, n, dst); break;
    }
  }
  if (nullable) {
    uint8_t* bits = out->validity()->data();
    // Whole output bytes per chunk, so no two threads write the same byte.
    cpu_pool().parallel_for(bitmap_bytes(n), 1 << 13, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) bits[b] = gather_validity_byte(src, idx, n, b);
    });
  }
  return out;
}

void check_indices(const ColumnView& indices, int64_t rows) {
  GPUDF_EXPECTS(is_index_type(indices.type), InvalidArgument,
                "row indices must be integers, got " + std::string(type_name(indices.type)));
  GPUDF_EXPECTS(count_nulls(indices) == 0, InvalidArgument, "row indices must not be null");
  if (indices.size == 0) return;
  IndexReader idx{indices.data, indices.offset, indices.type};
  IndexRange r;
#ifdef GPUDF_WITH_CUDA
  if (indices.device->kind() == DeviceKind::Cuda) r = index_range_cuda(idx, indices.size);
  else
#endif
    r = index_range_cpu(idx, indices.size);
  GPUDF_EXPECTS(r.min >= 0 && r.max < rows, InvalidArgument,
                "row index out of range: indices span [" + std::to_string(r.min) + ", " +
                    std::to_string(r.max) + "] but there are " + std::to_string(rows) + " rows");
}

ColumnPtr gather_unchecked(const ColumnView& column, const ColumnView& indices, bool nullable) {
  IndexReader idx{indices.data, indices.offset, indices.type};
#ifdef GPUDF_WITH_CUDA
  if (column.device->kind() == DeviceKind::Cuda)
    return gather_cuda(column, idx, indices.size, nullable);
#endif
  return gather_cpu(column, idx, indices.size, nullable);
}

void compose_rows_cpu(const int64_t* outer, const int64_t* inner, int64_t n, int64_t* out) {
  parallel_blocks(n, 1 << 15, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) out[i] = composed_row(outer, inner[i]);
  });
}

}  // namespace detail

ColumnPtr compose_rows(const ColumnView& outer, const ColumnView& inner) {
  GPUDF_EXPECTS(outer.type == TypeId::Int64 && inner.type == TypeId::Int64 && outer.device == inner.device &&
                    outer.validity == nullptr && inner.validity == nullptr,
                InvalidArgument, "compose_rows: two int64 row maps without nulls on one device are required");
  ColumnPtr out = Column::allocate(*inner.device, TypeId::Int64, inner.size, false);
  int64_t* dst = reinterpret_cast<int64_t*>(out->data()->data());
#ifdef GPUDF_WITH_CUDA
  if (inner.device->kind() == DeviceKind::Cuda) {
    detail::compose_rows_cuda(outer.values<int64_t>(), inner.values<int64_t>(), inner.size, dst);
    return out;
  }
#endif
  detail::compose_rows_cpu(outer.values<int64_t>(), inner.values<int64_t>(), inner.size, dst);
  return out;
}

ColumnPtr gather(const ColumnView& column, const ColumnView& indices) {
  return gather(std::vector<ColumnView>{column}, indices, column.size).front();
}

ColumnPtr gather_or_null(const ColumnView& column, const ColumnView& indices, bool any_negative) {
  GPUDF_EXPECTS(column.device == indices.device && is_index_type(indices.type), InvalidArgument,
                "gather_or_null: integer indices on the column's device are required");
  return detail::gather_unchecked(column, indices, any_negative);
}

std::vector<ColumnPtr> gather(const std::vector<ColumnView>& columns, const ColumnView& indices,
                              int64_t rows) {
  for (const ColumnView& c : columns)
    GPUDF_EXPECTS(c.device == indices.device && c.size == rows, InvalidArgument,
                  "gather: columns and indices must share a device and the row count");
  detail::check_indices(indices, rows);
  std::vector<ColumnPtr> out;
  out.reserve(columns.size());
  for (const ColumnView& c : columns) out.push_back(detail::gather_unchecked(c, indices));
  return out;
}

}  // namespace gpudf
