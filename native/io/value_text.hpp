// Text of single values and the parallel row formatter shared by the text writers (CSV, JSON):
// dates as YYYY-MM-DD, timestamps as YYYY-MM-DDTHH:MM:SS[.fraction], floats in their shortest
// round-trip form. Host only.
#pragma once

#include <charconv>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/calendar.hpp"
#include "core/float_text.hpp"
#include "core/thread_pool.hpp"

namespace gpudf::io {

inline void put_padded(std::string& out, int64_t v, int width) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v < 0 ? -v : v);
  if (v < 0) out.push_back('-');
  for (int pad = width - int(p - buf); pad > 0; --pad) out.push_back('0');
  out.append(buf, p);
}

inline void put_date(std::string& out, int64_t days) {
  const CivilDate c = civil_from_days(days);
  put_padded(out, c.year, 4);
  out.push_back('-');
  put_padded(out, c.month, 2);
  out.push_back('-');
  put_padded(out, c.day, 2);
}

/// `value` counts units of 1/per_second s since the epoch; `digits` fraction digits (0: none).
inline void put_timestamp(std::string& out, int64_t value, int64_t per_second, int digits) {
  // floor_mod, not value - secs * per_second: near INT64_MIN that product overflows.
  const int64_t secs = floor_div_i64(value, per_second);
  const int64_t frac = floor_mod_i64(value, per_second);
  const int64_t days = floor_div_i64(secs, 86400);
  const int64_t rem = floor_mod_i64(secs, 86400);
  put_date(out, days);
  out.push_back('T');
  put_padded(out, rem / 3600, 2);
  out.push_back(':');
  put_padded(out, (rem / 60) % 60, 2);
  out.push_back(':');
  put_padded(out, rem % 60, 2);
  if (digits) {
    out.push_back('.');
    put_padded(out, frac, digits);
  }
}

template <typename F>
inline void put_float(std::string& out, F v) {
  char buf[64];
  out.append(buf, size_t(format_float_shortest(v, buf)));
}

template <typename I, typename S>  // S: std::string or HostString
inline void put_int(S& out, I v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, p);
}

/// Formats rows [0, rows) in chunks of `chunk_rows` on the CPU pool (`format(out, r0, r1)`
/// appends the text of rows [r0, r1)), a bounded batch at a time, and passes the texts to
/// `sink` in row order.
inline void format_rows_parallel(int64_t rows, int64_t chunk_rows,
                                 const std::function<void(std::string&, int64_t, int64_t)>& format,
                                 const std::function<void(const std::string&)>& sink) {
  const int64_t chunks = (rows + chunk_rows - 1) / chunk_rows;
  const int64_t batch = int64_t(cpu_pool().size()) * 4;
  for (int64_t c0 = 0; c0 < chunks; c0 += batch) {
    const int64_t c1 = std::min(chunks, c0 + batch);
    std::vector<std::string> texts(size_t(c1 - c0));
    cpu_pool().parallel_for(c1 - c0, 1, [&](int64_t a, int64_t b) {
      for (int64_t k = a; k < b; ++k) {
        const int64_t r0 = (c0 + k) * chunk_rows;
        format(texts[size_t(k)], r0, std::min(rows, r0 + chunk_rows));
      }
    });
    for (const auto& t : texts) sink(t);
  }
}

}  // namespace gpudf::io
