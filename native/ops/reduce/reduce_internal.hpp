// Internals shared by reduce.cpp and value_counts.cpp (host code only): the CPU tiled
// reduction and the row gather that builds result columns.
#pragma once

#include <vector>

#include "core/column.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/reduce/reduce_functors.hpp"

namespace gpudf::reduce_detail {

/// One tile of the shape in reduce_functors.hpp: lanes fold their rows, then a lane tree.
template <typename Fold>
typename Fold::Acc fold_tile(const Fold& f, int64_t base, int64_t n) {
  using Acc = typename Fold::Acc;
  Acc lanes[kLanes];
  for (int l = 0; l < kLanes; ++l) lanes[l] = f.identity();
  if (base + kTile <= n) {
    // A full tile: the same operations without the range test, so the compiler can vectorise.
    for (int k = 0; k < kSteps; ++k) {
      const int64_t row0 = base + int64_t(k) * kLanes;
      for (int l = 0; l < kLanes; ++l) lanes[l] = f.combine(lanes[l], f.load(row0 + l));
    }
  } else {
    for (int k = 0; k < kSteps; ++k) {
      const int64_t row0 = base + int64_t(k) * kLanes;
      for (int l = 0; l < kLanes; ++l)
        lanes[l] = f.combine(lanes[l], row0 + l < n ? f.load(row0 + l) : f.identity());
    }
  }
  for (int s = kLanes / 2; s > 0; s >>= 1)
    for (int l = 0; l < s; ++l) lanes[l] = f.combine(lanes[l], lanes[l + s]);
  return lanes[0];
}

/// The tiled reduction of rows [0, n) on the CPU: tiles in parallel, each into its own slot,
/// so the result does not depend on thread timing; then the partials level by level.
template <typename Fold>
typename Fold::Acc tiled_reduce_cpu(const Fold& f, int64_t n) {
  using Acc = typename Fold::Acc;
  if (n <= 0) return f.identity();
  std::vector<Acc> partials(size_t((n + kTile - 1) / kTile));
  cpu_pool().parallel_for(int64_t(partials.size()), 4, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) partials[size_t(t)] = fold_tile(f, t * kTile, n);
  });
  while (partials.size() > 1) {
    const PartialsFold<Fold> pf{f, partials.data()};
    const auto m = int64_t(partials.size());
    std::vector<Acc> next(size_t((m + kTile - 1) / kTile));
    for (int64_t t = 0; t < int64_t(next.size()); ++t) next[size_t(t)] = fold_tile(pf, t * kTile, m);
    partials.swap(next);
  }
  return partials[0];
}

/// A column on the view's device holding the given rows of `v` in order (-1: a null row).
/// Reads only the rows' span from a device.
ColumnPtr gather_rows(const ColumnView& v, const int64_t* rows, int64_t n);
inline ColumnPtr gather_rows(const ColumnView& v, const HostVector<int64_t>& rows) {
  return gather_rows(v, rows.data(), int64_t(rows.size()));
}

}  // namespace gpudf::reduce_detail
