#include "ops/expr/typing.hpp"

#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "ops/expr/numeric.hpp"

namespace gpudf::expr {
namespace {

using K = LiteralSpec::Kind;

int width(TypeId t) { return value_width(t); }
bool is_signed_int(TypeId t) { return t >= TypeId::Int8 && t <= TypeId::Int64; }
bool is_unsigned_int(TypeId t) { return t >= TypeId::UInt8 && t <= TypeId::UInt64; }

TypeId signed_of_width(int w) {
  switch (w) {
    case 1: return TypeId::Int8;
    case 2: return TypeId::Int16;
    case 4: return TypeId::Int32;
    default: return TypeId::Int64;
  }
}

/// Temporal dtypes ordered from coarse to fine.
int temporal_rank(TypeId t) { return t == TypeId::Date32 ? 0 : int(t) - int(TypeId::TimestampS) + 1; }

bool integral_number(double d) { return std::isfinite(d) && std::floor(d) == d; }

}  // namespace

bool is_numeric(TypeId t) { return is_integer_type(t) || is_float_type(t); }

Weak weak_kind(const LiteralSpec& v) {
  switch (v.kind) {
    case K::Null: return Weak::Null;
    case K::BigInt: return Weak::Int;
    case K::Number:
      return integral_number(v.number) && v.number >= -9223372036854775808.0 && v.number < 9223372036854775808.0
                 ? Weak::Int
                 : Weak::Float;
    default: return Weak::None;
  }
}

bool literal_fits(const LiteralSpec& v, TypeId t) {
  if (v.kind == K::Null) return true;
  if (is_float_type(t)) return v.kind == K::Number || v.kind == K::BigInt;
  if (!is_integer_type(t)) return false;
  if (v.kind == K::BigInt) {
    if (v.big_unsigned) return t == TypeId::UInt64;
    if (t == TypeId::UInt64) return v.bigint >= 0;
    int64_t lo, hi;
    int_range(t, lo, hi);
    return v.bigint >= lo && v.bigint <= hi;
  }
  if (v.kind != K::Number || weak_kind(v) != Weak::Int) return false;
  if (t == TypeId::UInt64) return v.number >= 0;
  int64_t lo, hi;
  int_range(t, lo, hi);
  return v.number >= double(lo) && v.number <= double(hi);
}

TypeId default_type(const LiteralSpec& v) {
  switch (v.kind) {
    case K::String: return TypeId::Utf8;
    case K::Bool: return TypeId::Bool;
    case K::Date: return TypeId::TimestampMs;
    case K::Null: return TypeId::Float64;
    default: break;
  }
  if (weak_kind(v) == Weak::Float) return TypeId::Float64;
  for (TypeId t : {TypeId::Int32, TypeId::Int64, TypeId::UInt64})
    if (literal_fits(v, t)) return t;
  return TypeId::Float64;
}

Slot literal_slot(const LiteralSpec& v, TypeId t, std::string& text) {
  Slot s;
  s.i = 0;
  s.n = 0;
  const std::string want(type_name(t));
  if (v.kind == K::Null) return s;
  if (is_string(t)) {
    GPUDF_EXPECTS(v.kind == K::String, Dtype, "a non-string literal cannot be " + want);
    s.i = int64_t(text.size());
    s.n = int64_t(v.text.size());
    text += v.text;
    return s;
  }
  if (t == TypeId::Bool) {
    GPUDF_EXPECTS(v.kind == K::Bool, Dtype, "only true/false can be a bool literal");
    s.i = v.boolean;
    return s;
  }
  if (v.kind == K::Date) {
    GPUDF_EXPECTS(is_temporal_type(t), Dtype, "a Date literal cannot be " + want);
    GPUDF_EXPECTS(std::isfinite(v.number), InvalidArgument, "invalid Date literal");
    bool ok = true;
    Slot ms;
    ms.i = int64_t(v.number);
    ms.n = 0;
    s = cast_value(ms, TypeId::TimestampMs, t, ok);
    GPUDF_EXPECTS(ok, InvalidArgument, "Date literal out of range for " + want);
    return s;
  }
  GPUDF_EXPECTS(v.kind == K::Number || v.kind == K::BigInt, Dtype, "literal cannot be " + want);
  if (is_float_type(t)) {
    double d = v.kind == K::Number ? v.number
               : v.big_unsigned    ? double(uint64_t(v.bigint))
                                   : double(v.bigint);
    s.f = t == TypeId::Float32 ? double(float(d)) : d;
    return s;
  }
  GPUDF_EXPECTS(is_integer_type(t) || is_temporal_type(t) || is_duration(t), Dtype, "a number cannot be " + want);
  GPUDF_EXPECTS(literal_fits(v, is_integer_type(t) ? t : t == TypeId::Date32 ? TypeId::Int32 : TypeId::Int64),
                InvalidArgument, "literal does not fit " + want);
  s.i = v.kind == K::BigInt ? v.bigint : v.number >= 9223372036854775808.0 ? int64_t(uint64_t(v.number)) : int64_t(v.number);
  return s;
}

std::optional<TypeId> numeric_supertype(TypeId a, TypeId b) {
  if (!is_numeric(a) || !is_numeric(b)) return std::nullopt;
  if (a == b) return a;
  if (a == TypeId::Float64 || b == TypeId::Float64) return TypeId::Float64;
  if (a == TypeId::Float32 || b == TypeId::Float32) {
    TypeId other = a == TypeId::Float32 ? b : a;
    return width(other) <= 2 ? TypeId::Float32 : TypeId::Float64;
  }
  if (is_signed_int(a) == is_signed_int(b)) return width(a) >= width(b) ? a : b;
  TypeId s = is_signed_int(a) ? a : b;
  TypeId u = is_unsigned_int(a) ? a : b;
  if (width(s) > width(u)) return s;
  if (u == TypeId::UInt64) return TypeId::Float64;
  return signed_of_width(width(u) * 2);
}

std::optional<TypeId> value_supertype(TypeId a, TypeId b) {
  if (a == b) return a;
  if (is_numeric(a) && is_numeric(b)) return numeric_supertype(a, b);
  if (is_string(a) && is_string(b)) return TypeId::LargeUtf8;
  if (is_temporal_type(a) && is_temporal_type(b)) return temporal_rank(a) >= temporal_rank(b) ? a : b;
  if (is_duration(a) && is_duration(b)) return ticks_per_second(a) >= ticks_per_second(b) ? a : b;
  return std::nullopt;
}

std::optional<TypeId> adapt_weak(const LiteralSpec& v, Weak w, TypeId other, bool for_compare) {
  if (w == Weak::Null) return other;
  if (!is_numeric(other)) return std::nullopt;
  if (w == Weak::Float) {
    if (is_float_type(other)) return other;
    return TypeId::Float64;
  }
  if (literal_fits(v, other)) return other;
  if (for_compare) return default_type(v);
  return numeric_supertype(other, default_type(v));
}

bool castable(TypeId from, TypeId to) {
  if (from == to) return true;
  const bool num_or_bool_from = is_numeric(from) || from == TypeId::Bool;
  const bool num_or_bool_to = is_numeric(to) || to == TypeId::Bool;
  if (num_or_bool_from && num_or_bool_to) return true;
  if (is_string(from) && is_string(to)) return true;
  if (is_temporal_type(from) && is_temporal_type(to)) return true;
  if (is_temporal_type(from) && is_integer_type(to)) return true;
  if (is_integer_type(from) && is_temporal_type(to)) return true;
  // Durations: between units, and to and from their count as an integer or a float.
  if (is_duration(from) && (is_duration(to) || is_integer_type(to) || is_float_type(to))) return true;
  if (is_duration(to) && (is_integer_type(from) || is_float_type(from))) return true;
  return false;
}

}  // namespace gpudf::expr
