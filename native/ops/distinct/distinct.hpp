// Distinct rows (DataFrame.unique), hash-based on both backends: the rows are grouped by the key
// columns (ops/groupby group_rows: one hash per row, open-addressing tables), and each group
// gives the row `keep` asks for. Every step dispatches to the keys' device, so this file has no
// backend of its own.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"

namespace gpudf {

/// Which row of a group of equal keys unique() keeps ("none": only groups of one row).
enum class Keep : int32_t { First = 0, Last = 1, Any = 2, None = 3 };

/// Row indices (int64, on the keys' device) of the rows to keep. Keys: nulls equal each other,
/// NaN equals NaN, -0.0 equals 0.0. `maintain_order`: ascending row index; otherwise the order
/// the grouping produced (unspecified, but the same for the same input on the same backend).
/// Keep::Any keeps the first row of each group.
ColumnPtr distinct_indices(const std::vector<ColumnView>& keys, Keep keep, bool maintain_order);

}  // namespace gpudf
