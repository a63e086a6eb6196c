// Rolling window nodes inside expressions (rollingSum ... rollingQuantileBy): the node's
// parameters read, the operands cast to the kernel's dtype, the window bounds built and the
// aggregation run (ops/window/rolling.hpp).
//
// Fixed nodes: args [values], params [window, minPeriods, center, ddof, interpolation],
// list [quantile, weights...]. By nodes: args [values, by], params [months, seconds, nanos,
// index window (0/1), minPeriods, closed, ddof, interpolation], list [quantile].
#include <map>

#include "core/error.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/window/rolling.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::window {
namespace {

using expr::NodeSpec;

const std::map<std::string, RollKind>& kinds() {
  static const std::map<std::string, RollKind> k = {
      {"Sum", RollKind::Sum}, {"Mean", RollKind::Mean}, {"Min", RollKind::Min},         {"Max", RollKind::Max},
      {"Var", RollKind::Var}, {"Std", RollKind::Std},   {"Median", RollKind::Quantile}, {"Quantile", RollKind::Quantile},
  };
  return k;
}

/// "rollingMeanBy" -> (Mean, by = true); false when `op` is no rolling op.
bool parse_op(const std::string& op, RollKind& kind, bool& by, bool& median) {
  if (op.rfind("rolling", 0) != 0) return false;
  std::string rest = op.substr(7);
  by = rest.size() > 2 && rest.compare(rest.size() - 2, 2, "By") == 0;
  if (by) rest.resize(rest.size() - 2);
  auto it = kinds().find(rest);
  if (it == kinds().end()) return false;
  kind = it->second;
  median = rest == "Median";
  return true;
}

int64_t param(const NodeSpec& s, size_t k) {
  GPUDF_EXPECTS(k < s.params.size(), InvalidArgument, "'" + s.op + "' is missing a parameter");
  return s.params[k];
}

double number(const NodeSpec& s, size_t k) {
  GPUDF_EXPECTS(k < s.list.size() && s.list[k].kind == expr::LiteralSpec::Kind::Number, InvalidArgument,
                "'" + s.op + "' is missing a number");
  return s.list[k].number;
}

/// Nanoseconds in one tick of a temporal dtype.
int64_t tick_nanos(TypeId t) {
  switch (t) {
    case TypeId::Date32: return 86'400'000'000'000;
    case TypeId::TimestampS: return 1'000'000'000;
    case TypeId::TimestampMs: return 1'000'000;
    case TypeId::TimestampUs: return 1'000;
    default: return 1;
  }
}

/// The window span in ticks of the `by` column's dtype.
int64_t span_of(const NodeSpec& s, TypeId by) {
  const int64_t months = param(s, 0), seconds = param(s, 1), nanos = param(s, 2);
  const bool index = param(s, 3) != 0;
  const bool integer = by >= TypeId::Int8 && by <= TypeId::UInt64;
  GPUDF_EXPECTS(integer || expr::is_temporal_type(by), Dtype,
                "'" + s.op + "': by must be an integer, date or timestamp column, not " + std::string(type_name(by)));
  if (integer) {
    GPUDF_EXPECTS(index, InvalidArgument,
                  "'" + s.op + "': an integer by column takes an index window such as \"3i\"");
    return seconds;
  }
  GPUDF_EXPECTS(!index, InvalidArgument, "'" + s.op + "': an index window (\"3i\") needs an integer by column");
  GPUDF_EXPECTS(months == 0, InvalidArgument,
                "'" + s.op + "': calendar windows (mo, q, y) are not supported; write the span in days or finer units");
  const int64_t unit = tick_nanos(by);
  const __int128 total = __int128(seconds) * 1'000'000'000 + nanos;
  GPUDF_EXPECTS(total % unit == 0, InvalidArgument,
                "'" + s.op + "': the window must be a whole number of the by column's units (" +
                    std::string(type_name(by)) + ")");
  return int64_t(total / unit);
}

}  // namespace

bool is_rolling_op(const std::string& op) {
  RollKind k;
  bool by = false, median = false;
  return parse_op(op, k, by, median);
}

ColumnPtr evaluate_rolling(const NodeSpec& s, const std::vector<ColumnPtr>& operands, const ColumnPtr& segments,
                           Device& device) {
  RollKind kind = RollKind::Sum;
  bool by = false, median = false;
  GPUDF_EXPECTS(parse_op(s.op, kind, by, median), InvalidArgument, "unknown rolling op '" + s.op + "'");
  GPUDF_EXPECTS(operands.size() == (by ? 2u : 1u), InvalidArgument, "'" + s.op + "' has the wrong operands");
  const ColumnPtr& values = operands[0];
  RollOptions o;
  o.kind = kind;
  Bounds bounds;
  if (!by) {
    const int64_t window = param(s, 0);
    GPUDF_EXPECTS(window >= 1, InvalidArgument, "'" + s.op + "': windowSize must be a positive integer");
    const bool center = param(s, 2) != 0;
    o.min_periods = param(s, 1);
    o.ddof = param(s, 3);
    o.interp = Interpolation(param(s, 4));
    o.q = median ? 0.5 : number(s, 0);
    if (median) o.interp = Interpolation::Linear;
    for (size_t k = 1; k < s.list.size(); ++k) o.weights.push_back(number(s, k));
    GPUDF_EXPECTS(o.weights.empty() || int64_t(o.weights.size()) == window, InvalidArgument,
                  "'" + s.op + "': weights must have windowSize values");
    o.left = center ? window / 2 : window - 1;
    bounds = fixed_bounds(device, values->size(), window, center, segments);
  } else {
    const ColumnPtr& t = operands[1];
    GPUDF_EXPECTS(t->size() == values->size(), InvalidArgument, "'" + s.op + "': by has a different length");
    const int64_t span = span_of(s, t->type());
    GPUDF_EXPECTS(span >= 1, InvalidArgument, "'" + s.op + "': the window must be positive");
    GPUDF_EXPECTS(t->null_count() == 0, InvalidArgument, "'" + s.op + "': the by column must not hold nulls");
    o.min_periods = param(s, 4);
    const int64_t closed = param(s, 5);
    GPUDF_EXPECTS(closed >= 0 && closed <= 3, InvalidArgument, "'" + s.op + "': unknown closed");
    o.ddof = param(s, 6);
    o.interp = Interpolation(param(s, 7));
    o.q = median ? 0.5 : number(s, 0);
    if (median) o.interp = Interpolation::Linear;
    ColumnPtr ticks = cast_column(t, TypeId::Int64, device);
    if (ticks->has_validity())  // no nulls: the same values without a bitmap
      ticks = std::make_shared<Column>(ticks->device(), TypeId::Int64, ticks->size(), ticks->data(), nullptr, nullptr, 0,
                                       ticks->offset());
    bounds = by_bounds(ticks, span, Closed(closed), segments);
  }
  GPUDF_EXPECTS(o.min_periods >= 0, InvalidArgument, "'" + s.op + "': minPeriods must not be negative");
  GPUDF_EXPECTS(o.ddof >= 0, InvalidArgument, "'" + s.op + "': ddof must not be negative");
  GPUDF_EXPECTS(int64_t(o.interp) >= 0 && int64_t(o.interp) <= 4, InvalidArgument, "'" + s.op + "': unknown interpolation");
  GPUDF_EXPECTS(o.q >= 0 && o.q <= 1, InvalidArgument, "'" + s.op + "': quantile must be in [0, 1]");
  const bool weighted = !o.weights.empty();
  GPUDF_EXPECTS(!weighted || kind != RollKind::Quantile, InvalidArgument,
                "'" + s.op + "': weights are not supported for rolling median or quantile");
  const TypeId result = rolling_type(values->type(), kind, weighted);
  TypeId kernel = result;
  if (weighted || (kind != RollKind::Sum && kind != RollKind::Min && kind != RollKind::Max)) kernel = TypeId::Float64;
  ColumnPtr out = rolling(cast_column(values, kernel, device), bounds, o);
  return cast_column(out, result, device);
}

}  // namespace gpudf::window
