// Per-value steps of reading Parquet that the CPU reader and the CUDA page decoder share
// (GPUDF_HD): stored fixed-width values to gpudf values, and unpacking bit-packed values.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/hd.hpp"

namespace gpudf::parquet {

/// How one stored value becomes a gpudf value.
enum class Conv : uint8_t {
  Copy,       // same bytes (bool, int32 -> int32/uint32/date32, int64 -> int64/uint64/timestamps, floats)
  Narrow,     // INT32 -> int8/int16/uint8/uint16 (the low bytes)
  Int96,      // INT96 (nanoseconds of the day, Julian day) -> timestamp[ns]
  DecInt32,   // decimal in INT32 -> float64
  DecInt64,   // decimal in INT64 -> float64
  DecBytes,   // decimal in big-endian two's complement bytes -> float64
  Float16,    // FLOAT16 (2 bytes) -> float32
  Bytes,      // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY -> utf8
};

/// How one stored value of `stored` bytes becomes `width` bytes of a column (the cases of Conv
/// that do not need the value's length: DecBytes and Bytes are not handled here).
struct FixedConversion {
  Conv conv;
  int32_t stored;      // bytes per stored value
  int32_t width;       // bytes per column value
  double divisor = 1;  // decimals: 10^scale
};

/// IEEE half precision to single, exactly (every half is a float).
GPUDF_HD inline float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const int exp = (h >> 10) & 0x1F;
  const uint32_t mant = h & 0x3FF;
  uint32_t bits;
  if (exp == 31) {
    bits = mant ? 0x7FC00000u : 0x7F800000u;  // NaN, infinity
  } else if (exp == 0) {
    // Subnormal: mant * 2^-24, normalised into a float (exact: at most 10 significant bits).
    if (mant == 0) {
      bits = 0;
    } else {
      int e = -1;
      uint32_t m = mant;
      while (!(m & 0x400)) {
        m <<= 1;
        ++e;
      }
      bits = uint32_t(127 - 15 - e) << 23 | (m & 0x3FF) << 13;
    }
  } else {
    bits = uint32_t(exp - 15 + 127) << 23 | mant << 13;
  }
  bits |= sign;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/// A decimal's unscaled integer (I) as float64.
template <typename I>
GPUDF_HD inline void store_decimal(const FixedConversion& c, const uint8_t* src, uint8_t* dst) {
  I v;
  memcpy(&v, src, sizeof(I));
  const double d = double(v) / c.divisor;
  memcpy(dst, &d, 8);
}

/// Converts the stored value at src into the column value at dst (c.width bytes).
GPUDF_HD inline void convert_fixed(const FixedConversion& c, const uint8_t* src, uint8_t* dst) {
  switch (c.conv) {
    case Conv::Int96: {  // nanoseconds of the day, then the Julian day
      int64_t nanos;
      int32_t day;
      memcpy(&nanos, src, 8);
      memcpy(&day, src + 8, 4);
      const int64_t v = int64_t((uint64_t(int64_t(day) - 2440588) * 86400000000000ull) + uint64_t(nanos));
      memcpy(dst, &v, 8);
      return;
    }
    case Conv::DecInt32: store_decimal<int32_t>(c, src, dst); return;
    case Conv::DecInt64: store_decimal<int64_t>(c, src, dst); return;
    case Conv::Float16: {
      uint16_t h;
      memcpy(&h, src, 2);
      const float f = half_to_float(h);
      memcpy(dst, &f, 4);
      return;
    }
    default:  // Copy; Narrow: the little-endian low bytes
      memcpy(dst, src, size_t(c.width));
      return;
  }
}

/// `width` (0..32) bits at bit position `bit` of base[0, nbytes), LSB first; bytes past nbytes
/// read as zero. The device side of HybridDecoder's bit-packed runs.
GPUDF_HD inline uint32_t unpack_bits(const uint8_t* base, int64_t nbytes, int64_t bit, int width) {
  if (width == 0) return 0;
  const int64_t byte = bit >> 3;
  uint64_t v = 0;
  for (int k = 0; k < 5 && byte + k < nbytes; ++k) v |= uint64_t(base[byte + k]) << (8 * k);
  v >>= (bit & 7);
  return uint32_t(v & ((uint64_t(1) << width) - 1));
}

}  // namespace gpudf::parquet
