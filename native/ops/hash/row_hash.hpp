// Row hashing and row equality over key columns, shared by groupBy, join and unique on both
// backends. Everything here is GPUDF_HD: the CPU hash tables and the CUDA kernels call the same
// functions, so the CPU tests exercise what the GPU runs.
//
// Rules (the same as sort's key equality): nulls equal each other (callers that must not match
// nulls, such as joins without nullsEqual, skip null rows themselves); every NaN equals every
// NaN; -0.0 equals 0.0; strings compare byte-wise. Equal rows always hash equally.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/column.hpp"
#include "core/hd.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {

inline constexpr uint64_t kHashSeed = 0x9e3779b97f4a7c15ULL;
inline constexpr uint64_t kNullHash = 0x5bd1e9955bd1e995ULL;

/// A bijective 64-bit finaliser (splitmix64): every input bit affects every output bit.
GPUDF_HD inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// Hash of `len` bytes, read eight at a time.
GPUDF_HD inline uint64_t hash_bytes(const uint8_t* p, int64_t len) {
  uint64_t h = kHashSeed ^ static_cast<uint64_t>(len);
  int64_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = mix64(h ^ w) + kHashSeed;
  }
  if (i < len) {
    // The last 1..7 bytes as a little-endian word, read with loads that stay inside [p, p + len)
    // (overlapping the bytes already hashed and shifted away, or two overlapping halves).
    const int64_t rest = len - i;
    uint64_t w = 0;
    if (len >= 8) {
      memcpy(&w, p + len - 8, 8);
      w >>= 8 * (8 - rest);
    } else if (len >= 4) {
      uint32_t a, b;
      memcpy(&a, p, 4);
      memcpy(&b, p + len - 4, 4);
      w = uint64_t(a) | (uint64_t(b) << (8 * (len - 4)));
    } else {
      for (int64_t j = 0; j < rest; ++j) w |= uint64_t(p[i + j]) << (8 * j);
    }
    h = mix64(h ^ w) + kHashSeed;
  }
  return mix64(h);
}

/// Bits of row `row` of fixed-width column c that are equal exactly when the values are equal
/// under the key rules (floats canonicalised through their order bits).
GPUDF_HD inline uint64_t key_bits(const ColumnView& c, int64_t row) {
  switch (c.type) {
    case TypeId::Float32: return order_bits<float>(c.values<float>()[row]);
    case TypeId::Float64: return order_bits<double>(c.values<double>()[row]);
    default: break;
  }
  switch (value_width(c.type)) {
    case 1: return c.values<uint8_t>()[row];
    case 2: return c.values<uint16_t>()[row];
    case 4: return c.values<uint32_t>()[row];
    default: return c.values<uint64_t>()[row];
  }
}

/// Byte range of string row `row` (nullptr/0 for a null row).
GPUDF_HD inline const uint8_t* string_bytes(const ColumnView& c, int64_t row, int64_t* len) {
  if (c.type == TypeId::Utf8) {
    const int32_t* o = c.string_offsets<int32_t>();
    *len = int64_t(o[row + 1]) - int64_t(o[row]);
    return c.data + o[row];
  }
  const int64_t* o = c.string_offsets<int64_t>();
  *len = o[row + 1] - o[row];
  return c.data + o[row];
}

GPUDF_HD inline bool is_string_key(TypeId t) {
  return t == TypeId::Utf8 || t == TypeId::LargeUtf8;
}

/// Hash of one key value (nulls share one hash).
GPUDF_HD inline uint64_t key_hash(const ColumnView& c, int64_t row) {
  if (!c.is_valid(row)) return kNullHash;
  if (is_string_key(c.type)) {
    int64_t len = 0;
    const uint8_t* p = string_bytes(c, row, &len);
    return hash_bytes(p, len);
  }
  return mix64(key_bits(c, row) + kHashSeed);
}

/// Hash of row `row` over `nkeys` key columns.
GPUDF_HD inline uint64_t row_hash(const ColumnView* keys, int32_t nkeys, int64_t row) {
  uint64_t h = key_hash(keys[0], row);
  for (int32_t k = 1; k < nkeys; ++k) h = mix64(h ^ (key_hash(keys[k], row) + kHashSeed));
  return h;
}

/// Row i of column a equals row j of column b (same dtype; nulls equal each other).
GPUDF_HD inline bool key_equal(const ColumnView& a, int64_t i, const ColumnView& b, int64_t j) {
  bool va = a.is_valid(i), vb = b.is_valid(j);
  if (!va || !vb) return va == vb;
  if (is_string_key(a.type)) {
    int64_t la = 0, lb = 0;
    const uint8_t* pa = string_bytes(a, i, &la);
    const uint8_t* pb = string_bytes(b, j, &lb);
    if (la != lb) return false;
    for (int64_t k = 0; k < la; ++k)
      if (pa[k] != pb[k]) return false;
    return true;
  }
  return key_bits(a, i) == key_bits(b, j);
}

/// Row i of columns a equals row j of columns b in every key.
GPUDF_HD inline bool rows_equal(const ColumnView* a, int64_t i, const ColumnView* b, int64_t j,
                                int32_t nkeys) {
  for (int32_t k = 0; k < nkeys; ++k)
    if (!key_equal(a[k], i, b[k], j)) return false;
  return true;
}

/// True when row `row` is null in any key (joins skip such rows unless nulls match).
GPUDF_HD inline bool any_key_null(const ColumnView* keys, int32_t nkeys, int64_t row) {
  for (int32_t k = 0; k < nkeys; ++k)
    if (!keys[k].is_valid(row)) return true;
  return false;
}

}  // namespace gpudf
