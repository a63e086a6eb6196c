// The aggregation sink of a morsel pipeline (pipeline.cpp has the stages and the morsels).
//
// Each morsel's rows are grouped (ids by first appearance within the morsel) and every
// aggregation folded into per-morsel partials. The sink then merges: the morsels' group keys,
// concatenated in morsel order, are grouped again (first appearance, so the groups come out in
// the order the whole input would give) and each aggregation's partials are combined per group
// in morsel order: counts and integer sums (wrapping, so exact in any order) and min / max
// through the grouped fold; float sums, and the sums of means, added one morsel after another.
// A float result is therefore the same on every run and machine, and on both backends unless a
// join is in the pipeline (CUDA lists a row's matches in another order); it may differ in the
// last bits from the operator-by-operator fold.
//
// Applies to the aggregations whose partials combine exactly so: len, count, nullCount, sum
// (not of float32, whose partials would round twice), mean of numbers, min / max of numbers and
// temporal values; with no filter / sortBy input. The source's first 4096 rows, then the first
// morsel, decide whether groups are few enough (under one per 8 source rows) for partials to
// pay. Without filters and joins, over a dense filter's selection, the morsels run over ranges
// of the base rows and the grouping drops the rows the selection leaves out.
#include <algorithm>
#include <optional>

#include "core/error.hpp"
#include "core/transfer.hpp"
#include "exec/expr_eval.hpp"
#include "exec/grouping.hpp"
#include "exec/pipeline.hpp"
#include "ops/concat/concat.hpp"
#include "ops/filter/filter.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/groupby/groupby_compose.hpp"
#include "ops/reduce/reduce_functors.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::exec {
namespace {

/// Rows few_groups looks at.
constexpr int64_t kProbeRows = int64_t(1) << 12;

/// How a slot's partials combine across morsels.
enum class Merge {
  Fold,      // the grouped fold of `combine` over the partials (exact in any order)
  FloatSum,  // float64 partial sums added per group in morsel order
  Mean,      // a float64 sum and a count per morsel; sum / count at the end
};

struct SlotPlan {
  Merge merge = Merge::Fold;
  ReduceKind partial = ReduceKind::Sum;  // the per-morsel kind (Mean: Sum over float64 + Count)
  ReduceKind combine = ReduceKind::Sum;  // Fold: the kind that merges the partials
};

bool numeric(TypeId t) { return t >= TypeId::Bool && t <= TypeId::Float64; }
bool temporal(TypeId t) { return t >= TypeId::Date32 && t <= TypeId::DurationNs; }

/// The plan of each slot, or nullopt when a slot's partials would not combine exactly.
std::optional<std::vector<SlotPlan>> plan_slots(const AggregateSpec& a, const std::vector<TypeId>& input_types) {
  std::vector<SlotPlan> out;
  for (const AggSlot& s : a.slots) {
    SlotPlan p;
    if (s.kind == "len" || s.kind == "count" || s.kind == "nullCount") {
      p.partial = s.kind == "len" ? ReduceKind::Len : s.kind == "count" ? ReduceKind::Count : ReduceKind::NullCount;
      out.push_back(p);
      continue;
    }
    if (s.inputs.size() != 1 || s.inputs[0] < 0 || size_t(s.inputs[0]) >= input_types.size()) return std::nullopt;
    const ExprSpec& e = a.inputs[size_t(s.inputs[0])];
    if (chosen_input(e, int32_t(e.size()) - 1)) return std::nullopt;
    const TypeId t = input_types[size_t(s.inputs[0])];
    if (s.kind == "sum") {
      if (!numeric(t) && !temporal(t)) return std::nullopt;
      const TypeId rt = reduce_result_type(t, ReduceKind::Sum);
      if (rt == TypeId::Float32) return std::nullopt;
      p.merge = rt == TypeId::Float64 ? Merge::FloatSum : Merge::Fold;
    } else if (s.kind == "mean") {
      if (!numeric(t) || reduce_result_type(t, ReduceKind::Mean) != TypeId::Float64) return std::nullopt;
      p.merge = Merge::Mean;
    } else if (s.kind == "min" || s.kind == "max") {
      if (!numeric(t) && !temporal(t)) return std::nullopt;
      p.partial = p.combine = s.kind == "min" ? ReduceKind::Min : ReduceKind::Max;
    } else {
      return std::nullopt;
    }
    out.push_back(p);
  }
  return out;
}

/// One morsel's groups: their keys (one row per group, first-appearance order) and each
/// slot's partials (Mean: the sum, then the count).
struct Morsel {
  std::vector<ColumnPtr> keys;
  std::vector<std::vector<ColumnPtr>> partials;
  int64_t groups = 0;
};

/// The input's columns when all are seen through one ascending map that keeps most of their
/// base (a dense filter's selection): the morsels then run over ranges of the base rows, with
/// the rows the map leaves out dropped from the grouping, so no column is gathered.
struct DenseBase {
  RowMapPtr map;
  Relation base;  // the base columns, unmapped
};

std::optional<DenseBase> dense_base(const Relation& in) {
  if (in.width() == 0) return std::nullopt;
  const RowMapPtr& map = in.cell(size_t(0))->map();
  if (!map || !map->dense() || map->size() == 0) return std::nullopt;
  DenseBase d{map, Relation(in.device(), map->base_rows)};
  for (size_t i = 0; i < in.width(); ++i) {
    const CellPtr& c = in.cell(i);
    if (c->map() != map || c->base()->size() != map->base_rows) return std::nullopt;
    d.base.add(in.names()[i], c->base());
  }
  return d;
}

/// Row `i` of an int64 column on any device.
int64_t int64_at(const ColumnPtr& c, int64_t i) { return to_host(c->slice(i, 1))->view().values<int64_t>()[0]; }

/// The rows of a morsel the pipeline folds: a relation, and (dense mode) the base rows of the
/// morsel's selection, whose other rows the grouping drops.
struct MorselRows {
  Relation rel;
  ColumnPtr selected;  // int64 base rows (ascending), or nullptr: every row of rel
  int64_t base_begin = 0;
};

/// Groups the morsel's rows by the keys (first appearance). Dense mode needs drop_nulls or keys
/// without nulls (a null key's own group would be dropped with the rows left out); nullopt then.
std::optional<GroupIds> group_morsel(const AggregateSpec& a, const MorselRows& r, std::vector<ColumnPtr>& keys) {
  std::vector<ColumnView> views;
  for (const NamedExpr& k : a.keys) {
    keys.push_back(evaluate_column(k.expr, r.rel));
    views.push_back(keys.back()->view());
  }
  if (!r.selected) return group_rows(views, a.drop_nulls, true);
  if (!a.drop_nulls)
    for (const ColumnPtr& k : keys)
      if (k->null_count() > 0) return std::nullopt;
  ColumnView& first = views[0];
  const int64_t end = r.base_begin + r.rel.height();
  const BufferPtr bits = rows_bitmap(r.selected->view(), end, first.offset - r.base_begin, first.validity);
  first.validity = bits->data();
  first.null_count = kUnknownNullCount;
  return group_rows(views, true, true);
}

Morsel run_morsel(const AggregateSpec& a, const Stages& stages, const std::vector<SlotPlan>& plan,
                  const Relation& in, const std::optional<DenseBase>& dense, int64_t begin, int64_t end) {
  MorselRows r;
  if (dense) {
    r.selected = dense->map->rows->slice(begin, end - begin);
    r.base_begin = int64_at(r.selected, 0);
    r.rel = dense->base.slice(r.base_begin, int64_at(r.selected, end - begin - 1) + 1 - r.base_begin);
  } else {
    r.rel = in.slice(begin, end - begin);
  }
  r.rel = run_stages(stages, std::move(r.rel));
  std::vector<ColumnPtr> keys;
  std::optional<GroupIds> grouped = group_morsel(a, r, keys);
  if (!grouped) return run_morsel(a, stages, plan, in, std::nullopt, begin, end);
  const GroupIds& g = *grouped;
  Morsel m;
  m.groups = g.count;
  for (const ColumnPtr& k : keys) m.keys.push_back(gather(k->view(), g.first_rows->view()));

  // Each distinct partial once: (input, kind) pairs; -1: over the ids (len). A count of a
  // column without nulls is the len.
  std::vector<ColumnPtr> inputs(a.inputs.size()), as_float(a.inputs.size());
  auto input = [&](int32_t i) -> const ColumnPtr& {
    ColumnPtr& c = inputs[size_t(i)];
    if (!c) c = evaluate_column(a.inputs[size_t(i)], r.rel);
    return c;
  };
  std::vector<std::pair<int32_t, ReduceKind>> wanted;  // (input, kind); Mean: a Sum of the float64 cast
  std::vector<ColumnView> values;
  std::vector<ReduceKind> kinds;
  const ColumnView ids = g.ids->view();
  auto want = [&](int32_t i, ReduceKind kind) {
    if (kind == ReduceKind::Count && input(i)->null_count() == 0) i = -1, kind = ReduceKind::Len;
    if (kind == ReduceKind::Len) i = -1;
    for (size_t w = 0; w < wanted.size(); ++w)
      if (wanted[w] == std::pair{i, kind}) return w;
    wanted.emplace_back(i, kind);
    if (kind == ReduceKind::Mean) {
      ColumnPtr& f = as_float[size_t(i)];
      f = window::cast_column(input(i), TypeId::Float64, r.rel.device());
      values.push_back(f->view());
      kinds.push_back(ReduceKind::Sum);
    } else {
      values.push_back(i < 0 ? ids : input(i)->view());
      kinds.push_back(kind);
    }
    return wanted.size() - 1;
  };
  std::vector<std::vector<size_t>> at;
  for (size_t i = 0; i < plan.size(); ++i) {
    const int32_t in0 = a.slots[i].inputs.empty() ? -1 : a.slots[i].inputs[0];
    if (plan[i].merge == Merge::Mean) {
      // A float64 input's sum partial is its sum's.
      const bool f64 = input(in0)->type() == TypeId::Float64;
      at.push_back({want(in0, f64 ? ReduceKind::Sum : ReduceKind::Mean), want(in0, ReduceKind::Count)});
    } else {
      at.push_back({want(in0, plan[i].partial)});
    }
  }
  std::vector<ColumnPtr> made =
      group_aggregate_many(values, ids, g.count, kinds, std::vector<ReduceOptions>(kinds.size()));
  for (const std::vector<size_t>& parts : at) {
    m.partials.emplace_back();
    for (size_t w : parts) m.partials.back().push_back(made[w]);
  }
  return m;
}

/// Whether the first kProbeRows source rows give under one group per 8 of them (per 8 source
/// rows, not per row the stages leave: a selective join leaves few rows, and their partials
/// still cost little beside the rows the morsel reads): a look at the keys before any morsel
/// runs, so a plan with many groups goes to the operators having spent little. A typed error
/// here says no (the operators then raise it).
bool few_groups(const AggregateSpec& a, const Stages& stages, const Relation& in) {
  try {
    const int64_t rows = std::min(in.height(), kProbeRows);
    const Relation rel = run_stages(stages, in.slice(0, rows));
    return group_by(a.keys, rel, a.drop_nulls, false, false).groups.count * 8 <= rows;
  } catch (const Error&) {
    return false;
  }
}

/// Part `part` of each morsel's partials of `slot`, concatenated in morsel order.
ColumnPtr concat_partials(const std::vector<Morsel>& morsels, size_t slot, size_t part) {
  std::vector<ColumnView> parts;
  for (const Morsel& m : morsels) parts.push_back(m.partials[slot][part]->view());
  return concat(parts);
}

/// Per group, the values of `partials` (float64 / int64, no nulls) whose id is that group,
/// combined in row (morsel) order from 0.
template <typename T>
HostVector<T> combine_in_order(const ColumnPtr& partials, const ColumnPtr& ids, int64_t count) {
  const ColumnPtr hv = to_host(partials), hi = to_host(ids);
  const ColumnView v = hv->view(), id = hi->view();
  HostVector<T> acc(size_t(count), T(0));
  for (int64_t r = 0; r < v.size; ++r) {
    const int64_t g = id.type == TypeId::Int32 ? int64_t(id.values<int32_t>()[r]) : id.values<int64_t>()[r];
    if constexpr (std::is_same_v<T, double>) acc[size_t(g)] = reduce_detail::add_rn(acc[size_t(g)], v.values<double>()[r]);
    else acc[size_t(g)] += v.values<T>()[r];
  }
  return acc;
}

}  // namespace

std::optional<Relation> run_aggregate_pipeline(const PlanNode& node, const std::vector<PipelineStage>& given,
                                               const Relation& in) {
  const AggregateSpec& a = node.aggregate;
  const int64_t n = in.height();
  const int64_t morsels = morsel_count(n);
  if (a.keys.empty() || morsels < 2) return std::nullopt;
  std::optional<Stages> stages = plan_stages(given, in);
  if (!stages) return std::nullopt;
  // The dtypes of the aggregation inputs, from the schema the stages leave.
  std::vector<TypeId> input_types;
  for (const ExprSpec& e : a.inputs) input_types.push_back(expr_type(e, stages->names, stages->types));
  const std::optional<std::vector<SlotPlan>> plan = plan_slots(a, input_types);
  if (!plan) return std::nullopt;
  build_tables(*stages, in.device());

  // Over base rows only without joins and filters: they would see the rows the selection leaves
  // out (and a filter's selection of a base range would not be the morsel's rows).
  const std::optional<DenseBase> dense = stages->moves_rows ? std::nullopt : dense_base(in);
  std::vector<Morsel> done(static_cast<size_t>(morsels));
  auto run = [&](int64_t m) {
    const auto [b, e] = morsel_range(m, n, morsels);
    done[size_t(m)] = run_morsel(a, *stages, *plan, in, dense, b, e);
  };
  if (!few_groups(a, *stages, in) || !for_morsels(in.device(), 0, 1, run)) return std::nullopt;
  const auto [b0, e0] = morsel_range(0, n, morsels);
  if (done[0].groups * 8 > e0 - b0) return std::nullopt;  // many groups: partials would not pay
  if (!for_morsels(in.device(), 1, morsels, run)) return std::nullopt;

  // The sink: the morsels' groups grouped again, then each slot's partials combined.
  std::vector<ColumnPtr> keys;
  std::vector<ColumnView> key_views;
  for (size_t k = 0; k < a.keys.size(); ++k) {
    std::vector<ColumnView> parts;
    for (const Morsel& m : done) parts.push_back(m.keys[k]->view());
    keys.push_back(concat(parts));
    key_views.push_back(keys.back()->view());
  }
  const GroupIds g = group_rows(key_views, a.drop_nulls, true);
  const int64_t count = g.count;

  std::vector<ColumnPtr> per_group(a.slots.size());
  std::vector<ColumnPtr> fold_values;
  std::vector<ReduceKind> fold_kinds;
  std::vector<size_t> fold_slot;
  for (size_t i = 0; i < plan->size(); ++i) {
    const SlotPlan& p = (*plan)[i];
    if (p.merge == Merge::Fold) {
      fold_values.push_back(concat_partials(done, i, 0));
      fold_kinds.push_back(p.combine);
      fold_slot.push_back(i);
    } else if (p.merge == Merge::FloatSum) {
      per_group[i] = groupby_detail::result_column(in.device(), TypeId::Float64,
                                                   combine_in_order<double>(concat_partials(done, i, 0), g.ids, count), {});
    } else {
      const HostVector<double> sums = combine_in_order<double>(concat_partials(done, i, 0), g.ids, count);
      const HostVector<int64_t> valid = combine_in_order<int64_t>(concat_partials(done, i, 1), g.ids, count);
      HostVector<double> mean(static_cast<size_t>(count));
      HostVector<uint8_t> ok(static_cast<size_t>(count));
      for (size_t k = 0; k < mean.size(); ++k) {
        mean[k] = valid[k] ? sums[k] / double(valid[k]) : 0.0;
        ok[k] = valid[k] > 0;
      }
      per_group[i] = groupby_detail::result_column(in.device(), TypeId::Float64, mean, ok);
    }
  }
  if (!fold_values.empty()) {
    std::vector<ColumnView> views;
    for (const ColumnPtr& c : fold_values) views.push_back(c->view());
    std::vector<ColumnPtr> made =
        group_aggregate_many(views, g.ids->view(), count, fold_kinds, std::vector<ReduceOptions>(views.size()));
    for (size_t k = 0; k < made.size(); ++k) per_group[fold_slot[k]] = std::move(made[k]);
  }
  done.clear();

  std::vector<ColumnPtr> out_keys;
  for (const ColumnPtr& k : keys) out_keys.push_back(gather(k->view(), g.first_rows->view()));
  return aggregate_result(a, in.device(), out_keys, per_group, count);
}

}  // namespace gpudf::exec
