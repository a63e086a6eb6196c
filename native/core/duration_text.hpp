// Durations as ISO 8601 text ("P1DT2H3M4.5S", "-PT0.001S", "PT0S"): the form cast to utf8,
// writeCSV and writeJSON give, and the form cast from utf8 and the readers accept. Days are
// whole 24-hour days (a duration has no calendar); zero parts are left out; seconds carry the
// unit's digits with trailing zeros trimmed. GPUDF_HD so the CUDA kernels write and read the
// same text as the CPU.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace gpudf {

/// Longest text: "-P106751991167DT23H59M59.999999999S" is 35 characters.
inline constexpr int kMaxDurationText = 40;

/// Writes `count` ticks (per_second ticks a second: 1, 1e3, 1e6 or 1e9) to `out` (at least
/// kMaxDurationText bytes); returns the length.
GPUDF_HD inline int write_duration_iso(char* out, int64_t count, int64_t per_second) {
  int n = 0;
  // Work on the magnitude as uint64 (INT64_MIN has none in int64).
  uint64_t mag = count < 0 ? uint64_t(0) - uint64_t(count) : uint64_t(count);
  if (count < 0) out[n++] = '-';
  out[n++] = 'P';
  const uint64_t ps = uint64_t(per_second);
  const uint64_t frac = mag % ps;
  uint64_t secs = mag / ps;
  const uint64_t days = secs / 86400;
  secs %= 86400;
  const uint64_t h = secs / 3600, m = secs / 60 % 60, s = secs % 60;
  auto put = [&](uint64_t v, char unit) {
    char digits[20];
    int k = 0;
    do {
      digits[k++] = char('0' + v % 10);
      v /= 10;
    } while (v);
    while (k) out[n++] = digits[--k];
    if (unit) out[n++] = unit;
  };
  if (days) put(days, 'D');
  if (h || m || s || frac || !days) {
    out[n++] = 'T';
    if (h) put(h, 'H');
    if (m) put(m, 'M');
    if (s || frac || (!h && !m)) {
      put(s, 0);
      if (frac) {
        out[n++] = '.';
        // The unit's digits, then trailing zeros trimmed.
        int width = 0;
        for (uint64_t p = ps; p > 1; p /= 10) ++width;
        char f[9];
        uint64_t v = frac;
        for (int k = width - 1; k >= 0; --k) {
          f[k] = char('0' + v % 10);
          v /= 10;
        }
        while (width > 0 && f[width - 1] == '0') --width;
        for (int k = 0; k < width; ++k) out[n++] = f[k];
      }
      out[n++] = 'S';
    }
  }
  return n;
}

/// Parses ISO 8601 duration text of `len` bytes into ticks of the unit: an optional sign, 'P',
/// then [nW][nD] and optionally 'T' [nH][nM][n[.f]S], at least one part; weeks are 7 days. No
/// years or months (they have no fixed length). False for other text, a fraction finer than
/// the unit, or a value beyond int64.
GPUDF_HD inline bool parse_duration_iso(const char* s, int64_t len, int64_t per_second, int64_t& out) {
  int64_t i = 0;
  bool neg = false;
  if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (i >= len || (s[i] != 'P' && s[i] != 'p')) return false;
  ++i;
  const uint64_t ps = uint64_t(per_second);
  const uint64_t limit = neg ? uint64_t(INT64_MAX) + 1 : uint64_t(INT64_MAX);
  uint64_t total = 0;
  bool time = false, any = false;
  int order = 0;  // parts must come in order: W D | H M S
  auto add = [&](uint64_t v, uint64_t scale) {
    if (v != 0 && scale > limit / v) return false;
    const uint64_t x = v * scale;
    if (x > limit - total) return false;
    total += x;
    return true;
  };
  while (i < len) {
    if (s[i] == 'T' || s[i] == 't') {
      if (time) return false;
      time = true;
      ++i;
      continue;
    }
    uint64_t v = 0;
    int64_t start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9') {
      if (v > (UINT64_MAX - 9) / 10) return false;
      v = v * 10 + uint64_t(s[i] - '0');
      ++i;
    }
    if (i == start) return false;
    uint64_t frac = 0;
    bool has_frac = false;
    if (i < len && (s[i] == '.' || s[i] == ',')) {
      has_frac = true;
      ++i;
      uint64_t scale = ps;
      int64_t fstart = i;
      while (i < len && s[i] >= '0' && s[i] <= '9') {
        const uint64_t d = uint64_t(s[i] - '0');
        if (scale >= 10) {
          scale /= 10;
          frac += d * scale;
        } else if (d != 0) {
          return false;  // finer than the unit
        }
        ++i;
      }
      if (i == fstart) return false;
    }
    if (i >= len) return false;
    const char u = s[i++];
    int rank = 0;
    uint64_t scale = 0;
    if (!time && (u == 'W' || u == 'w')) rank = 1, scale = 604800;
    else if (!time && (u == 'D' || u == 'd')) rank = 2, scale = 86400;
    else if (time && (u == 'H' || u == 'h')) rank = 3, scale = 3600;
    else if (time && (u == 'M' || u == 'm')) rank = 4, scale = 60;
    else if (time && (u == 'S' || u == 's')) rank = 5, scale = 1;
    else return false;
    if (rank <= order || (has_frac && rank != 5)) return false;
    order = rank;
    if (scale > UINT64_MAX / ps) return false;
    if (!add(v, scale * ps) || !add(frac, 1)) return false;
    any = true;
  }
  if (!any || (time && order < 3)) return false;  // "P", "PT", "P1DT" are incomplete
  out = neg ? int64_t(uint64_t(0) - total) : int64_t(total);
  return true;
}

}  // namespace gpudf
