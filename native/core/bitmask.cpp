#include "core/bitmask.hpp"

#include <cstring>

namespace gpudf {

int64_t count_set_bits(const uint8_t* bits, int64_t begin, int64_t end) {
  if (end <= begin) return 0;
  int64_t first = begin >> 3;
  int64_t last = (end - 1) >> 3;
  if (first == last) return set_bits_in_byte(bits, first, begin, end);
  int64_t total = set_bits_in_byte(bits, first, begin, end) + set_bits_in_byte(bits, last, begin, end);
  int64_t i = first + 1;
  // Whole words in the middle; memcpy keeps the reads alignment-safe.
  for (; i + 8 <= last; i += 8) {
    uint64_t w;
    std::memcpy(&w, bits + i, 8);
    total += __builtin_popcountll(w);
  }
  for (; i < last; ++i) total += popcount8(bits[i]);
  return total;
}

void copy_bits(uint8_t* dst, int64_t dst_offset, const uint8_t* src, int64_t src_offset, int64_t n) {
  if (n <= 0) return;
  if ((dst_offset & 7) == 0 && (src_offset & 7) == 0) {
    int64_t whole = n >> 3;
    std::memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3), static_cast<size_t>(whole));
    for (int64_t i = whole * 8; i < n; ++i) {
      if (bit_is_set(src, src_offset + i)) set_bit(dst, dst_offset + i);
      else clear_bit(dst, dst_offset + i);
    }
    return;
  }
  int64_t i = 0;
  // Unaligned heads bit by bit until the destination is byte aligned.
  for (; i < n && ((dst_offset + i) & 7) != 0; ++i) {
    if (bit_is_set(src, src_offset + i)) set_bit(dst, dst_offset + i);
    else clear_bit(dst, dst_offset + i);
  }
  // Then whole destination bytes assembled from two source bytes.
  for (; i + 8 <= n; i += 8) {
    int64_t s = src_offset + i;
    int shift = static_cast<int>(s & 7);
    uint32_t lo = src[s >> 3];
    uint32_t hi = shift ? src[(s >> 3) + 1] : 0;
    dst[(dst_offset + i) >> 3] = static_cast<uint8_t>((lo >> shift) | (hi << (8 - shift)));
  }
  for (; i < n; ++i) {
    if (bit_is_set(src, src_offset + i)) set_bit(dst, dst_offset + i);
    else clear_bit(dst, dst_offset + i);
  }
}

}  // namespace gpudf

namespace gpudf {

void set_bits(uint8_t* bits, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i < end && (i & 7) != 0; ++i) set_bit(bits, i);
  int64_t whole = (end - i) >> 3;
  if (whole > 0) {
    std::memset(bits + (i >> 3), 0xFF, static_cast<size_t>(whole));
    i += whole * 8;
  }
  for (; i < end; ++i) set_bit(bits, i);
}

}  // namespace gpudf
