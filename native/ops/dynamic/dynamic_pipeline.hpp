// The window pipeline of dynamic.hpp as one template over a backend B (dynamic.cpp: CPU loops
// on the pool; dynamic.cu: kernels and Thrust), with the per-element rules as GPUDF_HD functors
// both backends run (the lattice rules: dynamic_lattice.hpp). B provides for_each(n, f) (f(i) for
// every i in [0, n)), for_each_block(n, f) (f(b, e) over blocks covering [0, n): the pool's
// blocks on the CPU, one element a thread on CUDA), exclusive_scan of int64 (returns the total), min/max of int64, min_of(n, f)
// (of f(i) over [0, n), nothing stored per row), and read(p) (one value to the host).
#pragma once

#include <cstdint>
#include <string>

#include "core/buffer.hpp"
#include "core/error.hpp"
#include "ops/dynamic/dynamic_lattice.hpp"

namespace gpudf::dynamic::detail {

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

/// Window j of segment s: its bounds and its rows [first, first + size), written at k.
GPUDF_HD inline void put_window(const Ticks& t, const int64_t* starts, const int64_t* anchor, int64_t s, int64_t j,
                                const WindowSpec& w, int64_t k, int64_t* lower, int64_t* upper, int64_t* first,
                                int64_t* size) {
  const int64_t lo = add_span(anchor[s], w.every, j, w.ticks_per_day);
  const int64_t hi = add_span(lo, w.period, 1, w.ticks_per_day);
  int64_t f, e;
  row_range(t, starts[s], starts[s + 1], lo, hi, w.closed, &f, &e);
  lower[k] = lo;
  upper[k] = hi;
  first[k] = f;
  size[k] = e - f;
}

struct WindowBounds {
  Ticks t;
  const int64_t *starts, *anchor;
  const int32_t* win_seg;
  const int64_t* win_j;
  WindowSpec w;
  int64_t *lower, *upper, *first, *size;
  GPUDF_HD void operator()(int64_t k) const {
    put_window(t, starts, anchor, win_seg[k], win_j[k], w, k, lower, upper, first, size);
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

/// Fixed-length windows that cannot share a row: shorter than `every`, or as long and not closed
/// at both ends.
inline bool disjoint_windows(const WindowSpec& w) {
  return w.every.months == 0 && w.period.months == 0 && w.every.ticks > 0 &&
         (w.period.ticks < w.every.ticks || (w.period.ticks == w.every.ticks && w.closed != Closed::Both));
}

/// The windows segment s may hold rows in: from the first that reaches its first row (lo[s]) to
/// the last that starts by its last row; count[s] of them, capped at `cap`.
struct SegmentCandidates {
  Ticks t;
  const int64_t *starts, *anchor;
  WindowSpec w;
  int64_t cap;
  int64_t *lo, *count;
  GPUDF_HD void operator()(int64_t s) const {
    int64_t first_lo, first_hi, last_lo, last_hi;
    windows_of(tick(t, starts[s]), anchor[s], w, &first_lo, &first_hi);
    windows_of(tick(t, starts[s + 1] - 1), anchor[s], w, &last_lo, &last_hi);
    lo[s] = first_lo;
    const int64_t c = last_hi >= first_lo ? last_hi - first_lo + 1 : 0;
    count[s] = c < cap && c >= 0 ? c : cap;
  }
};

/// Candidate window c (numbered over the segments by `offsets`): its bounds and rows.
struct CandidateBounds {
  Ticks t;
  const int64_t *starts, *anchor, *offsets, *seg_lo;
  int64_t segments;
  WindowSpec w;
  int64_t *lower, *upper, *first, *size;
  GPUDF_HD void operator()(int64_t c) const {
    int64_t a = 0, b = segments;  // the first segment whose candidates start after c
    while (a < b) {
      const int64_t mid = a + (b - a) / 2;
      if (offsets[mid] <= c) a = mid + 1;
      else b = mid;
    }
    const int64_t s = a - 1;
    put_window(t, starts, anchor, s, seg_lo[s] + (c - offsets[s]), w, c, lower, upper, first, size);
  }
};

struct NonEmpty {
  const int64_t* size;
  int64_t* flag;
  GPUDF_HD void operator()(int64_t c) const { flag[c] = size[c] > 0 ? 1 : 0; }
};

/// The non-empty candidates, in order, at their scan positions.
struct KeepWindows {
  const int64_t *size, *pos, *lower_in, *upper_in, *first_in;
  int64_t *lower, *upper, *first, *sizes;
  GPUDF_HD void operator()(int64_t c) const {
    if (size[c] == 0) return;
    const int64_t k = pos[c];
    lower[k] = lower_in[c];
    upper[k] = upper_in[c];
    first[k] = first_in[c];
    sizes[k] = size[c];
  }
};

/// Rows [b, e)'s windows (-1: none): the last window starting at or before b by binary search,
/// then a walk along the windows (disjoint and in row order), so a block of rows costs one search.
struct RowWindowOf {
  const int64_t *first, *size;
  int64_t windows;
  int32_t* ids;
  GPUDF_HD void operator()(int64_t b, int64_t e) const {
    int64_t lo = 0, hi = windows;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (first[mid] <= b) lo = mid + 1;
      else hi = mid;
    }
    int64_t k = lo > 0 ? lo - 1 : 0;  // the window row b would be in, or the first one
    for (int64_t i = b; i < e; ++i) {
      while (k + 1 < windows && first[k + 1] <= i) ++k;
      ids[i] = k < windows && first[k] <= i && i < first[k] + size[k] ? int32_t(k) : -1;
    }
  }
};

/// starts of the one segment when there are no segment ids: 0 and rows.
struct WholeSegment {
  int64_t rows;
  int64_t* starts;
  GPUDF_HD void operator()(int64_t) const {
    starts[0] = 0;
    starts[1] = rows;
  }
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
  if (in.seg) B::for_each(n, SegmentStarts{in.seg, n, *segments, i64(starts)});
  else B::for_each(1, WholeSegment{n, i64(starts)});
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

/// group_by_dynamic for disjoint windows (disjoint_windows) when the candidate windows are few
/// (at most a quarter of the rows): the windows are numbered directly, each finds its rows, and
/// each row finds its window, with no per-row window ranges kept. False: not taken.
template <typename B>
bool run_disjoint(Device& dev, TypeId type, const Inputs& in, const WindowSpec& w, const BufferPtr& starts,
                  const BufferPtr& anchor, int64_t segments, DynamicWindows& out) {
  const int64_t n = in.rows;
  if (!disjoint_windows(w) || n == 0) return false;
  BufferPtr seg_lo = buffer(dev, segments, 8), counts = buffer(dev, segments, 8), offsets = buffer(dev, segments, 8);
  B::for_each(segments, SegmentCandidates{in.ticks, i64(starts), i64(anchor), w, n + 1, i64(seg_lo), i64(counts)});
  const int64_t candidates = B::exclusive_scan(i64(counts), i64(offsets), segments);
  if (candidates > n / 4) return false;
  BufferPtr lower = buffer(dev, candidates, 8), upper = buffer(dev, candidates, 8);
  BufferPtr first = buffer(dev, candidates, 8), size = buffer(dev, candidates, 8);
  B::for_each(candidates, CandidateBounds{in.ticks, i64(starts), i64(anchor), i64(offsets), i64(seg_lo), segments, w,
                                          i64(lower), i64(upper), i64(first), i64(size)});
  BufferPtr flag = buffer(dev, candidates, 8), pos = buffer(dev, candidates, 8);
  B::for_each(candidates, NonEmpty{i64(size), i64(flag)});
  const int64_t windows = B::exclusive_scan(i64(flag), i64(pos), candidates);
  GPUDF_EXPECTS(windows < INT32_MAX, InvalidArgument, "too many windows");
  BufferPtr wlower = buffer(dev, windows, 8), wupper = buffer(dev, windows, 8);
  BufferPtr wfirst = buffer(dev, windows, 8), wsize = buffer(dev, windows, 8);
  B::for_each(candidates, KeepWindows{i64(size), i64(pos), i64(lower), i64(upper), i64(first), i64(wlower), i64(wupper),
                                      i64(wfirst), i64(wsize)});
  BufferPtr ids = buffer(dev, n, 4);
  B::for_each_block(n, RowWindowOf{i64(wfirst), i64(wsize), windows, i32(ids)});
  out.lower = boundary_column<B>(dev, type, in, wlower, windows);
  out.upper = boundary_column<B>(dev, type, in, wupper, windows);
  out.first_row = column_of(dev, TypeId::Int64, windows, wfirst);
  out.members.windows = column_of(dev, TypeId::Int32, n, ids);
  out.members.count = windows;
  return true;
}

template <typename B>
DynamicWindows run_dynamic(Device& dev, TypeId type, const Inputs& in, const WindowSpec& w) {
  const int64_t n = in.rows;
  int64_t segments = 0;
  BufferPtr starts = segment_starts<B>(dev, in, &segments);
  BufferPtr anchor = buffer(dev, segments, 8);
  B::for_each(segments, Anchors{in.ticks, i64(starts), w, i64(anchor)});
  DynamicWindows out;
  if (run_disjoint<B>(dev, type, in, w, starts, anchor, segments, out)) return out;
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
