// The DFA walks, one table lookup per input unit (an ASCII byte is its own unit and one more
// lookup for its class): whether a search from offset 0 finds a match, stopping at the first
// absorbing state, and where the leftmost match starts, walking the reversed pattern's DFA from
// the end of the row. Shared by the CPU loops and the CUDA kernels through PikeVM::search.
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

/// The code point that ends at s[pos] (0 < pos <= n) and its length, as the forward decoder
/// cuts the text: a valid sequence is one unit, any other byte a unit of its own.
GPUDF_HD inline uint32_t utf8_decode_before(const char* s, int64_t n, int64_t pos, int32_t* len, bool* valid) {
  int64_t b = pos - 1;
  while (b > 0 && pos - b < 4 && (uint8_t(s[b]) & 0xC0) == 0x80) --b;
  for (; b < pos - 1; ++b) {
    const uint32_t cp = expr::utf8_decode(s, n, b, len, valid);
    if (b + *len == pos) return cp;
  }
  const uint32_t cp = expr::utf8_decode(s, n, pos - 1, len, valid);
  if (*len == 1) return cp;
  *len = 1;  // a lead byte cut from its sequence (pos is not a unit boundary)
  *valid = false;
  return uint8_t(s[pos - 1]);
}

/// The input class of a unit that is not ASCII (kBadUnit for an invalid byte).
GPUDF_HD inline uint32_t dfa_class_of(const DfaView& d, uint32_t cp, bool valid) {
  if (!valid) cp = 0x110000u;  // kBadUnit
  const uint32_t* seg = d.base;
  int32_t lo = 0, hi = d.segs;  // the last segment starting at or before cp
  while (hi - lo > 1) {
    const int32_t mid = (lo + hi) >> 1;
    if (seg[mid] <= cp) lo = mid;
    else hi = mid;
  }
  return reinterpret_cast<const uint8_t*>(d.base)[d.seg_class_at + lo];
}

/// A DFA's tables, as pointers into its blob (d.base must be set).
struct DfaTables {
  const uint8_t* ascii;   // the class of each ASCII unit
  const uint8_t* flags;   // each state's kDfa* flags
  const uint16_t* trans;  // states x classes next states
  int32_t classes;
  GPUDF_HD explicit DfaTables(const DfaView& d)
      : ascii(reinterpret_cast<const uint8_t*>(d.base) + d.ascii_at),
        flags(reinterpret_cast<const uint8_t*>(d.base) + d.flags_at),
        trans(reinterpret_cast<const uint16_t*>(reinterpret_cast<const uint8_t*>(d.base) + d.trans_at)),
        classes(d.classes) {}
  GPUDF_HD uint32_t next(uint32_t st, uint32_t c) const { return trans[int64_t(st) * classes + c]; }
};

/// True when s[0, n) has a match. d.base must be set.
GPUDF_HD inline bool dfa_matches(const DfaView& d, const char* s, int64_t n) {
  const DfaTables t(d);
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
      c = t.ascii[b];
      ++pos;
    } else {
      int32_t len;
      bool valid;
      const uint32_t cp = expr::utf8_decode(s, n, pos, &len, &valid);
      pos += len;
      c = dfa_class_of(d, cp, valid);
    }
    st = t.next(st, c);
  }
  return (t.flags[st] & (kDfaMatch | kDfaEnd)) != 0;
}

/// The offset where the leftmost match in s[0, n) starts, or -1: the leftmost-start DFA (see
/// build_start_dfa) walked from n down to 0, keeping the last position whose state is flagged.
GPUDF_HD inline int64_t dfa_leftmost_start(const DfaView& d, const char* s, int64_t n) {
  const DfaTables t(d);
  uint32_t st = uint32_t(d.start);
  int64_t best = -1;
  for (int64_t pos = n; pos > 0;) {
    const uint8_t b = uint8_t(s[pos - 1]);
    uint32_t c;
    if (b < 0x80) {
      c = t.ascii[b];
      --pos;
    } else {
      int32_t len;
      bool valid;
      const uint32_t cp = utf8_decode_before(s, n, pos, &len, &valid);
      pos -= len;
      c = dfa_class_of(d, cp, valid);
    }
    st = t.next(st, c);
    if (t.flags[st] & kDfaMatch) best = pos;
  }
  return best;
}

}  // namespace gpudf::regex
