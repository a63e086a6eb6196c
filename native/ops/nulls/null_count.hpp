// Counting nulls: a popcount over the validity bits of a (possibly sliced) column, on the
// column's device. The first op that exists on both backends; the per-byte rule
// (set_bits_in_byte in core/bitmask.hpp) is shared by the CPU loop and the kernel.
#pragma once

#include <cstdint>

#include "core/column.hpp"

namespace gpudf {

/// Nulls among the view's rows. 0 when the view has no validity bitmap.
int64_t count_nulls(const ColumnView& column);

namespace detail {
int64_t count_valid_cpu(const uint8_t* bits, int64_t begin, int64_t end);
#ifdef GPUDF_WITH_CUDA
int64_t count_valid_cuda(const uint8_t* bits, int64_t begin, int64_t end);
#endif
}  // namespace detail

}  // namespace gpudf
