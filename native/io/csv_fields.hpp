// Parsers of one CSV field (the bytes of a field, already unquoted). Pure functions with no
// allocation, shared by type inference and conversion.
#pragma once

#include <charconv>
#include <climits>
#include <cstdint>
#include <string_view>

#include "core/calendar.hpp"
#include "core/types.hpp"

namespace gpudf::csv {

/// Signed 64-bit integer: optional sign, digits only; false on anything else or overflow.
inline bool parse_int64(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  if (b == e) return false;
  auto [ptr, ec] = std::from_chars(b, e, out);
  return ec == std::errc() && ptr == e;
}

/// Double, correctly rounded: decimal and exponent forms, "inf"/"infinity"/"nan" in any case.
inline bool parse_float64(std::string_view s, double& out) {
  if (s.empty()) return false;
  const char* b = s.data();
  const char* e = b + s.size();
  bool neg = false;
  if (*b == '+' || *b == '-') {
    neg = *b == '-';
    ++b;
  }
  if (b == e) return false;
  std::string_view rest(b, size_t(e - b));
  auto ieq = [&](std::string_view w) {
    if (rest.size() != w.size()) return false;
    for (size_t i = 0; i < w.size(); ++i)
      if ((rest[i] | 0x20) != w[i]) return false;
    return true;
  };
  if (ieq("inf") || ieq("infinity")) {
    out = neg ? -__builtin_inf() : __builtin_inf();
    return true;
  }
  if (ieq("nan")) {
    out = __builtin_nan("");
    return true;
  }
  if (!((*b >= '0' && *b <= '9') || *b == '.')) return false;
  auto [ptr, ec] = std::from_chars(b, e, out, std::chars_format::general);
  if (ec != std::errc() || ptr != e) return false;
  if (neg) out = -out;
  return true;
}

inline bool digits(std::string_view s, size_t at, size_t n, int& out) {
  if (at + n > s.size()) return false;
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    char c = s[i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}


/// A date at the start of s: [+|-]YYYY-MM-DD (4 to 13 year digits) -> days since the epoch
/// and the number of bytes it took.
inline bool parse_date_prefix(std::string_view s, int64_t& days, size_t& used) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  size_t y0 = i;
  int64_t y = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - y0 < 13) y = y * 10 + (s[i++] - '0');
  if (i - y0 < 4 || i + 6 > s.size() || s[i] != '-' || s[i + 3] != '-') return false;
  int m, d;
  if (!digits(s, i + 1, 2, m) || !digits(s, i + 4, 2, d)) return false;
  if (neg) y = -y;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap)) return false;
  days = days_from_civil(y, unsigned(m), unsigned(d));
  used = i + 6;
  return true;
}

/// [+|-]YYYY-MM-DD -> days since the epoch (int32 range).
inline bool parse_date32(std::string_view s, int32_t& out) {
  int64_t days;
  size_t used;
  if (!parse_date_prefix(s, days, used) || used != s.size()) return false;
  if (days < INT32_MIN || days > INT32_MAX) return false;
  out = static_cast<int32_t>(days);
  return true;
}

/// An instant as whole seconds since the epoch plus nanoseconds [0, 1e9).
struct Instant {
  int64_t seconds = 0;
  int64_t nanos = 0;
};

/// whole * per + part in int64 (part in [0, per)), false when outside it. Before 1970 one `per`
/// moves from whole to part first, so the earliest value of int64 is reached without the
/// product overflowing on the way.
inline bool scaled_sum(int64_t whole, int64_t per, int64_t part, int64_t& out) {
  if (whole < 0 && part > 0) {
    whole += 1;
    part -= per;
  }
  int64_t v;
  if (__builtin_mul_overflow(whole, per, &v) || __builtin_add_overflow(v, part, &v)) return false;
  out = v;
  return true;
}

/// YYYY-MM-DD[T| ]HH:MM[:SS[.fraction of up to 9 digits]][Z] (UTC); false where the seconds
/// fall outside int64.
inline bool parse_timestamp(std::string_view s, Instant& out) {
  int64_t days;
  size_t at;
  if (!parse_date_prefix(s, days, at) || at >= s.size()) return false;
  if (s[at] != 'T' && s[at] != ' ') return false;
  s = s.substr(at - 10);  // re-anchor so the time fields sit at fixed positions
  if (s.size() < 16) return false;
  int hh, mm, ss = 0;
  if (!digits(s, 11, 2, hh) || s[13] != ':' || !digits(s, 14, 2, mm) || hh > 23 || mm > 59) return false;
  size_t i = 16;
  int64_t nanos = 0;
  if (i < s.size() && s[i] == ':') {
    if (!digits(s, 17, 2, ss) || ss > 59) return false;
    i = 19;
    if (i < s.size() && s[i] == '.') {
      ++i;
      size_t start = i;
      int64_t scale = 100000000;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        nanos += (s[i] - '0') * scale;
        scale /= 10;
        ++i;
      }
      if (i == start || i - start > 9) return false;
    }
  }
  if (i < s.size() && s[i] == 'Z') ++i;
  if (i != s.size()) return false;
  if (!scaled_sum(days, 86400, hh * 3600 + mm * 60 + ss, out.seconds)) return false;
  out.nanos = nanos;
  return true;
}

/// An instant in a timestamp dtype's unit; false where it falls outside int64 (sub-unit digits
/// are dropped toward the earlier instant).
inline bool in_unit(const Instant& t, TypeId unit, int64_t& out) {
  const int64_t per = unit == TypeId::TimestampS ? 1 : unit == TypeId::TimestampMs ? 1000
                      : unit == TypeId::TimestampUs ? 1000000 : 1000000000;
  return scaled_sum(t.seconds, per, t.nanos / (1000000000 / per), out);
}

/// A date or timestamp text (as parse_timestamp, or a bare date at midnight) in `unit`; false
/// where it is neither or falls outside the unit's range.
inline bool parse_instant(std::string_view s, TypeId unit, int64_t& out) {
  Instant t;
  int32_t day;
  if (parse_timestamp(s, t)) return in_unit(t, unit, out);
  if (parse_date32(s, day)) return in_unit(Instant{int64_t(day) * 86400, 0}, unit, out);
  return false;
}

}  // namespace gpudf::csv
