// The window pipeline of dynamic.hpp as one template over a backend B (dynamic.cpp: CPU loops
// on the pool; dynamic.cu: kernels and Thrust), with the per-element rules as GPUDF_HD functors
// both backends run. B provides for_each(n, f) (f(i) for every i in [0, n)), exclusive_scan of
// int64 (returns the total), min/max of int64, min_of(n, f) (of f(i) over [0, n), nothing stored
// per row), and read(p) (one value to the host).
#pragma once

#include <cstdint>
#include <string>

#include "core/buffer.hpp"
#include "core/calendar.hpp"
#include "core/error.hpp"
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

/// count[i]: the windows row i adds to those of the rows before it; first[i] the first of them;
/// held[i] the windows that hold row i.
struct RowWindows {
  Ticks t;
  const int32_t* seg;
  const int64_t* anchor;
  WindowSpec w;
  int64_t *count, *first, *held;
  GPUDF_HD void operator()(int64_t i) const {
    const int32_t s = seg_of(seg, i);
    int64_t lo, hi;
    windows_of(tick(t, i), anchor[s], w, &lo, &hi);
    held[i] = hi >= lo ? hi - lo + 1 : 0;
    int64_t from = lo;
    if (i > 0 && seg_of(seg, i - 1) == s) {
      int64_t plo, phi;
      windows_of(tick(t, i - 1), anchor[s], w, &plo, &phi);
      if (phi + 1 > from) from = phi + 1;
    }
    count[i] = hi >= from ? hi - from + 1 : 0;
    first[i] = from;
  }
};

struct EmitWindows {
  const int32_t* seg;
  const int64_t *count, *first, *offsets;
  int32_t* win_seg;
  int64_t* win_j;
  GPUDF_HD void operator()(int64_t i) const {
    for (int64_t c = 0; c < count[i]; ++c) {
      win_seg[offsets[i] + c] = seg_of(seg, i);
      win_j[offsets[i] + c] = first[i] + c;
    }
  }
};

/// Windows that share no row: the window of row i (-1: none) is the last that the rows up to i
/// added, offsets[i] + count[i] - 1.
struct RowWindowIds {
  const int64_t *held, *count, *offsets;
  int32_t* windows;
  GPUDF_HD void operator()(int64_t i) const { windows[i] = held[i] == 0 ? -1 : int32_t(offsets[i] + count[i] - 1); }
};

struct WindowBounds {
  Ticks t;
  const int64_t *starts, *anchor;
  const int32_t* win_seg;
  const int64_t* win_j;
  WindowSpec w;
  int64_t *lower, *upper, *first, *size;
  GPUDF_HD void operator()(int64_t k) const {
    const int32_t s = win_seg[k];
    const int64_t lo = add_span(anchor[s], w.every, win_j[k], w.ticks_per_day);
    const int64_t hi = add_span(lo, w.period, 1, w.ticks_per_day);
    int64_t f, e;
    row_range(t, starts[s], starts[s + 1], lo, hi, w.closed, &f, &e);
    lower[k] = lo;
    upper[k] = hi;
    first[k] = f;
    size[k] = e - f;
  }
};

struct RollingBounds {
  Ticks t;
  const int32_t* seg;
  const int64_t* starts;
  WindowSpec w;
  int64_t *first, *size;
  GPUDF_HD void operator()(int64_t i) const {
    const int32_t s = seg_of(seg, i);
    // Both ends from t: with the default offset (-period) the window ends exactly at t.
    const int64_t lo = add_span(tick(t, i), w.offset, 1, w.ticks_per_day);
    const int64_t hi = add_span(tick(t, i), Span{w.offset.months + w.period.months, w.offset.ticks + w.period.ticks}, 1, w.ticks_per_day);
    int64_t f, e;
    row_range(t, starts[s], starts[s + 1], lo, hi, w.closed, &f, &e);
    first[i] = f;
    size[i] = e - f;
  }
};

struct Expand {
  const int64_t *first, *size, *offsets;
  int64_t* rows;
  int32_t* windows;
  GPUDF_HD void operator()(int64_t k) const {
    for (int64_t r = 0; r < size[k]; ++r) {
      rows[offsets[k] + r] = first[k] + r;
      windows[offsets[k] + r] = int32_t(k);
    }
  }
};

/// Rows [from, n): row 0 of no window (-1), so that the expansion has at least a row per window.
struct Pad {
  int64_t from;
  int64_t* rows;
  int32_t* windows;
  GPUDF_HD void operator()(int64_t i) const {
    rows[from + i] = 0;
    windows[from + i] = -1;
  }
};

struct Narrow {
  const int64_t* in;
  int32_t* out;
  GPUDF_HD void operator()(int64_t i) const { out[i] = int32_t(in[i]); }
};

inline int64_t* i64(const BufferPtr& b) { return reinterpret_cast<int64_t*>(b->data()); }
inline int32_t* i32(const BufferPtr& b) { return reinterpret_cast<int32_t*>(b->data()); }

inline BufferPtr buffer(Device& dev, int64_t n, int64_t width) { return Buffer::allocate(dev, size_t(n > 0 ? n : 1) * size_t(width)); }

inline ColumnPtr column_of(Device& dev, TypeId type, int64_t n, BufferPtr data) {
  return std::make_shared<Column>(dev, type, n, std::move(data), nullptr, nullptr, 0);
}

/// Checks the order and returns the segment starts (segments + 1 entries) and the segment count.
template <typename B>
BufferPtr segment_starts(Device& dev, const Inputs& in, int64_t* segments) {
  const int64_t n = in.rows;
  const int64_t worst = B::min_of(n, CheckRow{in.ticks, in.seg});
  if (worst != kMax) {
    GPUDF_EXPECTS(worst % 2 == 0, InvalidArgument, "window segments must be int32 ids in runs 0, 1, 2, ...");
    GPUDF_FAIL(InvalidArgument, "the index column must be sorted ascending (within each group); row " +
                                    std::to_string(worst / 2) + " is smaller than the row before it");
  }
  *segments = in.seg ? int64_t(B::read(in.seg + (n - 1))) + 1 : 1;
  BufferPtr starts = buffer(dev, *segments + 1, 8);
  B::for_each(n, SegmentStarts{in.seg, n, *segments, i64(starts)});
  return starts;
}

/// The expansion of windows with rows [first, first + size): `count` windows. When the windows
/// hold fewer rows than there are windows (empty rolling windows), ignored rows (window -1) pad
/// it to `count` rows: the groupby aggregations take no more groups than rows.
template <typename B>
WindowRows expand(Device& dev, const BufferPtr& first, const BufferPtr& size, int64_t count) {
  BufferPtr offsets = buffer(dev, count, 8);
  const int64_t members = B::exclusive_scan(i64(size), i64(offsets), count);
  GPUDF_EXPECTS(members < (int64_t(1) << 40), InvalidArgument, "the windows hold too many rows in all");
  GPUDF_EXPECTS(count < INT32_MAX, InvalidArgument, "too many windows");
  const int64_t total = members < count ? count : members;
  BufferPtr rows = buffer(dev, total, 8), windows = buffer(dev, total, 4);
  B::for_each(count, Expand{i64(first), i64(size), i64(offsets), i64(rows), i32(windows)});
  B::for_each(total - members, Pad{members, i64(rows), i32(windows)});
  WindowRows out;
  out.rows = column_of(dev, TypeId::Int64, total, rows);
  out.windows = column_of(dev, TypeId::Int32, total, windows);
  out.count = count;
  return out;
}

/// Window boundaries as a column of the index's dtype.
template <typename B>
ColumnPtr boundary_column(Device& dev, TypeId type, const Inputs& in, const BufferPtr& values, int64_t n) {
  if (!in.narrow_out) return column_of(dev, type, n, values);
  if (n > 0) {
    GPUDF_EXPECTS(B::min(i64(values), n) >= INT32_MIN && B::max(i64(values), n) <= INT32_MAX, InvalidArgument,
                  "a window boundary lies outside the index dtype's range");
  }
  BufferPtr narrow = buffer(dev, n, 4);
  B::for_each(n, Narrow{i64(values), i32(narrow)});
  return column_of(dev, type, n, narrow);
}

template <typename B>
DynamicWindows run_dynamic(Device& dev, TypeId type, const Inputs& in, const WindowSpec& w) {
  const int64_t n = in.rows;
  int64_t segments = 0;
  BufferPtr starts = segment_starts<B>(dev, in, &segments);
  BufferPtr anchor = buffer(dev, segments, 8);
  B::for_each(segments, Anchors{in.ticks, i64(starts), w, i64(anchor)});
  BufferPtr count = buffer(dev, n, 8), first = buffer(dev, n, 8), offsets = buffer(dev, n, 8), held = buffer(dev, n, 8);
  B::for_each(n, RowWindows{in.ticks, in.seg, i64(anchor), w, i64(count), i64(first), i64(held)});
  const int64_t windows = B::exclusive_scan(i64(count), i64(offsets), n);
  GPUDF_EXPECTS(windows < INT32_MAX, InvalidArgument, "too many windows");
  BufferPtr win_seg = buffer(dev, windows, 4), win_j = buffer(dev, windows, 8);
  B::for_each(n, EmitWindows{in.seg, i64(count), i64(first), i64(offsets), i32(win_seg), i64(win_j)});
  BufferPtr lower = buffer(dev, windows, 8), upper = buffer(dev, windows, 8);
  BufferPtr wfirst = buffer(dev, windows, 8), wsize = buffer(dev, windows, 8);
  B::for_each(windows, WindowBounds{in.ticks, i64(starts), i64(anchor), i32(win_seg), i64(win_j), w, i64(lower),
                                    i64(upper), i64(wfirst), i64(wsize)});
  DynamicWindows out;
  out.lower = boundary_column<B>(dev, type, in, lower, windows);
  out.upper = boundary_column<B>(dev, type, in, upper, windows);
  out.first_row = column_of(dev, TypeId::Int64, windows, wfirst);
  if (B::max(i64(held), n) <= 1) {
    // No row in two windows (period <= every): each row's window id, and no expansion.
    BufferPtr ids = buffer(dev, n, 4);
    B::for_each(n, RowWindowIds{i64(held), i64(count), i64(offsets), i32(ids)});
    out.members.windows = column_of(dev, TypeId::Int32, n, ids);
    out.members.count = windows;
    return out;
  }
  out.members = expand<B>(dev, wfirst, wsize, windows);
  return out;
}

template <typename B>
WindowRows run_rolling(Device& dev, const Inputs& in, const WindowSpec& w) {
  const int64_t n = in.rows;
  int64_t segments = 0;
  BufferPtr starts = segment_starts<B>(dev, in, &segments);
  BufferPtr first = buffer(dev, n, 8), size = buffer(dev, n, 8);
  B::for_each(n, RollingBounds{in.ticks, in.seg, i64(starts), w, i64(first), i64(size)});
  return expand<B>(dev, first, size, n);
}

}  // namespace gpudf::dynamic::detail
