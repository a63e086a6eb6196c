// Per-row rules of the rolling windows, shared by the CPU loops and the CUDA kernels: window
// bounds, the final value of a window from its running state, quantile positions and the
// per-row (weighted, or one thread per row) aggregation.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/column.hpp"
#include "core/hd.hpp"
#include "ops/window/rolling.hpp"

namespace gpudf::window {

/// RollOptions without the weights vector (what a kernel takes by value).
struct RollParams {
  RollKind kind;
  int64_t min_periods, ddof;
  double q;
  Interpolation interp;
  int64_t left;
};

inline RollParams params_of(const RollOptions& o) { return RollParams{o.kind, o.min_periods, o.ddof, o.q, o.interp, o.left}; }

/// The rows [lo, hi) of row i's segment (seg sorted ascending; nullptr: all rows).
GPUDF_HD inline void segment_of(const int32_t* seg, int64_t n, int64_t i, int64_t& lo, int64_t& hi) {
  if (seg == nullptr) {
    lo = 0;
    hi = n;
    return;
  }
  const int32_t id = seg[i];
  int64_t a = 0, b = i;  // first row with seg >= id
  while (a < b) {
    const int64_t m = a + (b - a) / 2;
    if (seg[m] < id) a = m + 1;
    else b = m;
  }
  lo = a;
  a = i + 1, b = n;  // first row with seg > id
  while (a < b) {
    const int64_t m = a + (b - a) / 2;
    if (seg[m] <= id) a = m + 1;
    else b = m;
  }
  hi = a;
}

/// The first row of [lo, hi) whose value is above x (strict) or at least x.
GPUDF_HD inline int64_t first_past(const int64_t* t, int64_t lo, int64_t hi, int64_t x, bool strict) {
  while (lo < hi) {
    const int64_t m = lo + (hi - lo) / 2;
    if (strict ? t[m] <= x : t[m] < x) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/// Row i's window over `by` values within [lo, hi).
GPUDF_HD inline void by_window(const int64_t* t, int64_t lo, int64_t hi, int64_t i, int64_t span, Closed closed,
                               int64_t& start, int64_t& end) {
  const int64_t ti = t[i];
  const bool low_open = closed == Closed::Right || closed == Closed::None;
  const bool high_closed = closed == Closed::Right || closed == Closed::Both;
  const bool saturated = ti < std::numeric_limits<int64_t>::min() + span;  // t - span below int64
  start = saturated ? lo : first_past(t, lo, hi, ti - span, low_open);
  end = first_past(t, lo, hi, ti, high_closed);
  if (end < start) end = start;
}

/// Quantile q of the n sorted values: positions lo <= hi and the weight of hi (Polars' rules).
GPUDF_HD inline void quantile_position(int64_t n, double q, Interpolation m, int64_t& lo, int64_t& hi, double& frac) {
  const double pos = q * double(n - 1);
  const double f = std::floor(pos);
  lo = int64_t(f);
  hi = lo + 1 < n ? lo + 1 : lo;
  frac = 0.0;
  switch (m) {
    case Interpolation::Nearest:
      lo = hi = int64_t(std::floor(pos + 0.5));
      break;
    case Interpolation::Lower: hi = lo; break;
    case Interpolation::Higher: lo = pos > f ? hi : lo; hi = lo; break;
    case Interpolation::Midpoint: frac = pos > f ? 0.5 : 0.0; break;
    default: frac = pos - f; break;
  }
  if (lo >= n) lo = n - 1;
  if (hi >= n) hi = n - 1;
}

GPUDF_HD inline double interpolate(double a, double b, double frac) { return frac == 0.0 ? a : a + frac * (b - a); }

/// A sum of finite values plus the non-finite ones counted apart.
struct FloatSum {
  double sum = 0, comp = 0;  // Kahan compensation
  int64_t nan = 0, pinf = 0, ninf = 0;
  GPUDF_HD void add(double x, int sign) {
    if (x != x) nan += sign;
    else if (x == std::numeric_limits<double>::infinity()) pinf += sign;
    else if (x == -std::numeric_limits<double>::infinity()) ninf += sign;
    else {
      const double y = (sign > 0 ? x : -x) - comp;
      const double t = sum + y;
      comp = (t - sum) - y;
      sum = t;
    }
  }
  GPUDF_HD double value() const {
    if (nan > 0 || (pinf > 0 && ninf > 0)) return std::numeric_limits<double>::quiet_NaN();
    if (pinf > 0) return std::numeric_limits<double>::infinity();
    if (ninf > 0) return -std::numeric_limits<double>::infinity();
    return sum;
  }
};

/// Welford's running mean and sum of squared deviations, with non-finite values counted apart.
struct Moments {
  int64_t n = 0, nonfinite = 0;
  double mean = 0, m2 = 0;
  GPUDF_HD void add(double x) {
    if (!(x - x == 0)) {
      ++nonfinite;
      return;
    }
    ++n;
    const double d = x - mean;
    mean += d / double(n);
    m2 += d * (x - mean);
  }
  GPUDF_HD void remove(double x) {
    if (!(x - x == 0)) {
      --nonfinite;
      return;
    }
    if (--n == 0) {
      mean = m2 = 0;
      return;
    }
    const double d = x - mean;
    mean -= d / double(n);
    m2 -= d * (x - mean);
  }
  /// Var (or Std): null (false) when the values do not exceed ddof.
  GPUDF_HD bool value(int64_t ddof, bool std_dev, double& out) const {
    const int64_t count = n + nonfinite;
    if (count - ddof <= 0) return false;
    if (nonfinite > 0) {
      out = std::numeric_limits<double>::quiet_NaN();
      return true;
    }
    const double v = (m2 < 0 ? 0.0 : m2) / double(count - ddof);
    out = std_dev ? std::sqrt(v) : v;
    return true;
  }
};

/// NaN sorts above every number (as the quantile reductions).
GPUDF_HD inline bool before(double a, double b) { return a < b || (a == a && b != b); }

/// The k-th smallest (0-based) non-null value of [start, end), by counting ranks: O(w^2), no
/// scratch memory (the CUDA form).
GPUDF_HD inline double kth_by_rank(const ColumnView& in, int64_t start, int64_t end, int64_t k) {
  const double* v = in.values<double>();
  for (int64_t j = start; j < end; ++j) {
    if (!in.is_valid(j)) continue;
    int64_t less = 0, same = 0;
    for (int64_t l = start; l < end; ++l) {
      if (!in.is_valid(l)) continue;
      if (before(v[l], v[j])) ++less;
      else if (!before(v[j], v[l])) ++same;
    }
    if (less <= k && k < less + same) return v[j];
  }
  return std::numeric_limits<double>::quiet_NaN();
}

/// Row i's weighted window [start, end) of float64 values: false when null.
GPUDF_HD inline bool weighted_row(const ColumnView& in, int64_t i, int64_t start, int64_t end, const RollParams& o,
                                  const double* w, double& out) {
  const double* v = in.values<double>();
  int64_t count = 0;
  double acc = 0, wsum = 0, wsq = 0;
  for (int64_t j = start; j < end; ++j) {
    if (!in.is_valid(j)) continue;
    const double wj = w[j - i + o.left], x = v[j] * wj;
    if (o.kind == RollKind::Min || o.kind == RollKind::Max) {  // NaN propagates, as Polars'
      const bool take = o.kind == RollKind::Min ? x < acc : x > acc;
      if (count == 0) acc = x;
      else if (acc == acc && (x != x || take)) acc = x;
    } else {
      acc += x;
      wsum += wj;
      wsq += v[j] * x;
    }
    ++count;
  }
  if (count < o.min_periods || count == 0) return false;
  if (o.kind == RollKind::Mean) {
    out = acc / wsum;
  } else if (o.kind == RollKind::Var || o.kind == RollKind::Std) {
    const double mean = acc / wsum;
    double var = wsq / wsum - mean * mean;
    var = var < 0 ? 0 : var;
    out = o.kind == RollKind::Std ? std::sqrt(var) : var;
  } else {
    out = acc;
  }
  return true;
}

/// Row i's window [start, end) aggregated directly (one thread per row; weighted windows on
/// both backends): false when null. S: the kernel's storage type (double for the float kinds).
template <typename S>
GPUDF_HD inline bool direct_row(const ColumnView& in, int64_t i, int64_t start, int64_t end, const RollParams& o,
                                const double* w, S& out) {
  if (w != nullptr) {
    if constexpr (std::is_same_v<S, double>) return weighted_row(in, i, start, end, o, w, out);
    else return false;
  }
  const S* v = in.values<S>();
  int64_t count = 0;
  for (int64_t j = start; j < end; ++j) count += in.is_valid(j) ? 1 : 0;
  if (count < o.min_periods) return false;
  constexpr bool flt = std::is_floating_point_v<S>;
  switch (o.kind) {
    case RollKind::Sum:
    case RollKind::Mean: {
      if constexpr (flt) {
        FloatSum st;
        for (int64_t j = start; j < end; ++j)
          if (in.is_valid(j)) st.add(double(v[j]), 1);
        if (o.kind == RollKind::Mean && count == 0) return false;
        out = S(o.kind == RollKind::Sum ? st.value() : st.value() / double(count));
      } else {
        std::make_unsigned_t<S> acc = 0;
        for (int64_t j = start; j < end; ++j)
          if (in.is_valid(j)) acc += std::make_unsigned_t<S>(v[j]);
        out = S(acc);
      }
      return true;
    }
    case RollKind::Min:
    case RollKind::Max: {
      if (count == 0) return false;
      bool any = false;
      S acc = S(0);
      for (int64_t j = start; j < end; ++j) {
        if (!in.is_valid(j)) continue;
        const S x = v[j];
        if constexpr (flt) {
          if (x != x) {
            out = x;
            return true;
          }
        }
        if (!any || (o.kind == RollKind::Min ? x < acc : x > acc)) acc = x;
        any = true;
      }
      out = acc;
      return true;
    }
    case RollKind::Var:
    case RollKind::Std: {
      Moments st;
      for (int64_t j = start; j < end; ++j)
        if (in.is_valid(j)) st.add(double(v[j]));
      double x = 0;
      if (!st.value(o.ddof, o.kind == RollKind::Std, x)) return false;
      out = S(x);
      return true;
    }
    default: {
      if constexpr (std::is_same_v<S, double>) {
        if (count == 0) return false;
        int64_t lo = 0, hi = 0;
        double frac = 0;
        quantile_position(count, o.q, o.interp, lo, hi, frac);
        const double a = kth_by_rank(in, start, end, lo);
        out = hi == lo ? a : interpolate(a, kth_by_rank(in, start, end, hi), frac);
        return true;
      } else {
        return false;
      }
    }
  }
}

}  // namespace gpudf::window
