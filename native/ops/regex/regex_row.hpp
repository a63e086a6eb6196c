// The string functions on one row, over the Pike VM: shared by the CPU loops (regex_cpu.cpp) and
// the CUDA kernels (regex.cu). Successive matches do not overlap; an empty match right where the
// previous match ended is skipped (the next search starts one character on), as in Rust's regex.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "ops/regex/pike.hpp"
#include "ops/regex/regex_ops.hpp"

namespace gpudf::regex {

/// A replacement template as the kernels read it.
struct TemplateView {
  const TemplatePiece* pieces = nullptr;
  int32_t count = 0;
  const char* text = nullptr;
};

/// Calls f(begin, end) for the successive matches (at most `limit`, -1: all); returns how many.
template <typename F>
GPUDF_HD int64_t rx_for_each(PikeVM& vm, const char* s, int64_t n, int64_t limit, F&& f) {
  int64_t pos = 0, last_end = -1, count = 0;
  while (pos <= n && (limit < 0 || count < limit)) {
    if (!vm.search(s, n, pos)) break;
    const int64_t b = vm.slots()[0], e = vm.slots()[1];
    if (b == e && e == last_end) {
      if (pos >= n) break;
      int32_t len;
      rx_decode(s, n, pos, &len);
      pos += len;
      continue;
    }
    f(b, e);
    ++count;
    last_end = e;
    pos = e;
  }
  return count;
}

/// The character (code point) index of the first match, or -1.
GPUDF_HD inline int64_t rx_find(PikeVM& vm, const char* s, int64_t n) {
  if (!vm.search(s, n, 0)) return -1;
  int64_t chars = 0;
  for (int64_t k = 0; k < vm.slots()[0];) {
    int32_t len;
    rx_decode(s, n, k, &len);
    k += len;
    ++chars;
  }
  return chars;
}

/// Group `g` of the first match: its byte bounds in *b, *e; false when there is no match or the
/// group took no part in it.
GPUDF_HD inline bool rx_extract(PikeVM& vm, const char* s, int64_t n, int32_t g, int64_t* b, int64_t* e) {
  if (!vm.search(s, n, 0)) return false;
  *b = vm.slots()[2 * g];
  *e = vm.slots()[2 * g + 1];
  return *b >= 0 && *e >= 0;
}

/// The fixed-width results (contains: 0/1, countMatches, find) of one row in *out; false when
/// the result is null (find without a match).
GPUDF_HD inline bool rx_fixed(PikeVM& vm, RegexFn fn, const char* s, int64_t n, uint32_t* out) {
  if (fn == RegexFn::Contains) {
    *out = vm.search(s, n, 0) ? 1 : 0;
  } else if (fn == RegexFn::Count) {
    *out = uint32_t(rx_for_each(vm, s, n, -1, [](int64_t, int64_t) {}));
  } else {
    const int64_t at = rx_find(vm, s, n);
    if (at < 0) return false;
    *out = uint32_t(at);
  }
  return true;
}

/// The row with its first `limit` matches (-1: all) replaced by the template; writes to dst
/// when not null; returns the length.
GPUDF_HD inline int64_t rx_replace(PikeVM& vm, const char* s, int64_t n, const TemplateView& t, int64_t limit, char* dst) {
  int64_t out = 0, copied = 0;
  auto put = [&](const char* p, int64_t len) {
    if (dst)
      for (int64_t k = 0; k < len; ++k) dst[out + k] = p[k];
    out += len;
  };
  rx_for_each(vm, s, n, limit, [&](int64_t b, int64_t e) {
    put(s + copied, b - copied);
    for (int32_t k = 0; k < t.count; ++k) {
      const TemplatePiece& p = t.pieces[k];
      if (p.group < 0) {
        put(t.text + p.begin, p.len);
      } else {
        const int64_t gb = vm.slots()[2 * p.group], ge = vm.slots()[2 * p.group + 1];
        if (gb >= 0 && ge >= gb) put(s + gb, ge - gb);
      }
    }
    copied = e;
  });
  put(s + copied, n - copied);
  return out;
}

}  // namespace gpudf::regex
