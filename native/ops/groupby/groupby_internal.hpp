// Internals shared by the CPU files of ops/groupby (host code only).
#pragma once

#include <cstdint>

namespace gpudf::groupby_detail {

/// Rows per block of the CPU passes. Fixed (not derived from the thread count), so per-block
/// partial results, and hence float sums, are the same on every machine.
inline constexpr int64_t kBlockRows = int64_t(1) << 16;

inline int64_t num_blocks(int64_t n) { return (n + kBlockRows - 1) / kBlockRows; }

}  // namespace gpudf::groupby_detail
