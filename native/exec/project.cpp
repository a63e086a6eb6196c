// Project: each output is a column passed through (renamed, not moved) or an expression
// evaluated as one fused program over the columns it reads. Rows: the input's height when any
// output reads a column (literal-only outputs are broadcast) or `broadcast_height` is set, else
// one (select of literals and aggregations only), as the eager select and withColumns.
#include "exec/expr_eval.hpp"
#include "exec/operators.hpp"
#include "ops/window/over_cache.hpp"

namespace gpudf::exec {

Relation run_project(const PlanNode& node, const Relation& in) {
  bool any_column = node.broadcast_height;
  for (const NamedExpr& e : node.exprs) any_column = any_column || reads_columns(e.expr);
  const int64_t rows = any_column ? in.height() : 1;
  Relation out(in.device(), rows);
  const window::OverCacheScope overs;  // overs over the same partitions group (and sort) once
  for (const NamedExpr& e : node.exprs) out.add(e.name, evaluate_cell(e.expr, in, rows));
  return out;
}

}  // namespace gpudf::exec
