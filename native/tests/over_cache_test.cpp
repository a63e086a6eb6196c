// ops/window/over_cache: the overs of one expression list group each distinct partition key set
// once and sort each distinct (partition, order) once, with results equal to evaluating each
// over alone (on the test device, exact values, nulls in keys, values and order keys).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exec/operators.hpp"
#include "ops/expr/expr.hpp"
#include "ops/window/over_cache.hpp"
#include "ops/window/window_expr.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;
using gpudf::expr::Frame;
using gpudf::expr::NodeSpec;

namespace {

using Specs = std::vector<NodeSpec>;

int32_t push(Specs& s, NodeSpec n) {
  s.push_back(std::move(n));
  return int32_t(s.size()) - 1;
}

int32_t col(Specs& s, const std::string& name) {
  NodeSpec n;
  n.op = "col";
  n.name = name;
  return push(s, std::move(n));
}

int32_t agg(Specs& s, const std::string& kind, int32_t input) {
  NodeSpec n;
  n.op = "agg";
  n.agg_kind = kind;
  n.args = {input};
  return push(s, std::move(n));
}

int32_t op(Specs& s, const std::string& name, std::vector<int32_t> args, std::vector<int64_t> params = {}) {
  NodeSpec n;
  n.op = name;
  n.args = std::move(args);
  n.params = std::move(params);
  return push(s, std::move(n));
}

/// `inner.over(keys, { orderBy: order, descending })` with nulls last, appended to `s`.
int32_t over(Specs& s, int32_t inner, const std::vector<std::string>& keys, const std::vector<std::string>& order = {},
             bool descending = false) {
  std::vector<int32_t> args{inner};
  for (const std::string& k : keys) args.push_back(col(s, k));
  for (const std::string& o : order) args.push_back(col(s, o));
  std::vector<int64_t> params{int64_t(keys.size()), int64_t(order.size())};
  for (size_t k = 0; k < order.size(); ++k) params.push_back(descending);
  params.push_back(1);
  return op(s, "over", args, params);
}

/// `column.kind().over(keys, ...)` as a whole expression.
Specs agg_over(const std::string& column, const std::string& kind, const std::vector<std::string>& keys) {
  Specs s;
  over(s, agg(s, kind, col(s, column)), keys);
  return s;
}

Specs seq_over(const std::string& column, const std::string& seq, std::vector<int64_t> params,
               const std::vector<std::string>& keys, const std::vector<std::string>& order = {}, bool descending = false) {
  Specs s;
  over(s, op(s, seq, {col(s, column)}, std::move(params)), keys, order, descending);
  return s;
}

Frame frame_of(std::vector<std::string> names, std::vector<ColumnPtr> cols) {
  Frame f;
  f.rows = cols[0]->size();
  f.names = std::move(names);
  for (auto& c : cols) f.columns.push_back(on_test_device(c));
  return f;
}

std::vector<std::optional<double>> doubles(const ColumnPtr& c) {
  return read_values<double>(window::cast_column(c, TypeId::Float64, test_device()));
}

window::OverPasses since(const window::OverPasses& before) {
  const window::OverPasses now = window::over_passes();
  return {now.groupings - before.groupings, now.sorts - before.sorts};
}

Frame random_frame(int64_t n) {
  Rng rng(uint64_t(n) + 11);
  std::vector<int32_t> g(static_cast<size_t>(n)), c(static_cast<size_t>(n)), t(static_cast<size_t>(n));
  std::vector<int64_t> h(static_cast<size_t>(n));
  std::vector<double> a(static_cast<size_t>(n)), d(static_cast<size_t>(n));
  std::vector<bool> gv(static_cast<size_t>(n)), av(static_cast<size_t>(n)), tv(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    g[size_t(i)] = int32_t(rng.next() % 37);
    gv[size_t(i)] = rng.next() % 10 != 0;
    h[size_t(i)] = int64_t(rng.next() % 5);
    a[size_t(i)] = double(int64_t(rng.next() % 1000) - 500) / 4;
    av[size_t(i)] = rng.next() % 7 != 0;
    c[size_t(i)] = int32_t(rng.next() % 20);
    t[size_t(i)] = int32_t(rng.next() % 200);
    tv[size_t(i)] = rng.next() % 9 != 0;
    d[size_t(i)] = double(rng.next() % 100);
  }
  return frame_of({"g", "h", "a", "c", "t", "d"},
                  {host_column<int32_t>(TypeId::Int32, g, gv), host_column<int64_t>(TypeId::Int64, h),
                   host_column<double>(TypeId::Float64, a, av), host_column<int32_t>(TypeId::Int32, c),
                   host_column<int32_t>(TypeId::Int32, t, tv), host_column<double>(TypeId::Float64, d)});
}

}  // namespace

TEST(over_cache, overs_over_one_key_group_once) {
  for (int64_t n : {int64_t(7), int64_t(5000)}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const Frame f = random_frame(n);
    const std::vector<Specs> list = {
        agg_over("a", "sum", {"g"}),                             // grouping
        agg_over("d", "mean", {"g"}),                            // same grouping
        seq_over("c", "rank", {0, 0}, {"g"}),                    // same grouping, no sort (rank takes any layout)
        seq_over("d", "cumSum", {0}, {"g"}, {"t"}),              // same grouping, sorted by (g, t)
        agg_over("a", "sum", {"h"}),                             // another grouping
        seq_over("d", "cumSum", {0}, {"g"}, {"t"}, true),        // sorted by (g, t desc)
        seq_over("a", "cumMax", {0}, {"g"}, {"t"}),              // (g, t) again
    };
    // Each alone: one grouping per over, one sort per ordered over other than the rank.
    std::vector<ColumnPtr> alone;
    window::OverPasses before = window::over_passes();
    for (const Specs& e : list) alone.push_back(expr::evaluate(e, f, test_device()));
    window::OverPasses passes = since(before);
    EXPECT_EQ(passes.groupings, int64_t(7));
    EXPECT_EQ(passes.sorts, int64_t(3));

    // As one list: g grouped once, h once; sorts: by (g, t), by (g, t desc).
    before = window::over_passes();
    std::vector<ColumnPtr> shared;
    {
      const window::OverCacheScope scope;
      for (const Specs& e : list) shared.push_back(expr::evaluate(e, f, test_device()));
    }
    passes = since(before);
    EXPECT_EQ(passes.groupings, int64_t(2));
    EXPECT_EQ(passes.sorts, int64_t(2));
    for (size_t k = 0; k < list.size(); ++k) {
      SCOPED_TRACE("expression " + std::to_string(k));
      EXPECT_EQ(shared[k]->type(), alone[k]->type());
      EXPECT_EQ(doubles(shared[k]), doubles(alone[k]));
    }

    // After the scope closes nothing is kept: the next list groups again.
    before = window::over_passes();
    {
      const window::OverCacheScope scope;
      expr::evaluate(list[0], f, test_device());
      expr::evaluate(list[1], f, test_device());
    }
    EXPECT_EQ(since(before).groupings, int64_t(1));
  }
}

TEST(over_cache, one_expression_shares_and_values_are_exact) {
  const Frame f = frame_of({"g", "a", "t"}, {host_column<int32_t>(TypeId::Int32, {1, 2, 1, 0, 2, 1}, {true, true, true, false, true, true}),
                                             host_column<int64_t>(TypeId::Int64, {1, 2, 3, 4, 5, 6}),
                                             host_column<int32_t>(TypeId::Int32, {3, 1, 2, 0, 0, 1})});
  // a.sum().over(g) + a.cumSum().over(g, { orderBy: t }) + a.max().over(g): one grouping, one sort.
  Specs s;
  const int32_t x = over(s, agg(s, "sum", col(s, "a")), {"g"});
  const int32_t y = over(s, op(s, "cumSum", {col(s, "a")}, {0}), {"g"}, {"t"});
  const int32_t z = over(s, agg(s, "max", col(s, "a")), {"g"});
  op(s, "add", {op(s, "add", {x, y}), z});
  const window::OverPasses before = window::over_passes();
  ColumnPtr out = expr::evaluate(s, f, test_device());
  const window::OverPasses passes = since(before);
  EXPECT_EQ(passes.groupings, int64_t(1));
  EXPECT_EQ(passes.sorts, int64_t(1));
  // sums: g=1 -> 10, g=2 -> 7, null -> 4; cumSum by t within g=1 (rows 0,2,5 at t 3,2,1): 10,9,6;
  // g=2 (rows 1,4 at t 1,0): 7,5; null: 4; max: g=1 -> 6, g=2 -> 5, null -> 4.
  EXPECT_EQ(read_values<int64_t>(out), (std::vector<std::optional<int64_t>>{26, 19, 25, 12, 17, 22}));
}

TEST(over_cache, same_names_over_other_columns_do_not_share) {
  // The cache keys on the columns a key reads, not on their names alone.
  const Frame f1 = frame_of({"g", "a"}, {host_column<int32_t>(TypeId::Int32, {1, 1, 2}), host_column<int64_t>(TypeId::Int64, {1, 2, 3})});
  const Frame f2 = frame_of({"g", "a"}, {host_column<int32_t>(TypeId::Int32, {1, 2, 2}), host_column<int64_t>(TypeId::Int64, {1, 2, 3})});
  const Specs e = agg_over("a", "sum", {"g"});
  const window::OverPasses before = window::over_passes();
  ColumnPtr r1, r2;
  {
    const window::OverCacheScope scope;
    r1 = expr::evaluate(e, f1, test_device());
    r2 = expr::evaluate(e, f2, test_device());
  }
  EXPECT_EQ(since(before).groupings, int64_t(2));
  EXPECT_EQ(read_values<int64_t>(r1), (std::vector<std::optional<int64_t>>{3, 3, 3}));
  EXPECT_EQ(read_values<int64_t>(r2), (std::vector<std::optional<int64_t>>{1, 5, 5}));
}

TEST(over_cache, a_projection_groups_each_key_set_once) {
  // A lazy select of the four overs over g (and one over h): g grouped once, h once; only the
  // ordered cumSum sorts.
  const Frame f = random_frame(3000);
  exec::Relation rel(test_device(), f.rows);
  for (size_t c = 0; c < f.names.size(); ++c) rel.add(f.names[c], f.columns[c]);
  exec::PlanNode node;
  node.kind = exec::NodeKind::Project;
  node.exprs = {{"s", agg_over("a", "sum", {"g"})},
                {"m", agg_over("d", "mean", {"g"})},
                {"r", seq_over("c", "rank", {0, 0}, {"g"})},
                {"cs", seq_over("d", "cumSum", {0}, {"g"}, {"t"})},
                {"hs", agg_over("a", "sum", {"h"})}};
  const window::OverPasses before = window::over_passes();
  const exec::Relation out = exec::run_project(node, rel);
  const window::OverPasses passes = since(before);
  EXPECT_EQ(passes.groupings, int64_t(2));
  EXPECT_EQ(passes.sorts, int64_t(1));
  for (const exec::NamedExpr& e : node.exprs) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(doubles(out.cell(e.name)->values()), doubles(expr::evaluate(e.expr, f, test_device())));
  }
}
