// Distinct rows (DataFrame.unique): sort-based on both backends. The rows are sorted by the key
// columns (stable, so equal rows stay in their original order), each run of equal rows is one
// group, and a per-position rule picks the rows to keep. The kept rows come back in key order,
// or in their original order when asked.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"
#include "ops/hash/row_hash.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {

/// Which row of a group of equal keys unique() keeps ("none": only groups of one row).
enum class Keep : int32_t { First = 0, Last = 1, Any = 2, None = 3 };

/// Row indices (int64, on the keys' device) of the rows to keep. Keys: nulls equal each other,
/// NaN equals NaN, -0.0 equals 0.0. `maintain_order`: ascending row index; otherwise the order
/// of the sorted keys (deterministic). Keep::Any keeps the first row of each group.
ColumnPtr distinct_indices(const std::vector<ColumnView>& keys, Keep keep, bool maintain_order);

/// True when rows a and b of the same key columns are equal in every key.
GPUDF_HD inline bool rows_equal(const ColumnView* keys, int32_t nkeys, int64_t a, int64_t b) {
  return rows_equal(keys, a, keys, b, nkeys);
}

/// Whether the row at a sorted position is kept, given whether it equals its neighbours.
GPUDF_HD inline bool keep_position(Keep keep, bool same_as_prev, bool same_as_next) {
  switch (keep) {
    case Keep::Last: return !same_as_next;
    case Keep::None: return !same_as_prev && !same_as_next;
    default: return !same_as_prev;
  }
}

namespace detail {
std::vector<int64_t> distinct_positions_cpu(const std::vector<ColumnView>& keys, const int64_t* perm,
                                            int64_t n, Keep keep);
#ifdef GPUDF_WITH_CUDA
ColumnPtr distinct_indices_cuda(const std::vector<ColumnView>& keys, const ColumnPtr& order,
                                Keep keep, bool maintain_order);
#endif
}  // namespace detail

}  // namespace gpudf
