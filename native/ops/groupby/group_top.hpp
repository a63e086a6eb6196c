// Grouped top-k rows: per group, the n rows with the largest (or smallest) value of a column,
// best first; the rows a stable sort by that column followed by group_head_rows would give,
// without sorting every row.
//
// Order (ops/sort): the sort's order keys (order_bits: -0.0 equals 0.0, every NaN equal and
// above +inf, bool false before true, dates and timestamps by value, strings byte-wise), nulls
// after every non-null value whatever the direction, ties in row order.
//
// Strategy. CPU, fixed-width values and small n: one pass over the rows per pool thread range,
// each range keeping every group's best n as (order key, row) candidates in a sorted array of
// n; then per group the ranges' arrays are merged (ties by row, so the result does not depend
// on the split). Otherwise (strings, large n, too many candidates, CUDA): the composed path, a
// stable sorted_order of the rows, group_head_rows over the ids in that order, and the rows
// mapped back; it uses only ops with both backends, so there is no kernel of its own.
#pragma once

#include <cstdint>

#include "core/column.hpp"

namespace gpudf {

/// int64 row indices: for each group (ascending id) its min(n, size) rows whose `by` value comes
/// first in descending (largest) or ascending order, nulls last, ties by row; in that order
/// within the group. `ids` and `count` come from group_rows (rows with id -1 are ignored); `by`
/// has the ids' length and device, any dtype. n < 0, a length or device mismatch:
/// InvalidArgument.
ColumnPtr group_top_rows(const ColumnView& ids, int64_t count, const ColumnView& by, int64_t n, bool largest);

namespace detail {

/// Bytes of candidate arrays (all ranges together) the CPU pass may hold.
inline constexpr int64_t kTopCandidateBytes = int64_t(64) << 20;

/// The largest n the CPU pass takes: a row that enters a group's best moves up to n - 1
/// candidates, so for a large n sorting every row once is cheaper in the worst case.
inline constexpr int64_t kMaxTopCandidates = 16;

/// Whether the CPU candidate pass applies: fixed-width `by`, 0 < n <= kMaxTopCandidates, and
/// every range's candidates within `budget_bytes`.
bool top_candidates_fit(const ColumnView& by, int64_t rows, int64_t count, int64_t n, int64_t budget_bytes);

/// The CPU candidate pass (requires top_candidates_fit).
ColumnPtr group_top_rows_cpu(const ColumnView& ids, int64_t count, const ColumnView& by, int64_t n, bool largest);

/// The composed path: every dtype, both backends.
ColumnPtr group_top_rows_sorted(const ColumnView& ids, int64_t count, const ColumnView& by, int64_t n, bool largest);

}  // namespace detail
}  // namespace gpudf
