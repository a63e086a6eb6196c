// Reductions: one column in, a one-row column out (so a result keeps its dtype and can be
// null), and value counts. Both backends give identical results: float sums use one fixed
// tiled reduction shape (reduce_functors.hpp); order statistics and distinct counts use the
// same order keys on both. Rules and result dtypes: docs/semantics.md, "Reductions".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/column.hpp"
#include "core/host_vector.hpp"

namespace gpudf {

enum class ReduceKind : int32_t {
  Sum = 0,
  Mean,
  Min,
  Max,
  Count,
  NullCount,
  NUnique,
  Std,
  Var,
  Median,
  Quantile,
  Any,
  All,
  First,
  Last,
  ArgMin,
  ArgMax,
  Product,  // wrapping int64/uint64 product, float product in double; 1 over no values
  Len,      // rows, nulls included (grouped: rows of the group)
};
inline constexpr int32_t kNumReduceKinds = 19;

struct ReduceOptions {
  int64_t ddof = 1;   // std / var: divisor is (count - ddof)
  double q = 0.5;     // quantile, in [0, 1]
  // str.join (the aggregation "strJoin", ops/groupby group_join_strings, not a ReduceKind)
  std::string sep;
  bool ignore_nulls = true;
};

/// The reduction of `column` as a one-row column on the column's device.
/// Throws ERR_DTYPE for a dtype the kind does not accept, ERR_INVALID_ARGUMENT for bad options.
ColumnPtr reduce(const ColumnView& column, ReduceKind kind, const ReduceOptions& options = {});

/// The dtype reduce() returns for `kind` over `input`; throws ERR_DTYPE when not accepted.
TypeId reduce_result_type(TypeId input, ReduceKind kind);

/// Durations sum, average and take medians, quantiles and std as their int64 counts; the
/// result is a duration of the same unit (float results truncated toward zero). True for the
/// kinds that need that detour (the others read durations as they are).
bool aggregates_as_counts(TypeId input, ReduceKind kind);
/// The view with dtype int64 (a duration's counts).
ColumnView counts_view(const ColumnView& v);
/// An int64 (shared buffers) or float64 (truncated) aggregate of counts as `duration`.
ColumnPtr counts_as_duration(const ColumnPtr& result, TypeId duration);

/// The kind an aggregation is named by in expressions ("sum", "nUnique", "len", ...): the one
/// name table the expression evaluator, groupBy and windows share. ERR_INVALID_ARGUMENT if unknown.
ReduceKind reduce_kind_named(std::string_view name);

/// Distinct values and how often each occurs: column 0 holds each distinct value once (the
/// input's dtype; null counts as a value), column 1 ("count") the int64 counts. sorted: by count
/// descending, then value ascending, null last among equal counts; else by value ascending, null
/// last. Floats: -0.0 and 0.0 are one value (shown as 0.0), all NaNs one value.
Table value_counts(const ColumnView& column, bool sorted);

namespace reduce_detail {

/// Distinct non-null groups in value order (the backend-specific part of value counts and
/// nUnique). Fixed width: `keys` holds order keys; strings: `rows` holds one row per group.
struct Groups {
  HostVector<uint64_t> keys;
  HostVector<int64_t> rows;
  HostVector<int64_t> counts;
};

// The backend-specific primitives; reduce.cpp composes them into every kind.
// CPU versions live in reduce.cpp / value_counts.cpp, CUDA versions in reduce.cu.
double sum_double_cpu(const ColumnView& v, bool centered_square, double center);
uint64_t sum_wrap_cpu(const ColumnView& v);
double prod_double_cpu(const ColumnView& v);
uint64_t prod_wrap_cpu(const ColumnView& v);
int64_t arg_extreme_cpu(const ColumnView& v, bool want_max);
/// Order keys of the non-null values at ranks lo and hi of the sorted order (lo <= hi < count).
void select_keys_cpu(const ColumnView& v, int64_t lo, int64_t hi, uint64_t out[2]);
/// with_counts false: only the number of groups is needed (counts/keys may stay empty).
Groups group_values_cpu(const ColumnView& v, bool with_values, int64_t* num_groups);
#ifdef GPUDF_WITH_CUDA
double sum_double_cuda(const ColumnView& v, bool centered_square, double center);
uint64_t sum_wrap_cuda(const ColumnView& v);
double prod_double_cuda(const ColumnView& v);
uint64_t prod_wrap_cuda(const ColumnView& v);
int64_t arg_extreme_cuda(const ColumnView& v, bool want_max);
void select_keys_cuda(const ColumnView& v, int64_t lo, int64_t hi, uint64_t out[2]);
Groups group_values_cuda(const ColumnView& v, bool with_values, int64_t* num_groups);
#endif

}  // namespace reduce_detail
}  // namespace gpudf
