// Filling nulls from neighbouring rows, and the pivot's cell scatter:
// - fill_source_rows: per row, the row its value comes from in a forward fill (the last valid
//   row at or before it) or a backward fill (the first valid row at or after it), -1 when there
//   is none or it lies more than `limit` rows away. Forward fill, backward fill and interpolate
//   are built on it; on CUDA it is one Thrust max-scan (min-scan, reversed) of the valid rows.
// - scatter_cells: the dense row map of a pivot's grid.
#pragma once

#include <cstdint>

#include "core/column.hpp"

namespace gpudf {

/// int64, no nulls, `column.size` rows: the source row of each row (see above). limit < 0: none.
ColumnPtr fill_source_rows(const ColumnView& column, bool backward, int64_t limit);

/// The column with each null replaced by the value of its fill source row (null when none).
ColumnPtr fill_directional(const ColumnPtr& column, bool backward, int64_t limit);

/// Linear interpolation of the nulls between two valid rows (by row distance); nulls before the
/// first or after the last valid row stay null. Integers give float64, floats keep their dtype.
/// ERR_DTYPE for non-numeric columns.
ColumnPtr interpolate(const ColumnPtr& column);

/// The row map of a `rows` x `cols` grid, column-major (entry c * rows + r): the index k of the
/// cell with row_of[k] == r and col_of[k] == c, -1 where no cell has that pair. Both inputs are
/// integer columns without nulls of one length, values in [0, rows) and [0, cols), each pair
/// at most once (a pivot's cells are distinct groups). int64, no nulls.
ColumnPtr scatter_cells(const ColumnView& row_of, const ColumnView& col_of, int64_t rows, int64_t cols);

namespace detail {

/// Forward source of row i given the last valid row `last` at or before it (-1: none).
GPUDF_HD inline int64_t limited_source(int64_t i, int64_t src, int64_t limit) {
  if (src < 0) return -1;
  const int64_t dist = src > i ? src - i : i - src;
  return limit >= 0 && dist > limit ? -1 : src;
}

/// Interpolated value of row i of `c` (values `v`, already offset) between its previous valid
/// row p and next valid row q; false when the row stays null.
template <typename S, typename O>
GPUDF_HD inline bool interpolated_value(const ColumnView& c, const S* v, int64_t i, int64_t p, int64_t q, O* out) {
  if (c.is_valid(i)) {
    *out = static_cast<O>(v[i]);
    return true;
  }
  if (p < 0 || q < 0) return false;
  const O a = static_cast<O>(v[p]), b = static_cast<O>(v[q]);
  *out = a + (b - a) * static_cast<O>(i - p) / static_cast<O>(q - p);
  return true;
}

void fill_source_rows_cpu(const ColumnView& column, bool backward, int64_t limit, int64_t* out);
void interpolate_cpu(const ColumnView& column, const int64_t* prev, const int64_t* next, Column& out);
void scatter_cells_cpu(const ColumnView& row_of, const ColumnView& col_of, int64_t rows, int64_t cols, int64_t* out);
#ifdef GPUDF_WITH_CUDA
void fill_source_rows_cuda(const ColumnView& column, bool backward, int64_t limit, int64_t* out);
void interpolate_cuda(const ColumnView& column, const int64_t* prev, const int64_t* next, Column& out);
void scatter_cells_cuda(const ColumnView& row_of, const ColumnView& col_of, int64_t rows, int64_t cols, int64_t* out);
#endif
}  // namespace detail

}  // namespace gpudf
