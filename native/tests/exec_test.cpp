// The query engine's native pieces on the test device: selected_rows and compose_rows (ops),
// Relation's row maps (late materialisation), and small plans through exec::execute, against
// references computed with plain loops.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exec/executor.hpp"
#include "exec/relation.hpp"
#include "ops/filter/filter.hpp"
#include "ops/gather/gather.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

expr::NodeSpec col_spec(const std::string& name) {
  expr::NodeSpec n;
  n.op = "col";
  n.name = name;
  return n;
}

expr::NodeSpec num_spec(double v) {
  expr::NodeSpec n;
  n.op = "lit";
  n.value.kind = expr::LiteralSpec::Kind::Number;
  n.value.number = v;
  return n;
}

/// col(name) OP number, as src/expr.ts serialises it.
exec::ExprSpec compare(const std::string& name, const char* op, double v) {
  expr::NodeSpec cmp;
  cmp.op = op;
  cmp.args = {0, 1};
  return {col_spec(name), num_spec(v), cmp};
}

exec::ExprSpec column(const std::string& name) { return {col_spec(name)}; }

}  // namespace

TEST(exec, selected_rows_lists_true_rows_in_order) {
  for (int64_t len : edge_lengths()) {
    for (Pattern p : {Pattern::AllValid, Pattern::Random, Pattern::AllNull}) {
      SCOPED_TRACE("len=" + std::to_string(len) + " nulls=" + pattern_name(p));
      Rng rng{uint64_t(len) + 7};
      std::vector<uint8_t> values(static_cast<size_t>(len));
      for (auto& v : values) v = uint8_t(rng.next() % 3 == 0);
      std::vector<bool> valid = make_flags(p, len, uint64_t(len));
      ColumnPtr mask = on_test_device(host_column<uint8_t>(TypeId::Bool, values, valid));
      std::vector<std::optional<int64_t>> want;
      for (int64_t i = 0; i < len; ++i)
        if ((valid.empty() || valid[size_t(i)]) && values[size_t(i)]) want.push_back(i);
      ColumnPtr got = selected_rows(mask);
      EXPECT_EQ(got->type(), TypeId::Int64);
      EXPECT_EQ(read_values<int64_t>(got), want);
    }
  }
  EXPECT_THROW_CODE(selected_rows(on_test_device(host_column<int32_t>(TypeId::Int32, {1}))), ErrorCode::Dtype);
}

TEST(exec, compose_rows_sees_a_map_through_another) {
  for (int64_t len : edge_lengths()) {
    SCOPED_TRACE("len=" + std::to_string(len));
    Rng rng{uint64_t(len) + 3};
    std::vector<int64_t> outer(static_cast<size_t>(len)), inner;
    for (auto& o : outer) o = rng.coin(10) ? -1 : int64_t(rng.next() % 1000);
    for (int64_t i = 0; i < len * 2 && len > 0; ++i) inner.push_back(rng.coin(10) ? -1 : int64_t(rng.next() % uint64_t(len)));
    ColumnPtr a = on_test_device(host_column<int64_t>(TypeId::Int64, outer));
    ColumnPtr b = on_test_device(host_column<int64_t>(TypeId::Int64, inner));
    std::vector<std::optional<int64_t>> want;
    for (int64_t i : inner) want.push_back(i < 0 ? -1 : outer[size_t(i)]);
    EXPECT_EQ(read_values<int64_t>(compose_rows(a->view(), b->view())), want);
  }
  ColumnPtr i32 = on_test_device(host_column<int32_t>(TypeId::Int32, {0}));
  ColumnPtr i64 = on_test_device(host_column<int64_t>(TypeId::Int64, {0}));
  EXPECT_THROW_CODE(compose_rows(i32->view(), i64->view()), ErrorCode::InvalidArgument);
}

TEST(exec, rows_bitmap_sets_the_selected_rows_bits) {
  for (int64_t len : edge_lengths()) {
    for (int64_t offset : {0, 5}) {
      for (bool with_and : {false, true}) {
        SCOPED_TRACE("len=" + std::to_string(len) + " offset=" + std::to_string(offset) + " and=" + std::to_string(with_and));
        Rng rng{uint64_t(len) * 3 + uint64_t(offset)};
        std::vector<int64_t> rows;
        for (int64_t i = 0; i < len; ++i)
          if (rng.coin(60)) rows.push_back(i);
        std::vector<uint8_t> other = random_bytes(size_t(bitmap_bytes(offset + len)), uint64_t(len) + 11);
        ColumnPtr other_dev = on_test_device(host_column<uint8_t>(TypeId::UInt8, other));
        ColumnPtr rc = on_test_device(host_column<int64_t>(TypeId::Int64, rows));
        BufferPtr bits = rows_bitmap(rc->view(), len, offset, with_and ? other_dev->data()->data() : nullptr);
        // Read the bitmap back through a column that uses it as validity (its values buffer
        // must hold offset + len bytes: reading it back copies them).
        BufferPtr values = Buffer::allocate(*rc->view().device, size_t(std::max<int64_t>(offset + len, 1)));
        ColumnPtr probe = std::make_shared<Column>(*rc->view().device, TypeId::UInt8, len, values, nullptr, bits,
                                                   kUnknownNullCount, offset);
        std::vector<bool> got = read_validity(probe), want(size_t(len), false);
        for (int64_t r : rows) want[size_t(r)] = !with_and || ref_get(other, offset + r);
        EXPECT_EQ(got, want);
      }
    }
  }
}

TEST(exec, relation_take_and_slice_move_no_column_until_read) {
  const std::vector<int64_t> v{10, 11, 12, 13, 14, 15, 16};
  const std::vector<std::optional<std::string>> s{"a", std::nullopt, "c", "d", "é", "f", "日本"};
  exec::Relation r(test_device(), 7);
  r.add("v", on_test_device(host_column<int64_t>(TypeId::Int64, v)));
  r.add("s", on_test_device(host_strings(TypeId::Utf8, s)));
  // Rows 6, 0, 2, 4, then of those rows 3, -1 (a null row), 0.
  exec::Relation a = r.take(on_test_device(host_column<int64_t>(TypeId::Int64, {6, 0, 2, 4})), exec::TakeRows::Permuted);
  EXPECT_TRUE(a.cell(0)->map() != nullptr);
  EXPECT_TRUE(a.cell(0)->map() == a.cell(1)->map());  // columns that went through the same rows share the map
  EXPECT_TRUE(a.cell(0)->base() == r.cell(0)->base());
  exec::Relation b = a.take(on_test_device(host_column<int64_t>(TypeId::Int64, {3, -1, 0})), exec::TakeRows::WithMissing);
  EXPECT_TRUE(b.cell(0)->base() == r.cell(0)->base());  // still the base column, through the composed map
  using OI = std::optional<int64_t>;
  EXPECT_EQ(read_values<int64_t>(b.cell("v")->values()), (std::vector<OI>{14, std::nullopt, 16}));
  EXPECT_EQ(read_strings(b.cell("s")->values()), (std::vector<std::optional<std::string>>{"é", std::nullopt, "日本"}));
  exec::Relation c = a.slice(1, 2);
  EXPECT_EQ(c.height(), 2);
  EXPECT_EQ(read_values<int64_t>(c.cell("v")->values()), (std::vector<OI>{10, 12}));
  EXPECT_EQ(read_values<int64_t>(r.slice(5, 10).cell("v")->values()), (std::vector<OI>{15, 16}));
  EXPECT_THROW_CODE(r.cell("nope"), ErrorCode::ColumnNotFound);
}

TEST(exec, plan_of_filter_join_aggregate_sort) {
  // orders(k, amount) filtered by amount > 2, joined to names(k, name), summed per name, sorted.
  exec::Plan plan;
  exec::Frame orders;
  orders.names = {"k", "amount"};
  orders.columns = {on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2, 1, 3, 2, 1, 4})),
                    on_test_device(host_column<double>(TypeId::Float64, {5, 1, 3, 7, 4, 2, 9}, {true, true, true, true, true, true, false}))};
  orders.rows = 7;
  exec::Frame names;
  names.names = {"k", "name"};
  names.columns = {on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2, 3})),
                   on_test_device(host_strings(TypeId::Utf8, {"one", "two", "three"}))};
  names.rows = 3;
  plan.frames = {orders, names};

  exec::PlanNode scan_o;
  scan_o.kind = exec::NodeKind::Scan;
  scan_o.frame = 0;
  scan_o.columns = {0, 1};
  scan_o.names = {"k", "amount"};
  exec::PlanNode filter;
  filter.kind = exec::NodeKind::Filter;
  filter.inputs = {0};
  filter.predicate = compare("amount", "gt", 2);
  exec::PlanNode scan_n;
  scan_n.kind = exec::NodeKind::Scan;
  scan_n.frame = 1;
  scan_n.columns = {0, 1};
  scan_n.names = {"k", "name"};
  exec::PlanNode join;
  join.kind = exec::NodeKind::Join;
  join.inputs = {1, 2};
  join.join.left_on = {"k"};
  join.join.right_on = {"k"};
  join.join.outputs = {{exec::JoinOutput::From::Key, "", 0, "k"},
                       {exec::JoinOutput::From::Left, "amount", -1, "amount"},
                       {exec::JoinOutput::From::Right, "name", -1, "name"}};
  exec::PlanNode agg;
  agg.kind = exec::NodeKind::Aggregate;
  agg.inputs = {3};
  agg.aggregate.keys = {{"name", column("name")}};
  agg.aggregate.inputs = {column("amount")};
  agg.aggregate.slots = {exec::AggSlot{"sum", {}, {0}}, exec::AggSlot{"len", {}, {}}};
  agg.aggregate.outputs = {{"total", column("__gpudf_agg_0")}, {"n", column("__gpudf_agg_1")}};
  exec::PlanNode sort;
  sort.kind = exec::NodeKind::Sort;
  sort.inputs = {4};
  sort.sort.keys = {column("total")};
  sort.sort.descending = {true};
  sort.sort.nulls_last = {true};
  plan.nodes = {scan_o, filter, scan_n, join, agg, sort};

  exec::Result r = exec::execute(plan, test_device(), true);
  EXPECT_EQ(r.names, (std::vector<std::string>{"name", "total", "n"}));
  EXPECT_EQ(r.rows, 3);
  EXPECT_EQ(read_strings(r.columns[0]), (std::vector<std::optional<std::string>>{"one", "three", "two"}));
  EXPECT_EQ(read_values<double>(r.columns[1]), (std::vector<std::optional<double>>{8, 7, 4}));
  EXPECT_EQ(read_values<int64_t>(r.columns[2]), (std::vector<std::optional<int64_t>>{2, 1, 1}));
  EXPECT_EQ(r.profile.size(), size_t(7));  // six operators and the materialisation
  EXPECT_EQ(r.profile[1].rows_in, 7);
  EXPECT_EQ(r.profile[1].rows_out, 4);  // 5, 3, 7, 4 (the null amount is not > 2)

  // A malformed plan is an error, never a crash.
  exec::Plan bad = plan;
  bad.nodes[1].inputs = {5};
  EXPECT_THROW_CODE(exec::execute(bad, test_device()), ErrorCode::InvalidArgument);
  bad = plan;
  bad.nodes[0].frame = 9;
  EXPECT_THROW_CODE(exec::execute(bad, test_device()), ErrorCode::InvalidArgument);
  bad = plan;
  bad.nodes[1].predicate = compare("nope", "gt", 2);
  EXPECT_THROW_CODE(exec::execute(bad, test_device()), ErrorCode::ColumnNotFound);
}

TEST(exec, reducer_semi_join_runs_only_against_a_much_smaller_right_side) {
  // facts(k): 0..19 % 5; keys(k): {1, 3}. As a reducer with ratio r the semi join runs when
  // 20 >= r * 2, else every fact row passes.
  exec::Plan plan;
  exec::Frame facts;
  std::vector<int32_t> ks;
  for (int32_t i = 0; i < 20; ++i) ks.push_back(i % 5);
  facts.names = {"k"};
  facts.columns = {on_test_device(host_column<int32_t>(TypeId::Int32, ks))};
  facts.rows = 20;
  exec::Frame keys;
  keys.names = {"k"};
  keys.columns = {on_test_device(host_column<int32_t>(TypeId::Int32, {1, 3}))};
  keys.rows = 2;
  plan.frames = {facts, keys};
  exec::PlanNode scan_f;
  scan_f.kind = exec::NodeKind::Scan;
  scan_f.frame = 0;
  scan_f.columns = {0};
  scan_f.names = {"k"};
  exec::PlanNode scan_k = scan_f;
  scan_k.frame = 1;
  exec::PlanNode semi;
  semi.kind = exec::NodeKind::Join;
  semi.inputs = {0, 1};
  semi.join.how = JoinHow::Semi;
  semi.join.left_on = {"k"};
  semi.join.right_on = {"k"};
  semi.join.outputs = {{exec::JoinOutput::From::Left, "k", -1, "k"}};
  plan.nodes = {scan_f, scan_k, semi};

  for (int64_t ratio : {0, 10, 11}) {
    plan.nodes[2].join.reducer_ratio = ratio;
    exec::Result r = exec::execute(plan, test_device());
    std::vector<std::optional<int32_t>> want;
    for (int32_t k : ks)
      if (ratio == 11 || k == 1 || k == 3) want.push_back(k);
    EXPECT_EQ(read_values<int32_t>(r.columns[0]), want);
  }
}
