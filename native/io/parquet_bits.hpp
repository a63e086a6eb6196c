// Bit-level decoding shared by Parquet's encodings: little-endian bit unpacking, ULEB128 and
// zigzag varints, and the RLE / bit-packed hybrid (levels, dictionary indices, RLE booleans);
// and the ULEB128 writer the page and dictionary encoders share.
// Every read is checked against the bytes given; running short is ERR_PARQUET.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace gpudf::parquet {

/// Appends `v` as a ULEB128 varint (RLE run headers, page headers).
inline void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char(uint8_t(v) | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

/// A bounded cursor over page bytes.
struct ByteReader {
  const uint8_t* p;
  const uint8_t* end;

  size_t left() const { return size_t(end - p); }
  void need(size_t n, const char* what) const {
    GPUDF_EXPECTS(n <= left(), Parquet, std::string(what) + " runs past the end of the page");
  }
  uint64_t uleb(const char* what) {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      need(1, what);
      const uint8_t b = *p++;
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    GPUDF_FAIL(Parquet, std::string(what) + ": a varint longer than 10 bytes");
  }
  int64_t zigzag(const char* what) {
    const uint64_t v = uleb(what);
    return int64_t(v >> 1) ^ -int64_t(v & 1);
  }
};

/// `width` (0..64) bits at bit position `bit` of base[0, nbytes), LSB first; bytes past nbytes
/// read as zero (callers check a run's bytes exist before unpacking it).
inline uint64_t read_bits(const uint8_t* base, size_t nbytes, uint64_t bit, int width) {
  if (width == 0) return 0;
  const size_t byte = size_t(bit >> 3);
  const int shift = int(bit & 7);
  uint64_t lo = 0;
  if (byte + 8 <= nbytes) {
    std::memcpy(&lo, base + byte, 8);
  } else if (byte < nbytes) {
    std::memcpy(&lo, base + byte, nbytes - byte);
  }
  uint64_t v = lo >> shift;
  if (shift + width > 64) {
    const uint8_t hi = byte + 8 < nbytes ? base[byte + 8] : 0;
    v |= uint64_t(hi) << (64 - shift);
  }
  return width == 64 ? v : v & ((uint64_t(1) << width) - 1);
}

/// Value K (0..7) of a group of 8 values of W bits packed LSB first in W bytes: one 8-byte
/// load (W <= 32: shift + W <= 39 bits), which may read up to 8 bytes past the group.
template <int W, int K>
inline uint32_t unpack_at(const uint8_t* group) {
  constexpr int bit = K * W, byte = bit / 8, shift = bit % 8;
  uint64_t v;
  std::memcpy(&v, group + byte, 8);
  return uint32_t((v >> shift) & ((uint64_t(1) << W) - 1));
}

/// `groups` whole groups of 8 W-bit values from `in` (W bytes each) into out; 8 bytes past the
/// last group must be readable.
template <int W>
void unpack_groups(const uint8_t* in, uint32_t* out, int64_t groups) {
  for (int64_t g = 0; g < groups; ++g, in += W, out += 8) {
    [&]<int... K>(std::integer_sequence<int, K...>) {
      ((out[K] = unpack_at<W, K>(in)), ...);
    }(std::make_integer_sequence<int, 8>{});
  }
}

using UnpackGroups = void (*)(const uint8_t*, uint32_t*, int64_t);

/// unpack_groups<W> for each width 0..32 (0 is never used: zero-width runs read as zeros).
inline constexpr auto kUnpackGroups = []<int... W>(std::integer_sequence<int, W...>) {
  return std::array<UnpackGroups, sizeof...(W) + 1>{nullptr, &unpack_groups<W + 1>...};
}(std::make_integer_sequence<int, 32>{});

/// Decodes the RLE / bit-packed hybrid of `bit_width` (0..32) bits per value.
class HybridDecoder {
 public:
  HybridDecoder(const uint8_t* p, const uint8_t* end, int bit_width, const char* what)
      : in_{p, end}, width_(bit_width), what_(what) {
    GPUDF_EXPECTS(bit_width >= 0 && bit_width <= 32, Parquet, std::string(what) + ": bit width above 32");
  }

  /// True when the next n values are one RLE run (its value in `value`); consumes nothing.
  bool run_covers(int64_t n, uint32_t& value) {
    if (run_left_ == 0) next_run();
    value = rle_value_;
    return rle_ && run_left_ >= n;
  }

  /// One run of the stream, whole: `count` copies of `value`, or `count` values bit-packed in
  /// [packed, packed_end) (count a multiple of 8; the last values may be padding).
  struct Run {
    bool repeat;
    uint32_t value;
    const uint8_t* packed;
    const uint8_t* packed_end;
    int64_t count;
  };

  /// Consumes and returns the next run (its header checked as get() checks it), for callers
  /// that expand runs elsewhere. Not to be mixed with get() within a run.
  Run take_run() {
    next_run();
    const Run r{rle_, rle_value_, packed_, packed_end_, run_left_};
    run_left_ = 0;
    return r;
  }

  /// Writes the next n values to out; ERR_PARQUET when the runs end first.
  void get(uint32_t* out, int64_t n) {
    while (n > 0) {
      if (run_left_ == 0) next_run();
      const int64_t k = std::min<int64_t>(n, run_left_);
      if (rle_) {
        for (int64_t i = 0; i < k; ++i) out[i] = rle_value_;
      } else {
        int64_t i = 0;
        if (width_ > 0) {
          // Up to the next group of 8 one by one, then whole groups by width-specialised code
          // (a group of 8 values is `width` bytes, starting on a byte), then the tail.
          const int64_t in_group = int64_t(bit_ / uint64_t(width_)) % 8;
          i = unpack_some(out, 0, std::min<int64_t>(k, (8 - in_group) % 8));
          // Groups followed by 8 readable bytes of the run (each value is one 8-byte load).
          const int64_t room = (packed_end_ - packed_) - int64_t(bit_ >> 3) - 8;
          const int64_t groups = std::min<int64_t>((k - i) / 8, room > 0 ? room / width_ : 0);
          if (groups > 0) {
            kUnpackGroups[width_](packed_ + (bit_ >> 3), out + i, groups);
            i += groups * 8;
            bit_ += uint64_t(groups) * 8 * uint64_t(width_);
          }
        }
        unpack_some(out, i, k);
      }
      out += k;
      n -= k;
      run_left_ -= k;
    }
  }

 private:
  /// Values [i, k) of the current bit-packed run into out[i, k), one at a time; returns k.
  int64_t unpack_some(uint32_t* out, int64_t i, int64_t k) {
    const size_t nbytes = size_t(packed_end_ - packed_);
    if (width_ > 0 && nbytes >= 8) {
      // Values whose 8-byte window lies inside the run: one unaligned load each, no checks.
      const uint64_t safe_end = uint64_t(nbytes - 7) * 8;
      const uint64_t mask = (uint64_t(1) << width_) - 1;
      for (; i < k && bit_ < safe_end; ++i, bit_ += uint64_t(width_)) {
        uint64_t w;
        std::memcpy(&w, packed_ + (bit_ >> 3), 8);
        out[i] = uint32_t((w >> (bit_ & 7)) & mask);
      }
    }
    for (; i < k; ++i, bit_ += uint64_t(width_)) out[i] = uint32_t(read_bits(packed_, nbytes, bit_, width_));
    return k;
  }

  void next_run() {
    const uint64_t header = in_.uleb(what_);
    if (header & 1) {
      const uint64_t groups = header >> 1;
      GPUDF_EXPECTS(groups > 0 && (width_ == 0 || groups <= in_.left()), Parquet, std::string(what_) + ": a bit-packed run past the end of the page");
      const size_t bytes = size_t(groups) * size_t(width_);
      in_.need(bytes, what_);
      rle_ = false;
      packed_ = in_.p;
      packed_end_ = in_.p + bytes;
      bit_ = 0;
      in_.p += bytes;
      run_left_ = int64_t(groups * 8);
    } else {
      const uint64_t count = header >> 1;
      GPUDF_EXPECTS(count > 0 && count < (uint64_t(1) << 40), Parquet, std::string(what_) + ": an RLE run of bad length");
      const size_t bytes = size_t((width_ + 7) / 8);
      in_.need(bytes, what_);
      uint32_t v = 0;
      for (size_t i = 0; i < bytes; ++i) v |= uint32_t(in_.p[i]) << (8 * i);
      in_.p += bytes;
      GPUDF_EXPECTS(width_ == 32 || v < (uint64_t(1) << width_), Parquet, std::string(what_) + ": an RLE value wider than its bit width");
      rle_ = true;
      rle_value_ = v;
      run_left_ = int64_t(count);
    }
  }

  ByteReader in_;
  int width_;
  const char* what_;
  bool rle_ = true;
  uint32_t rle_value_ = 0;
  const uint8_t* packed_ = nullptr;
  const uint8_t* packed_end_ = nullptr;
  uint64_t bit_ = 0;
  int64_t run_left_ = 0;
};

/// Bits needed for values up to max_value.
inline int bit_width_of(uint64_t max_value) {
  int w = 0;
  while (max_value) {
    ++w;
    max_value >>= 1;
  }
  return w;
}

}  // namespace gpudf::parquet
