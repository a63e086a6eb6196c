// Hash aggregation (groupBy().agg()): the keys grouped (group_rows), each distinct aggregation
// input evaluated once, the one-fold aggregations folded together in one pass
// (group_aggregate_many), corr / cov on their own, the keys taken at each group's first row,
// and every output expression run as one program over the per-group columns — the eager
// GroupBy.agg's steps, natively and without returning to JS between them.
#include <algorithm>

#include "core/bitmask.hpp"
#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "exec/grouping.hpp"
#include "exec/operators.hpp"
#include <optional>

#include "ops/filter/filter.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf::exec {
namespace {

std::string slot_name(size_t i) { return "__gpudf_agg_" + std::to_string(i); }

}  // namespace

namespace {

/// The grouping and the aggregation inputs, over the relation's rows or over its base rows.
struct Prepared {
  std::vector<ColumnPtr> keys;    // as evaluated (over the base rows in base mode)
  std::vector<ColumnPtr> inputs;  // likewise
  GroupIds groups;
  /// Factored keys: key k's values are keys[k] at the rows key_rows[k] (null: keys[k] itself).
  std::vector<ColumnPtr> key_rows;
};

/// Each aggregation input over the relation's rows; null for a filter / sortBy input, which is
/// evaluated with its slot (its rows are the slot's own).
std::vector<ColumnPtr> row_inputs(const AggregateSpec& a, const Relation& in) {
  std::vector<ColumnPtr> out;
  for (const ExprSpec& e : a.inputs) out.push_back(chosen_input(e, int32_t(e.size()) - 1) ? nullptr : evaluate_column(e, in));
  return out;
}

/// Base mode: when every key and input is a cell through one dense ascending map (a filter
/// kept most rows), group the base rows, the rows the map leaves out made null in the first
/// key's validity and dropped: no key or input is gathered. Ids, first rows and row order
/// are those of the selected rows, so every kind gives what it gives over the gathered rows.
/// Needs drop_nulls, or keys without nulls (else a null key's own group would be dropped).
std::optional<Prepared> over_base(const AggregateSpec& a, const Relation& in) {
  std::vector<CellPtr> keys, inputs;
  RowMapPtr map;
  auto same = [&](const CellPtr& c) {
    if (!c->map() || (map && c->map() != map) || c->base()->size() != c->map()->base_rows) return false;
    map = c->map();
    return true;
  };
  for (const NamedExpr& k : a.keys) {
    keys.push_back(evaluate_cell(k.expr, in, in.height()));
    if (!same(keys.back())) return std::nullopt;
  }
  for (const ExprSpec& e : a.inputs) {
    if (chosen_input(e, int32_t(e.size()) - 1)) return std::nullopt;  // chosen rows: over_rows
    inputs.push_back(evaluate_cell(e, in, in.height()));
    if (!same(inputs.back())) return std::nullopt;
  }
  if (!map || !map->dense()) return std::nullopt;
  if (!a.drop_nulls)
    for (const CellPtr& k : keys)
      if (k->base()->null_count() > 0) return std::nullopt;
  Prepared p;
  std::vector<ColumnView> views;
  for (const CellPtr& k : keys) {
    p.keys.push_back(k->base());
    views.push_back(k->base()->view());
  }
  ColumnView& first = views[0];
  BufferPtr bits = rows_bitmap(map->rows->view(), map->base_rows, first.offset, first.validity);
  first.validity = bits->data();
  first.null_count = kUnknownNullCount;
  p.groups = group_rows(views, true, a.maintain_order && !a.sort);
  for (const CellPtr& c : inputs) p.inputs.push_back(c->base());
  return p;
}

/// Factored keys: the keys that are cells through one join's row map (dimension attributes,
/// say, after joining a fact table to a dimension) are wide when one is a string or there are
/// three or more. Those are grouped once per distinct base row the map uses (by value, first
/// appearance: two base rows with equal values share a group), and each row then carries its
/// base row's group as one integer code, grouped with the other keys. The groups, their order
/// and the drop_nulls rule are those of grouping the keys themselves; the wide keys are
/// gathered and hashed for the distinct base rows only. CPU relations; maps with missing rows
/// (outer joins), over a larger base than 4 rows a row (or 2^28 rows), and maps using over
/// half as many base rows as rows are left to over_rows.
std::optional<Prepared> over_factored(const AggregateSpec& a, const Relation& in) {
  const int64_t n = in.height();
  if (in.device().kind() != DeviceKind::Cpu || n == 0 || n >= (int64_t(1) << 31)) return std::nullopt;
  std::vector<CellPtr> cells;
  for (const NamedExpr& k : a.keys) cells.push_back(evaluate_cell(k.expr, in, n));
  // The maps that qualify, each with the keys through it.
  std::vector<RowMapPtr> maps;
  std::vector<std::vector<size_t>> members;
  for (size_t k = 0; k < cells.size(); ++k) {
    const RowMapPtr& m = cells[k]->map();
    if (!m || m->has_missing || cells[k]->base()->size() != m->base_rows || m->base_rows > 4 * n ||
        m->base_rows > (int64_t(1) << 28))
      continue;
    const size_t at = size_t(std::find(maps.begin(), maps.end(), m) - maps.begin());
    if (at == maps.size()) maps.push_back(m), members.emplace_back();
    members[at].push_back(k);
  }
  std::vector<size_t> factored;
  for (size_t f = 0; f < maps.size(); ++f) {
    bool wide = members[f].size() >= 3;
    for (size_t k : members[f]) wide |= is_string(cells[k]->type());
    if (wide) factored.push_back(f);
  }
  if (factored.empty()) return std::nullopt;

  Prepared p;
  p.keys.resize(cells.size());
  p.key_rows.resize(cells.size());
  std::vector<ColumnPtr> codes;
  for (size_t f : factored) {
    // The distinct base rows in order of first use, and each base row's place among them.
    const RowMap& m = *maps[f];
    const int64_t* rows = m.rows->view().values<int64_t>();
    std::vector<int32_t> local(size_t(m.base_rows), -1);
    std::vector<int64_t> reps;
    for (int64_t i = 0; i < n; ++i) {
      int32_t& l = local[size_t(rows[i])];
      if (l < 0) l = int32_t(reps.size()), reps.push_back(rows[i]);
    }
    if (int64_t(reps.size()) * 2 > n) return std::nullopt;  // few repeats: nothing to save
    ColumnPtr rep_rows = Column::allocate(cpu_device(), TypeId::Int64, int64_t(reps.size()), false);
    std::copy(reps.begin(), reps.end(), reinterpret_cast<int64_t*>(rep_rows->data()->data()));
    std::vector<ColumnPtr> at_reps;
    std::vector<ColumnView> views;
    for (size_t k : members[f]) {
      at_reps.push_back(gather(cells[k]->base()->view(), rep_rows->view()));
      views.push_back(at_reps.back()->view());
      p.keys[k] = cells[k]->base();
      p.key_rows[k] = m.rows;
    }
    const GroupIds rg = group_rows(views, a.drop_nulls, true);
    const ColumnView ids = rg.ids->view();
    auto rep_id = [&](int64_t r) { return ids.type == TypeId::Int32 ? int64_t(ids.values<int32_t>()[r]) : ids.values<int64_t>()[r]; };
    bool dropped = false;
    for (int64_t r = 0; r < ids.size && !dropped; ++r) dropped = rep_id(r) < 0;
    ColumnPtr code = Column::allocate(cpu_device(), TypeId::Int64, n, dropped);
    int64_t* c = reinterpret_cast<int64_t*>(code->data()->data());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t g = rep_id(local[size_t(rows[i])]);
      c[i] = g < 0 ? 0 : g;
      if (dropped && g >= 0) set_bit(code->validity()->data(), i);
    }
    codes.push_back(std::move(code));
  }
  std::vector<ColumnView> views;
  for (const ColumnPtr& c : codes) views.push_back(c->view());
  for (size_t k = 0; k < cells.size(); ++k) {
    if (p.keys[k]) continue;
    p.keys[k] = cells[k]->values();
    views.push_back(p.keys[k]->view());
  }
  p.groups = group_rows(views, a.drop_nulls, a.maintain_order && !a.sort);
  p.inputs = row_inputs(a, in);
  return p;
}

Prepared over_rows(const AggregateSpec& a, const Relation& in) {
  Grouping g = group_by(a.keys, in, a.drop_nulls, a.maintain_order, a.sort);
  Prepared p;
  p.keys = std::move(g.keys);
  p.groups = std::move(g.groups);
  p.inputs = row_inputs(a, in);
  return p;
}

}  // namespace

Relation run_aggregate(const PlanNode& node, const Relation& in) {
  const AggregateSpec& a = node.aggregate;
  GPUDF_EXPECTS(!a.keys.empty(), InvalidArgument, "groupBy needs at least one key");
  std::optional<Prepared> base = over_base(a, in);
  if (!base) base = over_factored(a, in);
  Prepared p = base ? std::move(*base) : over_rows(a, in);
  const ColumnView ids = p.groups.ids->view();
  const int64_t count = p.groups.count;
  std::vector<ColumnPtr>& inputs = p.inputs;
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
    if (!s.inputs.empty() && !input(s, 0)) {
      // Over chosen rows: the values and the group ids filtered or sorted together, then folded.
      const ExprSpec& e = a.inputs[size_t(s.inputs[0])];
      const ChosenInput c = *chosen_input(e, int32_t(e.size()) - 1);
      GPUDF_EXPECTS(s.kind != "corr" && s.kind != "cov", InvalidArgument, s.kind + " does not take a filter or sortBy input");
      const ChosenRows chosen = choose_over(c, in, p.groups.ids);
      if (s.kind == "mode") {
        per_group[i] = group_mode(chosen.values->view(), chosen.ids->view(), count);
        continue;
      }
      if (s.kind == "strJoin") {
        per_group[i] = group_join_strings(chosen.values->view(), chosen.ids->view(), count, s.options.sep, s.options.ignore_nulls);
        continue;
      }
      const ReduceKind kind = reduce_kind(s.kind);
      per_group[i] = group_aggregate(kind == ReduceKind::Len ? chosen.ids->view() : chosen.values->view(), chosen.ids->view(), count,
                                     kind, s.options);
      continue;
    }
    if (s.kind == "mode") {
      per_group[i] = group_mode(input(s, 0)->view(), ids, count);
      continue;
    }
    if (s.kind == "strJoin") {
      per_group[i] = group_join_strings(input(s, 0)->view(), ids, count, s.options.sep, s.options.ignore_nulls);
      continue;
    }
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

  std::vector<ColumnPtr> keys;
  for (size_t k = 0; k < p.keys.size(); ++k) {
    const bool through = k < p.key_rows.size() && p.key_rows[k];
    const ColumnPtr rows = through ? gather(p.key_rows[k]->view(), p.groups.first_rows->view()) : p.groups.first_rows;
    keys.push_back(gather(p.keys[k]->view(), rows->view()));
  }
  return aggregate_result(a, in.device(), keys, per_group, count);
}

Relation aggregate_result(const AggregateSpec& a, Device& device, const std::vector<ColumnPtr>& keys,
                          const std::vector<ColumnPtr>& per_group, int64_t count) {
  Relation slots(device, count);
  for (size_t i = 0; i < per_group.size(); ++i) slots.add(slot_name(i), per_group[i]);

  Relation out(device, count);
  for (size_t k = 0; k < a.keys.size(); ++k) out.add(a.keys[k].name, keys[k]);
  for (const NamedExpr& o : a.outputs) {
    if (auto name = plain_column(o.expr)) out.add(o.name, slots.cell(*name));
    else out.add(o.name, evaluate(o.expr, slots, count));
  }
  return a.sort ? sort_by_keys(out, a.keys.size()) : out;
}

}  // namespace gpudf::exec
