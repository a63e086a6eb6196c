// Dates and timestamps <-> text by chrono-style formats ("%Y-%m-%d %H:%M:%S%.f"): a format is
// compiled once on the host (compile_format) into a small fixed array that kernels take by
// value; parse_temporal and format_temporal are GPUDF_HD so the CPU loops and the CUDA kernels
// run the same code per row. All values are UTC: an offset (%z) is applied while parsing.
#pragma once

#include <cstdint>
#include <string>

#include "core/calendar.hpp"
#include "core/duration_text.hpp"
#include "core/hd.hpp"
#include "core/types.hpp"

namespace gpudf::strings {

enum class Spec : uint8_t {
  Literal,     // one byte, matched exactly
  Space,       // parse: any run of whitespace (none included); format: the byte itself
  Year,        // %Y
  Year2,       // %y (parse: 70..99 -> 19xx, 00..69 -> 20xx)
  Century,     // %C
  Month,       // %m
  Day,         // %d
  DaySpace,    // %e (space padded)
  Hour,        // %H
  Hour12,      // %I
  Minute,      // %M
  Second,      // %S
  AmPm,        // %p (AM/PM)
  AmPmLower,   // %P (am/pm)
  Frac,        // %f: fraction digits (parse: 1..9+, format: 9 digits)
  Frac3,       // %3f
  Frac6,       // %6f
  Frac9,       // %9f
  DotFrac,     // %.f: optional '.' + digits (format: 0, 3, 6 or 9 digits, as needed)
  DotFrac3,    // %.3f
  DotFrac6,    // %.6f
  DotFrac9,    // %.9f
  Offset,      // %z (+hhmm; parse also +hh:mm, +hh and Z)
  OffsetColon, // %:z (+hh:mm)
  MonthAbbr,   // %b / %h (parse: abbreviated or full name, any case)
  MonthName,   // %B
  WeekdayAbbr, // %a (parse: checked as a name, not against the date)
  WeekdayName, // %A
  DayOfYear,   // %j
  Epoch,       // %s
  IsoWeekday,  // %u (1 = Monday)
  SunWeekday,  // %w (0 = Sunday)
  ZoneName,    // %Z (format only: "UTC")
  IsoTime,     // (casts) optionally 'T' or ' ', then HH:MM[:SS[.fraction]]
  OptOffset,   // (casts) optionally an offset as %z
};

constexpr int kMaxFormatItems = 96;

/// A compiled format: plain data, copied into kernels by value.
struct Format {
  Spec spec[kMaxFormatItems];
  char lit[kMaxFormatItems];
  int32_t n = 0;
  bool has_time = false;  // any hour/minute/second/fraction/offset/epoch item
};

/// Compiles `text`; an unknown or unsupported specifier is ERR_INVALID_ARGUMENT naming its
/// position. `for_parse` rejects the items that cannot be parsed (%Z, %u, %w, %C).
Format compile_format(const std::string& text, bool for_parse);

/// What casts from text parse: YYYY-MM-DD, then for timestamps an optional time
/// ('T' or ' ', HH:MM[:SS[.f]]) and offset (Z, +hh:mm, +hhmm, +hh), as CSV's tryParseDates.
Format iso_format(bool with_time);

namespace detail {

GPUDF_HD inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
GPUDF_HD inline char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c + 32) : c; }

/// Reads min..max decimal digits at pos; false when fewer than min.
GPUDF_HD inline bool read_digits(const char* s, int64_t n, int64_t& pos, int min, int max, int64_t& v) {
  int k = 0;
  v = 0;
  while (k < max && pos < n && s[pos] >= '0' && s[pos] <= '9') {
    v = v * 10 + (s[pos] - '0');
    ++pos;
    ++k;
  }
  return k >= min;
}

/// A fraction of a second in nanoseconds from its digits (more than 9: the rest are dropped).
GPUDF_HD inline bool read_fraction(const char* s, int64_t n, int64_t& pos, int min, int max, int64_t& nanos) {
  int k = 0;
  nanos = 0;
  while (pos < n && s[pos] >= '0' && s[pos] <= '9' && k < max) {
    if (k < 9) nanos = nanos * 10 + (s[pos] - '0');
    ++pos;
    ++k;
  }
  if (k < min) return false;
  for (int j = k; j < 9; ++j) nanos *= 10;
  return true;
}

GPUDF_HD inline const char* month_name(int m) {
  const char* names[12] = {"january", "february", "march",     "april",   "may",      "june",
                           "july",    "august",   "september", "october", "november", "december"};
  return names[m];
}
GPUDF_HD inline const char* weekday_name(int d) {  // 0 = Monday
  const char* names[7] = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
  return names[d];
}

/// Matches a full or three-letter name (any case) of one of `count` names; the index or -1.
template <typename Names>
GPUDF_HD inline int read_name(const char* s, int64_t n, int64_t& pos, int count, Names names) {
  for (int k = 0; k < count; ++k) {
    const char* name = names(k);
    int64_t len = 0;
    while (name[len]) ++len;
    int64_t j = 0;
    while (j < len && pos + j < n && lower(s[pos + j]) == name[j]) ++j;
    if (j == len) {
      pos += len;
      return k;
    }
    if (j >= 3) {
      pos += 3;
      return k;
    }
  }
  return -1;
}


}  // namespace detail

/// Parses all of s[0, n) by the format into a value of dtype `to` (date32 or a timestamp
/// unit); false where the text does not match, a field is out of range or the value does not
/// fit the dtype.
GPUDF_HD inline bool parse_temporal(const Format& f, const char* s, int64_t n, TypeId to, int64_t& out) {
  using namespace detail;
  if (is_duration(to)) return parse_duration_iso(s, n, ticks_per_second(to), out);  // ISO 8601; no format
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanos = 0, doy = -1;
  int64_t offset = 0, epoch = 0, v = 0;
  int pm = -1;
  bool h12 = false, has_epoch = false, has_md = false;
  int64_t pos = 0;
  for (int32_t k = 0; k < f.n; ++k) {
    const Spec sp = f.spec[k];
    const bool numeric = sp == Spec::Year || sp == Spec::Year2 || sp == Spec::Month || sp == Spec::Day ||
                         sp == Spec::DaySpace || sp == Spec::Hour || sp == Spec::Hour12 || sp == Spec::Minute ||
                         sp == Spec::Second || sp == Spec::DayOfYear || sp == Spec::Epoch;
    if (numeric)
      while (pos < n && is_space(s[pos])) ++pos;
    switch (sp) {
      case Spec::Literal:
        if (pos >= n || s[pos] != f.lit[k]) return false;
        ++pos;
        break;
      case Spec::Space:
        while (pos < n && is_space(s[pos])) ++pos;
        break;
      case Spec::Year: {
        bool neg = false, sign = false;
        if (pos < n && (s[pos] == '-' || s[pos] == '+')) {
          neg = s[pos] == '-';
          sign = true;
          ++pos;
        }
        if (!read_digits(s, n, pos, 1, sign ? 9 : 4, v)) return false;
        year = neg ? -v : v;
        break;
      }
      case Spec::Year2:
        if (!read_digits(s, n, pos, 1, 2, v)) return false;
        year = v < 70 ? 2000 + v : 1900 + v;
        break;
      case Spec::Month:
        if (!read_digits(s, n, pos, 1, 2, month)) return false;
        has_md = true;
        break;
      case Spec::Day:
      case Spec::DaySpace:
        if (!read_digits(s, n, pos, 1, 2, day)) return false;
        has_md = true;
        break;
      case Spec::Hour:
        if (!read_digits(s, n, pos, 1, 2, hour)) return false;
        break;
      case Spec::Hour12:
        if (!read_digits(s, n, pos, 1, 2, hour)) return false;
        h12 = true;
        break;
      case Spec::Minute:
        if (!read_digits(s, n, pos, 1, 2, minute)) return false;
        break;
      case Spec::Second:
        if (!read_digits(s, n, pos, 1, 2, second)) return false;
        break;
      case Spec::AmPm:
      case Spec::AmPmLower: {
        if (pos + 2 > n || lower(s[pos + 1]) != 'm') return false;
        const char c = lower(s[pos]);
        if (c != 'a' && c != 'p') return false;
        pm = c == 'p';
        pos += 2;
        break;
      }
      case Spec::Frac:
        if (!read_fraction(s, n, pos, 1, 1 << 20, nanos)) return false;
        break;
      case Spec::Frac3:
      case Spec::Frac6:
      case Spec::Frac9: {
        const int d = sp == Spec::Frac3 ? 3 : sp == Spec::Frac6 ? 6 : 9;
        if (!read_fraction(s, n, pos, d, d, nanos)) return false;
        break;
      }
      case Spec::DotFrac:
        if (pos < n && s[pos] == '.') {
          ++pos;
          if (!read_fraction(s, n, pos, 1, 1 << 20, nanos)) return false;
        }
        break;
      case Spec::DotFrac3:
      case Spec::DotFrac6:
      case Spec::DotFrac9: {
        const int d = sp == Spec::DotFrac3 ? 3 : sp == Spec::DotFrac6 ? 6 : 9;
        if (pos >= n || s[pos] != '.') return false;
        ++pos;
        if (!read_fraction(s, n, pos, d, d, nanos)) return false;
        break;
      }
      case Spec::IsoTime:
        if (pos < n && (s[pos] == 'T' || s[pos] == ' ')) {
          ++pos;
          if (!read_digits(s, n, pos, 2, 2, hour) || pos >= n || s[pos] != ':') return false;
          ++pos;
          if (!read_digits(s, n, pos, 2, 2, minute)) return false;
          if (pos < n && s[pos] == ':') {
            ++pos;
            if (!read_digits(s, n, pos, 2, 2, second)) return false;
            if (pos < n && s[pos] == '.') {
              ++pos;
              if (!read_fraction(s, n, pos, 1, 1 << 20, nanos)) return false;
            }
          }
        }
        break;
      case Spec::OptOffset:
        if (pos >= n || (s[pos] != 'Z' && s[pos] != 'z' && s[pos] != '+' && s[pos] != '-')) break;
        [[fallthrough]];
      case Spec::Offset:
      case Spec::OffsetColon: {
        if (pos < n && (s[pos] == 'Z' || s[pos] == 'z')) {
          ++pos;
          offset = 0;
          break;
        }
        if (pos >= n || (s[pos] != '+' && s[pos] != '-')) return false;
        const bool neg = s[pos] == '-';
        ++pos;
        int64_t hh = 0, mm = 0;
        if (!read_digits(s, n, pos, 2, 2, hh)) return false;
        if (pos < n && s[pos] == ':') {
          ++pos;
          if (!read_digits(s, n, pos, 2, 2, mm)) return false;
        } else if (pos < n && s[pos] >= '0' && s[pos] <= '9') {
          if (!read_digits(s, n, pos, 2, 2, mm)) return false;
        }
        if (hh > 23 || mm > 59) return false;
        offset = (hh * 3600 + mm * 60) * (neg ? -1 : 1);
        break;
      }
      case Spec::MonthAbbr:
      case Spec::MonthName: {
        const int m = read_name(s, n, pos, 12, [](int i) { return month_name(i); });
        if (m < 0) return false;
        month = m + 1;
        has_md = true;
        break;
      }
      case Spec::WeekdayAbbr:
      case Spec::WeekdayName:
        if (read_name(s, n, pos, 7, [](int i) { return weekday_name(i); }) < 0) return false;
        break;
      case Spec::DayOfYear:
        if (!read_digits(s, n, pos, 1, 3, doy)) return false;
        break;
      case Spec::Epoch: {
        bool neg = false;
        if (pos < n && s[pos] == '-') {
          neg = true;
          ++pos;
        }
        if (!read_digits(s, n, pos, 1, 18, v)) return false;
        epoch = neg ? -v : v;
        has_epoch = true;
        break;
      }
      default:
        return false;  // format-only items are rejected by compile_format(for_parse)
    }
  }
  if (pos != n) return false;
  int64_t secs = 0;
  if (has_epoch) {
    secs = epoch;
  } else {
    if (h12) {
      if (hour < 1 || hour > 12) return false;
      hour = hour % 12 + (pm == 1 ? 12 : 0);
    } else if (pm == 1 && hour < 12) {
      hour += 12;
    }
    if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return false;
    if (doy >= 0 && !has_md) {
      const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
      if (doy < 1 || doy > (leap ? 366 : 365)) return false;
    } else if (day < 1 || day > gpudf::days_in_month(year, month)) {
      return false;
    }
    const int64_t days = doy >= 0 && !has_md ? days_from_civil(year, 1, 1) + doy - 1
                                             : days_from_civil(year, unsigned(month), unsigned(day));
    if (to == TypeId::Date32) {
      if (days < INT32_MIN || days > INT32_MAX) return false;
      out = days;
      return true;
    }
    if (days > 106751991167LL || days < -106751991167LL) return false;
    secs = days * 86400 + hour * 3600 + minute * 60 + second - offset;
  }
  if (to == TypeId::Date32) {
    const int64_t days = floor_div_i64(secs, 86400);
    if (days < INT32_MIN || days > INT32_MAX) return false;
    out = days;
    return true;
  }
  const int64_t per_sec = to == TypeId::TimestampS ? 1 : to == TypeId::TimestampMs ? 1000
                          : to == TypeId::TimestampUs ? 1000000 : 1000000000;
  const int64_t limit = (INT64_MAX - 1000000000) / per_sec;
  if (secs > limit || secs < -limit) return false;
  out = secs * per_sec + nanos / (1000000000 / per_sec);
  return true;
}

namespace detail {

/// Writes v zero-padded to `width` digits (a '-' first when negative); returns the length.
GPUDF_HD inline int64_t put_int(char* out, int64_t v, int width, char pad = '0') {
  char buf[24];
  int len = 0;
  const bool neg = v < 0;
  uint64_t u = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  do {
    buf[len++] = char('0' + u % 10);
    u /= 10;
  } while (u);
  while (len < width) buf[len++] = pad;
  const int64_t total = len + (neg ? 1 : 0);
  if (out) {
    int64_t p = 0;
    if (neg) out[p++] = '-';
    for (int k = len - 1; k >= 0; --k) out[p++] = buf[k];
  }
  return total;
}

GPUDF_HD inline int64_t put_text(char* out, const char* text, int64_t max_len, bool capital) {
  int64_t len = 0;
  while (text[len] && len < max_len) {
    if (out) out[len] = capital && len == 0 ? char(text[len] - 32) : text[len];
    ++len;
  }
  return len;
}

}  // namespace detail

/// Formats one value of dtype `from` (date32 or a timestamp unit) by the format into out (when
/// not null); returns the text's byte length.
GPUDF_HD inline int64_t format_temporal(const Format& f, TypeId from, int64_t value, char* out) {
  using namespace detail;
  if (is_duration(from)) {  // ISO 8601 ("P1DT2H"); no format
    char text[kMaxDurationText];
    const int len = write_duration_iso(text, value, ticks_per_second(from));
    if (out)
      for (int k = 0; k < len; ++k) out[k] = text[k];
    return len;
  }
  int64_t secs = 0, nanos = 0;
  if (from == TypeId::Date32) {
    secs = value * 86400;
  } else {
    const int64_t per_sec = from == TypeId::TimestampS ? 1 : from == TypeId::TimestampMs ? 1000
                            : from == TypeId::TimestampUs ? 1000000 : 1000000000;
    secs = floor_div_i64(value, per_sec);
    nanos = floor_mod_i64(value, per_sec) * (1000000000 / per_sec);
  }
  const int64_t days = floor_div_i64(secs, 86400);
  const int64_t sod = floor_mod_i64(secs, 86400);  // days * 86400 overflows near INT64_MIN
  const CivilDate c = civil_from_days(days);
  const int64_t hour = sod / 3600, minute = sod / 60 % 60, second = sod % 60;
  const int64_t weekday0 = floor_mod_i64(days + 3, 7);  // 0 = Monday (1970-01-01 was a Thursday)
  int64_t len = 0;
  auto at = [&]() { return out ? out + len : nullptr; };
  for (int32_t k = 0; k < f.n; ++k) {
    switch (f.spec[k]) {
      case Spec::Literal:
      case Spec::Space:
        if (out) out[len] = f.lit[k];
        ++len;
        break;
      case Spec::Year:
        if (c.year > 9999) {
          if (out) out[len] = '+';
          ++len;
        }
        len += put_int(at(), c.year, 4);
        break;
      case Spec::Year2: len += put_int(at(), floor_mod_i64(c.year, 100), 2); break;
      case Spec::Century: len += put_int(at(), floor_div_i64(c.year, 100), 2); break;
      case Spec::Month: len += put_int(at(), c.month, 2); break;
      case Spec::Day: len += put_int(at(), c.day, 2); break;
      case Spec::DaySpace: len += put_int(at(), c.day, 2, ' '); break;
      case Spec::Hour: len += put_int(at(), hour, 2); break;
      case Spec::Hour12: len += put_int(at(), hour % 12 == 0 ? 12 : hour % 12, 2); break;
      case Spec::Minute: len += put_int(at(), minute, 2); break;
      case Spec::Second: len += put_int(at(), second, 2); break;
      case Spec::AmPm:
      case Spec::AmPmLower: {
        const bool up = f.spec[k] == Spec::AmPm;
        if (out) {
          out[len] = hour < 12 ? (up ? 'A' : 'a') : (up ? 'P' : 'p');
          out[len + 1] = up ? 'M' : 'm';
        }
        len += 2;
        break;
      }
      case Spec::Frac:
      case Spec::Frac9: len += put_int(at(), nanos, 9); break;
      case Spec::Frac3: len += put_int(at(), nanos / 1000000, 3); break;
      case Spec::Frac6: len += put_int(at(), nanos / 1000, 6); break;
      case Spec::DotFrac:
      case Spec::DotFrac3:
      case Spec::DotFrac6:
      case Spec::DotFrac9: {
        int digits = f.spec[k] == Spec::DotFrac3 ? 3 : f.spec[k] == Spec::DotFrac6 ? 6 : 9;
        if (f.spec[k] == Spec::DotFrac) {
          if (nanos == 0) break;
          digits = nanos % 1000000 == 0 ? 3 : nanos % 1000 == 0 ? 6 : 9;
        }
        if (out) out[len] = '.';
        ++len;
        int64_t scaled = nanos;
        for (int d = digits; d < 9; ++d) scaled /= 10;
        len += put_int(at(), scaled, digits);
        break;
      }
      case Spec::Offset: len += put_text(at(), "+0000", 5, false); break;
      case Spec::OffsetColon: len += put_text(at(), "+00:00", 6, false); break;
      case Spec::ZoneName: len += put_text(at(), "UTC", 3, false); break;
      case Spec::MonthAbbr: len += put_text(at(), month_name(c.month - 1), 3, true); break;
      case Spec::MonthName: len += put_text(at(), month_name(c.month - 1), 16, true); break;
      case Spec::WeekdayAbbr: len += put_text(at(), weekday_name(int(weekday0)), 3, true); break;
      case Spec::WeekdayName: len += put_text(at(), weekday_name(int(weekday0)), 16, true); break;
      case Spec::DayOfYear: len += put_int(at(), days - days_from_civil(c.year, 1, 1) + 1, 3); break;
      case Spec::Epoch: len += put_int(at(), secs, 1); break;
      case Spec::IsoWeekday: len += put_int(at(), weekday0 + 1, 1); break;
      case Spec::SunWeekday: len += put_int(at(), (weekday0 + 1) % 7, 1); break;
      case Spec::IsoTime:
      case Spec::OptOffset: break;  // parse only
    }
  }
  return len;
}

}  // namespace gpudf::strings
