// reduce(): dtype rules, composition of every kind from a few backend primitives, one-row
// result columns; and the CPU primitives (tiled reductions over cpu_pool, nth_element).
#include "ops/reduce/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <iterator>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "ops/nulls/null_count.hpp"
#include "ops/reduce/reduce_internal.hpp"
#include "ops/reduce/reduce_functors.hpp"

namespace gpudf {
namespace reduce_detail {
namespace {

struct CpuFolds {
  template <typename Fold>
  static typename Fold::Acc run(const Fold& f, int64_t n) {
    return tiled_reduce_cpu(f, n);
  }
};
using Cpu = FoldPrimitives<CpuFolds>;

struct CollectKeys {
  template <TypeId T>
  HostVector<uint64_t> operator()(const ColumnView& v) const {
    using S = storage_t<T>;
    HostVector<uint64_t> keys;
    if constexpr (std::is_arithmetic_v<S>) {
      keys.reserve(static_cast<size_t>(v.size));
      const S* x = v.values<S>();
      for (int64_t i = 0; i < v.size; ++i)
        if (v.is_valid(i)) keys.push_back(order_key(x[i]));
    } else {
      GPUDF_FAIL(Dtype, "order statistics need a numeric column");
    }
    return keys;
  }
};

}  // namespace

double sum_double_cpu(const ColumnView& v, bool centered_square, double center) {
  return Cpu::sum_double(v, centered_square, center);
}
uint64_t sum_wrap_cpu(const ColumnView& v) { return Cpu::sum_wrap(v); }
double prod_double_cpu(const ColumnView& v) { return Cpu::prod_double(v); }
uint64_t prod_wrap_cpu(const ColumnView& v) { return Cpu::prod_wrap(v); }
int64_t arg_extreme_cpu(const ColumnView& v, bool want_max) { return Cpu::arg_extreme(v, want_max); }

void select_keys_cpu(const ColumnView& v, int64_t lo, int64_t hi, uint64_t out[2]) {
  HostVector<uint64_t> keys = type_dispatch(v.type, CollectKeys{}, v);
  GPUDF_EXPECTS(0 <= lo && lo <= hi && hi < int64_t(keys.size()), Internal, "rank out of range");
  std::nth_element(keys.begin(), keys.begin() + lo, keys.end());
  out[0] = keys[size_t(lo)];
  // Everything after position lo is >= keys[lo]; the next rank is the smallest of them.
  out[1] = hi == lo ? out[0] : *std::min_element(keys.begin() + lo + 1, keys.end());
}

}  // namespace reduce_detail

namespace {

using namespace reduce_detail;

bool is_int(TypeId t) { return t >= TypeId::Int8 && t <= TypeId::UInt64; }
bool is_unsigned(TypeId t) { return t >= TypeId::UInt8 && t <= TypeId::UInt64; }
bool is_float(TypeId t) { return t == TypeId::Float32 || t == TypeId::Float64; }

#ifdef GPUDF_WITH_CUDA
#define GPUDF_REDUCE_BACKEND(name, v, ...) \
  (on_cuda(v) ? name##_cuda(v, ##__VA_ARGS__) : name##_cpu(v, ##__VA_ARGS__))
#else
#define GPUDF_REDUCE_BACKEND(name, v, ...) name##_cpu(v, ##__VA_ARGS__)
#endif

/// A one-row column of `type` on `device`; `value` (value_width bytes) or null when nullptr.
ColumnPtr scalar_column(Device& device, TypeId type, const void* value) {
  ColumnPtr host = Column::allocate(cpu_device(), type, 1, value == nullptr);
  if (value) std::memcpy(host->data()->data(), value, size_t(value_width(type)));
  else std::memset(host->data()->data(), 0, size_t(value_width(type)));
  return copy_to_device(std::make_shared<Column>(cpu_device(), type, 1, host->data(), nullptr,
                                                 host->validity(), value ? 0 : 1),
                        device);
}

template <typename T>
ColumnPtr scalar_of(Device& device, TypeId type, T value) {
  static_assert(std::is_trivially_copyable_v<T>);
  GPUDF_EXPECTS(sizeof(T) == size_t(value_width(type)), Internal, "scalar width mismatch");
  return scalar_column(device, type, &value);
}

ColumnPtr null_of(Device& device, TypeId type) { return scalar_column(device, type, nullptr); }

struct KeyToDouble {
  template <TypeId T>
  double operator()(uint64_t key) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) return static_cast<double>(from_order_key<S>(key));
    else GPUDF_FAIL(Internal, "order key of a string");
  }
};

/// Linear interpolation between the closest ranks (as Polars' "linear").
double quantile_of(const ColumnView& v, int64_t valid, double q) {
  double idx = q * double(valid - 1);
  auto lo = static_cast<int64_t>(std::floor(idx));
  auto hi = static_cast<int64_t>(std::ceil(idx));
  uint64_t keys[2];
  GPUDF_REDUCE_BACKEND(select_keys, v, lo, hi, keys);
  double a = type_dispatch(v.type, KeyToDouble{}, keys[0]);
  double b = type_dispatch(v.type, KeyToDouble{}, keys[1]);
  return interpolate_ranks(a, b, keys[0] == keys[1], idx, lo, hi);
}

}  // namespace

TypeId reduce_result_type(TypeId t, ReduceKind kind) {
  if (aggregates_as_counts(t, kind)) return t;
  const bool numeric = is_int(t) || is_float(t);
  auto reject = [&]() -> TypeId {
    static const char* names[] = {"sum", "mean", "min", "max", "count", "nullCount",
                                  "nUnique", "std", "var", "median", "quantile", "any",
                                  "all", "first", "last", "argMin", "argMax", "product", "len"};
    GPUDF_FAIL(Dtype, std::string(names[int(kind)]) + " does not accept a " +
                          std::string(type_name(t)) + " column");
  };
  switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Product:
      if (t == TypeId::Bool) return TypeId::Int64;
      if (is_int(t)) return is_unsigned(t) ? TypeId::UInt64 : TypeId::Int64;
      if (is_float(t)) return t;
      return reject();
    case ReduceKind::Mean: return numeric || t == TypeId::Bool ? TypeId::Float64 : reject();
    case ReduceKind::Std:
    case ReduceKind::Var:
    case ReduceKind::Median:
    case ReduceKind::Quantile: return numeric ? TypeId::Float64 : reject();
    case ReduceKind::Min:
    case ReduceKind::Max:
    case ReduceKind::First:
    case ReduceKind::Last: return t;
    case ReduceKind::Any:
    case ReduceKind::All: return t == TypeId::Bool ? TypeId::Bool : reject();
    case ReduceKind::Count:
    case ReduceKind::Len:
    case ReduceKind::NullCount:
    case ReduceKind::NUnique:
    case ReduceKind::ArgMin:
    case ReduceKind::ArgMax: return TypeId::Int64;
  }
  GPUDF_FAIL(InvalidArgument, "unknown reduction " + std::to_string(int(kind)));
}

ColumnPtr reduce(const ColumnView& v, ReduceKind kind, const ReduceOptions& o) {
  GPUDF_EXPECTS(int32_t(kind) >= 0 && int32_t(kind) < kNumReduceKinds, InvalidArgument,
                "unknown reduction " + std::to_string(int32_t(kind)));
  const TypeId out = reduce_result_type(v.type, kind);
  if (aggregates_as_counts(v.type, kind)) return counts_as_duration(reduce(counts_view(v), kind, o), v.type);
  if (kind == ReduceKind::Quantile)
    GPUDF_EXPECTS(o.q >= 0.0 && o.q <= 1.0, InvalidArgument,
                  "quantile must be in [0, 1], got " + std::to_string(o.q));
  if (kind == ReduceKind::Std || kind == ReduceKind::Var)
    GPUDF_EXPECTS(o.ddof >= 0, InvalidArgument, "ddof must be >= 0");
  Device& dev = *v.device;
  const int64_t nulls = count_nulls(v);
  const int64_t valid = v.size - nulls;

  switch (kind) {
    case ReduceKind::Count: return scalar_of<int64_t>(dev, out, valid);
    case ReduceKind::NullCount: return scalar_of<int64_t>(dev, out, nulls);
    case ReduceKind::Len: return scalar_of<int64_t>(dev, out, v.size);
    case ReduceKind::Product:
      if (out == TypeId::Float64) return scalar_of(dev, out, GPUDF_REDUCE_BACKEND(prod_double, v));
      if (out == TypeId::Float32) return scalar_of(dev, out, static_cast<float>(GPUDF_REDUCE_BACKEND(prod_double, v)));
      return scalar_of<uint64_t>(dev, out, GPUDF_REDUCE_BACKEND(prod_wrap, v));
    case ReduceKind::Sum:
      if (out == TypeId::Float64) return scalar_of(dev, out, GPUDF_REDUCE_BACKEND(sum_double, v, false, 0.0));
      if (out == TypeId::Float32)
        return scalar_of(dev, out, static_cast<float>(GPUDF_REDUCE_BACKEND(sum_double, v, false, 0.0)));
      return scalar_of<uint64_t>(dev, out, GPUDF_REDUCE_BACKEND(sum_wrap, v));
    case ReduceKind::Mean:
      if (valid == 0) return null_of(dev, out);
      return scalar_of(dev, out, GPUDF_REDUCE_BACKEND(sum_double, v, false, 0.0) / double(valid));
    case ReduceKind::Std:
    case ReduceKind::Var: {
      // Two passes in double: the mean, then the sum of squared deviations from it.
      if (valid <= o.ddof) return null_of(dev, out);
      double mean = GPUDF_REDUCE_BACKEND(sum_double, v, false, 0.0) / double(valid);
      double ss = GPUDF_REDUCE_BACKEND(sum_double, v, true, mean);
      double var = ss / double(valid - o.ddof);
      return scalar_of(dev, out, kind == ReduceKind::Var ? var : std::sqrt(var));
    }
    case ReduceKind::Median:
    case ReduceKind::Quantile:
      if (valid == 0) return null_of(dev, out);
      return scalar_of(dev, out, quantile_of(v, valid, kind == ReduceKind::Median ? 0.5 : o.q));
    case ReduceKind::Any:
    case ReduceKind::All: {
      // Kleene with nulls ignored (Polars' default): any = some true; all = no false.
      uint64_t trues = GPUDF_REDUCE_BACKEND(sum_wrap, v);
      bool r = kind == ReduceKind::Any ? trues > 0 : int64_t(trues) == valid;
      return scalar_of<uint8_t>(dev, out, r ? 1 : 0);
    }
    case ReduceKind::First: return gather_rows(v, {v.size ? 0 : -1});
    case ReduceKind::Last: return gather_rows(v, {v.size ? v.size - 1 : -1});
    case ReduceKind::Min:
    case ReduceKind::Max:
      return gather_rows(v, {valid ? GPUDF_REDUCE_BACKEND(arg_extreme, v, kind == ReduceKind::Max) : -1});
    case ReduceKind::ArgMin:
    case ReduceKind::ArgMax: {
      if (valid == 0) return null_of(dev, out);
      return scalar_of<int64_t>(dev, out, GPUDF_REDUCE_BACKEND(arg_extreme, v, kind == ReduceKind::ArgMax));
    }
    case ReduceKind::NUnique: {
      int64_t groups = 0;
      if (valid) GPUDF_REDUCE_BACKEND(group_values, v, false, &groups);
      return scalar_of<int64_t>(dev, out, groups);
    }
  }
  GPUDF_FAIL(Internal, "unhandled reduction");
}


ReduceKind reduce_kind_named(std::string_view name) {
  static constexpr std::pair<std::string_view, ReduceKind> kinds[] = {
      {"sum", ReduceKind::Sum},         {"mean", ReduceKind::Mean},       {"min", ReduceKind::Min},
      {"max", ReduceKind::Max},         {"count", ReduceKind::Count},     {"nullCount", ReduceKind::NullCount},
      {"nUnique", ReduceKind::NUnique}, {"std", ReduceKind::Std},         {"var", ReduceKind::Var},
      {"median", ReduceKind::Median},   {"quantile", ReduceKind::Quantile}, {"any", ReduceKind::Any},
      {"all", ReduceKind::All},         {"first", ReduceKind::First},     {"last", ReduceKind::Last},
      {"argMin", ReduceKind::ArgMin},   {"argMax", ReduceKind::ArgMax},   {"product", ReduceKind::Product},
      {"len", ReduceKind::Len},
  };
  static_assert(std::size(kinds) == size_t(kNumReduceKinds), "every kind has a name");
  for (const auto& [n, k] : kinds)
    if (n == name) return k;
  GPUDF_FAIL(InvalidArgument, "unknown aggregation \"" + std::string(name) + "\"");
}

}  // namespace gpudf
