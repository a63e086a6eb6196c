// The shortest text that reads back to the same float (std::to_chars), with NaN / inf / -inf
// spelled as the CSV writer and casts to utf8 write them. Host only.
#pragma once

#include <charconv>
#include <cmath>
#include <cstring>

namespace gpudf {

/// Writes v into buf (at least 64 bytes); returns the length.
template <typename F>
inline int format_float_shortest(F v, char* buf) {
  if (std::isnan(v)) return std::memcpy(buf, "NaN", 3), 3;
  if (std::isinf(v)) {
    if (v < 0) return std::memcpy(buf, "-inf", 4), 4;
    return std::memcpy(buf, "inf", 3), 3;
  }
  auto r = std::to_chars(buf, buf + 64, v);
  return int(r.ptr - buf);
}

}  // namespace gpudf
