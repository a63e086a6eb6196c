// Per-element numeric rules shared by the CPU interpreter and the CUDA kernel (GPUDF_HD):
// wrapping to a dtype, non-strict casts, exact comparison across numeric dtypes, and the
// arithmetic with Polars' integer semantics (floor division, modulo with the divisor's sign).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/calendar.hpp"
#include "core/hd.hpp"
#include "core/types.hpp"
#include "ops/expr/program.hpp"

namespace gpudf::expr {

GPUDF_HD inline bool is_integer_type(TypeId t) {
  return (t >= TypeId::Int8 && t <= TypeId::UInt64);
}
GPUDF_HD inline bool is_float_type(TypeId t) { return t == TypeId::Float32 || t == TypeId::Float64; }
/// A point in time: date32 or a timestamp (durations are spans, not points).
GPUDF_HD inline bool is_temporal_type(TypeId t) { return t == TypeId::Date32 || is_timestamp(t); }

/// Two's-complement wrap of a 64-bit integer to the dtype's width (signed: sign-extended).
GPUDF_HD inline int64_t wrap_to(TypeId t, int64_t x) {
  switch (t) {
    case TypeId::Int8: return int8_t(x);
    case TypeId::Int16: return int16_t(x);
    case TypeId::Int32:
    case TypeId::Date32: return int32_t(x);
    case TypeId::UInt8: return uint8_t(x);
    case TypeId::UInt16: return uint16_t(x);
    case TypeId::UInt32: return uint32_t(x);
    case TypeId::Bool: return x != 0;
    default: return x;
  }
}

/// The integer dtype's range as [lo, hi] in int64 (uint64: hi is INT64_MAX; callers check u).
GPUDF_HD inline void int_range(TypeId t, int64_t& lo, int64_t& hi) {
  switch (t) {
    case TypeId::Int8: lo = -128; hi = 127; return;
    case TypeId::Int16: lo = -32768; hi = 32767; return;
    case TypeId::Int32:
    case TypeId::Date32: lo = INT32_MIN; hi = INT32_MAX; return;
    case TypeId::UInt8: lo = 0; hi = 255; return;
    case TypeId::UInt16: lo = 0; hi = 65535; return;
    case TypeId::UInt32: lo = 0; hi = 4294967295LL; return;
    case TypeId::UInt64: lo = 0; hi = INT64_MAX; return;
    case TypeId::Bool: lo = 0; hi = 1; return;
    default: lo = INT64_MIN; hi = INT64_MAX; return;
  }
}

/// Units of a temporal dtype per day (date32: 1).
GPUDF_HD inline int64_t units_per_day(TypeId t) {
  switch (t) {
    case TypeId::TimestampS: return 86400LL;
    case TypeId::TimestampMs: return 86400000LL;
    case TypeId::TimestampUs: return 86400000000LL;
    case TypeId::TimestampNs: return 86400000000000LL;
    default: return 1;
  }
}


/// Non-strict cast of v (dtype `from`) to dtype `to`; ok = false when the value does not fit.
GPUDF_HD inline Slot cast_value(Slot v, TypeId from, TypeId to, bool& ok) {
  Slot out;
  out.n = v.n;
  const Lane lf = lane_of(from), lt = lane_of(to);
  if (lf == Lane::String || from == to) return v;
  if (to == TypeId::Bool) {
    out.i = lf == Lane::Float ? (v.f != 0.0) : (v.i != 0);
    return out;
  }
  if (is_duration(from) && is_duration(to)) {
    // Between units: exact multiply up (null on overflow), divide down toward zero (as Polars).
    const int64_t pf = ticks_per_second(from), pt = ticks_per_second(to);
    if (pt >= pf) {
      const int64_t k = pt / pf;
      if (v.i > INT64_MAX / k || v.i < INT64_MIN / k) { ok = false; out.i = 0; return out; }
      out.i = v.i * k;
    } else {
      out.i = v.i / (pf / pt);
    }
    return out;
  }
  if (is_temporal_type(from) && is_temporal_type(to)) {
    // date32 <-> timestamps and between units: exact multiply up, floor divide down.
    int64_t pf = units_per_day(from), pt = units_per_day(to);
    if (pt >= pf) {
      int64_t k = pt / pf;
      if (v.i > INT64_MAX / k || v.i < INT64_MIN / k) { ok = false; out.i = 0; return out; }
      out.i = v.i * k;
    } else {
      out.i = floor_div_i64(v.i, pf / pt);
    }
    if (to == TypeId::Date32 && int32_t(out.i) != out.i) ok = false;
    return out;
  }
  if (lt == Lane::Float) {
    double d = lf == Lane::Float ? v.f : lf == Lane::UInt64 ? double(v.u) : double(v.i);
    out.f = to == TypeId::Float32 ? double(float(d)) : d;
    return out;
  }
  int64_t lo, hi;
  int_range(to, lo, hi);
  if (lf == Lane::Float) {
    double d = v.f;
    // NaN fails every comparison, so it lands in the !ok branch.
    if (to == TypeId::UInt64) {
      if (!(d > -1.0 && d < 18446744073709551616.0)) { ok = false; out.i = 0; return out; }
      out.u = uint64_t(d);
      return out;
    }
    // d >= lo also admits int64's minimum, where lo - 1.0 rounds back to lo.
    if (!((d > double(lo) - 1.0 || d >= double(lo)) && d < double(hi) + 1.0) || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
      ok = false;
      out.i = 0;
      return out;
    }
    out.i = int64_t(d);
    return out;
  }
  if (lf == Lane::UInt64) {
    if (to != TypeId::UInt64 && v.u > uint64_t(hi)) ok = false;
    out.u = v.u;
    return out;
  }
  if (to == TypeId::UInt64) {
    if (v.i < 0) ok = false;
    out.i = v.i;
    return out;
  }
  if (v.i < lo || v.i > hi) ok = false;
  out.i = v.i;
  return out;
}

// ---- exact three-way comparison across lanes; NaN equals NaN and sorts above everything ----

GPUDF_HD inline int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b ? 1 : 0; }
GPUDF_HD inline int cmp_u64(uint64_t a, uint64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

GPUDF_HD inline int cmp_f64(double a, double b) {
  bool na = a != a, nb = b != b;
  if (na || nb) return na && nb ? 0 : na ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/// int64 vs double, exactly (no rounding of the integer).
GPUDF_HD inline int cmp_i64_f64(int64_t x, double d) {
  if (d != d) return -1;
  if (d >= 9223372036854775808.0) return -1;
  if (d < -9223372036854775808.0) return 1;
  int64_t t = int64_t(d);  // truncation; d is in range
  if (x != t) return x < t ? -1 : 1;
  double frac = d - double(t);
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

GPUDF_HD inline int cmp_u64_f64(uint64_t x, double d) {
  if (d != d) return -1;
  if (d < 0) return 1;
  if (d >= 18446744073709551616.0) return -1;
  uint64_t t = uint64_t(d);
  if (x != t) return x < t ? -1 : 1;
  return d - double(t) > 0 ? -1 : 0;
}

GPUDF_HD inline int cmp_str(const char* a, int64_t na, const char* b, int64_t nb) {
  int64_t n = na < nb ? na : nb;
  for (int64_t k = 0; k < n; ++k) {
    unsigned char x = static_cast<unsigned char>(a[k]), y = static_cast<unsigned char>(b[k]);
    if (x != y) return x < y ? -1 : 1;
  }
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/// Three-way comparison of two values of any comparable lanes.
GPUDF_HD inline int compare_values(Slot a, Lane la, Slot b, Lane lb) {
  if (la == Lane::String) return cmp_str(a.s, a.n, b.s, b.n);
  if (la == lb) {
    if (la == Lane::Int) return cmp_i64(a.i, b.i);
    if (la == Lane::UInt64) return cmp_u64(a.u, b.u);
    return cmp_f64(a.f, b.f);
  }
  if (la == Lane::Int && lb == Lane::UInt64) return a.i < 0 ? -1 : cmp_u64(uint64_t(a.i), b.u);
  if (la == Lane::UInt64 && lb == Lane::Int) return b.i < 0 ? 1 : cmp_u64(a.u, uint64_t(b.i));
  if (la == Lane::Int) return cmp_i64_f64(a.i, b.f);
  if (la == Lane::UInt64) return cmp_u64_f64(a.u, b.f);
  if (lb == Lane::Int) return -cmp_i64_f64(b.i, a.f);
  return -cmp_u64_f64(b.u, a.f);
}

// ---- arithmetic on operands of the node's dtype t ----

GPUDF_HD inline double round_float(TypeId t, double d) { return t == TypeId::Float32 ? double(float(d)) : d; }

/// Integer add/sub/mul in uint64 (defined wrapping), then wrapped to the dtype.
GPUDF_HD inline int64_t int_add(TypeId t, int64_t a, int64_t b) { return wrap_to(t, int64_t(uint64_t(a) + uint64_t(b))); }
GPUDF_HD inline int64_t int_sub(TypeId t, int64_t a, int64_t b) { return wrap_to(t, int64_t(uint64_t(a) - uint64_t(b))); }
GPUDF_HD inline int64_t int_mul(TypeId t, int64_t a, int64_t b) { return wrap_to(t, int64_t(uint64_t(a) * uint64_t(b))); }

/// Floor division; ok = false for a zero divisor. INT64_MIN // -1 wraps to INT64_MIN.
GPUDF_HD inline int64_t int_floor_div(TypeId t, int64_t a, int64_t b, bool& ok) {
  if (b == 0) { ok = false; return 0; }
  if (t == TypeId::UInt64) return int64_t(uint64_t(a) / uint64_t(b));
  if (b == -1) return wrap_to(t, int64_t(0 - uint64_t(a)));
  return wrap_to(t, floor_div_i64(a, b));
}

/// Modulo with the sign of the divisor (Python/Polars); ok = false for a zero divisor.
GPUDF_HD inline int64_t int_mod(TypeId t, int64_t a, int64_t b, bool& ok) {
  if (b == 0) { ok = false; return 0; }
  if (t == TypeId::UInt64) return int64_t(uint64_t(a) % uint64_t(b));
  if (b == -1) return 0;
  return floor_mod_i64(a, b);
}

/// Integer power by squaring, wrapping; a negative exponent gives null (ok = false).
GPUDF_HD inline int64_t int_pow(TypeId t, int64_t base, int64_t e, bool exp_unsigned, bool& ok) {
  if (!exp_unsigned && e < 0) { ok = false; return 0; }
  uint64_t ue = uint64_t(e), b = uint64_t(base), r = 1;
  while (ue) {
    if (ue & 1) r *= b;
    b *= b;
    ue >>= 1;
  }
  return wrap_to(t, int64_t(r));
}

GPUDF_HD inline double float_mod(double a, double b) {
  double r = fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

/// Round half to even at `decimals` digits (as Polars).
GPUDF_HD inline double round_decimals(double x, int64_t decimals) {
  if (decimals == 0) return rint(x);
  double m = pow(10.0, double(decimals));
  double y = rint(x * m) / m;
  return (y - y == 0) ? y : x;  // x when scaling overflowed (y is inf or NaN)
}

}  // namespace gpudf::expr
