// Hash aggregation (groupBy().agg()): the keys grouped (group_rows), each distinct aggregation
// input evaluated once, the one-fold aggregations folded together in one pass
// (group_aggregate_many), corr / cov on their own, the keys taken at each group's first row,
// and every output expression run as one program over the per-group columns — the eager
// GroupBy.agg's steps, natively and without returning to JS between them.
#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "exec/grouping.hpp"
#include "exec/operators.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf::exec {
namespace {

std::string slot_name(size_t i) { return "__gpudf_agg_" + std::to_string(i); }

}  // namespace

Relation run_aggregate(const PlanNode& node, const Relation& in) {
  const AggregateSpec& a = node.aggregate;
  Grouping g = group_by(a.keys, in, a.drop_nulls, a.maintain_order, a.sort);
  const ColumnView ids = g.groups.ids->view();
  const int64_t count = g.groups.count;

  std::vector<ColumnPtr> inputs;
  for (const ExprSpec& e : a.inputs) inputs.push_back(evaluate_column(e, in));
  auto input = [&](const AggSlot& s, size_t k) -> const ColumnPtr& {
    GPUDF_EXPECTS(k < s.inputs.size() && s.inputs[k] >= 0 && size_t(s.inputs[k]) < inputs.size(), InvalidArgument,
                  "aggregate: bad input index");
    return inputs[size_t(s.inputs[k])];
  };

  // One-fold kinds together (len folds over the ids themselves), then corr / cov.
  std::vector<ColumnPtr> per_group(a.slots.size());
  std::vector<ColumnView> values;
  std::vector<ReduceKind> kinds;
  std::vector<ReduceOptions> options;
  std::vector<size_t> at;
  for (size_t i = 0; i < a.slots.size(); ++i) {
    const AggSlot& s = a.slots[i];
    if (s.kind == "corr" || s.kind == "cov") {
      per_group[i] = group_corr(input(s, 0)->view(), input(s, 1)->view(), ids, count, s.kind == "cov", s.options.ddof);
      continue;
    }
    const ReduceKind kind = reduce_kind(s.kind);
    values.push_back(kind == ReduceKind::Len ? ids : input(s, 0)->view());
    kinds.push_back(kind);
    options.push_back(s.options);
    at.push_back(i);
  }
  if (!values.empty()) {
    std::vector<ColumnPtr> made = group_aggregate_many(values, ids, count, kinds, options);
    for (size_t k = 0; k < made.size(); ++k) per_group[at[k]] = std::move(made[k]);
  }
  inputs.clear();

  Relation slots(in.device(), count);
  for (size_t i = 0; i < per_group.size(); ++i) slots.add(slot_name(i), per_group[i]);

  Relation out(in.device(), count);
  for (size_t k = 0; k < a.keys.size(); ++k)
    out.add(a.keys[k].name, gather(g.keys[k]->view(), g.groups.first_rows->view()));
  for (const NamedExpr& o : a.outputs) {
    if (auto name = plain_column(o.expr)) out.add(o.name, slots.cell(*name));
    else out.add(o.name, evaluate(o.expr, slots, count));
  }
  return a.sort ? sort_by_keys(out, a.keys.size()) : out;
}

}  // namespace gpudf::exec
