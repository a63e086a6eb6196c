// Text <-> numbers and booleans, per row and GPUDF_HD (casts between utf8 and numeric dtypes).
// Integers parse exactly (an optional sign, then digits; overflow is a failure). Floats take
// Rust's / Polars' syntax ([+-] digits [. digits] [e[+-]digits], ".5", "1.", inf, infinity, nan,
// any case); parse_float_fast answers exactly where a double operation is exact (Clinger's fast
// path: up to 19 significant digits with the value below 2^53 and a power of ten up to 10^22,
// and the certain overflows and underflows) and otherwise says Hard: such rows are parsed by
// std::from_chars on the host, so every result is the correctly rounded one.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace gpudf::strings {

enum class FloatParse : int32_t { Ok = 0, Bad = 1, Hard = 2 };

GPUDF_HD inline bool parse_int64(const char* s, int64_t n, int64_t& out) {
  int64_t pos = 0;
  bool neg = false;
  if (pos < n && (s[pos] == '+' || s[pos] == '-')) neg = s[pos++] == '-';
  if (pos >= n) return false;
  uint64_t v = 0;
  const uint64_t limit = neg ? uint64_t(1) << 63 : (uint64_t(1) << 63) - 1;
  for (; pos < n; ++pos) {
    const unsigned d = unsigned(s[pos] - '0');
    if (d > 9) return false;
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  out = neg ? int64_t(uint64_t(0) - v) : int64_t(v);
  return true;
}

GPUDF_HD inline bool parse_uint64(const char* s, int64_t n, uint64_t& out) {
  int64_t pos = 0;
  if (pos < n && s[pos] == '+') ++pos;
  if (pos >= n) return false;
  uint64_t v = 0;
  for (; pos < n; ++pos) {
    const unsigned d = unsigned(s[pos] - '0');
    if (d > 9) return false;
    if (v > (~uint64_t(0) - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

namespace detail {
GPUDF_HD inline bool equals_ci(const char* s, int64_t n, const char* word) {
  int64_t k = 0;
  for (; word[k]; ++k) {
    if (k >= n) return false;
    char c = s[k];
    if (c >= 'A' && c <= 'Z') c = char(c + 32);
    if (c != word[k]) return false;
  }
  return k == n;
}
}  // namespace detail

/// "true" / "false", any case.
GPUDF_HD inline bool parse_bool(const char* s, int64_t n, int64_t& out) {
  if (detail::equals_ci(s, n, "true")) return out = 1, true;
  if (detail::equals_ci(s, n, "false")) return out = 0, true;
  return false;
}

/// True when the syntax is that of a float (so from_chars may be asked); `special` gets 1 for
/// infinity, 2 for NaN; the digits' summary for the fast path.
struct FloatText {
  bool neg = false;
  int special = 0;
  uint64_t mantissa = 0;  // the first (up to) 19 significant digits
  int32_t digits = 0;     // significant digits seen
  bool truncated = false; // nonzero digits beyond the 19 kept
  int64_t exp10 = 0;      // value = mantissa * 10^exp10 (when not truncated)
};

GPUDF_HD inline bool scan_float(const char* s, int64_t n, FloatText& t) {
  int64_t pos = 0;
  if (pos < n && (s[pos] == '+' || s[pos] == '-')) t.neg = s[pos++] == '-';
  const char* rest = s + pos;
  const int64_t left = n - pos;
  if (detail::equals_ci(rest, left, "inf") || detail::equals_ci(rest, left, "infinity")) return t.special = 1, true;
  if (detail::equals_ci(rest, left, "nan")) return t.special = 2, true;
  bool any = false;
  int64_t dropped = 0;  // integer digits not kept (each multiplies by 10)
  int64_t frac_kept = 0;
  auto digit = [&](unsigned d, bool fraction) {
    any = true;
    if (t.digits == 0 && d == 0) {
      if (fraction) ++frac_kept;  // leading zeros after the point scale down
      return;
    }
    if (t.digits < 19) {
      t.mantissa = t.mantissa * 10 + d;
      ++t.digits;
      if (fraction) ++frac_kept;
    } else {
      ++t.digits;
      if (d) t.truncated = true;
      if (!fraction) ++dropped;
    }
  };
  while (pos < n && unsigned(s[pos] - '0') <= 9) digit(unsigned(s[pos++] - '0'), false);
  if (pos < n && s[pos] == '.') {
    ++pos;
    while (pos < n && unsigned(s[pos] - '0') <= 9) digit(unsigned(s[pos++] - '0'), true);
  }
  if (!any) return false;
  int64_t e = 0;
  if (pos < n && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    bool eneg = false;
    if (pos < n && (s[pos] == '+' || s[pos] == '-')) eneg = s[pos++] == '-';
    if (pos >= n) return false;
    for (; pos < n; ++pos) {
      const unsigned d = unsigned(s[pos] - '0');
      if (d > 9) return false;
      if (e < 100000000) e = e * 10 + d;
    }
    if (eneg) e = -e;
  }
  if (pos != n) return false;
  t.exp10 = e + dropped - frac_kept;
  return true;
}

/// The double of text scan_float accepted, where a double operation gives it exactly rounded
/// (Clinger's fast path); Hard otherwise.
GPUDF_HD inline FloatParse float_from_text(const FloatText& t, double& out) {
  const double sign = t.neg ? -1.0 : 1.0;
  if (t.special == 1) return out = sign * __builtin_huge_val(), FloatParse::Ok;
  if (t.special == 2) return out = __builtin_nan(""), FloatParse::Ok;
  if (t.mantissa == 0 && !t.truncated) return out = sign * 0.0, FloatParse::Ok;
  // Magnitude: the value lies in [10^(m - 1), 10^m) with m = kept digits + exp10.
  const int64_t kept = t.digits < 19 ? t.digits : 19;
  const int64_t m = kept + t.exp10;
  if (m > 310) return out = sign * __builtin_huge_val(), FloatParse::Ok;
  if (m < -330) return out = sign * 0.0, FloatParse::Ok;
  if (t.truncated || t.mantissa > (uint64_t(1) << 53)) return FloatParse::Hard;
  const double pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                            1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const double w = double(t.mantissa);
  int64_t e = t.exp10;
  if (e >= 0 && e <= 22) return out = sign * (w * pow10[e]), FloatParse::Ok;
  if (e < 0 && e >= -22) return out = sign * (w / pow10[-e]), FloatParse::Ok;
  if (e > 22 && e <= 22 + 15) {
    // w * 10^(e - 22) exactly as an integer below 2^53, then one rounding.
    uint64_t x = t.mantissa;
    for (int64_t k = 22; k < e; ++k) {
      if (x > (uint64_t(1) << 53) / 10) return FloatParse::Hard;
      x *= 10;
    }
    return out = sign * (double(x) * 1e22), FloatParse::Ok;
  }
  return FloatParse::Hard;
}

/// The float of s[0, n) where a double operation gives it exactly rounded; Hard otherwise.
GPUDF_HD inline FloatParse parse_float_fast(const char* s, int64_t n, double& out) {
  FloatText t;
  if (!scan_float(s, n, t)) return FloatParse::Bad;
  return float_from_text(t, out);
}

/// True when d lies exactly halfway between two floats (then double -> float could round a
/// second time differently from the text -> float rounding).
GPUDF_HD inline bool float_midpoint(double d) {
  const float f = float(d);
  if (double(f) == d || f != f) return false;
  const float g = d > double(f) ? __builtin_nextafterf(f, __builtin_huge_valf()) : __builtin_nextafterf(f, -__builtin_huge_valf());
  return (double(f) + double(g)) / 2 == d;
}

/// An integer's decimal text into out (when not null); its length.
GPUDF_HD inline int64_t format_int(int64_t v, bool is_unsigned, char* out) {
  char buf[24];
  int len = 0;
  const bool neg = !is_unsigned && v < 0;
  uint64_t u = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  do {
    buf[len++] = char('0' + u % 10);
    u /= 10;
  } while (u);
  if (out) {
    int64_t p = 0;
    if (neg) out[p++] = '-';
    for (int k = len - 1; k >= 0; --k) out[p++] = buf[k];
  }
  return len + (neg ? 1 : 0);
}

}  // namespace gpudf::strings
