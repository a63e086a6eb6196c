// Time-based windows over a sorted index (group_by_dynamic and rolling): which rows fall in
// which window, as a row expansion (row positions + window ids) that the groupby aggregations
// consume unchanged. The index (int32, int64, date32 or a timestamp; no nulls) is sorted
// ascending within each segment; `segments` (int32 ids 0, 1, ... in runs, nullptr = one segment)
// are the groupBy groups laid out contiguously.
//
// Strategy, both backends (the pipeline is one template, dynamic_pipeline.hpp, run by a CPU loop
// or by CUDA kernels and Thrust scans): every window is a lattice point j >= 0 of its segment,
// start_j = anchor + j * every, stop_j = start_j + period. Each row finds the range of windows
// that hold it [lo_i, hi_i] by a galloping search over j; the windows it adds to the ones before
// it are [max(lo_i, hi_{i-1} + 1), hi_i], so an exclusive scan of those counts numbers every
// non-empty window in (segment, start) order without visiting empty ones. Each window then
// binary-searches its row range, and a second scan lays out the expansion — unless no row lies in
// two windows (period <= every), when each row's window id is its scan position and the rows stay in
// place. Fixed-length windows find [lo_i, hi_i] in closed form; calendar months gallop.
// Disjoint fixed-length windows (period < every, or equal and not closed at both ends) with few
// candidates (at most a quarter of the rows, between each segment's first and last row's windows)
// skip the per-row ranges: each candidate finds its rows, the non-empty ones are kept by a scan,
// and each row finds its window by binary search over their first rows.
#pragma once

#include <cstdint>

#include "core/column.hpp"

namespace gpudf::dynamic {

/// A duration: calendar months (day clamped to the month's length), then fixed ticks of the
/// index's unit.
struct Span {
  int64_t months = 0;
  int64_t ticks = 0;
};

/// Which window ends hold their boundary value.
enum class Closed : int32_t { Left = 0, Right = 1, Both = 2, None = 3 };
/// How the first window of a segment starts: its first value truncated to `every` (epoch
/// multiples; weeks from a Monday; months from a month start), the first value itself, or
/// 00:00 of the given weekday of the first value's week (Monday to Sunday).
enum class Align : int32_t { Fixed = 0, Weeks = 1, Months = 2, DataPoint = 3, Weekday = 4 };

struct WindowSpec {
  Span every, period, offset;
  Closed closed = Closed::Left;
  Align align = Align::Fixed;
  /// Align::Weekday: 0 = Monday ... 6 = Sunday.
  int32_t weekday = 0;
  /// Index ticks per day (1 for date32, 86400e9 for timestamp[ns], ...); 0 for an integer index,
  /// which takes no calendar months.
  int64_t ticks_per_day = 0;
};

/// The rows of each window: `rows` (int64 positions in the index), `windows` (int32 window id
/// per row), rows of a window together in index order, windows ascending; then, when the windows
/// hold fewer rows than `count`, rows of window -1 (to be ignored) up to `count` rows.
struct WindowRows {
  ColumnPtr rows, windows;
  int64_t count = 0;  // windows
};

/// group_by_dynamic: the non-empty windows, by (segment, start). lower/upper are the window's
/// start and stop (the index's dtype), first_row (int64) its first row position. When no row lies
/// in two windows, members.rows is null and members.windows holds one id per index row (-1: in no
/// window), so the aggregations read the rows in place.
struct DynamicWindows {
  ColumnPtr lower, upper, first_row;
  WindowRows members;
};

/// ERR_INVALID_ARGUMENT when the index has nulls, is not sorted within a segment, or a window
/// boundary leaves the index dtype's range; ERR_DTYPE for an index of another dtype.
DynamicWindows dynamic_windows(const ColumnPtr& index, const ColumnPtr& segments, const WindowSpec& spec);

/// rolling: one window per row i, lower = t_i + offset, upper = t_i + (offset + period) (`every` and
/// `align` unused); window i's id is i; windows may be empty.
WindowRows rolling_windows(const ColumnPtr& index, const ColumnPtr& segments, const WindowSpec& spec);

namespace detail {
/// The index as read by the kernels: int32 or int64 storage.
struct Ticks {
  const void* data = nullptr;
  int64_t offset = 0;
  bool wide = false;
};
struct Inputs {
  Ticks ticks;
  const int32_t* seg = nullptr;
  int64_t rows = 0;
  bool narrow_out = false;  // the index stores int32: boundaries must fit
};
DynamicWindows dynamic_windows_cpu(Device& dev, TypeId type, const Inputs& in, const WindowSpec& spec);
WindowRows rolling_windows_cpu(Device& dev, const Inputs& in, const WindowSpec& spec);
#ifdef GPUDF_WITH_CUDA
DynamicWindows dynamic_windows_cuda(Device& dev, TypeId type, const Inputs& in, const WindowSpec& spec);
WindowRows rolling_windows_cuda(Device& dev, const Inputs& in, const WindowSpec& spec);
#endif
}  // namespace detail

}  // namespace gpudf::dynamic
