// Timestamps between UTC and a zone's local wall-clock time (core/timezone.hpp loads the zones):
// to_local adds the zone's offset at each instant; from_local finds the instant of each local
// time, resolving the ones a fall-back repeats (ambiguous) and a spring-forward skips
// (non-existent) as asked. One GPUDF_HD function per direction holds the per-value rule; the CPU
// loop (timezone.cpp) and the CUDA kernel (timezone.cu) both call it.
#pragma once

#include <cstdint>

#include "core/column.hpp"
#include "core/timezone.hpp"

namespace gpudf {

/// A local time that occurs twice. The codes are the expression op's params.
enum class Ambiguous : int32_t { Raise = 0, Earliest = 1, Latest = 2, Null = 3 };
/// A local time that a gap skips: Raise, Null, ShiftForward (the transition instant, the first
/// valid one after the gap), ShiftBackward (one unit of the column before it).
enum class NonExistent : int32_t { Raise = 0, Null = 1, ShiftForward = 2, ShiftBackward = 3 };

/// Each UTC instant as the zone's local wall-clock time (a naive timestamp of the same dtype).
/// Nulls stay null; a value whose local time leaves int64 becomes null. ERR_DTYPE unless a
/// timestamp column.
ColumnPtr to_local(const ColumnPtr& values, const TimeZone& zone);

/// Each local wall-clock time in `zone` as its UTC instant. With Raise, the first row that is
/// ambiguous (or non-existent) is an ERR_TIME_ZONE naming the row and its value; a result that
/// leaves int64 is null. ERR_DTYPE unless a timestamp column.
ColumnPtr from_local(const ColumnPtr& values, const TimeZone& zone, Ambiguous ambiguous, NonExistent non_existent);

namespace detail {

/// What became of one value.
enum class LocalStatus : int32_t { Ok = 0, Null = 1, Ambiguous = 2, NonExistent = 3 };

/// v + d, false when it leaves int64.
GPUDF_HD inline bool add_checked(int64_t v, int64_t d, int64_t& out) {
  if ((d > 0 && v > INT64_MAX - d) || (d < 0 && v < INT64_MIN - d)) return false;
  out = v + d;
  return true;
}

/// s * per_sec + frac (0 <= frac < per_sec), false when it leaves int64.
GPUDF_HD inline bool scale_checked(int64_t s, int64_t per_sec, int64_t frac, int64_t& out) {
  if (s > (INT64_MAX - frac) / per_sec || s < INT64_MIN / per_sec) return false;
  out = s * per_sec + frac;
  return true;
}

/// UTC value v (per_sec units a second) as local time; false when it leaves int64.
GPUDF_HD inline bool to_local_value(const ZoneView& z, int64_t per_sec, int64_t v, int64_t& out) {
  const int64_t off = zone_offset_at(z, floor_div_i64(v, per_sec));
  return add_checked(v, off * per_sec, out);
}

/// Local value v (per_sec units a second) as its UTC value. Raise modes report Ambiguous or
/// NonExistent (out unset); Null modes and results outside int64 report Null.
GPUDF_HD inline LocalStatus from_local_value(const ZoneView& z, int64_t per_sec, int64_t v, Ambiguous amb,
                                             NonExistent gap, int64_t& out) {
  const int64_t secs = floor_div_i64(v, per_sec);
  const int64_t frac = floor_mod_i64(v, per_sec);  // the sub-second part, kept exactly
  const LocalInstants r = zone_local_instants(z, secs);
  if (!r.in_range) return LocalStatus::Null;
  if (r.count == 1) return scale_checked(r.earliest, per_sec, frac, out) ? LocalStatus::Ok : LocalStatus::Null;
  if (r.count > 1) {
    if (amb == Ambiguous::Raise) return LocalStatus::Ambiguous;
    if (amb == Ambiguous::Null) return LocalStatus::Null;
    const int64_t s = amb == Ambiguous::Earliest ? r.earliest : r.latest;
    return scale_checked(s, per_sec, frac, out) ? LocalStatus::Ok : LocalStatus::Null;
  }
  if (gap == NonExistent::Raise) return LocalStatus::NonExistent;
  if (gap == NonExistent::Null) return LocalStatus::Null;
  int64_t t = 0;
  if (!scale_checked(r.gap_end, per_sec, 0, t)) return LocalStatus::Null;
  if (gap == NonExistent::ShiftBackward && !add_checked(t, -1, t)) return LocalStatus::Null;
  out = t;
  return LocalStatus::Ok;
}

/// The backends: a new nullable column of v's dtype. from_local sets first_bad to the first
/// row whose status is Ambiguous or NonExistent (-1: none).
ColumnPtr to_local_cpu(const ColumnView& v, const ZoneView& z);
ColumnPtr from_local_cpu(const ColumnView& v, const ZoneView& z, Ambiguous amb, NonExistent gap, int64_t& first_bad);
#ifdef GPUDF_WITH_CUDA
/// `zone` is the host table; it is copied to the device here.
ColumnPtr to_local_cuda(const ColumnView& v, const TimeZone& zone);
ColumnPtr from_local_cuda(const ColumnView& v, const TimeZone& zone, Ambiguous amb, NonExistent gap,
                          int64_t& first_bad);
#endif

}  // namespace detail

}  // namespace gpudf
