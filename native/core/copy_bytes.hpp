// Moving one string's bytes into a packed output, the inner step of every CPU gather and filter
// of strings.
#pragma once

#include <cstdint>
#include <cstring>

namespace gpudf {

/// Copies src[from, from + len) to dst[to, to + len). A string of up to 32 bytes moves as one
/// fixed 32-byte copy (two vector moves instead of a call that costs as much as the bytes) when
/// the 32 bytes lie before `src_end` in the source and before `dst_end` in the output: the
/// caller's next strings overwrite the excess, and `dst_end` is where bytes that another thread
/// writes begin.
inline void copy_string_bytes(char* dst, int64_t to, int64_t dst_end, const char* src, int64_t from, int64_t src_end,
                              int64_t len) {
  constexpr int64_t kWide = 32;
  if (len <= 0) return;
  if (len <= kWide && from + kWide <= src_end && to + kWide <= dst_end) {
    std::memcpy(dst + to, src + from, size_t(kWide));
  } else {
    std::memcpy(dst + to, src + from, size_t(len));
  }
}

}  // namespace gpudf
