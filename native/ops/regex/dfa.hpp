// The DFA walk: whether a search from offset 0 finds a match, one table lookup per input unit
// (an ASCII byte is its own unit and one more lookup for its class), stopping at the first
// absorbing state. Shared by the CPU loops and the CUDA kernels through PikeVM::search.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "ops/expr/unicode_case.hpp"
#include "ops/regex/regex.hpp"

namespace gpudf::regex {

enum : uint8_t {
  kDfaMatch = 1,  // absorbing: a match was seen
  kDfaDead = 2,   // absorbing: no thread left (anchored patterns only)
  kDfaEnd = 4,    // a match if the text ends here ($, \z)
};

/// True when s[0, n) has a match. d.base must be set.
GPUDF_HD inline bool dfa_matches(const DfaView& d, const char* s, int64_t n) {
  const uint32_t* seg = d.base;
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(d.base);
  const uint8_t* ascii = bytes + d.ascii_at;
  const uint8_t* seg_class = bytes + d.seg_class_at;
  const uint8_t* flags = bytes + d.flags_at;
  const uint16_t* trans = reinterpret_cast<const uint16_t*>(bytes + d.trans_at);
  const int32_t classes = d.classes;
  uint32_t st = uint32_t(d.start);
  for (int64_t pos = 0; pos < n;) {
    if (st < 2) return st == 0;  // the absorbing states: 0 match, 1 dead (see dfa.cpp)
    if (d.skip && st == uint32_t(d.start)) {
      // No match can start on these units: step over them as the Pike VM's skip does.
      while (pos < n && !((d.first[uint8_t(s[pos]) >> 5] >> (uint8_t(s[pos]) & 31)) & 1u)) {
        if (uint8_t(s[pos]) < 0x80) {
          ++pos;
        } else {
          int32_t len;
          bool valid;
          expr::utf8_decode(s, n, pos, &len, &valid);
          pos += len;
        }
      }
      if (pos >= n) break;
    }
    const uint8_t b = uint8_t(s[pos]);
    uint32_t c;
    if (b < 0x80) {
      c = ascii[b];
      ++pos;
    } else {
      int32_t len;
      bool valid;
      uint32_t cp = expr::utf8_decode(s, n, pos, &len, &valid);
      if (!valid) cp = 0x110000u;  // kBadUnit
      pos += len;
      int32_t lo = 0, hi = d.segs;  // the last segment starting at or before cp
      while (hi - lo > 1) {
        const int32_t mid = (lo + hi) >> 1;
        if (seg[mid] <= cp) lo = mid;
        else hi = mid;
      }
      c = seg_class[lo];
    }
    st = trans[int64_t(st) * classes + c];
  }
  return (flags[st] & (kDfaMatch | kDfaEnd)) != 0;
}

}  // namespace gpudf::regex
