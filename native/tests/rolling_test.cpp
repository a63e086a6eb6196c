// ops/window rolling: fixed and `by` window bounds (segments, every closed), and every kind of
// aggregation over them (nulls, NaN, weights, int64 and float64) on the test device against a
// naive per-row reference, at sizes spanning several CPU blocks and CUDA grids.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ops/window/rolling.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;
using namespace gpudf::window;

namespace {

bool before_ref(double a, double b) { return a < b || (!std::isnan(a) && std::isnan(b)); }

/// The reference value of one window (the rows' valid values in order); nullopt for null.
std::optional<double> reference(std::vector<double> w, const RollOptions& o) {
  const int64_t n = int64_t(w.size());
  if (n < o.min_periods || (n == 0 && o.kind != RollKind::Sum)) return std::nullopt;  // an empty sum is 0
  switch (o.kind) {
    case RollKind::Sum: {
      double s = 0;
      for (double x : w) s += x;
      return s;
    }
    case RollKind::Mean: {
      double s = 0;
      for (double x : w) s += x;
      return s / double(n);
    }
    case RollKind::Min:
    case RollKind::Max: {
      double m = w[0];
      for (double x : w) {
        if (std::isnan(x)) return x;
        m = o.kind == RollKind::Min ? std::min(m, x) : std::max(m, x);
      }
      return m;
    }
    case RollKind::Var:
    case RollKind::Std: {
      if (n - o.ddof <= 0) return std::nullopt;
      double mean = 0, ss = 0;
      for (double x : w) mean += x;
      mean /= double(n);
      for (double x : w) ss += (x - mean) * (x - mean);
      const double v = ss / double(n - o.ddof);
      return o.kind == RollKind::Std ? std::sqrt(v) : v;
    }
    default: {
      std::sort(w.begin(), w.end(), before_ref);
      const double pos = o.q * double(n - 1);
      const int64_t lo = int64_t(std::floor(pos)), hi = std::min(n - 1, lo + 1);
      const double f = pos - std::floor(pos);
      return f == 0 ? w[size_t(lo)] : w[size_t(lo)] + f * (w[size_t(hi)] - w[size_t(lo)]);
    }
  }
}

bool near(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b || std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

}  // namespace

TEST(rolling, fixed_windows_match_reference) {
  for (int64_t n : {int64_t(1), int64_t(33), int64_t(1000), int64_t(70001)}) {
    Rng rng(uint64_t(n) + 7);
    std::vector<double> v(static_cast<size_t>(n) + 3);
    for (auto& x : v) x = double(int64_t(rng.next() % 2001) - 1000) / 8;
    for (size_t i = 5; i < v.size(); i += 97) v[i] = NAN;
    std::vector<bool> valid = make_flags(Pattern::Random, n + 3, uint64_t(n));
    ColumnPtr col = on_test_device(host_column<double>(TypeId::Float64, v, valid))->slice(3, n);
    for (int64_t run : {int64_t(0), int64_t(9)}) {
      std::vector<int32_t> seg = run ? segments_of(n, uint64_t(n + run), run) : std::vector<int32_t>{};
      ColumnPtr segc = run ? on_test_device(host_column<int32_t>(TypeId::Int32, seg)) : nullptr;
      for (int64_t window : {int64_t(1), int64_t(4), int64_t(7)}) {
        for (bool center : {false, true}) {
          Bounds b = fixed_bounds(test_device(), n, window, center, segc);
          const auto start = read_values<int64_t>(b.start), end = read_values<int64_t>(b.end);
          for (RollKind k : {RollKind::Sum, RollKind::Mean, RollKind::Min, RollKind::Max, RollKind::Var, RollKind::Std,
                             RollKind::Quantile}) {
            RollOptions o;
            o.kind = k;
            o.min_periods = window / 2;
            o.q = 0.3;
            o.interp = Interpolation::Linear;
            SCOPED_TRACE("n=" + std::to_string(n) + " run=" + std::to_string(run) + " w=" + std::to_string(window) +
                         " center=" + std::to_string(center) + " kind=" + std::to_string(int(k)));
            const auto got = read_values<double>(rolling(col, b, o));
            int64_t bad = 0;
            for (int64_t i = 0; i < n; ++i) {
              const int64_t before = center ? window / 2 : window - 1;
              int64_t lo = std::max<int64_t>(0, i - before), hi = std::min<int64_t>(n, i - before + window);
              while (run && seg[size_t(lo)] != seg[size_t(i)]) ++lo;
              while (run && seg[size_t(hi - 1)] != seg[size_t(i)]) --hi;
              if (*start[size_t(i)] != lo || *end[size_t(i)] != hi) ++bad;
              std::vector<double> w;
              for (int64_t j = lo; j < hi; ++j)
                if (valid[size_t(j + 3)]) w.push_back(v[size_t(j + 3)]);
              // Sliding float sums drift by rounding; a NaN or infinity is exact either way.
              const std::optional<double> want = reference(w, o);
              const std::optional<double>& g = got[size_t(i)];
              // (A std of equal values may come out as the root of a rounding residue, ~1e-7.)
              const bool ok = !want || (k == RollKind::Std ? near(*g * *g + 1, *want * *want + 1) : near(*g, *want));
              if (want.has_value() != g.has_value() || !ok) ++bad;
            }
            EXPECT_EQ(bad, int64_t(0));
          }
        }
      }
    }
  }
}

TEST(rolling, integer_sums_and_extremes_are_exact) {
  const int64_t n = 5003;
  Rng rng(3);
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = int64_t(rng.next());  // sums wrap
  std::vector<bool> valid = make_flags(Pattern::Random, n, 4);
  ColumnPtr col = on_test_device(host_column<int64_t>(TypeId::Int64, v, valid));
  Bounds b = fixed_bounds(test_device(), n, 5, false, nullptr);
  for (RollKind k : {RollKind::Sum, RollKind::Min, RollKind::Max}) {
    RollOptions o;
    o.kind = k;
    o.min_periods = 1;
    const auto got = read_values<int64_t>(rolling(col, b, o));
    std::vector<std::optional<int64_t>> want(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      std::optional<int64_t> acc;
      for (int64_t j = std::max<int64_t>(0, i - 4); j <= i; ++j) {
        if (!valid[size_t(j)]) continue;
        const int64_t x = v[size_t(j)];
        if (!acc) acc = x;
        else if (k == RollKind::Sum) acc = int64_t(uint64_t(*acc) + uint64_t(x));
        else acc = k == RollKind::Min ? std::min(*acc, x) : std::max(*acc, x);
      }
      want[size_t(i)] = acc;
    }
    EXPECT_EQ(got, want);
  }
}

TEST(rolling, weighted_windows_align_weights_to_the_full_window) {
  ColumnPtr col = on_test_device(host_column<double>(TypeId::Float64, {1, 2, 3, 4}));
  Bounds b = fixed_bounds(test_device(), 4, 3, false, nullptr);
  RollOptions o;
  o.kind = RollKind::Sum;
  o.min_periods = 1;
  o.weights = {1, 10, 100};
  o.left = 2;
  EXPECT_EQ(read_values<double>(rolling(col, b, o)),
            (std::vector<std::optional<double>>{100.0, 210.0, 321.0, 432.0}));
  o.kind = RollKind::Max;
  EXPECT_EQ(read_values<double>(rolling(col, b, o)), (std::vector<std::optional<double>>{100.0, 200.0, 300.0, 400.0}));
}

TEST(rolling, by_windows_follow_closed_and_segments) {
  const int64_t n = 40007;
  Rng rng(12);
  std::vector<int32_t> seg = segments_of(n, 5, 300);
  std::vector<int64_t> t(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    t[size_t(i)] = (i == 0 || seg[size_t(i)] != seg[size_t(i - 1)]) ? int64_t(rng.next() % 50) : t[size_t(i - 1)] + int64_t(rng.next() % 4);
  ColumnPtr tc = on_test_device(host_column<int64_t>(TypeId::Int64, t));
  ColumnPtr segc = on_test_device(host_column<int32_t>(TypeId::Int32, seg));
  for (Closed c : {Closed::Right, Closed::Left, Closed::Both, Closed::None}) {
    Bounds b = by_bounds(tc, 5, c, segc);
    const auto start = read_values<int64_t>(b.start), end = read_values<int64_t>(b.end);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t lo = n, hi = 0;
      for (int64_t j = std::max<int64_t>(0, i - 400); j < std::min<int64_t>(n, i + 400); ++j) {
        if (seg[size_t(j)] != seg[size_t(i)]) continue;
        const int64_t d = t[size_t(i)] - t[size_t(j)];
        const bool in = (c == Closed::Right || c == Closed::None ? d < 5 : d <= 5) &&
                        (c == Closed::Right || c == Closed::Both ? d >= 0 : d > 0);
        if (in) lo = std::min(lo, j), hi = std::max(hi, j + 1);
      }
      if (lo == n) lo = hi = *start[size_t(i)];  // an empty window: any position
      if (*start[size_t(i)] != lo || *end[size_t(i)] != hi) ++bad;
    }
    EXPECT_EQ(bad, int64_t(0));
  }
  std::vector<int64_t> unsorted = t;
  std::swap(unsorted[10], unsorted[11]);
  if (seg[10] == seg[11] && unsorted[10] != unsorted[11]) {
    ColumnPtr uc = on_test_device(host_column<int64_t>(TypeId::Int64, unsorted));
    EXPECT_THROW_CODE(by_bounds(uc, 5, Closed::Right, segc), ErrorCode::InvalidArgument);
  }
  ColumnPtr down = on_test_device(host_column<int64_t>(TypeId::Int64, {3, 2, 1}));
  EXPECT_THROW_CODE(by_bounds(down, 5, Closed::Right, nullptr), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(fixed_bounds(test_device(), 3, 0, false, nullptr), ErrorCode::InvalidArgument);
}
