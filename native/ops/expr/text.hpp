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
GPUDF_HD inline bool str_contains(Slot v, Slot p) {
  for (int64_t k = 0; k + p.n <= v.n; ++k)
    if (bytes_equal(v.s + k, p.s, p.n)) return true;
  return false;
}

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


/// A date/time field of value v of temporal dtype t. `field`: Year..Weekday.
GPUDF_HD inline int64_t temporal_field(Op field, TypeId t, int64_t v) {
  const int64_t per_day = units_per_day(t);
  const int64_t days = floor_div_i64(v, per_day);
  const int64_t in_day = floor_mod_i64(v, per_day);
  const int64_t per_sec = per_day / 86400 > 0 ? per_day / 86400 : 1;
  const int64_t secs = in_day / per_sec;
  switch (field) {
    case Op::Year: return civil_from_days(days).year;
    case Op::Month: return civil_from_days(days).month;
    case Op::Day: return civil_from_days(days).day;
    case Op::Hour: return secs / 3600;
    case Op::Minute: return (secs / 60) % 60;
    case Op::Second: return secs % 60;
    case Op::Weekday: return floor_mod_i64(days + 3, 7) + 1;  // 1970-01-01 was a Thursday (4)
    default: return 0;
  }
}

}  // namespace gpudf::expr
