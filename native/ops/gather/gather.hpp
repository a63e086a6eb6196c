// Gather: the rows of a column (or of several equal-length columns) at given row indices, in
// the indices' order. Used by sort, unique, take, sample and (later) joins, which all produce a
// gather map first and then move each column once.
//
// The per-row rules (reading an index of any integer width, one output validity byte, one
// string's length) are GPUDF_HD functions below, shared by the CPU loops and the CUDA kernels.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/column.hpp"

namespace gpudf {

/// Row i of an integer column as int64 (the column has no nulls; uint64 values above INT64_MAX
/// read as negative, so the bounds check rejects them).
struct IndexReader {
  const uint8_t* data = nullptr;
  int64_t offset = 0;
  TypeId type = TypeId::Int64;

  GPUDF_HD int64_t operator()(int64_t i) const {
    int64_t k = offset + i;
    switch (type) {
      case TypeId::Int8: return reinterpret_cast<const int8_t*>(data)[k];
      case TypeId::Int16: return reinterpret_cast<const int16_t*>(data)[k];
      case TypeId::Int32: return reinterpret_cast<const int32_t*>(data)[k];
      case TypeId::UInt8: return reinterpret_cast<const uint8_t*>(data)[k];
      case TypeId::UInt16: return reinterpret_cast<const uint16_t*>(data)[k];
      case TypeId::UInt32: return reinterpret_cast<const uint32_t*>(data)[k];
      case TypeId::UInt64: return static_cast<int64_t>(reinterpret_cast<const uint64_t*>(data)[k]);
      default: return reinterpret_cast<const int64_t*>(data)[k];
    }
  }
};

/// True for the dtypes gather accepts as indices (every signed and unsigned integer).
GPUDF_HD inline bool is_index_type(TypeId t) {
  return (t >= TypeId::Int8 && t <= TypeId::UInt64);
}

/// Whether gathered row `row` is valid: a negative index is "no row" (null; see gather_or_null).
GPUDF_HD inline bool gathered_valid(const ColumnView& src, int64_t row) {
  return row >= 0 && src.is_valid(row);
}

/// Output validity byte `byte` (rows 8*byte .. 8*byte+7, clipped to n) of gathering `src` at idx.
GPUDF_HD inline uint8_t gather_validity_byte(const ColumnView& src, IndexReader idx, int64_t n,
                                             int64_t byte) {
  uint32_t out = 0;
  int64_t first = byte * 8;
  int64_t count = n - first < 8 ? n - first : 8;
  for (int64_t j = 0; j < count; ++j)
    if (gathered_valid(src, idx(first + j))) out |= 1u << j;
  return static_cast<uint8_t>(out);
}

/// Value of row `row` of a fixed-width column as raw width-W bits (zero for "no row").
template <typename W>
GPUDF_HD inline W gathered_value(const W* in, int64_t row) {
  return row >= 0 ? in[row] : W{};
}

/// Byte length of row `row` of a string column (0 for a null row, whose bytes are not copied).
template <typename O>
GPUDF_HD inline int64_t gathered_string_length(const ColumnView& src, int64_t row) {
  if (!gathered_valid(src, row)) return 0;
  const O* offs = src.string_offsets<O>();
  return static_cast<int64_t>(offs[row + 1]) - static_cast<int64_t>(offs[row]);
}

/// Rows `indices` of `column`, on the column's device. `indices`: an integer column without
/// nulls on the same device. Any index outside [0, column.size) is InvalidArgument.
ColumnPtr gather(const ColumnView& column, const ColumnView& indices);

/// The same rows of every column (the indices are checked once, against `rows`).
std::vector<ColumnPtr> gather(const std::vector<ColumnView>& columns, const ColumnView& indices,
                              int64_t rows);

/// Like gather, but a negative index yields a null row (a join's "no matching row"); the result
/// has a validity bitmap when the column has one or `any_negative` says an index is negative.
/// The indices are not range-checked: callers pass maps they built (values in [-1, rows)).
ColumnPtr gather_or_null(const ColumnView& column, const ColumnView& indices, bool any_negative);

/// Row i of a row map `outer` (int64 indices into some base, -1 = "no row") seen through `inner`
/// (indices into the map, -1 = "no row"): what a selection of a selection picks.
GPUDF_HD inline int64_t composed_row(const int64_t* outer, int64_t inner_row) {
  return inner_row < 0 ? -1 : outer[inner_row];
}

/// The row map that picks `inner` of `outer`'s rows: out[i] = inner[i] < 0 ? -1 : outer[inner[i]].
/// Both int64 without nulls on one device; `inner`'s non-negative values lie in [0, outer.size)
/// (not checked: callers pass maps they built). How the query engine stacks filters and joins
/// without moving the columns they pass through.
ColumnPtr compose_rows(const ColumnView& outer, const ColumnView& inner);

namespace detail {

/// Throws InvalidArgument unless `indices` is a null-free integer column whose every value lies
/// in [0, rows).
void check_indices(const ColumnView& indices, int64_t rows);

/// Gather without the bounds check (the caller knows the indices are in range). `nullable`:
/// the output gets a validity bitmap even when the column has none (negative indices -> null).
ColumnPtr gather_unchecked(const ColumnView& column, const ColumnView& indices,
                           bool nullable = false);

struct IndexRange {
  int64_t min = 0;
  int64_t max = -1;
};
IndexRange index_range_cpu(IndexReader idx, int64_t n);
ColumnPtr gather_cpu(const ColumnView& column, IndexReader idx, int64_t n, bool nullable);
void compose_rows_cpu(const int64_t* outer, const int64_t* inner, int64_t n, int64_t* out);
#ifdef GPUDF_WITH_CUDA
void compose_rows_cuda(const int64_t* outer, const int64_t* inner, int64_t n, int64_t* out);
IndexRange index_range_cuda(IndexReader idx, int64_t n);
ColumnPtr gather_cuda(const ColumnView& column, IndexReader idx, int64_t n, bool nullable);
/// In-place exclusive prefix sum of data[0..n] (device memory, data[n] = 0 on entry) on the
/// calling thread's stream; returns the total (the stream is synchronised). The string gather's
/// offsets and the join's output positions.
int64_t exclusive_scan_cuda(Device& device, int64_t* data, int64_t n);
#endif

/// Splits [0, n) into about `pool threads * 4` contiguous blocks of at least `grain` rows and runs
/// fn(block, begin, end) on the CPU pool; returns the number of blocks. Block b always covers the
/// same rows for the same n, so two passes can hand per-block results to each other.
int64_t parallel_blocks(int64_t n, int64_t grain,
                        const std::function<void(int64_t, int64_t, int64_t)>& fn);

}  // namespace detail
}  // namespace gpudf
