// The expression compiler (compiler.hpp) for arithmetic on dates, timestamps and durations:
//   timestamp - timestamp -> duration of the finer unit; date - date -> duration[ms];
//   timestamp ± duration -> timestamp of the finer unit; date ± duration -> date (the sum is
//   floored to its day); duration ± duration, duration % duration -> duration of the finer unit;
//   duration * or / a number -> duration (a float product or quotient truncated toward zero);
//   duration // an integer -> duration (floor); duration / duration -> float64.
// Everything else that mixes a temporal operand with another is ERR_DTYPE. The nodes are plain
// int64 / float64 arithmetic over operands cast to one unit, so CPU and CUDA run them as any
// other node.
#include "core/error.hpp"
#include "ops/expr/compiler.hpp"
#include "ops/expr/numeric.hpp"

namespace gpudf::expr {
namespace detail {

namespace {

bool timed(TypeId t) { return is_temporal_type(t) || is_duration(t); }

/// The finer of two durations.
TypeId finer_duration(TypeId a, TypeId b) { return ticks_per_second(a) >= ticks_per_second(b) ? a : b; }

/// The timestamp a point is computed in next to a duration d: the finer of the two units.
TypeId point_unit(TypeId point, TypeId d) {
  const TypeId dt = timestamp_of(d);
  if (point == TypeId::Date32) return dt;
  return ticks_per_second(point) >= ticks_per_second(dt) ? point : dt;
}

}  // namespace

bool Compiler::temporal_operands(const Val& a, const Val& b) {
  auto fixed = [](const Val& v) { return v.weak == Weak::None && timed(v.type); };
  return fixed(a) || fixed(b);
}

Val Compiler::temporal_arithmetic(const NodeSpec& s, Op op, Val a, Val b) {
  // A bare null takes the dtype that makes the expression valid: a duration next to a point
  // or a duration (so the result is null of the point's or duration's dtype), else the other's.
  for (auto [x, y] : {std::pair<Val*, Val*>{&a, &b}, {&b, &a}}) {
    if (x->weak != Weak::Null) continue;
    x->weak = Weak::None;
    x->type = is_duration(y->type) ? y->type
              : y->type == TypeId::Date32 ? TypeId::DurationMs
              : is_timestamp(y->type) && op != Op::Mul && op != Op::Div ? duration_of(y->type)
                                                                        : y->type;
    x->node = emit_literal(LiteralSpec{}, x->type);
  }
  if (a.weak == Weak::None) emit_value(a);
  if (b.weak == Weak::None) emit_value(b);
  const TypeId ta = a.type, tb = b.type;
  const bool pa = is_temporal_type(ta) && a.weak == Weak::None, pb = is_temporal_type(tb) && b.weak == Weak::None;
  const bool da = is_duration(ta) && a.weak == Weak::None, db = is_duration(tb) && b.weak == Weak::None;
  auto fail = [&]() -> Val { bad_pair(s.op, a, ta, b, tb); };

  // point - point
  if (pa && pb && op == Op::Sub) {
    if (ta == TypeId::Date32 && tb == TypeId::Date32) {
      return node_val(add(Op::Sub, TypeId::DurationMs, {as(a, TypeId::TimestampMs), as(b, TypeId::TimestampMs)}));
    }
    const TypeId c = *value_supertype(ta, tb);
    return node_val(add(Op::Sub, duration_of(c), {as(a, c), as(b, c)}));
  }
  // point ± duration, duration + point
  if ((pa && db && (op == Op::Add || op == Op::Sub)) || (da && pb && op == Op::Add)) {
    Val& p = pa ? a : b;
    Val& d = pa ? b : a;
    const TypeId c = point_unit(p.type, d.type);
    const int32_t x = as(p, c), y = as(d, duration_of(c));
    const int32_t r = add(op, c, pa ? std::initializer_list<int32_t>{x, y} : std::initializer_list<int32_t>{y, x});
    if (p.type != TypeId::Date32) return node_val(r);
    return node_val(add(Op::Cast, TypeId::Date32, {r}));
  }
  // duration ± duration, duration % duration, duration / duration
  if (da && db) {
    const TypeId c = finer_duration(ta, tb);
    if (op == Op::Add || op == Op::Sub || op == Op::Mod) return node_val(add(op, c, {as(a, c), as(b, c)}));
    if (op == Op::Div) {
      const int32_t x = add(Op::Cast, TypeId::Float64, {as(a, c)});
      const int32_t y = add(Op::Cast, TypeId::Float64, {as(b, c)});
      return node_val(add(Op::Div, TypeId::Float64, {x, y}));
    }
    return fail();
  }
  // duration * number, number * duration, duration / number, duration // integer
  const bool num_b = b.weak == Weak::Int || b.weak == Weak::Float || (b.weak == Weak::None && is_numeric(tb));
  const bool num_a = a.weak == Weak::Int || a.weak == Weak::Float || (a.weak == Weak::None && is_numeric(ta));
  if ((da && num_b && (op == Op::Mul || op == Op::Div || op == Op::FloorDiv)) || (db && num_a && op == Op::Mul)) {
    Val& d = da ? a : b;
    Val& k = da ? b : a;
    const TypeId dt = d.type;
    const bool integral = k.weak == Weak::Int || (k.weak == Weak::None && is_integer_type(k.type));
    if (integral && op != Op::Div) {
      if (k.weak == Weak::Int)
        GPUDF_EXPECTS(literal_fits(k.value, TypeId::Int64), Dtype, "'" + s.op + "': the number does not fit int64");
      const int32_t y = k.weak == Weak::Int ? emit_literal(k.value, dt) : add(Op::Cast, dt, {as(k, TypeId::Int64)});
      const int32_t x = d.node;
      return node_val(add(op, dt, da ? std::initializer_list<int32_t>{x, y} : std::initializer_list<int32_t>{y, x}));
    }
    if (op == Op::FloorDiv) return fail();
    const int32_t x = add(Op::Cast, TypeId::Float64, {d.node});
    const int32_t y = as(k, TypeId::Float64);
    const int32_t r = add(op, TypeId::Float64, da ? std::initializer_list<int32_t>{x, y} : std::initializer_list<int32_t>{y, x});
    return node_val(add(Op::Cast, dt, {r}));
  }
  return fail();
}

Val Compiler::duration_total(const NodeSpec& s, int64_t unit_ns) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_duration(a.type)) bad(s.op, a.type);
  const int64_t tick_ns = 1000000000LL / ticks_per_second(a.type);
  const int64_t mul = tick_ns >= unit_ns ? tick_ns / unit_ns : 1;
  const int64_t div = tick_ns >= unit_ns ? 1 : unit_ns / tick_ns;
  return node_val(add(Op::ScaleTicks, TypeId::Int64, {a.node}, mul, div));
}

}  // namespace detail
}  // namespace gpudf::expr
