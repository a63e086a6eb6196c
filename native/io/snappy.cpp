// Snappy block format: a varint of the uncompressed length, then elements whose tag's low two
// bits say what follows: 00 literal (length-1 in the tag, or in 1-4 extra bytes when >= 60),
// 01 copy of 4..11 bytes with an 11-bit offset, 10 copy of 1..64 bytes with a 16-bit offset.
// Input is cut into 64 KiB fragments, each compressed on its own (so offsets fit 16 bits),
// with a 2^14-entry hash table of 4-byte sequences. Like the reference compressor, lookups
// skip ahead faster the longer no match is found, so incompressible data costs little.
#include "io/snappy.hpp"

#include <bit>
#include <cstring>

#include "core/error.hpp"

namespace gpudf::snappy {
namespace {

constexpr size_t kFragment = size_t(1) << 16;
constexpr int kHashBits = 14;
// Bytes kept back at a fragment's end so the 8-byte loads of the match loop stay inside it.
constexpr size_t kMargin = 15;

inline uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint32_t hash(uint32_t v) { return (v * 0x1e35a7bdu) >> (32 - kHashBits); }

uint8_t* put_varint(uint8_t* op, uint64_t v) {
  while (v >= 0x80) {
    *op++ = uint8_t(v | 0x80);
    v >>= 7;
  }
  *op++ = uint8_t(v);
  return op;
}

uint8_t* emit_literal(uint8_t* op, const uint8_t* lit, size_t len) {
  const size_t n = len - 1;
  if (n < 60) {
    *op++ = uint8_t(n << 2);
  } else {
    const int bytes = n < (1u << 8) ? 1 : n < (1u << 16) ? 2 : n < (1u << 24) ? 3 : 4;
    *op++ = uint8_t((59 + bytes) << 2);
    for (int i = 0; i < bytes; ++i) *op++ = uint8_t(n >> (8 * i));
  }
  std::memcpy(op, lit, len);
  return op + len;
}

// One copy element: 4 <= len <= 64, 0 < offset < 65536.
uint8_t* emit_copy_element(uint8_t* op, size_t offset, size_t len) {
  if (len < 12 && offset < 2048) {
    *op++ = uint8_t(1 | ((len - 4) << 2) | ((offset >> 8) << 5));
    *op++ = uint8_t(offset);
  } else {
    *op++ = uint8_t(2 | ((len - 1) << 2));
    *op++ = uint8_t(offset);
    *op++ = uint8_t(offset >> 8);
  }
  return op;
}

// A match of any length >= 4: pieces of 64, keeping the last piece at least 4 long.
uint8_t* emit_copy(uint8_t* op, size_t offset, size_t len) {
  while (len >= 68) {
    op = emit_copy_element(op, offset, 64);
    len -= 64;
  }
  if (len > 64) {
    op = emit_copy_element(op, offset, 60);
    len -= 60;
  }
  return emit_copy_element(op, offset, len);
}

// How many bytes of s1 and s2 agree, s2 reading no further than s2_limit (s1 < s2).
inline size_t match_length(const uint8_t* s1, const uint8_t* s2, const uint8_t* s2_limit) {
  size_t matched = 0;
  while (s2 + 8 <= s2_limit) {
    const uint64_t diff = load64(s1) ^ load64(s2);
    if (diff != 0) return matched + size_t(std::countr_zero(diff) >> 3);
    s1 += 8;
    s2 += 8;
    matched += 8;
  }
  while (s2 < s2_limit && *s1 == *s2) {
    ++s1;
    ++s2;
    ++matched;
  }
  return matched;
}

uint8_t* compress_fragment(const uint8_t* in, size_t n, uint8_t* op, uint16_t* table) {
  const uint8_t* const end = in + n;
  const uint8_t* next_emit = in;
  if (n > kMargin) {
    std::memset(table, 0, sizeof(uint16_t) << kHashBits);
    const uint8_t* const ip_limit = end - kMargin;
    const uint8_t* ip = in + 1;
    uint32_t next_hash = hash(load32(ip));
    for (;;) {
      // Look for a 4-byte match, stepping further apart after every 32 misses.
      uint32_t skip = 32;
      const uint8_t* next_ip = ip;
      const uint8_t* candidate;
      do {
        ip = next_ip;
        const uint32_t h = next_hash;
        next_ip = ip + (skip++ >> 5);
        if (next_ip > ip_limit) goto remainder;
        next_hash = hash(load32(next_ip));
        candidate = in + table[h];
        table[h] = uint16_t(ip - in);
      } while (load32(ip) != load32(candidate));

      op = emit_literal(op, next_emit, size_t(ip - next_emit));
      // Emit copies while the byte after each match starts another one.
      uint64_t x;
      do {
        const uint8_t* base = ip;
        const size_t len = 4 + match_length(candidate + 4, ip + 4, end);
        ip += len;
        op = emit_copy(op, size_t(base - candidate), len);
        next_emit = ip;
        if (ip >= ip_limit) goto remainder;
        x = load64(ip - 1);
        table[hash(uint32_t(x))] = uint16_t(ip - 1 - in);
        const uint32_t h = hash(uint32_t(x >> 8));
        candidate = in + table[h];
        table[h] = uint16_t(ip - in);
      } while (uint32_t(x >> 8) == load32(candidate));
      next_hash = hash(uint32_t(x >> 16));
      ++ip;
    }
  }
remainder:
  if (next_emit < end) op = emit_literal(op, next_emit, size_t(end - next_emit));
  return op;
}

}  // namespace

size_t max_compressed_length(size_t n) { return 32 + n + n / 6; }

void compress(const uint8_t* src, size_t n, std::string& out) {
  GPUDF_EXPECTS(n <= 0xFFFFFFFFu, InvalidArgument, "snappy input must be below 4 GiB");
  const size_t start = out.size();
  out.resize(start + max_compressed_length(n));
  uint8_t* const base = reinterpret_cast<uint8_t*>(out.data()) + start;
  uint8_t* op = put_varint(base, n);
  uint16_t table[size_t(1) << kHashBits];
  for (size_t pos = 0; pos < n; pos += kFragment) {
    op = compress_fragment(src + pos, std::min(kFragment, n - pos), op, table);
  }
  out.resize(start + size_t(op - base));
}

}  // namespace gpudf::snappy
