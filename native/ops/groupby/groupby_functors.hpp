// Per-row and per-group logic of the grouped aggregations, shared by the CPU loops
// (groupby.cpp) and the CUDA kernels (groupby.cu). A group fold has identity(), load(row, g)
// (row's contribution to group g) and combine(a, b); the backends fold each group's rows in
// ascending row order (per-block partials are combined in block order). The reduce folds
// (reduce_functors.hpp) are reused through PerGroup.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/column.hpp"
#include "core/hd.hpp"
#include "ops/reduce/reduce_functors.hpp"

namespace gpudf::groupby_detail {

using reduce_detail::add_rn;
using reduce_detail::mul_rn;

/// A reduce fold (load(row)) as a group fold.
template <typename Fold>
struct PerGroup {
  Fold f;
  using Acc = typename Fold::Acc;
  GPUDF_HD Acc identity() const { return f.identity(); }
  GPUDF_HD Acc load(int64_t row, int64_t) const { return f.load(row); }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return f.combine(a, b); }
};

/// The extreme row of a group of numbers (reduce_detail::ArgExtreme's order: NaN loses unless
/// all are NaN, ties go to the smaller row), carrying the value along so that combining two
/// partials never reads the column at a remembered row (a cache miss when groups are many).
template <typename T>
struct ValueExtreme {
  ColumnView v;
  bool want_max = false;
  struct Acc {
    T x;
    int64_t row;  // -1: no valid row yet
  };
  GPUDF_HD Acc identity() const { return {T(0), -1}; }
  GPUDF_HD Acc load(int64_t i, int64_t) const { return v.is_valid(i) ? Acc{v.values<T>()[i], i} : Acc{T(0), -1}; }
  GPUDF_HD Acc combine(Acc a, Acc b) const {
    if (a.row < 0) return b;
    if (b.row < 0) return a;
    if constexpr (std::is_floating_point_v<T>) {
      const bool na = a.x != a.x, nb = b.x != b.x;
      if (na || nb) return na && nb ? (a.row < b.row ? a : b) : na ? b : a;
    }
    if (a.x == b.x) return a.row < b.row ? a : b;
    return (want_max ? b.x < a.x : a.x < b.x) ? a : b;
  }
};

/// Rows and non-null values of a group.
struct RowsValid {
  int64_t rows;
  int64_t valid;
};
struct CountRowsValid {
  ColumnView v;
  using Acc = RowsValid;
  GPUDF_HD Acc identity() const { return {0, 0}; }
  GPUDF_HD Acc load(int64_t row, int64_t) const { return {1, v.is_valid(row) ? 1 : 0}; }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return {a.rows + b.rows, a.valid + b.valid}; }
};

/// Sum (in double) and number of the valid values: mean in one pass.
struct SumValid {
  double sum;
  int64_t valid;
};
template <typename T>
struct SumValidFold {
  ColumnView v;
  using Acc = SumValid;
  GPUDF_HD Acc identity() const { return {0.0, 0}; }
  GPUDF_HD Acc load(int64_t row, int64_t) const {
    return v.is_valid(row) ? Acc{static_cast<double>(v.values<T>()[row]), 1} : Acc{0.0, 0};
  }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return {add_rn(a.sum, b.sum), a.valid + b.valid}; }
};

/// First (want_last false) or last row of a group; -1 for none.
struct EdgeRow {
  bool want_last = false;
  using Acc = int64_t;
  GPUDF_HD Acc identity() const { return -1; }
  GPUDF_HD Acc load(int64_t row, int64_t) const { return row; }
  GPUDF_HD Acc combine(Acc a, Acc b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    return (want_last ? a > b : a < b) ? a : b;
  }
};

/// Rows of the group before target[g] (the position of that row within its group).
struct RowsBefore {
  const int64_t* target;
  RowsBefore bound(const int64_t* t) const { return {t}; }
  using Acc = int64_t;
  GPUDF_HD Acc identity() const { return 0; }
  GPUDF_HD Acc load(int64_t row, int64_t g) const { return row < target[g] ? 1 : 0; }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return a + b; }
};

/// Value of a numeric row as double (one runtime switch: two columns of any two dtypes).
GPUDF_HD inline double load_double(const ColumnView& c, int64_t row) {
  switch (c.type) {
    case TypeId::Bool:
    case TypeId::UInt8: return double(c.values<uint8_t>()[row]);
    case TypeId::Int8: return double(c.values<int8_t>()[row]);
    case TypeId::Int16: return double(c.values<int16_t>()[row]);
    case TypeId::UInt16: return double(c.values<uint16_t>()[row]);
    case TypeId::Int32: return double(c.values<int32_t>()[row]);
    case TypeId::UInt32: return double(c.values<uint32_t>()[row]);
    case TypeId::Int64: return double(c.values<int64_t>()[row]);
    case TypeId::UInt64: return double(c.values<uint64_t>()[row]);
    case TypeId::Float32: return double(c.values<float>()[row]);
    default: return c.values<double>()[row];
  }
}

/// Squared deviations of the valid values from their group's mean (variance's second pass).
template <typename T>
struct CenteredSquares {
  ColumnView v;
  const double* center;
  CenteredSquares bound(const double* c) const { return {v, c}; }
  using Acc = double;
  GPUDF_HD Acc identity() const { return 0.0; }
  GPUDF_HD Acc load(int64_t row, int64_t g) const {
    if (!v.is_valid(row)) return 0.0;
    double d = static_cast<double>(v.values<T>()[row]) - center[g];
    return mul_rn(d, d);
  }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return add_rn(a, b); }
};

/// Pairs where both a and b are non-null: their number and sums (corr/cov's first pass).
struct PairSums {
  double n, sa, sb;
};
struct PairSumsFold {
  ColumnView a, b;
  using Acc = PairSums;
  GPUDF_HD Acc identity() const { return {0, 0, 0}; }
  GPUDF_HD Acc load(int64_t row, int64_t) const {
    if (!a.is_valid(row) || !b.is_valid(row)) return {0, 0, 0};
    return {1, load_double(a, row), load_double(b, row)};
  }
  GPUDF_HD Acc combine(Acc x, Acc y) const { return {x.n + y.n, add_rn(x.sa, y.sa), add_rn(x.sb, y.sb)}; }
};

/// Centred co-moments of the pairs (corr/cov's second pass): sum da*db, da^2, db^2.
struct CoMoments {
  double ab, aa, bb;
};
struct CoMomentsFold {
  ColumnView a, b;
  const double* mean_a;
  const double* mean_b;
  CoMomentsFold bound(const double* ma, const double* mb) const { return {a, b, ma, mb}; }
  using Acc = CoMoments;
  GPUDF_HD Acc identity() const { return {0, 0, 0}; }
  GPUDF_HD Acc load(int64_t row, int64_t g) const {
    if (!a.is_valid(row) || !b.is_valid(row)) return {0, 0, 0};
    double da = load_double(a, row) - mean_a[g], db = load_double(b, row) - mean_b[g];
    return {mul_rn(da, db), mul_rn(da, da), mul_rn(db, db)};
  }
  GPUDF_HD Acc combine(Acc x, Acc y) const {
    return {add_rn(x.ab, y.ab), add_rn(x.aa, y.aa), add_rn(x.bb, y.bb)};
  }
};

// ---- Sorted groups: `perm` orders the rows by (group id, value) with nulls last, so a group's
// valid values are perm[begin .. begin + valid) in ascending order.

/// Row order of a group's valid values, by their order keys (strings byte-wise).
template <typename S>
GPUDF_HD inline bool value_less(const ColumnView& v, int64_t a, int64_t b) {
  if constexpr (std::is_arithmetic_v<S>) {
    return reduce_detail::order_key(v.values<S>()[a]) < reduce_detail::order_key(v.values<S>()[b]);
  } else {
    return reduce_detail::StringRows<typename S::offset_type>{v}.compare(a, b) < 0;
  }
}

/// quantile(q) of a group's sorted valid values, as reduce's quantile. Only the ranks lo and
/// hi = lo or lo + 1 are read, so a backend may place just those (kRanksOnly).
template <typename S>
struct SortedQuantile {
  ColumnView v;
  double q;
  using Out = double;
  static constexpr bool kRanksOnly = true;
  GPUDF_HD bool less(int64_t a, int64_t b) const { return value_less<S>(v, a, b); }
  GPUDF_HD void ranks(int64_t valid, double* idx, int64_t* lo, int64_t* hi) const {
    *idx = q * double(valid - 1);
    *lo = static_cast<int64_t>(floor(*idx));
    *hi = static_cast<int64_t>(ceil(*idx));
  }
  GPUDF_HD Out apply(const int64_t* perm, int64_t begin, int64_t valid) const {
    if (valid <= 0) return 0.0;
    double idx;
    int64_t lo, hi;
    ranks(valid, &idx, &lo, &hi);
    return apply_keys(key(perm[begin + lo]), key(perm[begin + hi]), valid);
  }
  /// A backend may also select the ranks among the valid values' order keys (contiguous, no
  /// indirection through rows): ka and kb are the keys at ranks lo and hi.
  GPUDF_HD uint64_t key(int64_t row) const { return reduce_detail::order_key(v.values<S>()[row]); }
  GPUDF_HD Out apply_keys(uint64_t ka, uint64_t kb, int64_t valid) const {
    double idx;
    int64_t lo, hi;
    ranks(valid, &idx, &lo, &hi);
    double a = static_cast<double>(reduce_detail::from_order_key<S>(ka));
    double b = static_cast<double>(reduce_detail::from_order_key<S>(kb));
    return reduce_detail::interpolate_ranks(a, b, ka == kb, idx, lo, hi);
  }
};

/// Distinct values among a group's sorted valid values.
template <typename S>
struct SortedDistinct {
  ColumnView v;
  using Out = int64_t;
  static constexpr bool kRanksOnly = false;
  GPUDF_HD bool less(int64_t a, int64_t b) const { return value_less<S>(v, a, b); }
  GPUDF_HD bool same(int64_t a, int64_t b) const {
    if constexpr (std::is_arithmetic_v<S>) {
      return reduce_detail::order_key(v.values<S>()[a]) == reduce_detail::order_key(v.values<S>()[b]);
    } else {
      return reduce_detail::StringRows<typename S::offset_type>{v}.compare(a, b) == 0;
    }
  }
  GPUDF_HD Out apply(const int64_t* perm, int64_t begin, int64_t valid) const {
    int64_t n = valid > 0 ? 1 : 0;
    for (int64_t k = 1; k < valid; ++k) n += same(perm[begin + k - 1], perm[begin + k]) ? 0 : 1;
    return n;
  }
};

}  // namespace gpudf::groupby_detail
