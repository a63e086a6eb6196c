// Top-k rows (topK / bottomK) over the whole frame or per group, and the per-group head / tail:
// the rows are chosen natively (group_top_rows, group_head_rows) and kept as a row map.
#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "exec/grouping.hpp"
#include "exec/operators.hpp"
#include "ops/groupby/group_top.hpp"

namespace gpudf::exec {

Relation run_top_k(const PlanNode& node, const Relation& in) {
  const TopKSpec& t = node.top_k;
  GPUDF_EXPECTS(t.n >= 0, InvalidArgument, "topK: n must be >= 0");
  ColumnPtr by = evaluate_column(t.by, in);
  if (t.keys.empty()) {
    expr::NodeSpec zero;
    zero.op = "lit";
    zero.value.kind = expr::LiteralSpec::Kind::BigInt;
    zero.dtype = int32_t(TypeId::Int32);
    ColumnPtr ids = evaluate(ExprSpec{zero}, in, in.height());
    ColumnPtr rows = group_top_rows(ids->view(), in.height() > 0 ? 1 : 0, by->view(), t.n, t.largest);
    return in.take(rows, TakeRows::Permuted);
  }
  Grouping g = group_by(t.keys, in, t.drop_nulls, t.maintain_order, t.sort);
  ColumnPtr rows = group_top_rows(g.groups.ids->view(), g.groups.count, by->view(), t.n, t.largest);
  Relation out = keys_then_rest(in, t.keys, g, rows);
  return t.sort ? sort_by_keys(out, t.keys.size()) : out;
}

Relation run_group_slice(const PlanNode& node, const Relation& in) {
  const GroupSliceSpec& s = node.group_slice;
  GPUDF_EXPECTS(s.n >= 0, InvalidArgument, "head/tail: n must be >= 0");
  Grouping g = group_by(s.keys, in, s.drop_nulls, s.maintain_order, s.sort);
  ColumnPtr rows = group_head_rows(g.groups.ids->view(), g.groups.count, s.n, s.from_end);
  Relation out = keys_then_rest(in, s.keys, g, rows);
  return s.sort ? sort_by_keys(out, s.keys.size()) : out;
}

}  // namespace gpudf::exec
