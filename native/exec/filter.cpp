// Filter: the predicate evaluated over the rows (only the columns it reads are materialised),
// then a selection vector of the rows where it is true; the other columns are not moved.
#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "exec/operators.hpp"
#include "ops/filter/filter.hpp"

namespace gpudf::exec {

Relation run_filter(const PlanNode& node, const Relation& in) {
  ColumnPtr mask = evaluate_cell(node.predicate, in, in.height(), true)->values();
  GPUDF_EXPECTS(mask->type() == TypeId::Bool, Dtype,
                "filter needs a bool predicate, got " + std::string(type_name(mask->type())));
  ColumnPtr rows = selected_rows(mask);
  if (rows->size() == in.height()) return in;
  return in.take(rows, TakeRows::Ascending);
}

}  // namespace gpudf::exec
