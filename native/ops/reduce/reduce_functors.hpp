// Per-element logic of the reductions, shared by the CPU loops (reduce.cpp, value_counts.cpp)
// and the CUDA kernels (reduce.cu): order keys, the tiled reduction shape, loaders and
// combiners. Everything here is GPUDF_HD, so the CPU tests exercise what the kernels run.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include <string>

#include "core/column.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/hd.hpp"

namespace gpudf::reduce_detail {

// ---- The tiled reduction shape (identical on both backends, so float sums match bit for bit).
// Rows are cut into tiles of kTile = kLanes * kSteps. Lane l of tile t folds rows
// t*kTile + l + k*kLanes for k = 0..kSteps-1 in that order (out-of-range rows fold the
// identity); then lanes are combined as a tree (l += l + s for s = kLanes/2 .. 1). The tiles'
// partials are reduced again the same way until one value is left.
inline constexpr int kLanes = 256;
inline constexpr int kSteps = 16;
inline constexpr int64_t kTile = int64_t(kLanes) * kSteps;

GPUDF_HD inline double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);  // never contracted into an FMA: the CPU does no contraction either
#else
  return a + b;
#endif
}
GPUDF_HD inline double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

GPUDF_HD inline bool is_nan(double d) { return d != d; }

// ---- Order keys: every fixed-width value maps to a uint64 whose unsigned order is the value
// order. Floats: -0.0 and 0.0 share one key (they are one value), every NaN maps to the
// largest key (NaN sorts above +inf, as Polars). Signed ints flip the sign bit.
template <typename T>
GPUDF_HD inline uint64_t order_key(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    double d = static_cast<double>(x);
    if (is_nan(d)) return ~uint64_t(0);
    if (d == 0.0) d = 0.0;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return (bits >> 63) ? ~bits : bits | (uint64_t(1) << 63);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(x)) ^ (uint64_t(1) << 63);
  } else {
    return static_cast<uint64_t>(x);
  }
}

/// The value of a key (floats: the canonical +0.0 and quiet NaN).
template <typename T>
GPUDF_HD inline T from_order_key(uint64_t key) {
  if constexpr (std::is_floating_point_v<T>) {
    if (key == ~uint64_t(0)) return std::numeric_limits<T>::quiet_NaN();
    uint64_t bits = (key >> 63) ? key & ~(uint64_t(1) << 63) : ~key;
    double d;
    memcpy(&d, &bits, sizeof d);
    return static_cast<T>(d);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(static_cast<int64_t>(key ^ (uint64_t(1) << 63)));
  } else {
    return static_cast<T>(key);
  }
}

/// Linear interpolation between the closest ranks lo = floor(idx) and hi = ceil(idx) of the
/// sorted values, whose values are a and b (as Polars' "linear"); equal neighbours give a.
GPUDF_HD inline double interpolate_ranks(double a, double b, bool same, double idx, int64_t lo, int64_t hi) {
  if (lo == hi || same) return a;
  return a + (b - a) * (idx - double(lo));
}

// ---- Strings: byte-wise lexicographic comparison of rows of one view.
template <typename O>
struct StringRows {
  ColumnView v;
  GPUDF_HD int64_t begin(int64_t i) const { return static_cast<int64_t>(v.string_offsets<O>()[i]); }
  GPUDF_HD int64_t len(int64_t i) const {
    return static_cast<int64_t>(v.string_offsets<O>()[i + 1] - v.string_offsets<O>()[i]);
  }
  /// <0, 0, >0 as row a's string sorts before, equal to, after row b's.
  GPUDF_HD int compare(int64_t a, int64_t b) const {
    const uint8_t* pa = v.data + begin(a);
    const uint8_t* pb = v.data + begin(b);
    int64_t la = len(a), lb = len(b);
    int64_t n = la < lb ? la : lb;
    for (int64_t k = 0; k < n; ++k)
      if (pa[k] != pb[k]) return pa[k] < pb[k] ? -1 : 1;
    return la < lb ? -1 : la > lb ? 1 : 0;
  }
};

// ---- Loaders + combiners ("folds"): identity(), load(i) (row i's contribution), combine(a, b).

/// Sum of valid values as double; `center` shifted and squared for the variance's second pass.
template <typename T>
struct SumDouble {
  ColumnView v;
  bool centered_square = false;
  double center = 0.0;
  using Acc = double;
  GPUDF_HD Acc identity() const { return 0.0; }
  GPUDF_HD Acc load(int64_t i) const {
    if (!v.is_valid(i)) return 0.0;
    double x = static_cast<double>(v.values<T>()[i]);
    if (!centered_square) return x;
    double d = x - center;
    return mul_rn(d, d);
  }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return add_rn(a, b); }
};

/// Wrapping (two's complement) sum of valid integer / bool values.
template <typename T>
struct SumWrap {
  ColumnView v;
  using Acc = uint64_t;
  GPUDF_HD Acc identity() const { return 0; }
  GPUDF_HD Acc load(int64_t i) const {
    // Sign-extend signed values through int64 first, then wrap in uint64 (no signed overflow).
    return v.is_valid(i) ? static_cast<uint64_t>(static_cast<int64_t>(v.values<T>()[i])) : 0;
  }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return a + b; }
};

/// Product of valid values as double (1 over none).
template <typename T>
struct ProdDouble {
  ColumnView v;
  using Acc = double;
  GPUDF_HD Acc identity() const { return 1.0; }
  GPUDF_HD Acc load(int64_t i) const { return v.is_valid(i) ? static_cast<double>(v.values<T>()[i]) : 1.0; }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return mul_rn(a, b); }
};

/// Wrapping (two's complement) product of valid integer / bool values (1 over none).
template <typename T>
struct ProdWrap {
  ColumnView v;
  using Acc = uint64_t;
  GPUDF_HD Acc identity() const { return 1; }
  GPUDF_HD Acc load(int64_t i) const {
    return v.is_valid(i) ? static_cast<uint64_t>(static_cast<int64_t>(v.values<T>()[i])) : 1;
  }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return a * b; }
};

/// Index of the first minimum (or maximum) valid value; -1 when none. NaN loses to every other
/// value and wins only when all values are NaN (then the first NaN). Ties: the smaller index.
/// Order-independent (a total order on (value, index)), so any reduction shape agrees.
template <typename T>
struct ArgExtreme {
  ColumnView v;
  bool want_max = false;
  using Acc = int64_t;
  GPUDF_HD Acc identity() const { return -1; }
  GPUDF_HD Acc load(int64_t i) const { return v.is_valid(i) ? i : -1; }
  /// <0 when row a is the better pick than row b (both valid, a != b).
  GPUDF_HD int rank(int64_t a, int64_t b) const {
    int c;
    if constexpr (std::is_arithmetic_v<T>) {
      T x = v.values<T>()[a], y = v.values<T>()[b];
      if constexpr (std::is_floating_point_v<T>) {
        bool nx = x != x, ny = y != y;
        if (nx || ny) return nx && ny ? (a < b ? -1 : 1) : nx ? 1 : -1;
      }
      c = x < y ? -1 : y < x ? 1 : 0;
    } else {
      c = StringRows<typename T::offset_type>{v}.compare(a, b);
    }
    if (want_max) c = -c;
    return c != 0 ? c : (a < b ? -1 : 1);
  }
  GPUDF_HD Acc combine(Acc a, Acc b) const {
    if (a < 0) return b;
    if (b < 0) return a;
    return rank(a, b) < 0 ? a : b;
  }
};

/// Reads an array of partials (the second and later levels of the tiled reduction).
template <typename Fold>
struct PartialsFold {
  Fold fold;
  const typename Fold::Acc* partials;
  using Acc = typename Fold::Acc;
  GPUDF_HD Acc identity() const { return fold.identity(); }
  GPUDF_HD Acc load(int64_t i) const { return partials[i]; }
  GPUDF_HD Acc combine(Acc a, Acc b) const { return fold.combine(a, b); }
};

// ---- Host side: the fold primitives over a backend's tiled reduction (Backend::run(fold, n)).

/// Builds the fold for the view's storage type and runs it (strings only where kStrings).
template <template <typename> class FoldT, typename Backend, bool kStrings = false>
struct RunFold {
  template <TypeId T, typename... Extra>
  auto operator()(const ColumnView& v, Extra... extra) const -> typename FoldT<double>::Acc {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S> || kStrings) {
      return Backend::run(FoldT<S>{v, extra...}, v.size);
    } else {
      GPUDF_FAIL(Dtype, "this reduction does not accept " + std::string(type_name(v.type)));
    }
  }
};

template <typename Backend>
struct FoldPrimitives {
  static double sum_double(const ColumnView& v, bool centered_square, double center) {
    return type_dispatch(v.type, RunFold<SumDouble, Backend>{}, v, centered_square, center);
  }
  static uint64_t sum_wrap(const ColumnView& v) { return type_dispatch(v.type, RunFold<SumWrap, Backend>{}, v); }
  static double prod_double(const ColumnView& v) { return type_dispatch(v.type, RunFold<ProdDouble, Backend>{}, v); }
  static uint64_t prod_wrap(const ColumnView& v) { return type_dispatch(v.type, RunFold<ProdWrap, Backend>{}, v); }
  static int64_t arg_extreme(const ColumnView& v, bool want_max) {
    return type_dispatch(v.type, RunFold<ArgExtreme, Backend, true>{}, v, want_max);
  }
};

}  // namespace gpudf::reduce_detail
