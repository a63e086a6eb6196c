// Rolling windows: dtype rules, dispatch on the columns' device and the CPU backend (sliding
// states over the non-decreasing window bounds, in blocks of rows over the pool).
#include "ops/window/rolling.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <vector>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/window/rolling_functors.hpp"
#include "ops/window/window.hpp"

namespace gpudf::window {
namespace {


const int32_t* segment_ids(const ColumnPtr& segments, int64_t rows, const Device& device) {
  if (!segments) return nullptr;
  GPUDF_EXPECTS(segments->type() == TypeId::Int32 && !segments->has_validity() && segments->size() == rows &&
                    &segments->device() == &device,
                InvalidArgument, "window segments must be int32 ids of the same rows");
  return segments->view().values<int32_t>();
}

Bounds allocate_bounds(Device& device, int64_t rows) {
  return Bounds{Column::allocate(device, TypeId::Int64, rows, false), Column::allocate(device, TypeId::Int64, rows, false)};
}

int64_t* mutable_values(const ColumnPtr& c) { return const_cast<int64_t*>(c->view().values<int64_t>()); }

/// Blocks of rows for the CPU: multiples of 8 (each block writes whole validity bytes).
template <typename F>
void for_blocks(int64_t n, F&& body) {
  const int64_t most = int64_t(cpu_pool().size()) * 4;
  int64_t per = std::max<int64_t>(4096, (n + most - 1) / most);
  per = (per + 7) / 8 * 8;
  const int64_t blocks = (n + per - 1) / per;
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) body(b * per, std::min(n, (b + 1) * per));
  });
}

/// The sliding state of one kind; add/remove see valid rows only, in row order.
template <typename S>
struct SumState {
  std::make_unsigned_t<S> acc = 0;
  void add(S x) { acc += std::make_unsigned_t<S>(x); }
  void remove(S x) { acc -= std::make_unsigned_t<S>(x); }
  S value() const { return S(acc); }
};

/// Monotonic deque of row indices for Min (less) or Max; NaN rows counted apart.
template <typename S>
struct ExtremeState {
  bool min;
  const S* v;
  std::deque<int64_t> q;
  int64_t nan = 0;
  bool better(S a, S b) const { return min ? a <= b : a >= b; }
  void add(int64_t j) {
    if constexpr (std::is_floating_point_v<S>) {
      if (v[j] != v[j]) {
        ++nan;
        return;
      }
    }
    while (!q.empty() && better(v[j], v[q.back()])) q.pop_back();
    q.push_back(j);
  }
  void remove(int64_t j) {
    if constexpr (std::is_floating_point_v<S>) {
      if (v[j] != v[j]) {
        --nan;
        return;
      }
    }
    if (!q.empty() && q.front() == j) q.pop_front();
  }
  S value() const {
    if constexpr (std::is_floating_point_v<S>)
      if (nan > 0 || q.empty()) return std::numeric_limits<S>::quiet_NaN();
    return v[q.front()];
  }
};

struct SortedWindow {
  std::vector<double> s;
  void add(double x) { s.insert(std::upper_bound(s.begin(), s.end(), x, before), x); }
  void remove(double x) {
    auto it = std::lower_bound(s.begin(), s.end(), x, before);
    if (it != s.end()) s.erase(it);
  }
  double value(double q, Interpolation m) const {
    int64_t lo = 0, hi = 0;
    double frac = 0;
    quantile_position(int64_t(s.size()), q, m, lo, hi, frac);
    return interpolate(s[size_t(lo)], s[size_t(hi)], frac);
  }
};

/// Slides over rows [a, b): `add(j)` / `remove(j)` for valid rows entering / leaving, then
/// `emit(i, count)` with the count of valid rows in row i's window.
template <typename Add, typename Remove, typename Reset, typename Emit>
void slide(const ColumnView& in, const int64_t* start, const int64_t* end, int64_t a, int64_t b, Add&& add,
           Remove&& remove, Reset&& reset, Emit&& emit) {
  int64_t s = a < b ? start[a] : 0, e = s, count = 0;
  for (int64_t i = a; i < b; ++i) {
    if (start[i] >= e) {  // disjoint from the last window: start afresh
      reset();
      s = e = start[i];
      count = 0;
    }
    for (; e < end[i]; ++e)
      if (in.is_valid(e)) add(e), ++count;
    for (; s < start[i]; ++s)
      if (in.is_valid(s)) remove(s), --count;
    emit(i, count);
  }
}

/// Rebuilds a floating state from row i's window once the window has turned over since the last
/// rebuild (O(1) a row amortised), so rounding in the running updates cannot drift.
template <typename State, typename Add>
void refresh(State& st, int64_t& since, const ColumnView& in, int64_t s, int64_t e, Add&& add) {
  if (++since < std::max<int64_t>(16, e - s)) return;
  since = 0;
  st = State{};
  for (int64_t j = s; j < e; ++j)
    if (in.is_valid(j)) add(j);
}

template <typename S, typename R>
void rolling_typed_cpu(const ColumnView& in, const int64_t* start, const int64_t* end, const RollOptions& o, R* out,
                       uint8_t* valid, const double* weights) {
  const S* v = in.values<S>();
  for_blocks(in.size, [&](int64_t a, int64_t b) {
    auto put = [&](int64_t i, bool ok, R x) {
      out[i] = ok ? x : R(0);
      if (ok) valid[i >> 3] |= uint8_t(1u << (i & 7));
    };
    if (!o.weights.empty()) {
      const RollParams p = params_of(o);
      for (int64_t i = a; i < b; ++i) {
        S x = S(0);
        const bool ok = direct_row<S>(in, i, start[i], end[i], p, weights, x);
        put(i, ok, R(x));
      }
      return;
    }
    switch (o.kind) {
      case RollKind::Sum:
      case RollKind::Mean: {
        if constexpr (std::is_floating_point_v<S>) {
          FloatSum st;
          int64_t since = 0;
          auto add = [&](int64_t j) { st.add(double(v[j]), 1); };
          slide(in, start, end, a, b, add, [&](int64_t j) { st.add(double(v[j]), -1); }, [&] { st = FloatSum{}; },
                [&](int64_t i, int64_t n) {
                  refresh(st, since, in, start[i], end[i], add);
                  const bool ok = n >= o.min_periods && (o.kind == RollKind::Sum || n > 0);
                  put(i, ok, R(o.kind == RollKind::Sum ? st.value() : st.value() / double(n)));
                });
        } else {
          SumState<S> st;
          slide(in, start, end, a, b, [&](int64_t j) { st.add(v[j]); }, [&](int64_t j) { st.remove(v[j]); },
                [&] { st = SumState<S>{}; }, [&](int64_t i, int64_t n) { put(i, n >= o.min_periods, R(st.value())); });
        }
        break;
      }
      case RollKind::Min:
      case RollKind::Max: {
        ExtremeState<S> st{o.kind == RollKind::Min, v, {}, 0};
        slide(in, start, end, a, b, [&](int64_t j) { st.add(j); }, [&](int64_t j) { st.remove(j); },
              [&] { st.q.clear(), st.nan = 0; },
              [&](int64_t i, int64_t n) { put(i, n >= o.min_periods && n > 0, n > 0 ? R(st.value()) : R(0)); });
        break;
      }
      case RollKind::Var:
      case RollKind::Std: {
        Moments st;
        int64_t since = 0;
        auto add = [&](int64_t j) { st.add(double(v[j])); };
        slide(in, start, end, a, b, add, [&](int64_t j) { st.remove(double(v[j])); }, [&] { st = Moments{}; },
              [&](int64_t i, int64_t n) {
                refresh(st, since, in, start[i], end[i], add);
                double x = 0;
                const bool ok = n >= o.min_periods && st.value(o.ddof, o.kind == RollKind::Std, x);
                put(i, ok, R(x));
              });
        break;
      }
      default: {
        SortedWindow st;
        slide(in, start, end, a, b, [&](int64_t j) { st.add(double(v[j])); }, [&](int64_t j) { st.remove(double(v[j])); },
              [&] { st.s.clear(); },
              [&](int64_t i, int64_t n) {
                const bool ok = n >= o.min_periods && n > 0;
                put(i, ok, ok ? R(st.value(o.q, o.interp)) : R(0));
              });
        break;
      }
    }
  });
}

bool is_numeric(TypeId t) { return t >= TypeId::Int8 && t <= TypeId::Float64; }

}  // namespace


TypeId rolling_type(TypeId t, RollKind kind, bool weighted) {
  const std::string what = "rolling windows are not supported for dtype " + std::string(type_name(t));
  // Durations roll as their counts and stay durations (float kinds truncated toward zero); the
  // variance would be in the unit squared.
  if (is_duration(t)) {
    GPUDF_EXPECTS(kind != RollKind::Var, Dtype, what);
    return t;
  }
  if (weighted || (kind != RollKind::Sum && kind != RollKind::Min && kind != RollKind::Max)) {
    GPUDF_EXPECTS(is_numeric(t), Dtype, what);
    return t == TypeId::Float32 ? TypeId::Float32 : TypeId::Float64;
  }
  if (kind == RollKind::Sum) {
    GPUDF_EXPECTS(is_numeric(t) || t == TypeId::Bool, Dtype, what);
    return cum_sum_type(t);
  }
  GPUDF_EXPECTS(is_numeric(t) || expr::is_temporal_type(t) || is_duration(t), Dtype, what);
  return t;
}

Bounds fixed_bounds(Device& device, int64_t rows, int64_t window, bool center, const ColumnPtr& segments) {
  GPUDF_EXPECTS(window >= 1, InvalidArgument, "a rolling window needs at least one row");
  const int32_t* seg = segment_ids(segments, rows, device);
  Bounds b = allocate_bounds(device, rows);
  if (rows == 0) return b;
  const int64_t before = center ? window / 2 : window - 1, after = window - 1 - before;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(device)) detail::fixed_bounds_cuda(rows, before, after, seg, mutable_values(b.start), mutable_values(b.end));
  else
#endif
    detail::fixed_bounds_cpu(rows, before, after, seg, mutable_values(b.start), mutable_values(b.end));
  return b;
}

Bounds by_bounds(const ColumnPtr& by, int64_t span, Closed closed, const ColumnPtr& segments) {
  GPUDF_EXPECTS(by->type() == TypeId::Int64 && !by->has_validity(), InvalidArgument, "rolling by needs int64 ticks");
  GPUDF_EXPECTS(span >= 1, InvalidArgument, "a rolling window must be positive");
  const int64_t rows = by->size();
  const int32_t* seg = segment_ids(segments, rows, by->device());
  Bounds b = allocate_bounds(by->device(), rows);
  if (rows == 0) return b;
  const int64_t* t = by->view().values<int64_t>();
  bool sorted = true;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(by->device())) sorted = detail::by_bounds_cuda(by->device(), t, rows, span, closed, seg, mutable_values(b.start), mutable_values(b.end));
  else
#endif
    sorted = detail::by_bounds_cpu(t, rows, span, closed, seg, mutable_values(b.start), mutable_values(b.end));
  GPUDF_EXPECTS(sorted, InvalidArgument,
                segments ? "rolling by: the by column must be sorted ascending within each partition"
                         : "rolling by: the by column must be sorted ascending");
  return b;
}

ColumnPtr rolling(const ColumnPtr& values, const Bounds& bounds, const RollOptions& o) {
  const ColumnView in = values->view();
  Device& device = values->device();
  GPUDF_EXPECTS(bounds.start->size() == in.size && bounds.end->size() == in.size, InvalidArgument,
                "rolling bounds must cover every row");
  GPUDF_EXPECTS(o.min_periods >= 0, InvalidArgument, "minPeriods must not be negative");
  const bool weighted = !o.weights.empty();
  GPUDF_EXPECTS(!weighted || in.type == TypeId::Float64, InvalidArgument, "weighted windows run over float64");
  GPUDF_EXPECTS(!weighted || (o.kind != RollKind::Quantile), InvalidArgument,
                "weights are not supported for rolling median or quantile");
  const bool floating_kind = o.kind != RollKind::Sum && o.kind != RollKind::Min && o.kind != RollKind::Max;
  GPUDF_EXPECTS(!floating_kind || in.type == TypeId::Float64, InvalidArgument, "this rolling kind runs over float64");
  ColumnPtr out = Column::allocate(device, in.type, in.size, true);
  if (in.size > 0) {
    const int64_t* s = bounds.start->view().values<int64_t>();
    const int64_t* e = bounds.end->view().values<int64_t>();
    uint8_t* valid = const_cast<uint8_t*>(static_cast<const uint8_t*>(out->validity()->data()));
#ifdef GPUDF_WITH_CUDA
    if (on_cuda(device)) detail::rolling_cuda(in, s, e, o, *out, valid);
    else
#endif
      detail::rolling_cpu(in, s, e, o, *out, valid);
  }
  return std::make_shared<Column>(device, in.type, in.size, out->data(), nullptr, out->validity(), kUnknownNullCount);
}

namespace detail {

void fixed_bounds_cpu(int64_t rows, int64_t before, int64_t after, const int32_t* seg, int64_t* start, int64_t* end) {
  cpu_pool().parallel_for(rows, 1 << 14, [&](int64_t a, int64_t b) {
    for (int64_t i = a; i < b; ++i) {
      int64_t lo = 0, hi = 0;
      segment_of(seg, rows, i, lo, hi);
      start[i] = std::max(lo, i - before);
      end[i] = std::min(hi, i + after + 1);
    }
  });
}

bool by_bounds_cpu(const int64_t* by, int64_t rows, int64_t span, Closed closed, const int32_t* seg, int64_t* start,
                   int64_t* end) {
  std::atomic<bool> sorted{true};
  cpu_pool().parallel_for(rows, 1 << 14, [&](int64_t a, int64_t b) {
    for (int64_t i = std::max<int64_t>(a, 1); i < b; ++i)
      if (by[i] < by[i - 1] && (seg == nullptr || seg[i] == seg[i - 1])) sorted = false;
  });
  if (!sorted) return false;
  cpu_pool().parallel_for(rows, 1 << 14, [&](int64_t a, int64_t b) {
    for (int64_t i = a; i < b; ++i) {
      int64_t lo = 0, hi = 0;
      segment_of(seg, rows, i, lo, hi);
      by_window(by, lo, hi, i, span, closed, start[i], end[i]);
    }
  });
  return true;
}

void rolling_cpu(const ColumnView& in, const int64_t* start, const int64_t* end, const RollOptions& o, Column& out,
                 uint8_t* valid) {
  type_dispatch(in.type, [&]<TypeId T>() {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      rolling_typed_cpu<S, S>(in, start, end, o, const_cast<S*>(out.view().values<S>()), valid, o.weights.data());
    } else {
      GPUDF_FAIL(Dtype, "rolling windows are not supported for strings");
    }
  });
}

}  // namespace detail

}  // namespace gpudf::window
