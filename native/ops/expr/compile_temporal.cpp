// The expression compiler (compiler.hpp) for date and time nodes: calendar parts, the epoch,
// month starts and ends, truncate / round / offsetBy intervals, formatting as text, and time
// zones (UTC <-> local wall-clock time).
#include <cstdint>

#include "core/error.hpp"
#include "core/timezone.hpp"
#include "ops/expr/compiler.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/timezone/timezone.hpp"

namespace gpudf::expr {
namespace detail {

Val Compiler::temporal_text(const NodeSpec& s) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_temporal_type(a.type) && !is_duration(a.type)) bad(s.op, a.type);
  std::string format;
  if (s.value.kind == LiteralSpec::Kind::String) format = s.value.text;
  else GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null, InvalidArgument, "'" + s.op + "' expects a format string");
  return input_column(strings::format_temporal(materialised(a.node), format));
}

Val Compiler::zoned(const NodeSpec& s, bool to_local) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_timestamp(a.type)) bad(s.op, a.type);
  GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a time zone name");
  const TimeZonePtr zone = time_zone(s.value.text);
  if (to_local) return input_column(gpudf::to_local(materialised(a.node), *zone));
  GPUDF_EXPECTS(s.params.size() == 2 && s.params[0] >= 0 && s.params[0] <= 3 && s.params[1] >= 0 && s.params[1] <= 3,
                InvalidArgument,
                "'dt.fromLocal' needs [ambiguous, nonExistent] codes: ambiguous 0 raise, 1 earliest, 2 latest, 3 null; "
                "nonExistent 0 raise, 1 null, 2 shiftForward, 3 shiftBackward");
  return input_column(gpudf::from_local(materialised(a.node), *zone, Ambiguous(s.params[0]), NonExistent(s.params[1])));
}

Val Compiler::temporal(const NodeSpec& s, Op op) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_temporal_type(a.type)) bad(s.op, a.type);
  if (a.type == TypeId::Date32 && (op == Op::Hour || op == Op::Minute || op == Op::Second)) bad(s.op, a.type);
  const bool sub_day = op == Op::Hour || op == Op::Minute || op == Op::Second || op == Op::Millisecond ||
                       op == Op::Microsecond || op == Op::Nanosecond;
  if (a.type == TypeId::Date32 && sub_day) bad(s.op, a.type);
  TypeId t = TypeId::Int8;
  if (op == Op::Year || op == Op::IsoYear || op == Op::Millisecond || op == Op::Microsecond || op == Op::Nanosecond)
    t = TypeId::Int32;
  if (op == Op::OrdinalDay) t = TypeId::Int16;
  if (op == Op::Epoch) {
    GPUDF_EXPECTS(s.params.size() == 1 && s.params[0] >= 0 && s.params[0] <= 4, InvalidArgument, "dt.epoch needs a unit");
    return node_val(add(op, TypeId::Int64, {a.node}, s.params[0]));
  }
  if (op == Op::MonthStart || op == Op::MonthEnd) return node_val(add(op, a.type, {a.node}));
  return node_val(add(op, t, {a.node}));
}

Val Compiler::interval(const NodeSpec& s, Op op) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_temporal_type(a.type)) bad(s.op, a.type);
  GPUDF_EXPECTS(s.params.size() == 3, InvalidArgument, "'" + s.op + "' needs an interval");
  const int64_t months = s.params[0], secs = s.params[1], nanos = s.params[2];
  const int64_t per_day = units_per_day(a.type);
  int64_t fixed = 0;
  if (a.type == TypeId::Date32) {
    GPUDF_EXPECTS(nanos == 0 && secs % 86400 == 0, InvalidArgument,
                  "'" + s.op + "': a date32 moves by whole days; cast to a timestamp for finer intervals");
    fixed = secs / 86400;
  } else {
    const int64_t per_sec = per_day / 86400, ns_per_unit = 1000000000 / per_sec;
    GPUDF_EXPECTS(nanos % ns_per_unit == 0, InvalidArgument,
                  "'" + s.op + "': the interval is finer than the column's unit (" + std::string(type_name(a.type)) + ")");
    GPUDF_EXPECTS(secs < INT64_MAX / per_sec && secs > INT64_MIN / per_sec, InvalidArgument, "'" + s.op + "': the interval is too long");
    fixed = secs * per_sec + nanos / ns_per_unit;
  }
  if (op == Op::OffsetBy) return node_val(add(op, a.type, {a.node}, months, fixed));
  GPUDF_EXPECTS((months > 0) != (fixed > 0) && months >= 0 && fixed >= 0, InvalidArgument,
                "'" + s.op + "' needs a positive interval of either calendar months/years or fixed units (\"1mo\", \"15m\"), not both");
  return node_val(add(op, a.type, {a.node}, months, fixed));
}

}  // namespace detail

}  // namespace gpudf::expr
