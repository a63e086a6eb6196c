// to_local / from_local: backend dispatch, the strict-mode errors, and the CPU loops over the
// thread pool (the per-value rules are timezone.hpp's GPUDF_HD functions).
#include "ops/timezone/timezone.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "ops/strings/strings.hpp"

namespace gpudf {
namespace detail {
namespace {

constexpr int64_t kGrain = 4096;

/// Runs value(x, out) -> LocalStatus over v's rows into a new nullable column, 64 rows (one
/// bitmap word) per step so threads never share a validity byte; returns the first row whose
/// status is Ambiguous or NonExistent (-1: none).
template <typename F>
ColumnPtr map_rows(const ColumnView& v, F value, int64_t& first_bad) {
  const int64_t n = v.size;
  ColumnPtr out = Column::allocate(cpu_device(), v.type, n, true);
  const int64_t* in = v.values<int64_t>();
  int64_t* dst = n ? reinterpret_cast<int64_t*>(out->data()->data()) : nullptr;
  uint8_t* bits = out->validity()->data();
  first_bad = parallel_rows_first_bad(n, kGrain, [&](int64_t i) {
    int64_t x = 0;
    LocalStatus s = LocalStatus::Null;
    if (v.is_valid(i)) s = value(in[i], x);
    dst[i] = s == LocalStatus::Ok ? x : 0;
    if (s == LocalStatus::Ok) set_bit(bits, i);
    return s == LocalStatus::Ambiguous || s == LocalStatus::NonExistent;
  });
  return out;
}

}  // namespace

ColumnPtr to_local_cpu(const ColumnView& v, const ZoneView& z) {
  const int64_t per_sec = ticks_per_second(v.type);
  int64_t unused = -1;
  return map_rows(
      v, [&](int64_t x, int64_t& out) { return to_local_value(z, per_sec, x, out) ? LocalStatus::Ok : LocalStatus::Null; },
      unused);
}

ColumnPtr from_local_cpu(const ColumnView& v, const ZoneView& z, Ambiguous amb, NonExistent gap, int64_t& first_bad) {
  const int64_t per_sec = ticks_per_second(v.type);
  return map_rows(v, [&](int64_t x, int64_t& out) { return from_local_value(z, per_sec, x, amb, gap, out); }, first_bad);
}

}  // namespace detail

namespace {

void check_timestamps(const ColumnPtr& values, const char* op) {
  GPUDF_EXPECTS(is_timestamp(values->type()), Dtype,
                std::string("'") + op + "' needs a timestamp, not " + std::string(type_name(values->type())));
}

}  // namespace

ColumnPtr to_local(const ColumnPtr& values, const TimeZone& zone) {
  check_timestamps(values, "dt.toLocal");
  const ColumnView v = values->view();
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) return detail::to_local_cuda(v, zone);
#endif
  return detail::to_local_cpu(v, zone.view());
}

ColumnPtr from_local(const ColumnPtr& values, const TimeZone& zone, Ambiguous ambiguous, NonExistent non_existent) {
  check_timestamps(values, "dt.fromLocal");
  const ColumnView v = values->view();
  int64_t first_bad = -1;
  ColumnPtr out;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) out = detail::from_local_cuda(v, zone, ambiguous, non_existent, first_bad);
  else
#endif
    out = detail::from_local_cpu(v, zone.view(), ambiguous, non_existent, first_bad);
  if (first_bad >= 0) {
    // The row's status again, on the host, to name what went wrong with it.
    const ColumnPtr row = to_host(values->slice(first_bad, 1));
    int64_t x = 0;
    const detail::LocalStatus s = detail::from_local_value(zone.view(), ticks_per_second(v.type),
                                                           row->view().values<int64_t>()[0], ambiguous, non_existent, x);
    const std::string what = "'dt.fromLocal': row " + std::to_string(first_bad) + " (" +
                             strings::value_text(values, first_bad) + ")";
    if (s == detail::LocalStatus::Ambiguous) {
      GPUDF_FAIL(TimeZone, what + " is ambiguous in " + zone.name() +
                               " (the clocks go back over it, so it occurs twice); pass ambiguous: \"earliest\", "
                               "\"latest\" or \"null\" to resolve such times");
    }
    GPUDF_FAIL(TimeZone, what + " does not exist in " + zone.name() +
                             " (the clocks skip it); pass nonExistent: \"null\", \"shiftForward\" or "
                             "\"shiftBackward\" to resolve such times");
  }
  return out;
}

}  // namespace gpudf
