// Internals shared by the CPU files of ops/groupby (host code only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/groupby/fold_shape.hpp"

namespace gpudf::groupby_detail {


/// Start rows of contiguous ranges splitting [0, n) (ranges + 1 entries), one per pool thread
/// (one when n is under two blocks). For passes whose result does not depend on the split.
inline std::vector<int64_t> thread_ranges(int64_t n) {
  const int64_t ranges = std::clamp<int64_t>(n / kBlockRows, 1, int64_t(cpu_pool().size()));
  std::vector<int64_t> start(static_cast<size_t>(ranges + 1));
  for (int64_t r = 0; r <= ranges; ++r) start[size_t(r)] = r * n / ranges;
  return start;
}

/// Start rows of the fixed blocks of [0, n) (num_blocks(n) + 1 entries).
inline std::vector<int64_t> block_ranges(int64_t n) {
  const int64_t blocks = num_blocks(n);
  std::vector<int64_t> start(static_cast<size_t>(blocks + 1));
  for (int64_t b = 0; b <= blocks; ++b) start[size_t(b)] = std::min(n, b * kBlockRows);
  return start;
}

/// A stable counting sort of rows by part: part_of(i) is row i's part in [0, parts), or -1 to
/// leave it out. Two passes over the contiguous ranges of rows `start` (ranges + 1 entries, in
/// parallel): per-range histograms, then each range writes its rows at offsets scanned in
/// (part, range) order, so a part's rows come out ascending whatever the ranges. alloc(total)
/// runs between the passes; put(at, i) stores row i (or what it stands for) at position at.
/// Returns each part's start (parts + 1 entries).
template <typename PartOf, typename Alloc, typename Put>
HostVector<int64_t> counting_scatter(const std::vector<int64_t>& start, int64_t parts, const PartOf& part_of,
                                     const Alloc& alloc, const Put& put) {
  const auto ranges = int64_t(start.size()) - 1;
  HostVector<int64_t> pos(static_cast<size_t>(ranges * parts), 0);
  cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t* hist = pos.data() + r * parts;
      for (int64_t i = start[size_t(r)], e = start[size_t(r + 1)]; i < e; ++i) {
        const int64_t p = part_of(i);
        if (p >= 0) ++hist[p];
      }
    }
  });
  HostVector<int64_t> begin(static_cast<size_t>(parts + 1), 0);
  int64_t total = 0;
  for (int64_t p = 0; p < parts; ++p) {
    begin[size_t(p)] = total;
    for (int64_t r = 0; r < ranges; ++r) {
      const int64_t c = pos[size_t(r * parts + p)];
      pos[size_t(r * parts + p)] = total;
      total += c;
    }
  }
  begin[size_t(parts)] = total;
  alloc(total);
  cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      int64_t* at = pos.data() + r * parts;
      for (int64_t i = start[size_t(r)], e = start[size_t(r + 1)]; i < e; ++i) {
        const int64_t p = part_of(i);
        if (p >= 0) put(at[p]++, i);
      }
    }
  });
  return begin;
}

/// The rows of [0, n) with part_of(i) in [0, parts) (others, -1, are left out), stably grouped
/// by part: part p's rows are rows[begin[p] .. begin[p + 1]), ascending. Over the fixed blocks
/// (a histogram per block, so partition counts stay bounded per pass).
template <typename PartOf, typename Rows>
void partition_rows(int64_t n, int64_t parts, const PartOf& part_of, Rows& rows, HostVector<int64_t>& begin) {
  begin = counting_scatter(
      block_ranges(n), parts, part_of, [&](int64_t total) { rows.resize(static_cast<size_t>(total)); },
      [&](int64_t at, int64_t i) { rows[size_t(at)] = i; });
}

}  // namespace gpudf::groupby_detail
