// The rows an aggregation reads when its input chooses them: `v.filter(p).agg()` reads v where p
// is true (null: false), `v.sortBy(keys).agg()` reads every row of v in the keys' stable order.
// Grouped, the group ids move with the values: a filter turns the ids of the rows it leaves out
// into -1 (group_aggregate ignores them, so a group may be left with no rows), a sortBy gathers
// values and ids in the keys' order; every reduction kind (first, last, len, mean, ...) then sees
// exactly each group's chosen rows in the chosen order. Composes ops/filter, ops/expr, ops/sort
// and ops/gather, which dispatch on the columns' device: both backends, no .cu of its own.
#pragma once

#include <vector>

#include "core/column.hpp"

namespace gpudf {

enum class RowChoice { Filter, SortBy };

struct ChosenRows {
  ColumnPtr values;
  ColumnPtr ids;  // nullptr when no ids were given
};

/// `values` (and `ids`, int32/int64 group ids, or nullptr for the whole column as one group)
/// through the choice. Filter: `extra` is one bool mask (ERR_DTYPE otherwise); without ids the
/// values are compacted. SortBy: `extra` are the keys, with one `descending` and one
/// `nulls_last` flag each. ERR_INVALID_ARGUMENT when lengths or flag counts differ.
ChosenRows choose_rows(RowChoice choice, const ColumnPtr& values, const ColumnPtr& ids, const std::vector<ColumnPtr>& extra,
                       const std::vector<bool>& descending, const std::vector<bool>& nulls_last);

}  // namespace gpudf
