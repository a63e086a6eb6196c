// LSB-first validity bitmaps (Arrow layout): bit i of byte i/8 set means row i is valid.
// Per-element helpers are GPUDF_HD so the kernels and the CPU loops share them.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace gpudf {

GPUDF_HD inline bool bit_is_set(const uint8_t* bits, int64_t i) {
  return (bits[i >> 3] >> (i & 7)) & 1;
}

GPUDF_HD inline void set_bit(uint8_t* bits, int64_t i) { bits[i >> 3] |= uint8_t(1u << (i & 7)); }

GPUDF_HD inline void clear_bit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= uint8_t(~(1u << (i & 7)));
}

GPUDF_HD inline int popcount8(uint8_t v) {
  int n = 0;
  while (v) {
    v &= uint8_t(v - 1);
    ++n;
  }
  return n;
}

/// Set bits of byte `byte_index` that fall inside the bit range [begin, end).
GPUDF_HD inline int set_bits_in_byte(const uint8_t* bits, int64_t byte_index, int64_t begin,
                                     int64_t end) {
  int64_t lo = byte_index * 8;
  uint32_t mask = 0xFFu;
  if (begin > lo) mask &= 0xFFu << (begin - lo);
  if (end < lo + 8) mask &= 0xFFu >> (lo + 8 - end);
  return popcount8(uint8_t(bits[byte_index] & mask));
}

inline int64_t bitmap_bytes(int64_t bits) { return (bits + 7) / 8; }

/// Host: number of set bits in [begin, end).
int64_t count_set_bits(const uint8_t* bits, int64_t begin, int64_t end);

/// Host: copies n bits from src (starting at bit src_offset) to dst (starting at bit dst_offset).
void copy_bits(uint8_t* dst, int64_t dst_offset, const uint8_t* src, int64_t src_offset, int64_t n);

}  // namespace gpudf

namespace gpudf {
/// Host: sets bits [begin, end).
void set_bits(uint8_t* bits, int64_t begin, int64_t end);
}  // namespace gpudf
