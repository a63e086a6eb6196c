// Time zones from the system tz database (RFC 8536 TZif files under TZDIR, else
// /usr/share/zoneinfo). A zone is a table of UTC offsets by instant: ascending transition
// instants (UTC seconds) and the offset of each interval between them. The POSIX TZ rule in a
// file's footer, which governs times after its last transition, is expanded into the table for
// 400 years; the Gregorian calendar repeats exactly every 400 years (146097 days), so later
// instants map back into that window by whole periods and the answer stays exact.
//
// ZoneView and the lookups below are GPUDF_HD: the CPU loops and the CUDA kernels share them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/hd.hpp"

namespace gpudf {

/// Seconds in 400 Gregorian years: the period of every POSIX TZ rule.
inline constexpr int64_t kZoneCycleSeconds = 146097LL * 86400;

/// A zone's table where kernels read it (host or device pointers).
struct ZoneView {
  const int64_t* transitions = nullptr;  // ascending UTC seconds, `count` of them
  const int32_t* offsets = nullptr;      // count + 1: offsets[j] holds on [transitions[j-1], transitions[j])
  int64_t count = 0;
  /// With a DST rule the table is periodic from cycle_start on (instants at or after it map into
  /// [cycle_start, cycle_start + kZoneCycleSeconds)); with cycle_all, instants before it too
  /// (a zone given by its rule alone; cycle_start is then 0).
  bool cyclic = false;
  bool cycle_all = false;
  int64_t cycle_start = 0;
  int64_t max_abs_offset = 0;  // the largest |offset|: how far a local time lies from its instant
};

/// Number of transitions at or before t (the index of the interval holding t).
GPUDF_HD inline int64_t zone_interval(const ZoneView& z, int64_t t) {
  int64_t lo = 0, hi = z.count;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (z.transitions[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/// t moved by whole 400-year periods into the table's window (t itself outside the cycle).
GPUDF_HD inline int64_t zone_cycle_map(const ZoneView& z, int64_t t) {
  if (!z.cyclic) return t;
  if (z.cycle_all) return floor_mod_i64(t, kZoneCycleSeconds);
  if (t < z.cycle_start) return t;
  // Unsigned: t - cycle_start may exceed INT64_MAX, but never UINT64_MAX.
  const uint64_t d = uint64_t(t) - uint64_t(z.cycle_start);
  return z.cycle_start + int64_t(d % uint64_t(kZoneCycleSeconds));
}

/// The UTC offset (seconds) in effect at UTC instant `utc` (seconds).
GPUDF_HD inline int32_t zone_offset_at(const ZoneView& z, int64_t utc) {
  return z.offsets[zone_interval(z, zone_cycle_map(z, utc))];
}

/// Local wall-clock times beyond this magnitude (seconds) are not resolved (far outside any
/// timestamp a unit finer than seconds can hold; keeps the arithmetic below exact).
inline constexpr int64_t kZoneLocalLimit = int64_t(1) << 62;

/// The UTC instants at which the local wall-clock second `local` occurs.
struct LocalInstants {
  int32_t count = 0;    // 0: skipped by a gap; 1: unique; 2 (rarely more): repeated
  int64_t earliest = 0;  // the instants (seconds), when count > 0
  int64_t latest = 0;
  int64_t gap_end = 0;   // count == 0: the transition instant that skipped it
  bool in_range = true;  // false when |local| > kZoneLocalLimit (nothing else is set)
};

/// Every instant u with u + offset_at(u) == local: for each interval j near `local` the
/// candidate local - offsets[j], kept when it lies in interval j. A local time no interval
/// keeps lies in the gap of a transition whose offset rises across it.
GPUDF_HD inline LocalInstants zone_local_instants(const ZoneView& z, int64_t local) {
  LocalInstants r;
  if (local > kZoneLocalLimit || local < -kZoneLocalLimit) {
    r.in_range = false;
    return r;
  }
  const int64_t m = z.max_abs_offset;
  int64_t shift = 0;  // whole periods taken off `local` to search inside the table's window
  if (z.cyclic && (z.cycle_all || local - m >= z.cycle_start))
    shift = floor_div_i64(local - m - z.cycle_start, kZoneCycleSeconds) * kZoneCycleSeconds;
  const int64_t l = local - shift;
  const int64_t lo = zone_interval(z, l - m), hi = zone_interval(z, l + m);
  bool gap = false;
  for (int64_t j = lo; j <= hi; ++j) {
    const int64_t u = l - z.offsets[j];
    if ((j == 0 || z.transitions[j - 1] <= u) && (j == z.count || u < z.transitions[j])) {
      if (r.count == 0) r.earliest = u + shift;
      r.latest = u + shift;
      ++r.count;
    }
    if (!gap && j < z.count) {
      const int64_t t = z.transitions[j];
      if (t + z.offsets[j] <= l && l < t + z.offsets[j + 1]) {
        gap = true;
        r.gap_end = t + shift;
      }
    }
  }
  return r;
}

/// A loaded zone: its name and table (host memory).
class TimeZone {
 public:
  /// offsets.size() == transitions.size() + 1; transitions strictly ascending.
  TimeZone(std::string name, std::vector<int64_t> transitions, std::vector<int32_t> offsets, bool cyclic,
           bool cycle_all, int64_t cycle_start);

  const std::string& name() const noexcept { return name_; }
  const std::vector<int64_t>& transitions() const noexcept { return transitions_; }
  const std::vector<int32_t>& offsets() const noexcept { return offsets_; }
  /// The table through host pointers (valid while this zone lives and is not moved).
  ZoneView view() const noexcept;
  /// The UTC offset (seconds) at UTC instant `utc_seconds`.
  int32_t offset_at(int64_t utc_seconds) const { return zone_offset_at(view(), utc_seconds); }

 private:
  std::string name_;
  std::vector<int64_t> transitions_;
  std::vector<int32_t> offsets_;
  ZoneView shape_;  // the cycle and the largest offset (pointers filled by view())
};

using TimeZonePtr = std::shared_ptr<const TimeZone>;

/// The zone `name` ("Europe/Berlin") from the tz database in $TZDIR, else /usr/share/zoneinfo;
/// loaded once per directory and name (thread-safe). "UTC" works without a database.
/// ERR_TIME_ZONE for an invalid name, a zone not found, a missing database or a malformed file.
TimeZonePtr time_zone(const std::string& name);

/// As time_zone, from the database in directory `dir`.
TimeZonePtr time_zone_in(const std::string& dir, const std::string& name);

/// A zone from the bytes of a TZif file (versions 1 to 4). ERR_TIME_ZONE when malformed.
TimeZone time_zone_from_tzif(const std::string& name, const std::string& bytes);

/// A zone given by a POSIX TZ string alone ("CET-1CEST,M3.5.0,M10.5.0/3", "<+0330>-3:30"), as
/// in a TZif footer (RFC 8536 section 3.3, with the version 3 extensions). ERR_TIME_ZONE when
/// malformed.
TimeZone time_zone_from_posix(const std::string& name, const std::string& tz);

}  // namespace gpudf
