#include "exec/expr_eval.hpp"

#include <cstring>
#include <map>
#include <set>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::exec {
namespace {

using expr::LiteralSpec;
using expr::NodeSpec;

const NodeSpec& root_of(const ExprSpec& e) {
  GPUDF_EXPECTS(!e.empty(), InvalidArgument, "empty expression");
  return e.back();
}

NodeSpec typed_literal(LiteralSpec::Kind kind, TypeId type) {
  NodeSpec n;
  n.op = "lit";
  n.value.kind = kind;
  n.dtype = int32_t(type);
  return n;
}

/// Every aggregation node of `e`, innermost first, replaced by what `resolve(node, index)` gives.
/// The aggregations' inputs are dropped from the result (only nodes the root reaches remain).
template <typename Resolve>
ExprSpec resolve_aggregations(ExprSpec e, Resolve&& resolve) {
  bool any = false;
  const std::vector<uint8_t> live = window::outside_over(e);  // an over's aggregations are its own
  for (size_t j = 0; j < e.size(); ++j) {
    if (e[j].op != "agg" || !live[j]) continue;
    NodeSpec lit = resolve(e, int32_t(j));
    e[j] = std::move(lit);
    any = true;
  }
  return any ? subtree(e, int32_t(e.size()) - 1) : e;
}

/// The columns a (resolved) expression reads, materialised, as a compile frame.
expr::Frame frame_for(const ExprSpec& e, const Relation& rel, int64_t rows) {
  expr::Frame f;
  f.rows = rows;
  std::set<std::string> seen;
  for (const NodeSpec& n : e) {
    if (n.op != "col" || !seen.insert(n.name).second) continue;
    f.names.push_back(n.name);
    f.columns.push_back(rel.cell(n.name)->values());
  }
  return f;
}

ColumnPtr run_plain(const ExprSpec& e, const Relation& rel, int64_t rows, bool predicate = false) {
  const expr::Frame f = frame_for(e, rel, rows);
  return predicate ? expr::evaluate_predicate(e, f, rel.device()) : expr::evaluate(e, f, rel.device());
}

bool is_pair(const std::string& kind) { return kind == "corr" || kind == "cov"; }

/// Window ops see whole columns in order, so they never run over a filter's base rows.
bool has_window(const ExprSpec& e) {
  for (const NodeSpec& n : e)
    if (n.op == "over" || window::is_window_op(n.op)) return true;
  return false;
}

}  // namespace

std::optional<ChosenInput> chosen_input(const ExprSpec& e, int32_t at) {
  const NodeSpec& n = e.at(size_t(at));
  if (n.op != "filter" && n.op != "sortBy") return std::nullopt;
  GPUDF_EXPECTS(n.args.size() >= 2, InvalidArgument, n.op + " needs values and a predicate or keys");
  ChosenInput c;
  c.choice = n.op == "filter" ? RowChoice::Filter : RowChoice::SortBy;
  c.value = subtree(e, n.args[0]);
  for (size_t k = 1; k < n.args.size(); ++k) c.extra.push_back(subtree(e, n.args[k]));
  for (const ExprSpec& part : c.extra)
    for (const NodeSpec& m : part)
      GPUDF_EXPECTS(m.op != "agg" && m.op != "filter" && m.op != "sortBy", InvalidArgument,
                    n.op + ": the predicate or keys may not hold aggregations, filter or sortBy");
  for (const NodeSpec& m : c.value)
    GPUDF_EXPECTS(m.op != "agg" && m.op != "filter" && m.op != "sortBy", InvalidArgument,
                  n.op + ": the values may not hold aggregations, filter or sortBy");
  if (c.choice == RowChoice::SortBy) {
    const size_t keys = c.extra.size();
    GPUDF_EXPECTS(n.params.size() == 2 * keys, InvalidArgument, "sortBy needs a descending and a nullsLast flag per key");
    for (size_t k = 0; k < keys; ++k) {
      c.descending.push_back(n.params[k] != 0);
      c.nulls_last.push_back(n.params[keys + k] != 0);
    }
  } else {
    GPUDF_EXPECTS(c.extra.size() == 1, InvalidArgument, "filter takes one predicate");
  }
  return c;
}

ChosenRows choose_over(const ChosenInput& c, const Relation& rel, const ColumnPtr& ids) {
  std::vector<ColumnPtr> extra;
  for (const ExprSpec& part : c.extra) extra.push_back(run_plain(part, rel, rel.height()));
  return choose_rows(c.choice, run_plain(c.value, rel, rel.height()), ids, extra, c.descending, c.nulls_last);
}

std::optional<std::string> plain_column(const ExprSpec& e) {
  int32_t at = int32_t(e.size()) - 1;
  while (at >= 0 && e[size_t(at)].op == "alias" && !e[size_t(at)].args.empty()) at = e[size_t(at)].args[0];
  if (at >= 0 && e[size_t(at)].op == "col") return e[size_t(at)].name;
  return std::nullopt;
}

bool reads_columns(const ExprSpec& e) {
  if (e.empty()) return false;
  std::vector<int8_t> reads(e.size(), 0);
  for (size_t j = 0; j < e.size(); ++j) {
    const NodeSpec& n = e[j];
    if (n.op == "col" || n.op == "over") reads[j] = 1;
    else if (n.op != "agg")
      for (int32_t a : n.args) reads[j] |= reads[size_t(a)];
  }
  return reads.back() != 0;
}

ExprSpec subtree(const ExprSpec& e, int32_t root) {
  std::map<int32_t, int32_t> renumber;
  ExprSpec out;
  auto visit = [&](auto&& self, int32_t j) -> int32_t {
    auto it = renumber.find(j);
    if (it != renumber.end()) return it->second;
    NodeSpec n = e.at(size_t(j));
    for (int32_t& a : n.args) a = self(self, a);
    out.push_back(std::move(n));
    renumber[j] = int32_t(out.size()) - 1;
    return int32_t(out.size()) - 1;
  };
  visit(visit, root);
  return out;
}

ReduceKind reduce_kind(const std::string& name) { return reduce_kind_named(name); }

TypeId agg_type(const std::string& kind, const std::vector<TypeId>& inputs) {
  if (kind == "len") return TypeId::Int64;
  if (is_pair(kind)) {
    GPUDF_EXPECTS(inputs.size() == 2, InvalidArgument, kind + " takes two inputs");
    for (TypeId t : inputs)
      GPUDF_EXPECTS(t >= TypeId::Int8 && t <= TypeId::Float64, Dtype,
                    kind + " does not accept a " + std::string(type_name(t)) + " column");
    return TypeId::Float64;
  }
  GPUDF_EXPECTS(inputs.size() == 1, InvalidArgument, kind + " takes one input");
  if (kind == "mode") return reduce_result_type(inputs[0], ReduceKind::Min);  // per group only (group_mode)
  if (kind == "strJoin") {
    GPUDF_EXPECTS(is_string(inputs[0]), Dtype, "str.join does not accept a " + std::string(type_name(inputs[0])) + " column");
    return inputs[0];
  }
  return reduce_result_type(inputs[0], reduce_kind(kind));
}

NodeSpec literal_node(const ColumnPtr& one_row) {
  ColumnPtr host = to_host(one_row);
  const ColumnView v = host->view();
  using K = LiteralSpec::Kind;
  NodeSpec n = typed_literal(K::Null, v.type);
  if (v.size == 0 || !v.is_valid(0)) return n;
  LiteralSpec& lit = n.value;
  if (is_string(v.type)) {
    lit.kind = K::String;
    if (v.type == TypeId::Utf8) {
      const int32_t* o = v.string_offsets<int32_t>();
      lit.text.assign(reinterpret_cast<const char*>(v.data) + o[0], size_t(o[1] - o[0]));
    } else {
      const int64_t* o = v.string_offsets<int64_t>();
      lit.text.assign(reinterpret_cast<const char*>(v.data) + o[0], size_t(o[1] - o[0]));
    }
  } else if (v.type == TypeId::Bool) {
    lit.kind = K::Bool;
    lit.boolean = v.values<uint8_t>()[0] != 0;
  } else if (v.type == TypeId::Float32) {
    lit.kind = K::Number;
    lit.number = v.values<float>()[0];
  } else if (v.type == TypeId::Float64) {
    lit.kind = K::Number;
    lit.number = v.values<double>()[0];
  } else {
    lit.kind = K::BigInt;
    type_dispatch(v.type, [&]<TypeId T>() {
      using S = storage_t<T>;
      if constexpr (std::is_integral_v<S>) {
        const S x = v.values<S>()[0];
        lit.bigint = int64_t(x);
        if constexpr (std::is_same_v<S, uint64_t>) lit.big_unsigned = x > uint64_t(INT64_MAX);
      }
    });
  }
  return n;
}

RowMapPtr shared_dense_map(const ExprSpec& e, const Relation& rel) {
  RowMapPtr map;
  bool any = false;
  for (const NodeSpec& n : e) {
    if (n.op != "col") continue;
    const CellPtr& c = rel.cell(n.name);
    if (!c->map() || (any && c->map() != map) || c->base()->size() != c->map()->base_rows) return nullptr;
    map = c->map();
    any = true;
  }
  return any && map->dense() ? map : nullptr;
}

ColumnPtr evaluate_column(const ExprSpec& e, const Relation& rel) { return evaluate_cell(e, rel, rel.height())->values(); }

ColumnPtr evaluate(const ExprSpec& e, const Relation& rel, int64_t rows) { return evaluate_cell(e, rel, rows)->values(); }

CellPtr evaluate_cell(const ExprSpec& e, const Relation& rel, int64_t rows, bool predicate) {
  root_of(e);
  if (auto name = plain_column(e)) return rel.cell(*name);
  const ExprSpec resolved = resolve_aggregations(e, [&](const ExprSpec& cur, int32_t j) {
    const NodeSpec& n = cur[size_t(j)];
    if (n.args.size() == 1) {
      if (std::optional<ChosenInput> c = chosen_input(cur, n.args[0])) {
        const ColumnPtr chosen = choose_over(*c, rel, nullptr).values;
        if (n.agg_kind == "strJoin") return literal_node(join_strings(chosen->view(), n.sep, n.ignore_nulls));
        ReduceOptions o;
        o.ddof = n.ddof;
        o.q = n.q;
        return literal_node(reduce(chosen->view(), reduce_kind(n.agg_kind), o));
      }
    }
    if (n.agg_kind == "len") {
      NodeSpec lit = typed_literal(LiteralSpec::Kind::BigInt, TypeId::Int64);
      lit.value.bigint = rel.height();
      return lit;
    }
    std::vector<ColumnPtr> inputs;
    for (int32_t a : n.args) inputs.push_back(run_plain(subtree(cur, a), rel, rel.height()));
    ColumnPtr one;
    if (is_pair(n.agg_kind)) {
      GPUDF_EXPECTS(inputs.size() == 2, InvalidArgument, n.agg_kind + " takes two inputs");
      ExprSpec zero{typed_literal(LiteralSpec::Kind::BigInt, TypeId::Int32)};
      ColumnPtr ids = run_plain(zero, rel, rel.height());
      one = group_corr(inputs[0]->view(), inputs[1]->view(), ids->view(), 1, n.agg_kind == "cov", n.ddof);
    } else if (n.agg_kind == "strJoin") {
      GPUDF_EXPECTS(inputs.size() == 1, InvalidArgument, "str.join takes one input");
      one = join_strings(inputs[0]->view(), n.sep, n.ignore_nulls);
    } else {
      GPUDF_EXPECTS(inputs.size() == 1, InvalidArgument, n.agg_kind + " takes one input");
      ReduceOptions o;
      o.ddof = n.ddof;
      o.q = n.q;
      one = reduce(inputs[0]->view(), reduce_kind(n.agg_kind), o);
    }
    return literal_node(one);
  });
  if (rows == rel.height() && !has_window(resolved)) {
    if (RowMapPtr map = shared_dense_map(resolved, rel)) {
      // Over the base rows: a frame of the cells' bases, the result seen through the map.
      expr::Frame f;
      f.rows = map->base_rows;
      std::set<std::string> seen;
      for (const NodeSpec& n : resolved) {
        if (n.op != "col" || !seen.insert(n.name).second) continue;
        f.names.push_back(n.name);
        f.columns.push_back(rel.cell(n.name)->base());
      }
      ColumnPtr r = predicate ? expr::evaluate_predicate(resolved, f, rel.device()) : expr::evaluate(resolved, f, rel.device());
      return std::make_shared<Cell>(std::move(r), map);
    }
  }
  return make_cell(run_plain(resolved, rel, rows, predicate));
}

TypeId expr_type(const ExprSpec& e, const std::vector<std::string>& names, const std::vector<TypeId>& types) {
  GPUDF_EXPECTS(names.size() == types.size(), InvalidArgument, "names and dtypes differ in length");
  expr::Frame f;
  f.names = names;
  for (TypeId t : types) f.columns.push_back(Column::allocate(cpu_device(), t, 0, false));
  auto type_of = [&](const ExprSpec& sub) { return expr::compile(sub, f, cpu_device()).result_type(); };
  const ExprSpec resolved = resolve_aggregations(e, [&](const ExprSpec& cur, int32_t j) {
    const NodeSpec& n = cur[size_t(j)];
    std::vector<TypeId> in;
    for (int32_t a : n.args) {
      std::optional<ChosenInput> c = chosen_input(cur, a);
      if (!c) {
        in.push_back(type_of(subtree(cur, a)));
        continue;
      }
      for (const ExprSpec& part : c->extra) {
        const TypeId t = type_of(part);
        GPUDF_EXPECTS(c->choice == RowChoice::SortBy || t == TypeId::Bool, Dtype,
                      "filter needs a bool predicate, got " + std::string(type_name(t)));
      }
      in.push_back(type_of(c->value));
    }
    return typed_literal(LiteralSpec::Kind::Null, agg_type(n.agg_kind, in));
  });
  return type_of(resolved);
}

}  // namespace gpudf::exec
