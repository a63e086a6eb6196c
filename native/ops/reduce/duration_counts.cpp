// Aggregations of durations (reduce.hpp): a duration column aggregates as its int64 counts, and
// the count-valued result is a duration again. Shared by reduce and the grouped aggregations, so
// every backend and every caller (select, groupBy, over, the query engine) gets the same answer.
#include "core/error.hpp"
#include "ops/reduce/reduce.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf {

bool aggregates_as_counts(TypeId t, ReduceKind kind) {
  if (!is_duration(t)) return false;
  switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
    case ReduceKind::Median:
    case ReduceKind::Quantile:
    case ReduceKind::Std: return true;
    default: return false;
  }
}

ColumnView counts_view(const ColumnView& v) {
  ColumnView out = v;
  out.type = TypeId::Int64;
  return out;
}

ColumnPtr counts_as_duration(const ColumnPtr& result, TypeId duration) {
  if (result->type() == TypeId::Int64) {
    return std::make_shared<Column>(result->device(), duration, result->size(), result->data(), result->offsets(),
                                    result->validity(), result->null_count(), result->offset());
  }
  GPUDF_EXPECTS(result->type() == TypeId::Float64, Internal, "a duration aggregate is int64 or float64");
  // float64 -> duration truncates toward zero; NaN and values beyond int64 become null.
  return window::cast_column(result, duration, result->device());
}

}  // namespace gpudf
