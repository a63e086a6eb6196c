// Per-element rules of the window ops, shared by the CPU loops and the CUDA kernels.
#pragma once

#include <cstdint>
#include <limits>

#include "core/hd.hpp"
#include "ops/sort/sort.hpp"
#include "ops/window/window.hpp"

namespace gpudf::window {

/// The scan's identity for storage type S (Min/Max of floats: NaN, which every number replaces).
template <typename S>
GPUDF_HD inline S scan_identity(ScanOp op) {
  constexpr bool flt = !(S(1) / S(2) == S(0));
  switch (op) {
    case ScanOp::Sum: return S(0);
    case ScanOp::Prod: return S(1);
    case ScanOp::Min:
      if constexpr (flt) return std::numeric_limits<S>::quiet_NaN();
      else return std::numeric_limits<S>::max();
    default:
      if constexpr (flt) return std::numeric_limits<S>::quiet_NaN();
      else return std::numeric_limits<S>::lowest();
  }
}

/// a (earlier) combined with b (later). Integer sums and products wrap (as Polars'); Min/Max skip
/// NaN unless both are NaN.
template <typename S>
GPUDF_HD inline S scan_combine(ScanOp op, S a, S b) {
  constexpr bool flt = !(S(1) / S(2) == S(0));
  switch (op) {
    case ScanOp::Sum:
      if constexpr (flt) return a + b;
      else return S(std::make_unsigned_t<S>(a) + std::make_unsigned_t<S>(b));
    case ScanOp::Prod:
      if constexpr (flt) return a * b;
      else return S(std::make_unsigned_t<S>(a) * std::make_unsigned_t<S>(b));
    case ScanOp::Min:
      if constexpr (flt) {
        if (a != a) return b;
        if (b != b) return a;
      }
      return b < a ? b : a;
    default:
      if constexpr (flt) {
        if (a != a) return b;
        if (b != b) return a;
      }
      return b > a ? b : a;
  }
}

/// True when sorted rows p - 1 and p hold equal values (both valid; NaN equals NaN, -0.0 equals
/// 0.0), by the order key the sort used.
template <typename S>
GPUDF_HD inline bool same_value(const ColumnView& c, int64_t p) {
  if constexpr (std::is_same_v<S, int32_t> || std::is_same_v<S, int64_t> || std::is_same_v<S, int8_t> ||
                std::is_same_v<S, int16_t> || std::is_unsigned_v<S> || std::is_floating_point_v<S>) {
    return order_bits<S>(c.values<S>()[p]) == order_bits<S>(c.values<S>()[p - 1]);
  } else {
    return false;
  }
}

template <typename O>
GPUDF_HD inline bool same_string(const ColumnView& c, int64_t p) {
  return compare_strings<O>(c, p - 1, p) == 0;
}

/// The rank of sorted row p by `method`: `seg_start` the first row of its segment, [run_start,
/// run_end) its run of equal values, `dense` the number of runs from the segment start to p.
GPUDF_HD inline double rank_value(RankMethod method, int64_t p, int64_t seg_start, int64_t run_start,
                                  int64_t run_end, int64_t dense) {
  switch (method) {
    case RankMethod::Average: return double(run_start - seg_start + 1 + run_end - seg_start) / 2.0;
    case RankMethod::Min: return double(run_start - seg_start + 1);
    case RankMethod::Max: return double(run_end - seg_start);
    case RankMethod::Dense: return double(dense);
    default: return double(p - seg_start + 1);
  }
}

}  // namespace gpudf::window
