// Snappy block decoding: the uncompressed length (a varint), then literals and back-references.
// Every length is checked against the bytes left on both sides and every offset against the
// bytes written, so malformed input fails instead of reading or writing out of bounds.
//
// Most tags are decoded by a fast loop that runs while at least kSlopIn input bytes and
// kSlopOut output bytes are left: short literals and copies then move as whole 16-byte blocks
// (writing past the element's end into bytes that later elements overwrite) and the tag's own
// bytes need no separate check. The last elements go through the careful loop.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "io/snappy.hpp"

namespace gpudf::snappy {
namespace {

constexpr size_t kSlopIn = 5 + 16;    // a tag, its 4 extra bytes, a 16-byte literal block
constexpr size_t kSlopOut = 64 + 16;  // the longest copy (64), rounded up to 16-byte blocks

inline void copy16(uint8_t* d, const uint8_t* s) { std::memcpy(d, s, 16); }

/// A literal of len bytes from ip to op, both advanced; false when either side is too short.
inline bool copy_literal(const uint8_t*& ip, const uint8_t* end, uint8_t*& op, const uint8_t* out_end, size_t len) {
  if (size_t(end - ip) < len || size_t(out_end - op) < len) return false;
  std::memcpy(op, ip, len);
  ip += len;
  op += len;
  return true;
}

/// For each copy tag (low bits 1, 2, 3): its length in the low byte, the offset's high bits
/// (copy-1: 3 bits of the tag, in units of 256) in the second, the count of offset bytes after
/// the tag (1, 2 or 4) above; 0 for literal tags.
constexpr std::array<uint32_t, 256> make_copy_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t tag = 0; tag < 256; ++tag) {
    switch (tag & 3) {
      case 1: t[tag] = (((tag >> 2) & 7) + 4) | ((tag >> 5) << 8) | (1u << 16); break;
      case 2: t[tag] = ((tag >> 2) + 1) | (2u << 16); break;
      case 3: t[tag] = ((tag >> 2) + 1) | (4u << 16); break;
      default: break;
    }
  }
  return t;
}
constexpr std::array<uint32_t, 256> kCopyTable = make_copy_table();
constexpr uint32_t kExtraMask[5] = {0, 0xFFu, 0xFFFFu, 0, 0xFFFFFFFFu};

/// A back-reference of `len` bytes at `offset` behind op, with at least len + 16 bytes of room
/// after op. A period under 16 is first doubled until it is at least 16 bytes long.
inline void copy_back(uint8_t* op, size_t offset, size_t len) {
  const uint8_t* from = op - offset;
  uint8_t* d = op;
  size_t left = len;
  if (offset < 16) {
    while (size_t(d - from) < 8) {  // a period under 8: each 8-byte store repeats it whole
      uint64_t w;
      std::memcpy(&w, from, 8);  // its first d - from bytes are the period
      std::memcpy(d, &w, 8);
      const size_t period = size_t(d - from);
      if (left <= period) return;
      left -= period;
      d += period;
    }
    for (; left > 0 && size_t(d - from) < 16; d += 8, from += 8, left -= std::min<size_t>(left, 8)) {
      uint64_t w;
      std::memcpy(&w, from, 8);
      std::memcpy(d, &w, 8);
    }
    if (left == 0) return;
  }
  for (;;) {  // from is at least 16 bytes behind d: each block reads bytes already written
    copy16(d, from);
    if (left <= 16) return;
    d += 16;
    from += 16;
    left -= 16;
  }
}

}  // namespace

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

  // The fast loop: every tag with its extra bytes lies inside the input, and 16-byte blocks
  // may be read and written freely near ip and op.
  while (size_t(end - ip) >= kSlopIn && size_t(out_end - op) >= kSlopOut) {
    const uint8_t tag = *ip++;
    if ((tag & 3) == 0) {  // a literal
      size_t len = (tag >> 2) + 1;
      if (len <= 16) {
        copy16(op, ip);
        ip += len;
        op += len;
        continue;
      }
      if (len > 60) {
        const size_t bytes = len - 60;
        uint32_t v;
        std::memcpy(&v, ip, 4);
        len = (bytes == 4 ? v : v & ((uint32_t(1) << (8 * bytes)) - 1)) + size_t(1);
        ip += bytes;
      }
      if (!copy_literal(ip, end, op, out_end, len)) return false;
      continue;
    }
    // A copy: its length, the count of offset bytes after the tag and the offset's high bits
    // come from one table entry, so copies of the three kinds take the same branch-free path.
    const uint32_t e = kCopyTable[tag];
    uint32_t v;
    std::memcpy(&v, ip, 4);
    const size_t extra = e >> 16;
    const size_t offset = (v & kExtraMask[extra]) + ((e >> 8) & 0xFF) * 256;
    const size_t len = e & 0xFF;
    ip += extra;
    if (offset - 1 >= size_t(op - dst)) return false;  // offset 0 or before the output's start
    if (offset >= 16 && len <= 16) {
      copy16(op, op - offset);  // the common copy: one block, from bytes already written
    } else {
      copy_back(op, offset, len);  // len <= 64 and kSlopOut >= 64 + 16: room for the blocks
    }
    op += len;
  }

  // The careful loop: the last elements, each checked before it reads or writes.
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
      if (!copy_literal(ip, end, op, out_end, len)) return false;
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
    if (size_t(out_end - op) >= len + 16) {
      copy_back(op, offset, len);
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
