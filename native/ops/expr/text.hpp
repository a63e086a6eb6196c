// Per-element string and temporal rules shared by the CPU interpreter and the CUDA kernels.
// Strings are UTF-8; "characters" are code points (bytes that are not 10xxxxxx continuations).
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/expr/unicode_case.hpp"

namespace gpudf::expr {

GPUDF_HD inline bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

GPUDF_HD inline int64_t utf8_length(const char* s, int64_t n) {
  int64_t chars = 0;
  for (int64_t k = 0; k < n; ++k) chars += !is_continuation(s[k]);
  return chars;
}

/// Byte position of character `c` (clamped to n).
GPUDF_HD inline int64_t utf8_advance(const char* s, int64_t n, int64_t pos, int64_t c) {
  while (pos < n && c > 0) {
    ++pos;
    while (pos < n && is_continuation(s[pos])) ++pos;
    --c;
  }
  return pos;
}

/// str.slice(start, length) in characters, as Polars: a negative start counts from the end and
/// is clamped to 0; length < 0 means "to the end". Returns a view into the input.
GPUDF_HD inline Slot utf8_slice(Slot v, int64_t start, int64_t length) {
  if (start < 0) {
    int64_t total = utf8_length(v.s, v.n);
    start = total + start < 0 ? 0 : total + start;
  }
  int64_t b = utf8_advance(v.s, v.n, 0, start);
  int64_t e = length < 0 ? v.n : utf8_advance(v.s, v.n, b, length);
  Slot out;
  out.s = v.s + b;
  out.n = e - b;
  return out;
}

GPUDF_HD inline bool bytes_equal(const char* a, const char* b, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    if (a[k] != b[k]) return false;
  return true;
}

GPUDF_HD inline bool str_starts_with(Slot v, Slot p) { return p.n <= v.n && bytes_equal(v.s, p.s, p.n); }
GPUDF_HD inline bool str_ends_with(Slot v, Slot p) { return p.n <= v.n && bytes_equal(v.s + (v.n - p.n), p.s, p.n); }
/// The first byte offset >= from where the p.n bytes of p occur in v, or -1.
GPUDF_HD inline int64_t str_find_from(Slot v, int64_t from, Slot p) {
  for (int64_t k = from; k + p.n <= v.n; ++k)
    if (bytes_equal(v.s + k, p.s, p.n)) return k;
  return -1;
}

GPUDF_HD inline bool str_contains(Slot v, Slot p) { return str_find_from(v, 0, p) >= 0; }

/// Byte position just past the character that starts at `pos` (clamped to n).
GPUDF_HD inline int64_t utf8_next(const char* s, int64_t n, int64_t pos) {
  ++pos;
  while (pos < n && is_continuation(s[pos])) ++pos;
  return pos;
}

/// SQL LIKE: `%` matches any run of characters (none included), `_` exactly one character (a
/// code point, however many bytes), every other pattern byte itself; no escape character.
/// Greedy match that backtracks only to the last `%` seen, which is exact for these two
/// wildcards; every position it restarts from is a character boundary, so `_` never takes part
/// of a character. O(len(v) * len(p)) at worst, linear for the usual patterns.
GPUDF_HD inline bool str_like(Slot v, Slot p) {
  int64_t si = 0, pi = 0, star_p = -1, star_s = 0;
  while (si < v.n) {
    const char c = pi < p.n ? p.s[pi] : '\0';
    if (pi < p.n && c == '_') {
      si = utf8_next(v.s, v.n, si);
      ++pi;
    } else if (pi < p.n && c == '%') {
      star_p = pi++;
      star_s = si;
    } else if (pi < p.n && c == v.s[si]) {
      ++si;
      ++pi;
    } else if (star_p >= 0) {
      pi = star_p + 1;
      star_s = utf8_next(v.s, v.n, star_s);
      si = star_s;
    } else {
      return false;
    }
  }
  while (pi < p.n && p.s[pi] == '%') ++pi;
  return pi == p.n;
}

/// Bytes [b, e) of v as a view.
GPUDF_HD inline Slot utf8_slice_bytes(Slot v, int64_t b, int64_t e) {
  Slot out;
  out.s = v.s + b;
  out.n = e - b;
  return out;
}

/// White_Space characters (as Rust's char::is_whitespace, which Polars' strip uses).
GPUDF_HD inline bool is_unicode_space(uint32_t c) {
  return (c >= 9 && c <= 13) || c == 32 || c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/// True when the code point at v[pos, pos + len) is in `set` (null: whitespace). The set is
/// compared as code points, so a multi-byte character in it matches only that character.
GPUDF_HD inline bool strip_member(const Slot* set, const char* s, int64_t n, int64_t pos, int32_t& len) {
  bool valid = true;
  const uint32_t cp = utf8_decode(s, n, pos, &len, &valid);
  if (!set) return valid && is_unicode_space(cp);
  for (int64_t k = 0; k < set->n;) {
    int32_t l = 1;
    bool ok = true;
    const uint32_t c = utf8_decode(set->s, set->n, k, &l, &ok);
    if (c == cp && ok == valid) return true;
    k += l;
  }
  return false;
}

/// str.strip / stripStart / stripEnd: the view without the leading and/or trailing characters
/// that are in `set` (null: Unicode whitespace).
GPUDF_HD inline Slot str_strip(Slot v, const Slot* set, bool start, bool end) {
  int64_t b = 0, e = v.n;
  int32_t len = 1;
  if (start)
    while (b < e && strip_member(set, v.s, e, b, len)) b += len;
  if (end) {
    while (e > b) {
      int64_t q = e - 1;
      while (q > b && is_continuation(v.s[q])) --q;
      if (!strip_member(set, v.s, e, q, len) || q + len != e) break;
      e = q;
    }
  }
  return utf8_slice_bytes(v, b, e);
}

/// Field k of str.splitExact / splitN: the k-th piece of v cut at each occurrence of `sep`
/// (not empty; from the left, occurrences do not overlap). `inclusive`: the piece keeps the
/// separator that ends it; `rest`: the piece runs to the end of v. False (null) when v has
/// fewer than k + 1 pieces.
GPUDF_HD inline bool str_split_part(Slot v, Slot sep, int64_t k, bool inclusive, bool rest, Slot& out) {
  int64_t b = 0;
  for (int64_t i = 0; i < k; ++i) {
    const int64_t at = str_find_from(v, b, sep);
    if (at < 0) return false;
    b = at + sep.n;
  }
  int64_t e = v.n;
  if (!rest) {
    const int64_t at = str_find_from(v, b, sep);
    if (at >= 0) e = inclusive ? at + sep.n : at;
  }
  out = utf8_slice_bytes(v, b, e);
  return true;
}

/// str.head(n): the first n characters; n < 0: all but the last -n.
GPUDF_HD inline Slot str_head(Slot v, int64_t n) {
  if (n >= 0) return utf8_slice_bytes(v, 0, utf8_advance(v.s, v.n, 0, n));
  const int64_t keep = utf8_length(v.s, v.n) + n;
  return utf8_slice_bytes(v, 0, keep <= 0 ? 0 : utf8_advance(v.s, v.n, 0, keep));
}

/// str.tail(n): the last n characters; n < 0: all but the first -n.
GPUDF_HD inline Slot str_tail(Slot v, int64_t n) {
  if (n < 0) return utf8_slice_bytes(v, utf8_advance(v.s, v.n, 0, -n), v.n);
  const int64_t skip = utf8_length(v.s, v.n) - n;
  return utf8_slice_bytes(v, skip <= 0 ? 0 : utf8_advance(v.s, v.n, 0, skip), v.n);
}

// ---- temporal (UTC, proleptic Gregorian) ----


/// A date/time field of value v of temporal dtype t. `field`: Year..Nanosecond.
GPUDF_HD inline int64_t temporal_field(Op field, TypeId t, int64_t v) {
  const int64_t per_day = units_per_day(t);
  const int64_t days = floor_div_i64(v, per_day);
  const int64_t in_day = floor_mod_i64(v, per_day);
  const int64_t per_sec = per_day / 86400 > 0 ? per_day / 86400 : 1;
  const int64_t secs = in_day / per_sec;
  const int64_t sub_ns = (in_day % per_sec) * (1000000000 / per_sec);
  switch (field) {
    case Op::Year: return civil_from_days(days).year;
    case Op::Month: return civil_from_days(days).month;
    case Op::Day: return civil_from_days(days).day;
    case Op::Hour: return secs / 3600;
    case Op::Minute: return (secs / 60) % 60;
    case Op::Second: return secs % 60;
    case Op::Weekday: return floor_mod_i64(days + 3, 7) + 1;  // 1970-01-01 was a Thursday (4)
    case Op::Quarter: return (civil_from_days(days).month - 1) / 3 + 1;
    case Op::OrdinalDay: return days - days_from_civil(civil_from_days(days).year, 1, 1) + 1;
    case Op::IsoWeek:
    case Op::IsoYear: {
      // The ISO week belongs to the year of its Thursday.
      const int64_t thursday = days - floor_mod_i64(days + 3, 7) + 3;
      const int64_t year = civil_from_days(thursday).year;
      if (field == Op::IsoYear) return year;
      return (thursday - days_from_civil(year, 1, 1)) / 7 + 1;
    }
    case Op::Millisecond: return sub_ns / 1000000;
    case Op::Microsecond: return sub_ns / 1000;
    case Op::Nanosecond: return sub_ns;
    default: return 0;
  }
}

/// dt.epoch(unit): v (dtype t) as a count of `unit` (0 s, 1 ms, 2 us, 3 ns, 4 days) since
/// 1970-01-01, floored; ok = false when it does not fit int64.
GPUDF_HD inline int64_t temporal_epoch(TypeId t, int64_t v, int64_t unit, bool& ok) {
  const int64_t per_day = units_per_day(t);
  if (unit == 4) return floor_div_i64(v, per_day);
  const int64_t target = unit == 0 ? 86400LL : unit == 1 ? 86400000LL : unit == 2 ? 86400000000LL : 86400000000000LL;
  if (target >= per_day) {
    const int64_t k = target / per_day;
    if (v > INT64_MAX / k || v < INT64_MIN / k) {
      ok = false;
      return 0;
    }
    return v * k;
  }
  return floor_div_i64(v, per_day / target);
}

/// monthStart / monthEnd: the first / last day of v's month at v's time of day.
GPUDF_HD inline int64_t temporal_month_edge(TypeId t, int64_t v, bool end) {
  const int64_t per_day = units_per_day(t);
  const int64_t days = floor_div_i64(v, per_day);
  const int64_t in_day = v - days * per_day;
  const CivilDate c = civil_from_days(days);
  const int64_t d = end ? days_in_month(c.year, c.month) : 1;
  return days_from_civil(c.year, unsigned(c.month), unsigned(d)) * per_day + in_day;
}

/// dt.truncate: the start of v's interval. Calendar months count from 1970-01 (so "3mo" gives
/// quarters, "12mo" years); fixed intervals count from 1970-01-01, weeks from Monday 1970-01-05.
GPUDF_HD inline int64_t temporal_truncate(TypeId t, int64_t v, int64_t months, int64_t every) {
  const int64_t per_day = units_per_day(t);
  if (months > 0) {
    const CivilDate c = civil_from_days(floor_div_i64(v, per_day));
    const int64_t m0 = floor_div_i64((c.year - 1970) * 12 + (c.month - 1), months) * months;
    return days_from_civil(1970 + floor_div_i64(m0, 12), unsigned(floor_mod_i64(m0, 12) + 1), 1) * per_day;
  }
  const int64_t origin = every % (7 * per_day) == 0 ? 4 * per_day : 0;
  return floor_div_i64(v - origin, every) * every + origin;
}

/// dt.round: the nearer interval boundary (halfway rounds up).
GPUDF_HD inline int64_t temporal_round(TypeId t, int64_t v, int64_t months, int64_t every) {
  const int64_t lo = temporal_truncate(t, v, months, every);
  const int64_t per_day = units_per_day(t);
  const int64_t hi = months > 0 ? add_months(floor_div_i64(lo, per_day), months) * per_day : lo + every;
  return v - lo >= hi - v ? hi : lo;
}

/// dt.offsetBy: calendar months first (the day clamped to the month's end), then the fixed
/// part; ok = false on overflow.
GPUDF_HD inline int64_t temporal_offset(TypeId t, int64_t v, int64_t months, int64_t fixed, bool& ok) {
  const int64_t per_day = units_per_day(t);
  int64_t out = v;
  if (months != 0) {
    const int64_t days = floor_div_i64(v, per_day);
    const int64_t moved = add_months(days, months);
    if (moved > INT64_MAX / per_day || moved < INT64_MIN / per_day) {
      ok = false;
      return 0;
    }
    out = moved * per_day + (v - days * per_day);
  }
  if ((fixed > 0 && out > INT64_MAX - fixed) || (fixed < 0 && out < INT64_MIN - fixed)) {
    ok = false;
    return 0;
  }
  out += fixed;
  if (t == TypeId::Date32 && (out > INT32_MAX || out < INT32_MIN)) ok = false;
  return out;
}

}  // namespace gpudf::expr
