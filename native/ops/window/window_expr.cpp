// Window functions inside expressions: sequence nodes over materialised operands, and `over`.
#include "ops/window/window_expr.hpp"

#include <map>
#include <set>

#include "core/error.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/sort/sort.hpp"
#include "ops/window/window.hpp"

namespace gpudf::window {
namespace {

using expr::LiteralSpec;
using expr::NodeSpec;

/// A small expression over given columns, built node by node and evaluated on their device.
class Tiny {
 public:
  int32_t col(const ColumnPtr& c) {
    frame_.names.push_back("c" + std::to_string(frame_.names.size()));
    frame_.columns.push_back(c);
    frame_.rows = c->size();
    NodeSpec n;
    n.op = "col";
    n.name = frame_.names.back();
    return push(std::move(n));
  }
  int32_t lit_int(int64_t v, TypeId t) {
    NodeSpec n;
    n.op = "lit";
    n.value.kind = LiteralSpec::Kind::BigInt;
    n.value.bigint = v;
    n.dtype = int32_t(t);
    return push(std::move(n));
  }
  int32_t op(const std::string& name, std::vector<int32_t> args, int32_t dtype = -1) {
    NodeSpec n;
    n.op = name;
    n.args = std::move(args);
    n.dtype = dtype;
    return push(std::move(n));
  }
  int32_t cast(int32_t a, TypeId t) { return op("cast", {a}, int32_t(t)); }
  ColumnPtr run(Device& device) { return expr::evaluate(specs_, frame_, device); }

 private:
  int32_t push(NodeSpec n) {
    specs_.push_back(std::move(n));
    return int32_t(specs_.size()) - 1;
  }
  std::vector<NodeSpec> specs_;
  expr::Frame frame_;
};

ColumnPtr cast_to(const ColumnPtr& c, TypeId t, Device& device) {
  if (c->type() == t) return c;
  Tiny e;
  e.cast(e.col(c), t);
  return e.run(device);
}

bool is_numeric_or_temporal(TypeId t) {
  return (t >= TypeId::Int8 && t <= TypeId::Float64) || expr::is_temporal_type(t) || is_duration(t);
}

int64_t param_or(const NodeSpec& s, size_t k, int64_t otherwise = 0) { return k < s.params.size() ? s.params[k] : otherwise; }

/// Rows shifted down by n within their segment (null where no such row).
ColumnPtr shifted(const ColumnPtr& values, int64_t n, const ColumnPtr& segments, Device& device, ColumnPtr* rows_out = nullptr) {
  ColumnPtr rows = shift_rows(device, values->size(), n, segments);
  if (rows_out) *rows_out = rows;
  return gather_or_null(values->view(), rows->view(), true);
}

/// Nulls replaced by the last non-null value before them in their segment.
ColumnPtr forward_filled(const ColumnPtr& values, const ColumnPtr& segments, Device& device) {
  if (!values->has_validity()) return values;
  Tiny e;
  const int32_t a = e.col(values);
  const int32_t idx = e.col(row_index(device, values->size(), 0, TypeId::Int64));
  e.op("when", {e.op("isNotNull", {a}), idx, e.lit_int(-1, TypeId::Int64)});
  ColumnPtr last = scan(e.run(device), ScanOp::Max, false, segments);
  return gather_or_null(values->view(), last->view(), true);
}

}  // namespace

bool is_window_op(const std::string& op) {
  static const std::set<std::string> ops = {"cumSum", "cumProd", "cumMin", "cumMax", "cumCount", "shift", "diff",
                                            "pctChange", "rank", "isFirstDistinct", "isDuplicated", "isUnique"};
  return ops.count(op) != 0 || is_rolling_op(op);
}

ColumnPtr cast_column(const ColumnPtr& c, TypeId t, Device& device) { return cast_to(c, t, device); }

ColumnPtr evaluate_node(const NodeSpec& s, const std::vector<ColumnPtr>& operands, const ColumnPtr& segments, Device& device) {
  GPUDF_EXPECTS(!operands.empty(), InvalidArgument, "'" + s.op + "' is missing an operand");
  const ColumnPtr& a = operands[0];
  const TypeId t = a->type();
  const std::string& o = s.op;
  const bool reverse = param_or(s, 0) != 0;
  auto numeric = [&]() {
    GPUDF_EXPECTS(is_numeric_or_temporal(t), Dtype, "'" + o + "' is not supported for dtype " + std::string(type_name(t)));
  };
  if (o == "cumSum") return scan(cast_to(a, cum_sum_type(t), device), ScanOp::Sum, reverse, segments);
  if (o == "cumProd") return scan(cast_to(a, cum_prod_type(t), device), ScanOp::Prod, reverse, segments);
  if (o == "cumMin" || o == "cumMax") {
    numeric();
    return scan(a, o == "cumMin" ? ScanOp::Min : ScanOp::Max, reverse, segments);
  }
  if (o == "cumCount") {
    Tiny e;
    e.cast(e.op("isNotNull", {e.col(a)}), TypeId::UInt32);
    return scan(e.run(device), ScanOp::Sum, reverse, segments);
  }
  if (o == "shift") {
    ColumnPtr rows;
    ColumnPtr out = shifted(a, param_or(s, 0, 1), segments, device, &rows);
    if (operands.size() < 2) return out;
    Tiny e;
    const int32_t v = e.col(out), r = e.col(rows);
    e.op("when", {e.op("gte", {r, e.lit_int(0, TypeId::Int64)}), v, e.col(operands[1])});
    return e.run(device);
  }
  if (o == "diff") {
    ColumnPtr x = cast_to(a, diff_type(t), device);
    Tiny e;
    e.op("sub", {e.col(x), e.col(shifted(x, param_or(s, 0, 1), segments, device))});
    return e.run(device);
  }
  if (o == "pctChange") {
    GPUDF_EXPECTS(t >= TypeId::Int8 && t <= TypeId::Float64, Dtype,
                  "'pctChange' is not supported for dtype " + std::string(type_name(t)));
    const TypeId ft = t == TypeId::Float32 ? TypeId::Float32 : TypeId::Float64;
    ColumnPtr f = cast_to(forward_filled(a, segments, device), ft, device);
    ColumnPtr before = shifted(f, param_or(s, 0, 1), segments, device);
    Tiny e;
    const int32_t x = e.col(f), y = e.col(before);
    e.op("div", {e.op("sub", {x, y}), y});
    return e.run(device);
  }
  if (o == "rank") {
    const int64_t m = param_or(s, 0);
    GPUDF_EXPECTS(m >= 0 && m <= 4, InvalidArgument, "unknown rank method");
    GPUDF_EXPECTS(is_numeric_or_temporal(t) || is_string(t) || t == TypeId::Bool, Dtype,
                  "'rank' is not supported for dtype " + std::string(type_name(t)));
    return rank(a, RankMethod(m), param_or(s, 1) != 0, segments);
  }
  if (is_rolling_op(o)) return evaluate_rolling(s, operands, segments, device);
  if (o == "isFirstDistinct") return distinct_flags(a, DistinctFlag::First, segments);
  if (o == "isDuplicated") return distinct_flags(a, DistinctFlag::Duplicated, segments);
  if (o == "isUnique") return distinct_flags(a, DistinctFlag::Unique, segments);
  GPUDF_FAIL(InvalidArgument, "unknown window op '" + o + "'");
}

std::vector<uint8_t> outside_over(const std::vector<NodeSpec>& specs) {
  std::vector<uint8_t> live(specs.size(), 0);
  if (specs.empty()) return live;
  live.back() = 1;
  for (size_t j = specs.size(); j-- > 0;) {
    if (!live[j] || specs[j].op == "over") continue;
    for (int32_t a : specs[j].args)
      if (a >= 0 && size_t(a) < j) live[size_t(a)] = 1;
  }
  return live;
}

std::vector<NodeSpec> subtree_of(const std::vector<NodeSpec>& specs, int32_t root) {
  std::map<int32_t, int32_t> renumber;
  std::vector<NodeSpec> out;
  auto visit = [&](auto&& self, int32_t j) -> int32_t {
    auto it = renumber.find(j);
    if (it != renumber.end()) return it->second;
    GPUDF_EXPECTS(j >= 0 && size_t(j) < specs.size(), InvalidArgument, "malformed expression");
    NodeSpec n = specs[size_t(j)];
    for (int32_t& a : n.args) a = self(self, a);
    out.push_back(std::move(n));
    renumber[j] = int32_t(out.size()) - 1;
    return int32_t(out.size()) - 1;
  };
  visit(visit, root);
  return out;
}

}  // namespace gpudf::window
