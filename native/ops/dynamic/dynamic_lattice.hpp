// The window lattice of dynamic.hpp as GPUDF_HD rules both backends run: spans (calendar months,
// then ticks) added with saturation, the first window's alignment, which windows [lo, hi] hold a
// time, a window's rows by binary search, and the per-row and per-segment functors that check
// the order and find each segment's start and anchor.
#pragma once

#include <cstdint>

#include "core/calendar.hpp"
#include "core/hd.hpp"
#include "ops/dynamic/dynamic.hpp"

namespace gpudf::dynamic::detail {

inline constexpr int64_t kMax = INT64_MAX, kMin = INT64_MIN;

GPUDF_HD inline int64_t tick(const Ticks& t, int64_t i) {
  return t.wide ? static_cast<const int64_t*>(t.data)[t.offset + i] : int64_t(static_cast<const int32_t*>(t.data)[t.offset + i]);
}

GPUDF_HD inline int64_t add_sat(int64_t a, int64_t b) {
  if (b > 0 && a > kMax - b) return kMax;
  if (b < 0 && a < kMin - b) return kMin;
  return a + b;
}

GPUDF_HD inline int64_t mul_sat(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  const bool neg = (a < 0) != (b < 0);
  const uint64_t ua = a < 0 ? uint64_t(0) - uint64_t(a) : uint64_t(a), ub = b < 0 ? uint64_t(0) - uint64_t(b) : uint64_t(b);
  if (ua > uint64_t(kMax) / ub) return neg ? kMin : kMax;
  const int64_t p = int64_t(ua * ub);
  return neg ? -p : p;
}

/// t + k * span: k * months calendar months (day clamped), then k * ticks; saturating.
GPUDF_HD inline int64_t add_span(int64_t t, Span s, int64_t k, int64_t tpd) {
  if (s.months != 0 && k != 0 && tpd > 0) {
    const int64_t months = mul_sat(k, s.months);
    if (months > 12 * 1000000 || months < -12 * 1000000) return months > 0 ? kMax : kMin;
    const int64_t days = floor_div_i64(t, tpd), rem = t - days * tpd;
    const int64_t moved = add_months(days, months);
    t = add_sat(mul_sat(moved, tpd), rem);
  }
  return add_sat(t, mul_sat(k, s.ticks));
}

/// The first value of a segment truncated to `every` (Align::DataPoint: unchanged; Align::Weekday:
/// 00:00 of that weekday in t's Monday-to-Sunday week, which may lie after t).
GPUDF_HD inline int64_t truncate_to(int64_t t, const WindowSpec& w) {
  switch (w.align) {
    case Align::Fixed: return t - floor_mod_i64(t, w.every.ticks);
    case Align::Weeks: return t - floor_mod_i64(t - 4 * w.ticks_per_day, w.every.ticks);  // 1970-01-05 was a Monday
    case Align::Months: {
      const int64_t days = floor_div_i64(t, w.ticks_per_day);
      const CivilDate c = civil_from_days(days);
      int64_t m = (c.year - 1970) * 12 + (c.month - 1);
      m -= floor_mod_i64(m, w.every.months);
      return days_from_civil(1970 + floor_div_i64(m, 12), unsigned(floor_mod_i64(m, 12) + 1), 1u) * w.ticks_per_day;
    }
    case Align::DataPoint: return t;
    case Align::Weekday: {
      const int64_t days = floor_div_i64(t, w.ticks_per_day);
      const int64_t monday = days - floor_mod_i64(days - 4, 7);  // 1970-01-05 was a Monday
      return (monday + w.weekday) * w.ticks_per_day;
    }
  }
  return t;
}

GPUDF_HD inline bool lower_closed(Closed c) { return c == Closed::Left || c == Closed::Both; }
GPUDF_HD inline bool upper_closed(Closed c) { return c == Closed::Right || c == Closed::Both; }
/// The window [start, ...) lies wholly after t.
GPUDF_HD inline bool starts_after(int64_t start, int64_t t, Closed c) { return lower_closed(c) ? start > t : start >= t; }
/// The window (..., stop) reaches t.
GPUDF_HD inline bool reaches(int64_t stop, int64_t t, Closed c) { return upper_closed(c) ? stop >= t : stop > t; }

/// The smallest j >= 0 with p(j), p monotone (false then true) and true for large j; galloping
/// from the guess g, then bisection.
template <typename P>
GPUDF_HD int64_t first_true(const P& p, int64_t g) {
  int64_t lo, hi;  // p(lo) false (lo == -1 stands for false), p(hi) true
  if (p(g)) {
    hi = g;
    int64_t step = 1;
    lo = g - 1;
    while (lo >= 0 && p(lo)) {
      hi = lo;
      step = step < (int64_t(1) << 61) ? step * 2 : step;
      lo = hi - step;
    }
    if (lo < -1) lo = -1;
  } else {
    lo = g;
    int64_t step = 1;
    hi = add_sat(g, 1);
    while (!p(hi)) {
      lo = hi;
      step = step < (int64_t(1) << 61) ? step * 2 : step;
      hi = add_sat(lo, step);
    }
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (p(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/// A starting guess for j with start_j near t (the searches correct it).
GPUDF_HD inline int64_t guess_of(int64_t t, int64_t anchor, const WindowSpec& w) {
  const double step = double(w.every.ticks) + double(w.every.months) * double(w.ticks_per_day) * 30.436875;
  if (!(step > 0) || t <= anchor) return 0;
  const double g = (double(t) - double(anchor)) / step;
  return g > 4.0e18 ? int64_t(4.0e18) : int64_t(g);
}

struct StartAfter {
  int64_t anchor, t;
  const WindowSpec* w;
  GPUDF_HD bool operator()(int64_t j) const { return starts_after(add_span(anchor, w->every, j, w->ticks_per_day), t, w->closed); }
};
struct StopReaches {
  int64_t anchor, t;
  const WindowSpec* w;
  GPUDF_HD bool operator()(int64_t j) const {
    const int64_t start = add_span(anchor, w->every, j, w->ticks_per_day);
    return reaches(add_span(start, w->period, 1, w->ticks_per_day), t, w->closed);
  }
};
/// Shifting the first window back by m * every no longer leaves t before it.
struct ShiftedHolds {
  int64_t start, t;
  const WindowSpec* w;
  GPUDF_HD bool operator()(int64_t m) const { return !starts_after(add_span(start, w->every, -m, w->ticks_per_day), t, w->closed); }
};

/// First position in [b, e) whose value is >= v (strict: > v).
GPUDF_HD inline int64_t search(const Ticks& t, int64_t b, int64_t e, int64_t v, bool strict) {
  while (b < e) {
    const int64_t mid = b + (e - b) / 2;
    const int64_t x = tick(t, mid);
    if (strict ? x <= v : x < v) b = mid + 1;
    else e = mid;
  }
  return b;
}

/// The rows [first, end) of (lo, hi) under `closed`, within the segment's rows [b, e).
GPUDF_HD inline void row_range(const Ticks& t, int64_t b, int64_t e, int64_t lo, int64_t hi, Closed c, int64_t* first, int64_t* end) {
  *first = search(t, b, e, lo, !lower_closed(c));
  *end = search(t, *first, e, hi, upper_closed(c));
}

GPUDF_HD inline int32_t seg_of(const int32_t* seg, int64_t i) { return seg ? seg[i] : 0; }

/// bad[i]: 2i when row i breaks the index order within its segment, 2i + 1 when the segment ids
/// are not runs 0, 1, 2, ...; kMax when the row is fine.
/// Row i's fault, kMax for none: 2i + 1 when the segment ids do not run 0, 1, 2, ..., 2i when
/// the index steps back within a segment (the smallest over the rows is the first fault).
struct CheckRow {
  Ticks t;
  const int32_t* seg;
  GPUDF_HD int64_t operator()(int64_t i) const {
    const int32_t s = seg_of(seg, i);
    if (i == 0 ? s != 0 : (s != seg_of(seg, i - 1) && s != seg_of(seg, i - 1) + 1)) return 2 * i + 1;
    if (i > 0 && s == seg_of(seg, i - 1) && tick(t, i) < tick(t, i - 1)) return 2 * i;
    return kMax;
  }
};

/// starts[s] = the first row of segment s; starts[segments] = rows.
struct SegmentStarts {
  const int32_t* seg;
  int64_t rows, segments;
  int64_t* starts;
  GPUDF_HD void operator()(int64_t i) const {
    if (i == 0 || seg_of(seg, i) != seg_of(seg, i - 1)) starts[seg_of(seg, i)] = i;
    if (i == rows - 1) starts[segments] = rows;
  }
};

/// anchor[s]: the start of segment s's first window.
struct Anchors {
  Ticks t;
  const int64_t* starts;
  WindowSpec w;
  int64_t* anchor;
  GPUDF_HD void operator()(int64_t s) const {
    const int64_t t0 = tick(t, starts[s]);
    if (w.align == Align::DataPoint) {
      anchor[s] = t0;
      return;
    }
    const int64_t start = add_span(truncate_to(t0, w), w.offset, 1, w.ticks_per_day);
    const int64_t back = first_true(ShiftedHolds{start, t0, &w}, 0);
    anchor[s] = add_span(start, w.every, -back, w.ticks_per_day);
  }
};

/// Fixed-length windows whose lattice arithmetic cannot overflow near t: start_j = anchor + j * every
/// exactly, so the searches below have closed forms.
GPUDF_HD inline bool fixed_lattice(int64_t t, int64_t anchor, const WindowSpec& w) {
  constexpr int64_t kBound = int64_t(1) << 61;
  return w.every.months == 0 && w.period.months == 0 && w.every.ticks > 0 && w.every.ticks < kBound &&
         w.period.ticks < kBound && t > -kBound && t < kBound && anchor > -kBound && anchor < kBound;
}

/// The windows [lo, hi] holding row i (hi < lo: none).
GPUDF_HD inline void windows_of(int64_t t, int64_t anchor, const WindowSpec& w, int64_t* lo, int64_t* hi) {
  if (fixed_lattice(t, anchor, w)) {
    // The first j >= 0 whose window starts after t, and the first whose stop reaches t.
    const int64_t e = w.every.ticks, d = t - anchor, s = d - w.period.ticks;
    const int64_t after = lower_closed(w.closed) ? floor_div_i64(d, e) + 1 : -floor_div_i64(-d, e);
    const int64_t reach = upper_closed(w.closed) ? -floor_div_i64(-s, e) : floor_div_i64(s, e) + 1;
    *hi = (after > 0 ? after : 0) - 1;
    *lo = reach > 0 ? reach : 0;
    return;
  }
  const int64_t g = guess_of(t, anchor, w);
  *hi = first_true(StartAfter{anchor, t, &w}, g) - 1;
  *lo = first_true(StopReaches{anchor, t, &w}, g);
}

}  // namespace gpudf::dynamic::detail
