// The fixed shape of a grouped fold, shared by the CPU backend (groupby.cpp) and the CUDA one
// (groupby.cu) so both fold the same rows into the same partials and combine them in the same
// order: grouped float sums are then identical on every backend, machine and run.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpudf::groupby_detail {

/// Rows per block of the CPU passes. Fixed (not derived from the thread count), so per-block
/// partial results, and hence float sums, are the same on every machine.
inline constexpr int64_t kBlockRows = int64_t(1) << 16;

inline int64_t num_blocks(int64_t n) { return (n + kBlockRows - 1) / kBlockRows; }

/// Bytes of partial accumulators (counted at 16 bytes each) a fold may hold beyond 4 chunks'
/// worth: the parallelism more chunks buy is less than the cost of touching their memory.
inline constexpr int64_t kPartialBytes = int64_t(16) << 20;

/// Number of fixed row chunks whose partial accumulators a fold combines, 0 when groups are
/// many (under 8 rows each on average). It depends only on the row and group counts (not on
/// threads, the device or the accumulator). Chunk c holds rows [c * n / chunks,
/// (c + 1) * n / chunks), folded in row order into its own partials; each group's result is the
/// identity combined with every chunk's partial in chunk order. With no chunks each group folds
/// its rows in row order.
inline int64_t partial_chunks(int64_t n, int64_t count) {
  if (count == 0 || n / count < 8) return 0;
  const int64_t by_memory = std::max<int64_t>(4, kPartialBytes / (count * 16));
  return std::clamp<int64_t>(std::min(n / (count * 4), by_memory), 1, num_blocks(n));
}

}  // namespace gpudf::groupby_detail
