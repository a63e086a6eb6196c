// Host side of the grouped aggregations, written once over a backend's two primitives:
//   fold(f)            -> HostVector<Acc>: group fold f over every group's rows (count entries)
//   sorted(op, values) -> HostVector<Out>: op.apply over each group's values sorted (nulls last)
// plus rows_valid(values) (rows and non-null values per group). groupby.cpp instantiates it
// with the CPU backend, groupby.cu with the CUDA one; the result columns are built on the host
// and copied to the values' device once.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/dispatch.hpp"
#include "core/host_vector.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/groupby/groupby_functors.hpp"
#include "ops/reduce/reduce_internal.hpp"

namespace gpudf::groupby_detail {

/// A host column of `type` from count values (`valid` empty: no nulls), on `device`.
template <typename T>
ColumnPtr result_column(Device& device, TypeId type, const HostVector<T>& values,
                        const HostVector<uint8_t>& valid) {
  GPUDF_EXPECTS(sizeof(T) == size_t(value_width(type)), Internal, "result width mismatch");
  const auto n = int64_t(values.size());
  bool nullable = false;
  for (uint8_t f : valid) nullable |= !f;
  ColumnPtr host = Column::allocate(cpu_device(), type, n, nullable);
  if (n) std::memcpy(host->data()->data(), values.data(), size_t(n) * sizeof(T));
  if (nullable)
    for (int64_t i = 0; i < n; ++i)
      if (valid[size_t(i)]) set_bit(host->validity()->data(), i);
  return copy_to_device(host, device);
}

/// Where each group's rows start in the permutation sorted by (id, value): dropped rows (id -1)
/// come first, then the groups in id order.
inline HostVector<int64_t> sorted_group_begins(const HostVector<RowsValid>& rv, int64_t rows) {
  int64_t grouped = 0;
  for (const RowsValid& r : rv) grouped += r.rows;
  HostVector<int64_t> begin(rv.size());
  int64_t at = rows - grouped;
  for (size_t g = 0; g < rv.size(); ++g) {
    begin[g] = at;
    at += rv[g].rows;
  }
  return begin;
}

/// head/tail: where each group's first min(n, size) rows go in the output (count + 1 entries),
/// from the groups' segment offsets.
inline HostVector<int64_t> head_offsets(const HostVector<int64_t>& offsets, int64_t n) {
  HostVector<int64_t> at(offsets.size(), 0);
  for (size_t g = 0; g + 1 < offsets.size(); ++g) at[g + 1] = at[g] + std::min(n, offsets[g + 1] - offsets[g]);
  return at;
}

/// where_valid[g]: at least `at_least` valid values in group g.
inline HostVector<uint8_t> valid_where(const HostVector<RowsValid>& rv, int64_t at_least) {
  HostVector<uint8_t> ok(rv.size());
  for (size_t g = 0; g < rv.size(); ++g) ok[g] = rv[g].valid >= at_least;
  return ok;
}

/// A column of the values of `rows` (-1: null) of v.
inline ColumnPtr values_at(const ColumnView& v, const HostVector<int64_t>& rows) {
  return reduce_detail::gather_rows(v, rows.data(), int64_t(rows.size()));
}

/// The row each ValueExtreme accumulator holds (-1: none).
template <typename Acc>
HostVector<int64_t> extreme_rows(const HostVector<Acc>& ext) {
  HostVector<int64_t> rows(ext.size());
  for (size_t g = 0; g < ext.size(); ++g) rows[g] = ext[g].row;
  return rows;
}

/// The kinds whose result is one group fold plus a finishing step over its accumulators:
/// calls use(fold, finish), finish(accumulators) returning the result column, and returns
/// true; false for every other kind. A backend may run several such folds in one pass.
template <typename S, typename Use>
bool one_fold(ReduceKind kind, const ColumnView& v, TypeId out, Use&& use) {
  using namespace reduce_detail;
  Device* dev = v.device;
  auto rows_of = [v](const HostVector<int64_t>& rows) { return values_at(v, rows); };
  switch (kind) {
    case ReduceKind::Len:
    case ReduceKind::Count:
    case ReduceKind::NullCount:
      use(CountRowsValid{v}, [=](const HostVector<RowsValid>& rv) {
        HostVector<int64_t> r(rv.size());
        for (size_t g = 0; g < rv.size(); ++g)
          r[g] = kind == ReduceKind::Len ? rv[g].rows : kind == ReduceKind::Count ? rv[g].valid : rv[g].rows - rv[g].valid;
        return result_column(*dev, out, r, {});
      });
      return true;
    case ReduceKind::First:
    case ReduceKind::Last: use(EdgeRow{kind == ReduceKind::Last}, rows_of); return true;
    default: break;
  }
  if constexpr (std::is_arithmetic_v<S>) {
    switch (kind) {
      case ReduceKind::Min:
      case ReduceKind::Max:
        use(ValueExtreme<S>{v, kind == ReduceKind::Max}, [=](const auto& ext) { return values_at(v, extreme_rows(ext)); });
        return true;
      case ReduceKind::Sum:
      case ReduceKind::Product: {
        const bool sum = kind == ReduceKind::Sum;
        if (out == TypeId::Float64 || out == TypeId::Float32) {
          auto finish = [=](const HostVector<double>& d) {
            if (out == TypeId::Float64) return result_column(*dev, out, d, {});
            HostVector<float> f(d.begin(), d.end());
            return result_column(*dev, out, f, {});
          };
          if (sum) use(PerGroup<SumDouble<S>>{{v}}, finish);
          else use(PerGroup<ProdDouble<S>>{{v}}, finish);
        } else {
          auto finish = [=](const HostVector<uint64_t>& w) { return result_column(*dev, out, w, {}); };
          if (sum) use(PerGroup<SumWrap<S>>{{v}}, finish);
          else use(PerGroup<ProdWrap<S>>{{v}}, finish);
        }
        return true;
      }
      case ReduceKind::Mean:
        use(SumValidFold<S>{v}, [=](const HostVector<SumValid>& sv) {
          HostVector<double> m(sv.size());
          HostVector<uint8_t> ok(sv.size());
          for (size_t g = 0; g < sv.size(); ++g) {
            m[g] = sv[g].valid ? sv[g].sum / double(sv[g].valid) : 0.0;
            ok[g] = sv[g].valid > 0;
          }
          return result_column(*dev, out, m, ok);
        });
        return true;
      default: break;
    }
  }
  return false;
}

template <typename Backend>
struct Aggregate {
  const Backend& b;
  const ColumnView& v;
  int64_t count;
  ReduceKind kind;
  const ReduceOptions& o;
  TypeId out;

  template <TypeId T>
  ColumnPtr operator()() const {
    using S = storage_t<T>;
    using namespace reduce_detail;
    Device& dev = *v.device;
    ColumnPtr done;
    if (one_fold<S>(kind, v, out, [&](const auto& f, const auto& finish) { done = finish(b.fold(f)); })) return done;
    switch (kind) {
      case ReduceKind::Min:
      case ReduceKind::Max:
      case ReduceKind::ArgMin:
      case ReduceKind::ArgMax: {
        const bool want_max = kind == ReduceKind::Max || kind == ReduceKind::ArgMax;
        HostVector<int64_t> rows;
        if constexpr (std::is_arithmetic_v<S>) rows = extreme_rows(b.fold(ValueExtreme<S>{v, want_max}));
        else rows = b.fold(PerGroup<ArgExtreme<S>>{{v, want_max}});
        if (kind == ReduceKind::Min || kind == ReduceKind::Max) return values_at(v, rows);
        // The position within the group: the group's rows before the extreme's row.
        HostVector<int64_t> pos = b.fold_with(RowsBefore{nullptr}, rows);
        HostVector<uint8_t> ok(rows.size());
        for (size_t g = 0; g < rows.size(); ++g) ok[g] = rows[g] >= 0;
        return result_column(dev, out, pos, ok);
      }
      default: break;
    }
    if constexpr (!std::is_arithmetic_v<S>) {
      if (kind == ReduceKind::NUnique) {
        HostVector<RowsValid> rv = b.rows_valid(v);
        return result_column(dev, out, b.sorted(SortedDistinct<S>{v}, v, rv), {});
      }
      GPUDF_FAIL(Internal, "unhandled grouped string reduction");
    } else {
      switch (kind) {
        case ReduceKind::Std:
        case ReduceKind::Var: {
          const HostVector<SumValid> sv = b.fold(SumValidFold<S>{v});
          HostVector<double> s(sv.size());
          HostVector<RowsValid> rv(sv.size());
          for (size_t g = 0; g < s.size(); ++g) {
            s[g] = sv[g].valid ? sv[g].sum / double(sv[g].valid) : 0.0;
            rv[g].valid = sv[g].valid;
          }
          // Two passes in double, as the ungrouped reduction: the means, then squared deviations.
          HostVector<double> ss = b.fold_with(CenteredSquares<S>{v, nullptr}, s);
          for (size_t g = 0; g < ss.size(); ++g) {
            double var = rv[g].valid > o.ddof ? ss[g] / double(rv[g].valid - o.ddof) : 0.0;
            ss[g] = kind == ReduceKind::Var ? var : std::sqrt(var);
          }
          return result_column(dev, out, ss, valid_where(rv, o.ddof + 1));
        }
        case ReduceKind::Any:
        case ReduceKind::All: {
          HostVector<RowsValid> rv = b.rows_valid(v);
          HostVector<uint64_t> trues = b.fold(PerGroup<SumWrap<S>>{{v}});
          HostVector<uint8_t> r(trues.size());
          for (size_t g = 0; g < r.size(); ++g)
            r[g] = kind == ReduceKind::Any ? trues[g] > 0 : int64_t(trues[g]) == rv[g].valid;
          return result_column(dev, out, r, {});
        }
        case ReduceKind::Median:
        case ReduceKind::Quantile: {
          HostVector<RowsValid> rv = b.rows_valid(v);
          const double q = kind == ReduceKind::Median ? 0.5 : o.q;
          return result_column(dev, out, b.sorted(SortedQuantile<S>{v, q}, v, rv), valid_where(rv, 1));
        }
        case ReduceKind::NUnique: {
          HostVector<RowsValid> rv = b.rows_valid(v);
          return result_column(dev, out, b.sorted(SortedDistinct<S>{v}, v, rv), {});
        }
        default: break;
      }
    }
    GPUDF_FAIL(Internal, "unhandled grouped reduction");
  }
};

/// group_aggregate over a backend (kind and options already validated).
template <typename Backend>
ColumnPtr aggregate(const Backend& b, const ColumnView& v, int64_t count, ReduceKind kind,
                    const ReduceOptions& o) {
  const TypeId out = reduce_result_type(v.type, kind);
  return type_dispatch(v.type, Aggregate<Backend>{b, v, count, kind, o, out});
}

/// group_corr over a backend.
template <typename Backend>
ColumnPtr corr(const Backend& b, const ColumnView& x, const ColumnView& y, bool cov, int64_t ddof) {
  HostVector<PairSums> s = b.fold(PairSumsFold{x, y});
  const size_t count = s.size();
  HostVector<double> ma(count), mb(count);
  for (size_t g = 0; g < count; ++g) {
    ma[g] = s[g].n > 0 ? s[g].sa / s[g].n : 0.0;
    mb[g] = s[g].n > 0 ? s[g].sb / s[g].n : 0.0;
  }
  HostVector<CoMoments> m = b.fold_with(CoMomentsFold{x, y, nullptr, nullptr}, ma, mb);
  HostVector<double> r(count);
  HostVector<uint8_t> ok(count);
  for (size_t g = 0; g < count; ++g) {
    const double n = s[g].n;
    if (cov) {
      ok[g] = n > double(ddof);
      r[g] = ok[g] ? m[g].ab / (n - double(ddof)) : 0.0;
    } else {
      ok[g] = n >= 2;
      r[g] = ok[g] ? m[g].ab / std::sqrt(m[g].aa * m[g].bb) : 0.0;
    }
  }
  return result_column(*x.device, TypeId::Float64, r, ok);
}

}  // namespace gpudf::groupby_detail
