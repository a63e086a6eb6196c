// ops/expr and ops/filter: the shared per-element rules (numeric.hpp, text.hpp) against
// hand-computed values, and compile + run + filter end to end on the test device.
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ops/expr/eval_element.hpp"
#include "ops/expr/expr.hpp"
#include "ops/filter/filter.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::expr;
using namespace gpudf::testing;

namespace {

Slot str_slot(const std::string& s) {
  Slot v;
  v.s = s.data();
  v.n = int64_t(s.size());
  return v;
}

NodeSpec node(std::string op, std::vector<int32_t> args = {}) {
  NodeSpec s;
  s.op = std::move(op);
  s.args = std::move(args);
  return s;
}
NodeSpec column_node(std::string name) {
  NodeSpec s = node("col");
  s.name = std::move(name);
  return s;
}
NodeSpec number_node(double v) {
  NodeSpec s = node("lit");
  s.value.kind = LiteralSpec::Kind::Number;
  s.value.number = v;
  return s;
}

Frame frame_of(std::vector<std::string> names, std::vector<ColumnPtr> cols) {
  Frame f;
  f.rows = cols.empty() ? 0 : cols[0]->size();
  f.names = std::move(names);
  for (auto& c : cols) f.columns.push_back(on_test_device(c));
  return f;
}

}  // namespace

TEST(expr, integer_rules_wrap_and_floor) {
  EXPECT_EQ(wrap_to(TypeId::Int8, 128), int64_t(-128));
  EXPECT_EQ(wrap_to(TypeId::UInt16, -1), int64_t(65535));
  EXPECT_EQ(int_add(TypeId::Int64, INT64_MAX, 1), INT64_MIN);
  EXPECT_EQ(int_mul(TypeId::Int32, 65536, 65536), int64_t(0));
  bool ok = true;
  EXPECT_EQ(int_floor_div(TypeId::Int32, -7, 2, ok), int64_t(-4));
  EXPECT_EQ(int_floor_div(TypeId::Int64, INT64_MIN, -1, ok), INT64_MIN);
  EXPECT_EQ(int_floor_div(TypeId::Int8, -128, -1, ok), int64_t(-128));
  EXPECT_EQ(int_mod(TypeId::Int32, 7, -2, ok), int64_t(-1));
  EXPECT_EQ(int_mod(TypeId::Int32, -7, 2, ok), int64_t(1));
  EXPECT_TRUE(ok);
  int_mod(TypeId::Int32, 7, 0, ok);
  EXPECT_FALSE(ok);
  ok = true;
  EXPECT_EQ(int_floor_div(TypeId::UInt64, -1 /* 2^64-1 */, 2, ok), int64_t(INT64_MAX));
  EXPECT_EQ(int_pow(TypeId::Int32, 3, 4, false, ok), int64_t(81));
  int_pow(TypeId::Int32, 3, -1, false, ok);
  EXPECT_FALSE(ok);
  EXPECT_EQ(float_mod(2.0, -2.5), -0.5);
  EXPECT_EQ(round_decimals(2.5, 0), 2.0);
  EXPECT_EQ(round_decimals(-0.5, 0), -0.0);
}

TEST(expr, exact_mixed_comparison_and_nan_order) {
  const int64_t big = (int64_t(1) << 53) + 1;
  EXPECT_EQ(cmp_i64_f64(big, 9007199254740992.0), 1);
  EXPECT_EQ(cmp_i64_f64(INT64_MAX, 9223372036854775808.0), -1);
  EXPECT_EQ(cmp_i64_f64(-3, -2.5), -1);
  EXPECT_EQ(cmp_u64_f64(UINT64_MAX, 18446744073709551616.0), -1);
  EXPECT_EQ(cmp_f64(NAN, NAN), 0);
  EXPECT_EQ(cmp_f64(NAN, INFINITY), 1);
  Slot a, b;
  a.i = -1;
  b.u = UINT64_MAX;
  EXPECT_EQ(compare_values(a, Lane::Int, b, Lane::UInt64), -1);
  EXPECT_EQ(cmp_str("ab", 2, "abc", 3), -1);
  EXPECT_EQ(cmp_str("\xc3\xa9", 2, "z", 1), 1);  // é sorts after z by bytes
}

TEST(expr, casts_are_non_strict) {
  bool ok = true;
  Slot v;
  v.f = 300.5;
  cast_value(v, TypeId::Float64, TypeId::Int8, ok);
  EXPECT_FALSE(ok);
  ok = true;
  v.f = -1.7;
  EXPECT_EQ(cast_value(v, TypeId::Float64, TypeId::Int8, ok).i, int64_t(-1));
  v.i = -1;
  EXPECT_EQ(cast_value(v, TypeId::Date32, TypeId::TimestampMs, ok).i, int64_t(-86400000));
  v.i = -1;
  EXPECT_EQ(cast_value(v, TypeId::TimestampMs, TypeId::Date32, ok).i, int64_t(-1));
  EXPECT_TRUE(ok);
}

TEST(expr, utf8_and_calendar_rules) {
  std::string s = "h\xc3\xa9llo \xf0\x9f\xa6\x80";  // "héllo 🦀"
  EXPECT_EQ(utf8_length(s.data(), int64_t(s.size())), int64_t(7));
  Slot sl = utf8_slice(str_slot(s), -2, 1);
  EXPECT_EQ(std::string(sl.s, size_t(sl.n)), std::string(" "));
  sl = utf8_slice(str_slot(s), 1, 2);
  EXPECT_EQ(std::string(sl.s, size_t(sl.n)), std::string("\xc3\xa9l"));
  EXPECT_TRUE(str_contains(str_slot(s), str_slot("\xf0\x9f\xa6\x80")));
  EXPECT_FALSE(str_ends_with(str_slot("a"), str_slot("ba")));
  CivilDate d = civil_from_days(19782);  // 2024-02-29
  EXPECT_EQ(d.year, int64_t(2024));
  EXPECT_EQ(d.month, 2);
  EXPECT_EQ(d.day, 29);
  EXPECT_EQ(temporal_field(Op::Weekday, TypeId::Date32, 19782), int64_t(4));
  EXPECT_EQ(temporal_field(Op::Hour, TypeId::TimestampS, -1), int64_t(23));
  EXPECT_EQ(temporal_field(Op::Year, TypeId::TimestampNs, -1), int64_t(1969));
}

TEST(expr, sql_like_matches_characters) {
  auto like = [](const std::string& s, const std::string& p) { return str_like(str_slot(s), str_slot(p)); };
  EXPECT_TRUE(like("", ""));
  EXPECT_FALSE(like("a", ""));
  EXPECT_TRUE(like("", "%%"));
  EXPECT_FALSE(like("", "_"));
  EXPECT_TRUE(like("h\xc3\xa9llo", "h_llo"));     // é is one character of two bytes
  EXPECT_FALSE(like("h\xc3\xa9llo", "h__llo"));
  EXPECT_TRUE(like("\xf0\x9f\xa6\x80x", "_x"));  // 🦀x
  EXPECT_FALSE(like("\xf0\x9f\xa6\x80x", "%__x"));
  EXPECT_TRUE(like("xx special big requests", "%special%requests"));
  EXPECT_FALSE(like("requests special", "%special%requests%"));
  EXPECT_TRUE(like("aXbXc", "a%b%c"));
  EXPECT_FALSE(like("aXbXcd", "a%b%c"));
  EXPECT_TRUE(like("abcabc", "%abc"));                 // backtracks past a first partial match
  EXPECT_TRUE(like("mississippi", "%s_i%p_"));
}

TEST(expr, compile_and_run_end_to_end) {
  // (a * 2 + 1) > b  with a int32 (some nulls), b float64, over a multi-block length.
  const int64_t n = 100003;
  std::vector<int32_t> a(static_cast<size_t>(n));
  std::vector<double> b(static_cast<size_t>(n));
  std::vector<bool> va(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    a[size_t(i)] = int32_t(i - 50000);
    b[size_t(i)] = double(i % 7) - 3.5;
    va[size_t(i)] = i % 4 != 1;
  }
  Frame f = frame_of({"a", "b"}, {host_column(TypeId::Int32, a, va), host_column(TypeId::Float64, b)});
  std::vector<NodeSpec> specs = {column_node("a"), number_node(2), node("mul", {0, 1}), number_node(1),
                                 node("add", {2, 3}), column_node("b"), node("gt", {4, 5})};
  ColumnPtr out = evaluate(specs, f, test_device());
  EXPECT_EQ(out->type(), TypeId::Bool);
  std::vector<std::optional<uint8_t>> got = read_values<uint8_t>(out);
  std::vector<std::optional<uint8_t>> want(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    if (va[size_t(i)]) want[size_t(i)] = uint8_t(double(2 * int64_t(a[size_t(i)]) + 1) > b[size_t(i)]);
  EXPECT_EQ(got, want);

  // filter by that mask: the kept rows of a, on both backends' compaction.
  std::vector<ColumnPtr> kept = filter({f.columns[0]}, out);
  std::vector<std::optional<int32_t>> kept_want;
  for (int64_t i = 0; i < n; ++i)
    if (want[size_t(i)].value_or(0)) kept_want.push_back(a[size_t(i)]);
  EXPECT_EQ(read_values<int32_t>(kept[0]), kept_want);
}

TEST(expr, strings_materialise_and_filter) {
  Frame f = frame_of({"s"}, {host_strings(TypeId::Utf8, {"Ab", std::nullopt, "\xc3\xa9x", "", "zz"})});
  ColumnPtr up = evaluate({column_node("s"), node("str.toUpperCase", {0})}, f, test_device());
  EXPECT_EQ(read_strings(up), (std::vector<std::optional<std::string>>{"AB", std::nullopt, "\xc3\x89X", "", "ZZ"}));
  NodeSpec sl = node("str.slice", {0});
  sl.params = {1, -1};
  ColumnPtr tail = evaluate({column_node("s"), sl}, f, test_device());
  EXPECT_EQ(read_strings(tail), (std::vector<std::optional<std::string>>{"b", std::nullopt, "x", "", "z"}));
  ColumnPtr mask = on_test_device(host_column<uint8_t>(TypeId::Bool, {1, 1, 1, 0, 1}, {true, true, true, true, false}));
  std::vector<ColumnPtr> kept = filter({f.columns[0]->slice(0, 5)}, mask);
  EXPECT_EQ(read_strings(kept[0]), (std::vector<std::optional<std::string>>{"Ab", std::nullopt, "\xc3\xa9x"}));
}

TEST(expr, errors_are_typed) {
  Frame f = frame_of({"a", "s"}, {host_column<int32_t>(TypeId::Int32, {1}), host_strings(TypeId::Utf8, {"x"})});
  EXPECT_THROW_CODE(evaluate({column_node("zz")}, f, test_device()), ErrorCode::ColumnNotFound);
  EXPECT_THROW_CODE(evaluate({column_node("a"), node("str.len", {0})}, f, test_device()), ErrorCode::Dtype);
  EXPECT_THROW_CODE(evaluate({column_node("s"), number_node(1), node("add", {0, 1})}, f, test_device()), ErrorCode::Dtype);
  EXPECT_THROW_CODE(evaluate({column_node("a"), node("bogus", {0})}, f, test_device()), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(filter({f.columns[0]}, f.columns[0]), ErrorCode::Dtype);
}
