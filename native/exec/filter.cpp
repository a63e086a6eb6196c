// Filter: the predicate evaluated over the rows (only the columns it reads are materialised),
// then a selection vector of the rows where it is true; the other columns are not moved.
#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "exec/operators.hpp"
#include "ops/filter/filter.hpp"

namespace gpudf::exec {

Relation run_filter(const PlanNode& node, const Relation& in) {
  ColumnPtr mask = evaluate(node.predicate, in, in.height());
  GPUDF_EXPECTS(mask->type() == TypeId::Bool, Dtype,
                "filter needs a bool predicate, got " + std::string(type_name(mask->type())));
  ColumnPtr rows = selected_rows(mask);
  if (rows->size() == in.height()) return in;
  return in.take(rows, false);
}

}  // namespace gpudf::exec
