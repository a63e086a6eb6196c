// Filter: keep the rows where a bool mask is true (null counts as false), by stream compaction.
// CPU: per-chunk counts, a prefix sum over chunks, then every chunk scatters its selected rows in
// parallel. CUDA: the selected row indices (CUB DeviceSelect), then one gather per column.
#pragma once

#include <vector>

#include "core/column.hpp"

namespace gpudf {

/// The rows of `columns` where `mask` is true. ERR_DTYPE unless mask is bool;
/// ERR_INVALID_ARGUMENT when lengths differ or devices differ.
std::vector<ColumnPtr> filter(const std::vector<ColumnPtr>& columns, const ColumnPtr& mask);

/// The row indices (int64, ascending, on the mask's device) where a bool `mask` is true: a
/// filter's selection vector, for callers that move columns later or not at all.
ColumnPtr selected_rows(const ColumnPtr& mask);

/// Selected-row rule shared by both backends: valid and true.
GPUDF_HD inline bool mask_selects(const ColumnView& mask, int64_t i) {
  return mask.is_valid(i) && mask.values<uint8_t>()[i] != 0;
}

namespace detail {
std::vector<ColumnPtr> filter_cpu(const std::vector<ColumnPtr>& columns, const ColumnView& mask);
ColumnPtr selected_rows_cpu(const ColumnView& mask);
#ifdef GPUDF_WITH_CUDA
std::vector<ColumnPtr> filter_cuda(const std::vector<ColumnPtr>& columns, const ColumnView& mask);
ColumnPtr selected_rows_cuda(const ColumnView& mask);
#endif
}  // namespace detail

}  // namespace gpudf
