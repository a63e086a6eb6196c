// Rolling windows: an aggregation of each row's window of rows. A window is a range of rows
// [start, end) inside the row's segment (an `over` partition; segments as in window.hpp):
// fixed windows are a count of rows (the row and the ones before it, or centred on it);
// time/index windows (`*_by`) are the rows whose `by` value lies within a span of the row's.
//
// Strategy. Both backends first compute the bounds of every row's window (per row: a binary
// search of its segment, then of the `by` values; GPUDF_HD in rolling_functors.hpp). The bounds
// are non-decreasing, so the CPU slides over them in blocks of rows (running sums with Kahan
// compensation, Welford updates for the variance, monotonic deques for min/max, a sorted window
// for quantiles); CUDA runs one thread per row over its window (quantiles by rank counting).
// Weighted windows run per row on both backends. Non-finite values are counted apart from the
// running sums, so a NaN or an infinity leaving the window leaves no trace.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"

namespace gpudf::window {

enum class RollKind : int32_t { Sum, Mean, Min, Max, Var, Std, Quantile };
enum class Interpolation : int32_t { Nearest, Linear, Lower, Higher, Midpoint };
enum class Closed : int32_t { Right, Left, Both, None };

struct RollOptions {
  RollKind kind = RollKind::Sum;
  int64_t min_periods = 1;  // fewer non-null values in a window give null
  int64_t ddof = 1;         // Var/Std (unweighted)
  double q = 0.5;           // Quantile
  Interpolation interp = Interpolation::Nearest;
  /// Fixed windows only: one weight per window position; `left` is the rows a full window
  /// holds before its row (the weight of row j in row i's window is weights[j - i + left]).
  std::vector<double> weights;
  int64_t left = 0;
};

/// The rows of each row's window: two int64 columns (no nulls) of the same length.
struct Bounds {
  ColumnPtr start, end;
};

/// Fixed windows of `window` rows: the row and the window - 1 before it, or (center) the
/// window / 2 rows before it and the rest after, clipped to the row's segment.
Bounds fixed_bounds(Device& device, int64_t rows, int64_t window, bool center, const ColumnPtr& segments);

/// Windows of the rows whose `by` (int64 ticks, no nulls) lies in (t - span, t] (closed Right),
/// [t - span, t) (Left), [t - span, t] (Both) or (t - span, t) (None). `by` must ascend within
/// each segment (ERR_INVALID_ARGUMENT otherwise).
Bounds by_bounds(const ColumnPtr& by, int64_t span, Closed closed, const ColumnPtr& segments);

/// The result dtype: Sum: integers up to 16 bits and bool -> int64 (bool -> uint32), others
/// keep theirs; Min/Max keep theirs; the rest, and every weighted kind, float64 (float32 stays
/// float32). ERR_DTYPE for strings, and for bool or temporal where not summable.
TypeId rolling_type(TypeId input, RollKind kind, bool weighted);

/// The window aggregation of every row. `values` is of the kernel's dtype: Sum: its result
/// dtype; Min/Max: numeric or temporal; the others and every weighted kind: float64.
ColumnPtr rolling(const ColumnPtr& values, const Bounds& bounds, const RollOptions& options);

namespace detail {
void fixed_bounds_cpu(int64_t rows, int64_t before, int64_t after, const int32_t* seg, int64_t* start, int64_t* end);
/// Returns false when `by` descends somewhere within a segment.
bool by_bounds_cpu(const int64_t* by, int64_t rows, int64_t span, Closed closed, const int32_t* seg, int64_t* start,
                   int64_t* end);
void rolling_cpu(const ColumnView& in, const int64_t* start, const int64_t* end, const RollOptions& o, Column& out,
                 uint8_t* valid);
#ifdef GPUDF_WITH_CUDA
void fixed_bounds_cuda(int64_t rows, int64_t before, int64_t after, const int32_t* seg, int64_t* start, int64_t* end);
bool by_bounds_cuda(Device& device, const int64_t* by, int64_t rows, int64_t span, Closed closed, const int32_t* seg,
                    int64_t* start, int64_t* end);
void rolling_cuda(const ColumnView& in, const int64_t* start, const int64_t* end, const RollOptions& o, Column& out,
                  uint8_t* valid);
#endif
}  // namespace detail

}  // namespace gpudf::window
