// core/bitmask: the host bit routines against a naive bit-by-bit reference, over every start
// offset 0..17 and the edge lengths, with buffers sized exactly (so a sanitizer build catches
// reads past the end).
#include <algorithm>
#include <string>
#include <vector>

#include "core/bitmask.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

std::vector<uint8_t> fill(const char* kind, std::size_t bytes, uint64_t seed) {
  std::string k = kind;
  if (k == "zeros") return std::vector<uint8_t>(bytes, 0x00);
  if (k == "ones") return std::vector<uint8_t>(bytes, 0xFF);
  if (k == "alternating") return std::vector<uint8_t>(bytes, 0x55);
  return random_bytes(bytes, seed);
}

const char* const kFills[] = {"zeros", "ones", "alternating", "random"};

std::string where(const char* fill, int64_t a, int64_t b, int64_t n) {
  return std::string(fill) + " a=" + std::to_string(a) + " b=" + std::to_string(b) +
         " n=" + std::to_string(n);
}

}  // namespace

TEST(bitmask, bitmap_bytes_and_single_bits) {
  EXPECT_EQ(bitmap_bytes(0), 0);
  EXPECT_EQ(bitmap_bytes(1), 1);
  EXPECT_EQ(bitmap_bytes(8), 1);
  EXPECT_EQ(bitmap_bytes(9), 2);
  EXPECT_EQ(bitmap_bytes(64), 8);
  EXPECT_EQ(bitmap_bytes(65), 9);

  uint8_t bits[3] = {0, 0, 0};
  set_bit(bits, 0);
  set_bit(bits, 9);
  set_bit(bits, 23);
  EXPECT_EQ(bits[0], 0x01);
  EXPECT_EQ(bits[1], 0x02);
  EXPECT_EQ(bits[2], 0x80);
  EXPECT_TRUE(bit_is_set(bits, 9));
  EXPECT_FALSE(bit_is_set(bits, 8));
  clear_bit(bits, 9);
  EXPECT_EQ(bits[1], 0x00);
  EXPECT_FALSE(bit_is_set(bits, 9));
  clear_bit(bits, 10);  // clearing a clear bit is a no-op
  EXPECT_EQ(bits[1], 0x00);

  for (int v = 0; v < 256; ++v) {
    int ref = 0;
    for (int b = 0; b < 8; ++b) ref += (v >> b) & 1;
    EXPECT_EQ(popcount8(uint8_t(v)), ref);
  }
}

TEST(bitmask, set_bits_in_byte_masks_the_range) {
  const uint8_t bits[2] = {0xFF, 0xA5};
  for (int64_t begin = 0; begin <= 16; ++begin) {
    for (int64_t end = begin; end <= 16; ++end) {
      std::vector<uint8_t> v(bits, bits + 2);
      for (int64_t byte = 0; byte < 2; ++byte) {
        int64_t lo = std::max(begin, byte * 8), hi = std::min(end, byte * 8 + 8);
        int64_t ref = lo < hi ? ref_count(v, lo, hi) : 0;
        if (set_bits_in_byte(bits, byte, begin, end) != ref) {
          SCOPED_TRACE("byte=" + std::to_string(byte) + " begin=" + std::to_string(begin) +
                       " end=" + std::to_string(end));
          EXPECT_EQ(set_bits_in_byte(bits, byte, begin, end), ref);
        }
      }
    }
  }
}

TEST(bitmask, count_set_bits_matches_reference) {
  int cases = 0;
  for (const char* f : kFills) {
    for (int64_t off = 0; off <= 17; ++off) {
      for (int64_t n : edge_lengths()) {
        // Exactly the bytes the range touches, so an over-read shows under a sanitizer.
        std::vector<uint8_t> bits = fill(f, std::size_t(bitmap_bytes(off + n)), uint64_t(off * 1000 + n));
        const uint8_t* p = bits.empty() ? nullptr : bits.data();
        int64_t got = count_set_bits(p, off, off + n);
        int64_t want = ref_count(bits, off, off + n);
        if (got != want) {
          SCOPED_TRACE(where(f, off, 0, n));
          EXPECT_EQ(got, want);
        }
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 4 * 18 * 11);
}

TEST(bitmask, count_set_bits_every_subrange_of_a_long_bitmap) {
  std::vector<uint8_t> bits = random_bytes(40, 7);
  for (int64_t begin = 0; begin <= 320; ++begin)
    for (int64_t end = begin; end <= 320; end += 1 + (end % 3)) {
      int64_t got = count_set_bits(bits.data(), begin, end);
      int64_t want = ref_count(bits, begin, end);
      if (got != want) {
        SCOPED_TRACE("begin=" + std::to_string(begin) + " end=" + std::to_string(end));
        EXPECT_EQ(got, want);
      }
    }
}

TEST(bitmask, count_set_bits_empty_and_reversed_ranges) {
  uint8_t bits[2] = {0xFF, 0xFF};
  EXPECT_EQ(count_set_bits(bits, 5, 5), 0);
  EXPECT_EQ(count_set_bits(bits, 9, 3), 0);
  EXPECT_EQ(count_set_bits(nullptr, 0, 0), 0);
  EXPECT_EQ(count_set_bits(bits, 0, 16), 16);
  EXPECT_EQ(count_set_bits(bits, 3, 13), 10);
}

TEST(bitmask, copy_bits_matches_reference_and_preserves_neighbours) {
  int cases = 0;
  for (const char* f : kFills) {
    for (int64_t src_off = 0; src_off <= 17; ++src_off) {
      for (int64_t dst_off = 0; dst_off <= 17; ++dst_off) {
        for (int64_t n : edge_lengths()) {
          uint64_t seed = uint64_t(src_off * 100000 + dst_off * 1000 + n);
          std::vector<uint8_t> src = fill(f, std::size_t(bitmap_bytes(src_off + n)), seed);
          // Destination prefilled with the complement pattern so untouched bits are visible.
          std::vector<uint8_t> dst = random_bytes(std::size_t(bitmap_bytes(dst_off + n)), ~seed);
          std::vector<uint8_t> want = dst;
          for (int64_t i = 0; i < n; ++i) ref_put(want, dst_off + i, ref_get(src, src_off + i));
          copy_bits(dst.empty() ? nullptr : dst.data(), dst_off, src.empty() ? nullptr : src.data(),
                    src_off, n);
          if (dst != want) {
            SCOPED_TRACE(where(f, src_off, dst_off, n) + " (a=src offset, b=dst offset)");
            EXPECT_EQ(dst, want);
          }
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 4 * 18 * 18 * 11);
}

TEST(bitmask, copy_bits_zero_or_negative_length_is_a_no_op) {
  uint8_t src[1] = {0xFF};
  uint8_t dst[1] = {0x00};
  copy_bits(dst, 3, src, 0, 0);
  copy_bits(dst, 3, src, 0, -4);
  EXPECT_EQ(dst[0], 0x00);
}

TEST(bitmask, set_bits_matches_reference_and_preserves_neighbours) {
  int cases = 0;
  for (const char* f : {"zeros", "random", "alternating"}) {
    for (int64_t begin = 0; begin <= 17; ++begin) {
      for (int64_t n : edge_lengths()) {
        std::vector<uint8_t> bits =
            fill(f, std::size_t(bitmap_bytes(begin + n)), uint64_t(begin * 977 + n));
        std::vector<uint8_t> want = bits;
        for (int64_t i = begin; i < begin + n; ++i) ref_put(want, i, true);
        set_bits(bits.empty() ? nullptr : bits.data(), begin, begin + n);
        if (bits != want) {
          SCOPED_TRACE(where(f, begin, 0, n));
          EXPECT_EQ(bits, want);
        }
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 3 * 18 * 11);
}

TEST(bitmask, set_bits_reversed_range_is_a_no_op) {
  uint8_t bits[3] = {0, 0, 0};
  set_bits(bits, 20, 4);
  set_bits(bits, 9, 9);
  EXPECT_EQ(bits[0], 0);
  EXPECT_EQ(bits[1], 0);
  EXPECT_EQ(bits[2], 0);
}
