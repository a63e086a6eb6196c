#include "ops/distinct/distinct.hpp"

#include "core/error.hpp"
#include "ops/expr/expr.hpp"
#include "ops/filter/filter.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {
namespace {

/// `rows` in ascending order (row indices are distinct, so any sort is the stable one).
ColumnPtr ascending(const ColumnPtr& rows) {
  return detail::gather_unchecked(rows->view(), sorted_order({SortKey{rows->view(), false, true}})->view());
}

/// The first rows of the groups whose first row is also their last (groups of one row).
ColumnPtr singletons(const ColumnPtr& first, const ColumnPtr& last) {
  expr::Frame frame{{"first", "last"}, {first, last}, first->size(), nullptr};
  std::vector<expr::NodeSpec> specs(3);
  specs[0].op = "col";
  specs[0].name = "first";
  specs[1].op = "col";
  specs[1].name = "last";
  specs[2].op = "eq";
  specs[2].args = {0, 1};
  ColumnPtr mask = expr::evaluate(specs, frame, first->device());
  return filter({first}, mask).front();
}

}  // namespace

ColumnPtr distinct_indices(const std::vector<ColumnView>& keys, Keep keep, bool maintain_order) {
  GPUDF_EXPECTS(!keys.empty(), InvalidArgument, "unique needs at least one key column");
  GroupIds groups = group_rows(keys, /*drop_nulls=*/false, maintain_order);
  switch (keep) {
    case Keep::First:
    case Keep::Any:
      return groups.first_rows;  // ascending when maintain_order
    case Keep::Last: {
      ColumnPtr last = group_last_rows(groups.ids->view(), groups.count);
      return maintain_order ? ascending(last) : last;
    }
    case Keep::None: {
      ColumnPtr last = group_last_rows(groups.ids->view(), groups.count);
      return singletons(groups.first_rows, last);  // in first-row order
    }
  }
  GPUDF_FAIL(InvalidArgument, "unknown keep rule");
}

}  // namespace gpudf
