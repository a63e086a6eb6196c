// Dynamic and rolling windows: argument checks, dispatch on the index's device, and the CPU
// backend of the pipeline (dynamic_pipeline.hpp) as loops over the pool.
#include "ops/dynamic/dynamic.hpp"

#include <algorithm>
#include <mutex>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/dynamic/dynamic_pipeline.hpp"

namespace gpudf::dynamic {
namespace detail {
namespace {

struct CpuBackend {
  template <typename F>
  static void for_each(int64_t n, const F& f) {
    cpu_pool().parallel_for(n, 4096, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) f(i);
    });
  }
  template <typename F>
  static void for_each_block(int64_t n, const F& f) {
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) { f(b, e); });
  }
  static int64_t exclusive_scan(const int64_t* in, int64_t* out, int64_t n) {
    int64_t acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      out[i] = acc;
      acc += in[i];
    }
    return acc;
  }
  static int64_t min(const int64_t* p, int64_t n) { return n == 0 ? kMax : *std::min_element(p, p + n); }
  static int64_t max(const int64_t* p, int64_t n) { return n == 0 ? kMin : *std::max_element(p, p + n); }
  /// min(f(i)) over [0, n) on the pool, one partial per block.
  template <typename F>
  static int64_t min_of(int64_t n, const F& f) {
    std::mutex mu;
    int64_t acc = kMax;
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
      int64_t part = kMax;
      for (int64_t i = b; i < e; ++i) part = std::min(part, f(i));
      std::lock_guard<std::mutex> lock(mu);
      acc = std::min(acc, part);
    });
    return acc;
  }
  template <typename T>
  static T read(const T* p) { return *p; }
};

}  // namespace

DynamicWindows dynamic_windows_cpu(Device& dev, TypeId type, const Inputs& in, const WindowSpec& spec) {
  return run_dynamic<CpuBackend>(dev, type, in, spec);
}

WindowRows rolling_windows_cpu(Device& dev, const Inputs& in, const WindowSpec& spec) {
  return run_rolling<CpuBackend>(dev, in, spec);
}

}  // namespace detail

namespace {

bool narrow_index(TypeId t) {
  switch (t) {
    case TypeId::Int32: case TypeId::Date32: return true;
    case TypeId::Int64: case TypeId::TimestampS: case TypeId::TimestampMs: case TypeId::TimestampUs:
    case TypeId::TimestampNs: return false;
    default: GPUDF_FAIL(Dtype, "the index column must be int32, int64, date or a timestamp, not " + std::string(type_name(t)));
  }
}

/// The checked inputs; rows == 0 means there is nothing to window.
detail::Inputs inputs_of(const ColumnPtr& index, const ColumnPtr& segments, const WindowSpec& spec, bool dynamic) {
  detail::Inputs in;
  in.narrow_out = narrow_index(index->type());
  GPUDF_EXPECTS(index->null_count() == 0, InvalidArgument, "the index column contains nulls; drop or fill them first");
  if (segments) {
    GPUDF_EXPECTS(segments->type() == TypeId::Int32 && !segments->has_validity() && segments->size() == index->size() &&
                      &segments->device() == &index->device(),
                  InvalidArgument, "window segments must be int32 ids of the index's rows");
  }
  GPUDF_EXPECTS(spec.period.months >= 0 && spec.period.ticks >= 0 && (spec.period.months > 0 || spec.period.ticks > 0),
                InvalidArgument, "a window period must be positive");
  GPUDF_EXPECTS(spec.ticks_per_day > 0 || (spec.period.months == 0 && spec.offset.months == 0 && spec.every.months == 0),
                InvalidArgument, "an integer index takes no calendar durations");
  if (dynamic) {
    GPUDF_EXPECTS(spec.every.months >= 0 && spec.every.ticks >= 0 && (spec.every.months > 0 || spec.every.ticks > 0),
                  InvalidArgument, "`every` must be positive");
    GPUDF_EXPECTS(spec.align != Align::Months || (spec.every.ticks == 0 && spec.ticks_per_day > 0), InvalidArgument,
                  "monthly truncation needs `every` in whole months and a temporal index");
    GPUDF_EXPECTS(spec.align == Align::Months || spec.align == Align::DataPoint || spec.every.months == 0, InvalidArgument,
                  spec.align == Align::Weekday ? "a weekday start takes `every` in fixed units, not calendar months"
                                               : "`every` mixes calendar months with fixed units");
    GPUDF_EXPECTS((spec.align != Align::Weeks && spec.align != Align::Weekday) || spec.ticks_per_day > 0, InvalidArgument,
                  "weekly truncation needs a temporal index");
    GPUDF_EXPECTS(spec.align != Align::Weekday || (spec.weekday >= 0 && spec.weekday <= 6), InvalidArgument,
                  "a start weekday must be 0 (Monday) to 6 (Sunday)");
  }
  const ColumnView v = index->view();
  in.ticks.data = v.data;
  in.ticks.offset = v.offset;
  in.ticks.wide = !in.narrow_out;
  in.seg = segments ? segments->view().values<int32_t>() : nullptr;
  in.rows = index->size();
  return in;
}

ColumnPtr empty(Device& dev, TypeId type) { return detail::column_of(dev, type, 0, detail::buffer(dev, 0, 8)); }

WindowRows empty_rows(Device& dev) {
  WindowRows out;
  out.rows = empty(dev, TypeId::Int64);
  out.windows = empty(dev, TypeId::Int32);
  return out;
}

}  // namespace

DynamicWindows dynamic_windows(const ColumnPtr& index, const ColumnPtr& segments, const WindowSpec& spec) {
  const detail::Inputs in = inputs_of(index, segments, spec, true);
  Device& dev = index->device();
  if (in.rows == 0) {
    DynamicWindows out;
    out.lower = empty(dev, index->type());
    out.upper = empty(dev, index->type());
    out.first_row = empty(dev, TypeId::Int64);
    out.members = empty_rows(dev);
    return out;
  }
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(index->view())) return detail::dynamic_windows_cuda(dev, index->type(), in, spec);
#endif
  return detail::dynamic_windows_cpu(dev, index->type(), in, spec);
}

WindowRows rolling_windows(const ColumnPtr& index, const ColumnPtr& segments, const WindowSpec& spec) {
  const detail::Inputs in = inputs_of(index, segments, spec, false);
  Device& dev = index->device();
  if (in.rows == 0) return empty_rows(dev);
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(index->view())) return detail::rolling_windows_cuda(dev, in, spec);
#endif
  return detail::rolling_windows_cpu(dev, in, spec);
}

}  // namespace gpudf::dynamic
