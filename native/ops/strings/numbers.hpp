// Text <-> numbers and booleans, per row and GPUDF_HD (casts between utf8 and numeric dtypes).
// Integers parse exactly (an optional sign, then digits; overflow is a failure). Floats take
// Rust's / Polars' syntax ([+-] digits [. digits] [e[+-]digits], ".5", "1.", inf, infinity, nan,
// any case); float_from_text answers exactly where a double operation is exact (Clinger's fast
// path: up to 19 significant digits with the value below 2^53 and a power of ten up to 10^22,
// and the certain overflows and underflows), else, given the table of 128-bit powers of five, by
// Eisel and Lemire's method (float_by_products: the digits times a power of five, rounded once),
// and otherwise says Hard: such rows (more than 19 digits whose last ones matter, or a product
// the 128 bits cannot decide) are parsed by std::from_chars on the host, so every result is the
// correctly rounded one.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/hd.hpp"

namespace gpudf::strings {

enum class FloatParse : int32_t { Ok = 0, Bad = 1, Hard = 2 };

/// 5^q scaled into [2^127, 2^128), two 64-bit words (high, low) per q, q in [kPow5First,
/// kPow5Last] (scripts/gen-pow5-table.py). Host memory: device code gets a copy.
inline constexpr int64_t kPow5First = -342, kPow5Last = 308;
inline constexpr uint64_t kPow5Table[2 * (kPow5Last - kPow5First + 1)] = {
#include "ops/strings/pow5_table.inc"
};

/// hi:lo = a * b.
GPUDF_HD inline void mul_64x64(uint64_t a, uint64_t b, uint64_t& hi, uint64_t& lo) {
#if defined(__CUDA_ARCH__)
  lo = a * b;
  hi = __umul64hi(a, b);
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  lo = uint64_t(p);
  hi = uint64_t(p >> 64);
#endif
}

GPUDF_HD inline int32_t leading_zeros(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

/// The double nearest to w * 10^q (w > 0 exact) by Eisel and Lemire's method: w, shifted to its
/// top bit, times the 128-bit 5^q (the second word only when the first leaves the rounding bits
/// in doubt), then the 54 top bits of the product rounded once to nearest, ties to even; the
/// binary exponent is floor(q log2 10) from the power of ten plus the shifts. Subnormals round
/// the same way; beyond the table's range the value is 0 or infinity. Hard where even 128 bits
/// leave the rounding in doubt. `pow5`: kPow5Table or a copy of it.
GPUDF_HD inline FloatParse float_by_products(uint64_t w, int64_t q, const uint64_t* pow5, double& out) {
  if (q < kPow5First) return out = 0.0, FloatParse::Ok;
  if (q > kPow5Last) return out = __builtin_huge_val(), FloatParse::Ok;
  const int32_t lz = leading_zeros(w);
  w <<= lz;
  const uint64_t* t = pow5 + 2 * (q - kPow5First);
  uint64_t hi, lo;
  mul_64x64(w, t[0], hi, lo);
  if ((hi & 0x1FF) == 0x1FF) {
    // The bits below the 54 kept may carry into them: add the low word's product.
    uint64_t hi2, lo2;
    mul_64x64(w, t[1], hi2, lo2);
    lo += hi2;
    if (lo < hi2) ++hi;
    if ((hi & 0x1FF) == 0x1FF && lo == ~uint64_t(0)) return FloatParse::Hard;
  }
  const int32_t upper = int32_t(hi >> 63);
  uint64_t m = hi >> (upper + 9);  // 54 bits: 53 and the rounding bit
  // Biased exponent: floor(q * log2(10)) (217706 / 2^16 is log2(10) closely enough for |q| <= 400) + 63 + 1023.
  int64_t e = ((217706 * q) >> 16) + 63 + upper - lz + 1023;
  uint64_t bits;
  if (e <= 0) {
    // Subnormal: shift to the fixed exponent, then round.
    if (-e + 1 >= 64) return out = 0.0, FloatParse::Ok;
    m >>= -e + 1;
    m += m & 1;
    m >>= 1;
    bits = m;  // m == 2^52 is the smallest normal, which these bits also spell
  } else {
    // A tie (the product exact and halfway) rounds to even; exact products need q in [-4, 23].
    if (lo <= 1 && q >= -4 && q <= 23 && (m & 3) == 1 && (m << (upper + 9)) == hi) m &= ~uint64_t(1);
    m += m & 1;
    m >>= 1;
    if (m >= (uint64_t(2) << 52)) {
      m = uint64_t(1) << 52;
      ++e;
    }
    if (e >= 0x7FF) return out = __builtin_huge_val(), FloatParse::Ok;
    bits = (m & ~(uint64_t(1) << 52)) | (uint64_t(e) << 52);
  }
#if defined(__CUDA_ARCH__)
  out = __longlong_as_double(static_cast<long long>(bits));
#else
  std::memcpy(&out, &bits, sizeof out);
#endif
  return FloatParse::Ok;
}

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

/// Eight ASCII digits at s (little-endian word) as their value, or -1 when one is not a digit.
GPUDF_HD inline int64_t eight_digits(const char* s) {
  uint64_t v;
  memcpy(&v, s, 8);
  if ((v & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u || ((v + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) != 0x3030303030303030u)
    return -1;
  v -= 0x3030303030303030u;
  v = v * 10 + (v >> 8);  // each byte pair as a two-digit number in its low byte
  v = (((v & 0x000000FF000000FFu) * (100 + (uint64_t(1000000) << 32))) +
       (((v >> 16) & 0x000000FF000000FFu) * (1 + (uint64_t(10000) << 32)))) >> 32;
  return int64_t(uint32_t(v));
}

GPUDF_HD inline bool scan_float(const char* s, int64_t n, FloatText& t) {
  int64_t pos = 0;
  if (pos < n && (s[pos] == '+' || s[pos] == '-')) t.neg = s[pos++] == '-';
  const char* rest = s + pos;
  const int64_t left = n - pos;
  if (left > 0 && (rest[0] | 0x20) >= 'i') {
    if (detail::equals_ci(rest, left, "inf") || detail::equals_ci(rest, left, "infinity")) return t.special = 1, true;
    if (detail::equals_ci(rest, left, "nan")) return t.special = 2, true;
  }
  // The common form in one tight pass: 1 to 19 digits in all with at most one '.', nothing
  // else. Anything more (an exponent, more digits) goes the general way below from the start.
  {
    uint64_t m = 0;
    int64_t nd = 0, lead = 0, dot = -1, p = pos;
    for (; p < n; ++p) {
      const unsigned d = unsigned(s[p] - '0');
      if (d <= 9) {
        m = m * 10 + d;
        ++nd;
        lead += m == 0;  // zeros before the first significant digit
      } else if (s[p] == '.' && dot < 0) {
        dot = p;
      } else {
        break;
      }
    }
    if (p == n && nd > 0 && nd <= 19) {
      t.mantissa = m;
      t.digits = int32_t(nd - lead);
      t.exp10 = dot < 0 ? 0 : -(n - 1 - dot);
      return true;
    }
  }
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
  // Past the first significant digit and with room for eight more under the 19 kept, eight
  // digits at a time where eight are there.
  auto digits = [&](bool fraction) {
    while (pos < n && unsigned(s[pos] - '0') <= 9) {
      if (t.digits > 0 && t.digits <= 11 && pos + 8 <= n) {
        const int64_t v = eight_digits(s + pos);
        if (v >= 0) {
          t.mantissa = t.mantissa * 100000000u + uint64_t(v);
          t.digits += 8;
          if (fraction) frac_kept += 8;
          pos += 8;
          continue;
        }
      }
      digit(unsigned(s[pos++] - '0'), fraction);
    }
  };
  digits(false);
  if (pos < n && s[pos] == '.') {
    ++pos;
    digits(true);
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

/// float_by_products of the text's digits, or Hard without a table. More than 19 digits: the
/// value lies between the 19 kept and the next integer (times the power of ten), so where both
/// round to the same double that is the answer.
GPUDF_HD inline FloatParse by_products(const FloatText& t, double sign, const uint64_t* pow5, double& out) {
  if (!pow5) return FloatParse::Hard;
  double a;
  if (float_by_products(t.mantissa, t.exp10, pow5, a) != FloatParse::Ok) return FloatParse::Hard;
  if (t.truncated) {
    double b;
    if (float_by_products(t.mantissa + 1, t.exp10, pow5, b) != FloatParse::Ok || a != b) return FloatParse::Hard;
  }
  out = sign * a;
  return FloatParse::Ok;
}

/// The double of text scan_float accepted, where a double operation gives it exactly rounded
/// (Clinger's fast path) or, with `pow5` (kPow5Table or a copy), by float_by_products; Hard
/// otherwise.
GPUDF_HD inline FloatParse float_from_text(const FloatText& t, double& out, const uint64_t* pow5 = nullptr) {
  const double sign = t.neg ? -1.0 : 1.0;
  if (t.special == 1) return out = sign * __builtin_huge_val(), FloatParse::Ok;
  if (t.special == 2) return out = __builtin_nan(""), FloatParse::Ok;
  if (t.mantissa == 0 && !t.truncated) return out = sign * 0.0, FloatParse::Ok;
  // Magnitude: the value lies in [10^(m - 1), 10^m) with m = kept digits + exp10.
  const int64_t kept = t.digits < 19 ? t.digits : 19;
  const int64_t m = kept + t.exp10;
  if (m > 310) return out = sign * __builtin_huge_val(), FloatParse::Ok;
  if (m < -330) return out = sign * 0.0, FloatParse::Ok;
  if (t.truncated || t.mantissa > (uint64_t(1) << 53)) return by_products(t, sign, pow5, out);
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
      if (x > (uint64_t(1) << 53) / 10) return by_products(t, sign, pow5, out);
      x *= 10;
    }
    return out = sign * (double(x) * 1e22), FloatParse::Ok;
  }
  return by_products(t, sign, pow5, out);
}

/// The float of s[0, n) by float_from_text.
GPUDF_HD inline FloatParse parse_float_fast(const char* s, int64_t n, double& out, const uint64_t* pow5 = nullptr) {
  FloatText t;
  if (!scan_float(s, n, t)) return FloatParse::Bad;
  return float_from_text(t, out, pow5);
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
