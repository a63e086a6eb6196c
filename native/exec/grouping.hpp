// What the grouped operators (aggregate, grouped top-k, group head/tail) share: the key columns
// evaluated and the rows numbered by group (ops/groupby group_rows), and the final sort of a
// result by its key columns when the grouping asks for `sort`.
#pragma once

#include <vector>

#include "exec/plan.hpp"
#include "exec/relation.hpp"
#include "ops/groupby/groupby.hpp"

namespace gpudf::exec {

struct Grouping {
  std::vector<ColumnPtr> keys;  // one per key expression, the input's height
  GroupIds groups;
};

/// Groups `in` by `keys` (>= 1). Ids follow first appearance when maintain_order and not sort.
Grouping group_by(const std::vector<NamedExpr>& keys, const Relation& in, bool drop_nulls, bool maintain_order,
                  bool sort);

/// `rel` ordered by its first `key_count` columns (ascending, nulls last; stable).
Relation sort_by_keys(const Relation& rel, size_t key_count);

/// The rows `rows` of `in` as the grouped row selections return them: the key columns first (at
/// those rows), then every input column whose name is not a key name.
Relation keys_then_rest(const Relation& in, const std::vector<NamedExpr>& key_specs, const Grouping& g,
                        const ColumnPtr& rows);

}  // namespace gpudf::exec
