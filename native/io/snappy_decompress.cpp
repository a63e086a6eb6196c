// Snappy block decoding: the uncompressed length (a varint), then literals and back-references.
// Every length is checked against the bytes left on both sides and every offset against the
// bytes written, so malformed input fails instead of reading or writing out of bounds.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "io/snappy.hpp"

namespace gpudf::snappy {

bool decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  const uint8_t* ip = src;
  const uint8_t* const end = src + n;
  uint64_t length = 0;
  for (int shift = 0;; shift += 7) {
    if (ip == end || shift > 35) return false;
    const uint8_t b = *ip++;
    length |= uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) break;
  }
  if (length != dst_size) return false;
  uint8_t* op = dst;
  uint8_t* const out_end = dst + dst_size;
  while (ip < end) {
    const uint8_t tag = *ip++;
    size_t len, offset;
    if ((tag & 3) == 0) {
      len = (tag >> 2) + 1;
      if (len > 60) {
        const size_t bytes = len - 60;
        if (size_t(end - ip) < bytes) return false;
        len = 0;
        for (size_t i = 0; i < bytes; ++i) len |= size_t(ip[i]) << (8 * i);
        len += 1;
        ip += bytes;
      }
      if (size_t(end - ip) < len || size_t(out_end - op) < len) return false;
      if (len <= 16 && size_t(end - ip) >= 16 && size_t(out_end - op) >= 16) {
        std::memcpy(op, ip, 16);  // short literal with room on both sides: one fixed-size copy
      } else {
        std::memcpy(op, ip, len);
      }
      ip += len;
      op += len;
      continue;
    }
    if ((tag & 3) == 1) {
      if (ip == end) return false;
      len = ((tag >> 2) & 7) + 4;
      offset = (size_t(tag >> 5) << 8) | *ip++;
    } else if ((tag & 3) == 2) {
      if (end - ip < 2) return false;
      len = (tag >> 2) + 1;
      offset = size_t(ip[0]) | size_t(ip[1]) << 8;
      ip += 2;
    } else {
      if (end - ip < 4) return false;
      len = (tag >> 2) + 1;
      offset = size_t(ip[0]) | size_t(ip[1]) << 8 | size_t(ip[2]) << 16 | size_t(ip[3]) << 24;
      ip += 4;
    }
    if (offset == 0 || offset > size_t(op - dst) || size_t(out_end - op) < len) return false;
    const uint8_t* from = op - offset;
    if (size_t(out_end - op) >= len + 8) {
      // With room after the copy: a short period is doubled by 8-byte stores until it is at
      // least 8, then 8 bytes at a time, each read from bytes already written. Steps may write
      // up to 7 bytes past the copy, which later tags overwrite.
      uint8_t* d = op;
      size_t left = len;
      while (size_t(d - from) < 8) {
        uint64_t w;
        std::memcpy(&w, from, 8);  // its first d - from bytes are the period
        std::memcpy(d, &w, 8);
        const size_t period = size_t(d - from);
        if (left <= period) {
          left = 0;
          break;
        }
        left -= period;
        d += period;
      }
      for (const uint8_t* s = from; left > 0; d += 8, s += 8, left -= std::min<size_t>(left, 8))
        std::memcpy(d, s, 8);
    } else if (offset >= len) {
      std::memcpy(op, from, len);
    } else {
      for (size_t i = 0; i < len; ++i) op[i] = from[i];  // the copy overlaps what it writes
    }
    op += len;
  }
  return op == out_end;
}

}  // namespace gpudf::snappy
