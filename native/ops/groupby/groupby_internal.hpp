// Internals shared by the CPU files of ops/groupby (host code only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/thread_pool.hpp"

namespace gpudf::groupby_detail {

/// Rows per block of the CPU passes. Fixed (not derived from the thread count), so per-block
/// partial results, and hence float sums, are the same on every machine.
inline constexpr int64_t kBlockRows = int64_t(1) << 16;

inline int64_t num_blocks(int64_t n) { return (n + kBlockRows - 1) / kBlockRows; }

/// The rows of [0, n) with part_of(i) in [0, parts) (others, -1, are left out), stably grouped
/// by part: part p's rows are rows[begin[p] .. begin[p + 1]), ascending. Two passes over the
/// fixed blocks: per-block histograms, then a scatter at offsets scanned in (part, block) order.
template <typename PartOf>
void partition_rows(int64_t n, int64_t parts, const PartOf& part_of, std::vector<int64_t>& rows,
                    std::vector<int64_t>& begin) {
  const int64_t blocks = num_blocks(n);
  std::vector<int64_t> pos(static_cast<size_t>(blocks * parts), 0);
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t* hist = pos.data() + b * parts;
      for (int64_t i = b * kBlockRows, e = std::min(n, (b + 1) * kBlockRows); i < e; ++i) {
        const int64_t p = part_of(i);
        if (p >= 0) ++hist[p];
      }
    }
  });
  begin.assign(static_cast<size_t>(parts + 1), 0);
  int64_t total = 0;
  for (int64_t p = 0; p < parts; ++p) {
    begin[size_t(p)] = total;
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t c = pos[size_t(b * parts + p)];
      pos[size_t(b * parts + p)] = total;
      total += c;
    }
  }
  begin[size_t(parts)] = total;
  rows.resize(static_cast<size_t>(total));
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t* at = pos.data() + b * parts;
      for (int64_t i = b * kBlockRows, e = std::min(n, (b + 1) * kBlockRows); i < e; ++i) {
        const int64_t p = part_of(i);
        if (p >= 0) rows[size_t(at[p]++)] = i;
      }
    }
  });
}

}  // namespace gpudf::groupby_detail
