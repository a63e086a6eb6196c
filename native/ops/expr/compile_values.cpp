// The expression compiler (compiler.hpp) for value nodes: arithmetic with Polars' promotion,
// comparisons (text against temporals read as ISO 8601), Kleene logic, unary math, when /
// fillNull / fillNaN / isIn, and casts (to and from text through ops/strings).
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "ops/expr/compiler.hpp"
#include "ops/expr/numeric.hpp"

namespace gpudf::expr {
namespace detail {

Val Compiler::arithmetic(const NodeSpec& s, Op op) {
  Val a = arg(s, 0), b = arg(s, 1);
  if (temporal_operands(a, b)) return temporal_arithmetic(s, op, a, b);
  auto [ta, tb] = pair_types(s.op, a, b, false);
  auto st = numeric_supertype(ta, tb);
  if (!st) bad_pair(s.op, a, ta, b, tb);
  TypeId t = *st;
  if (op == Op::Div && !is_float_type(t)) t = TypeId::Float64;
  if (op == Op::Pow && !is_float_type(t)) {
    // Integer power keeps the base's dtype; the exponent stays an integer.
    int32_t base = as(a, ta), e = as(b, tb);
    return node_val(add(Op::Pow, ta, {base, e}));
  }
  int32_t x = as(a, t), y = as(b, t);
  return node_val(add(op, t, {x, y}));
}

bool Compiler::exact_temporal(const Val& v, TypeId t) {
  if (!v.literal || v.node >= 0 || v.value.kind != LiteralSpec::Kind::Date || !std::isfinite(v.value.number)) return false;
  bool ok = true;
  Slot ms{};
  ms.i = int64_t(v.value.number);
  const Slot x = cast_value(ms, TypeId::TimestampMs, t, ok);
  const Slot back = cast_value(x, t, TypeId::TimestampMs, ok);
  return ok && back.i == ms.i;
}

void Compiler::text_as_temporal(Val& lit, const Val& other) {
  if (!lit.literal || lit.node >= 0 || lit.value.kind != LiteralSpec::Kind::String) return;
  if ((other.literal && other.node < 0) || !is_temporal_type(other.type)) return;
  const TypeId t = other.type;
  const std::string& text = lit.value.text;
  int64_t v = 0;
  const bool ok = strings::parse_temporal(strings::iso_format(t != TypeId::Date32), text.data(), int64_t(text.size()), t, v);
  GPUDF_EXPECTS(ok, Dtype,
                "the string \"" + text + "\" is not a " + std::string(type_name(t)) +
                    " in ISO 8601 (YYYY-MM-DD" + (t == TypeId::Date32 ? "" : "[ HH:MM[:SS[.f]]][Z|+hh:mm]") +
                    "); compare with a Date or parse the text with str.strptime");
  Slot x{};
  x.i = v;
  prog_.consts.push_back(x);
  prog_.const_types.push_back(t);
  lit.node = add(Op::Literal, t, {}, int64_t(prog_.consts.size()) - 1, 0);
  lit.type = t;
  lit.weak = Weak::None;
}

Val Compiler::compare(const NodeSpec& s, Op op) {
  Val a = arg(s, 0), b = arg(s, 1);
  text_as_temporal(a, b);
  text_as_temporal(b, a);
  auto [ta, tb] = pair_types(s.op, a, b, true);
  TypeId ca = ta, cb = tb;
  if (is_temporal_type(ta) && is_temporal_type(tb)) {
    // A Date literal that is exactly a value of the other side's unit is compared in that
    // unit (the column is read as it is, not cast row by row); the result is the same.
    if (ta != tb && exact_temporal(b, ta)) return node_val(add(op, TypeId::Bool, {as(a, ta), emit_literal(b.value, ta)}));
    if (ta != tb && exact_temporal(a, tb)) return node_val(add(op, TypeId::Bool, {emit_literal(a.value, tb), as(b, tb)}));
    ca = cb = *value_supertype(ta, tb);
  } else if (is_duration(ta) && is_duration(tb)) {
    ca = cb = *value_supertype(ta, tb);
  } else {
    bool fine = (is_numeric(ta) && is_numeric(tb)) || (is_string(ta) && is_string(tb)) ||
                (ta == TypeId::Bool && tb == TypeId::Bool);
    if (!fine) bad_pair(s.op, a, ta, b, tb);
  }
  int32_t x = as(a, ca), y = as(b, cb);
  return node_val(add(op, TypeId::Bool, {x, y}));
}

Val Compiler::logic(const NodeSpec& s, Op op) {
  Val a = arg(s, 0);
  if (a.weak == Weak::Null) a.type = TypeId::Bool;
  if (a.type != TypeId::Bool) bad(s.op, a.type);
  int32_t x = as(a, TypeId::Bool);
  if (op == Op::Not) return node_val(add(op, TypeId::Bool, {x}));
  Val b = arg(s, 1);
  if (b.weak == Weak::Null) b.type = TypeId::Bool;
  if (b.type != TypeId::Bool) bad(s.op, b.type);
  return node_val(add(op, TypeId::Bool, {x, as(b, TypeId::Bool)}));
}

Val Compiler::unary(const NodeSpec& s, Op op, bool to_float, int64_t p0) {
  Val a = arg(s, 0);
  emit_value(a);
  if (is_duration(a.type) && (op == Op::Neg || op == Op::Abs)) return node_val(add(op, a.type, {a.node}));
  if (!is_numeric(a.type)) bad(s.op, a.type);
  if (op == Op::Neg && is_integer_type(a.type) && a.type >= TypeId::UInt8) bad(s.op, a.type);
  TypeId t = to_float && !is_float_type(a.type) ? TypeId::Float64 : a.type;
  return node_val(add(op, t, {as(a, t)}, p0));
}

TypeId Compiler::common(const std::string& op, std::vector<Val*> vs) {
  std::optional<TypeId> t;
  for (Val* v : vs) {
    if (v->weak != Weak::None) continue;
    if (!t) {
      t = v->type;
      continue;
    }
    auto st = value_supertype(*t, v->type);
    if (!st) bad2(op, *t, v->type);
    t = st;
  }
  for (Val* v : vs) {
    if (v->weak == Weak::None || v->weak == Weak::Null) continue;
    if (!t) {
      t = default_type(v->value);
      continue;
    }
    auto a = adapt_weak(v->value, v->weak, *t, false);
    if (!a) bad2(op, *t, default_type(v->value));
    t = a;
  }
  return t ? *t : TypeId::Float64;
}

Val Compiler::cast(const NodeSpec& s) {
  GPUDF_EXPECTS(is_valid_type_id(s.dtype), InvalidArgument, "cast needs a dtype");
  Val a = arg(s, 0);
  const TypeId to = TypeId(s.dtype);
  const bool strict = !s.params.empty() && s.params[0] != 0;
  if (a.weak == Weak::Null) return node_val(as(a, to));
  emit_value(a);
  const bool from_text = is_string(a.type) && !is_string(to), to_text = !is_string(a.type) && is_string(to);
  if (!from_text && !to_text) {
    if (!castable(a.type, to)) bad2("cast", a.type, to);
    if (!strict || a.type == to) return node_val(as(a, to));
    const ColumnPtr in = materialised(a.node);
    return lossless(in, input_column(materialised(as(a, to))), to);
  }
  const ColumnPtr in = materialised(a.node);
  if (to_text) {
    if (!has_text_form(a.type)) bad2("cast", a.type, to);
    Val text = input_column(as_text(in));
    return to == TypeId::Utf8 ? text : node_val(as(text, to));
  }
  if (is_temporal_type(to) || is_duration(to)) {
    Val v = input_column(strings::parse_temporal_iso(in, to, false, "cast"));
    return strict ? lossless(in, v, to) : v;
  }
  if (!is_numeric(to) && to != TypeId::Bool) bad2("cast", a.type, to);
  // Unsigned dtypes parse as uint64 (a '-' is never accepted, as Rust's parsers), signed as int64.
  const bool is_unsigned = to >= TypeId::UInt8 && to <= TypeId::UInt64;
  const TypeId parsed = is_float_type(to) || to == TypeId::Bool ? to : is_unsigned ? TypeId::UInt64 : TypeId::Int64;
  Val v = input_column(strings::parse_number(in, parsed));
  if (parsed != to) v = node_val(as(v, to));
  if (!strict) return v;
  return lossless(in, parsed == to ? v : input_column(materialised(v.node)), to);
}

Val Compiler::lossless(const ColumnPtr& in, Val out, TypeId to) {
  const ColumnPtr& result = prog_.inputs[size_t(prog_.nodes[size_t(out.node)].p0)];
  const int64_t row = strings::first_lost_row(in, result);
  GPUDF_EXPECTS(row < 0, Cast,
                "strict cast from " + std::string(type_name(in->type())) + " to " + std::string(type_name(to)) +
                    ": row " + std::to_string(row) + " (" + (row < 0 ? "" : strings::value_text(in, row)) +
                    ") does not convert; cast without strict to make such values null");
  return out;
}

Val Compiler::is_in(const NodeSpec& s) {
  Val a = arg(s, 0);
  emit_value(a);
  const int64_t first = int64_t(prog_.consts.size());
  for (const LiteralSpec& v : s.list) {
    if (v.kind == LiteralSpec::Kind::Null) continue;
    TypeId t = default_type(v);
    if (is_temporal_type(a.type) && v.kind == LiteralSpec::Kind::Date) {
      // A Date matches only when it converts exactly to the column's unit.
      bool ok = true;
      Slot ms{};
      ms.i = int64_t(v.number);
      Slot x = cast_value(ms, TypeId::TimestampMs, a.type, ok);
      Slot back = cast_value(x, a.type, TypeId::TimestampMs, ok);
      if (!ok || back.i != ms.i) continue;
      t = a.type;
      prog_.consts.push_back(x);
      prog_.const_types.push_back(t);
      continue;
    }
    bool fine = (is_numeric(a.type) && is_numeric(t)) || (is_string(a.type) && is_string(t)) ||
                (a.type == TypeId::Bool && t == TypeId::Bool);
    if (!fine) bad2("isIn", a.type, t);
    add_const(v, t);
  }
  return node_val(add(Op::IsIn, TypeId::Bool, {a.node}, first, int64_t(prog_.consts.size()) - first));
}

Val Compiler::when(const NodeSpec& s) {
  GPUDF_EXPECTS(s.args.size() >= 3 && s.args.size() % 2 == 1, InvalidArgument, "malformed when/then/otherwise");
  std::vector<Val> vs;
  std::vector<Val*> ptrs;
  for (size_t k = 1; k < s.args.size(); k += 2) vs.push_back(arg(s, k));
  vs.push_back(arg(s, s.args.size() - 1));
  for (Val& v : vs) ptrs.push_back(&v);
  TypeId t = common("when", ptrs);
  int32_t acc = as(vs.back(), t);
  for (size_t k = s.args.size() - 1; k >= 2; k -= 2) {
    Val c = arg(s, k - 2);
    if (c.weak == Weak::Null) c.type = TypeId::Bool;
    if (c.type != TypeId::Bool) bad("when", c.type);
    int32_t cond = as(c, TypeId::Bool);
    acc = add(Op::Select, t, {cond, as(vs[(k - 2) / 2], t), acc});
  }
  return node_val(acc);
}

Val Compiler::fill(const NodeSpec& s, bool nan) {
  Val a = arg(s, 0), b = arg(s, 1);
  if (nan) {
    emit_value(a);
    if (!is_float_type(a.type)) {
      if (!is_numeric(a.type)) bad(s.op, a.type);
      return a;  // integers hold no NaN
    }
  }
  TypeId t = common(s.op, {&a, &b});
  if (nan && !is_float_type(t)) bad2(s.op, a.type, t);
  int32_t x = as(a, t), y = as(b, t);
  return node_val(add(nan ? Op::FillNaN : Op::FillNull, t, {x, y}));
}

}  // namespace detail

}  // namespace gpudf::expr
