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

/// An LSB-first bitmap of bit_offset + base_rows bits in which bit bit_offset + r is set for
/// every row r of `rows` (int64 row indices in [0, base_rows), strictly ascending, no nulls: a
/// selection), ANDed with `and_bits`
/// (indexed the same way) when given: the rows a selection keeps, as validity over its base
/// (the query engine groups a densely filtered relation over its base rows with it). On the
/// rows' device.
BufferPtr rows_bitmap(const ColumnView& rows, int64_t base_rows, int64_t bit_offset, const uint8_t* and_bits);

/// Selected-row rule shared by both backends: valid and true.
GPUDF_HD inline bool mask_selects(const ColumnView& mask, int64_t i) {
  return mask.is_valid(i) && mask.values<uint8_t>()[i] != 0;
}

namespace detail {
std::vector<ColumnPtr> filter_cpu(const std::vector<ColumnPtr>& columns, const ColumnView& mask);
ColumnPtr selected_rows_cpu(const ColumnView& mask);
void rows_bitmap_cpu(const int64_t* rows, int64_t n, int64_t bit_offset, uint8_t* bits, int64_t bytes, const uint8_t* and_bits);
#ifdef GPUDF_WITH_CUDA
void rows_bitmap_cuda(const int64_t* rows, int64_t n, int64_t bit_offset, uint8_t* bits, int64_t bytes, const uint8_t* and_bits);
std::vector<ColumnPtr> filter_cuda(const std::vector<ColumnPtr>& columns, const ColumnView& mask);
ColumnPtr selected_rows_cuda(const ColumnView& mask);
#endif
}  // namespace detail

}  // namespace gpudf
