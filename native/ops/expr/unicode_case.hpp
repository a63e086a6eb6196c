// Unicode case mapping of UTF-8 text (str.toUpperCase / toLowerCase / toTitleCase), shared by
// the CPU loops and the CUDA kernels. The tables (unicode_tables.inc) are generated from the
// Unicode Character Database by scripts/gen-unicode-tables.py: full mappings, so a character may
// map to several ("ß" -> "SS", "ŉ" -> "ʼN") and the byte length of a string may change. Lowercasing
// applies the one context rule that is not language-specific, Final_Sigma ("ΣΑΣ" -> "σας").
// Title casing uppercases (by the title mapping) the first character of every word and lowercases
// the rest; a word starts at an alphanumeric character after a non-alphanumeric one (as Polars).
// Bytes that are not valid UTF-8 pass through unchanged.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace gpudf::expr {

enum class CaseMode : int32_t { Lower = 0, Upper = 1, Title = 2 };

namespace ucd {
// Host copies, and device copies under nvcc: a __host__ __device__ function reads whichever
// the side it runs on can see.
namespace host {
#define GPUDF_UCD_TABLE(name) inline constexpr uint32_t name[]
#include "ops/expr/unicode_tables.inc"
#undef GPUDF_UCD_TABLE
}  // namespace host
#if defined(__CUDACC__)
namespace dev {
#define GPUDF_UCD_TABLE(name) static __device__ const uint32_t name[]
#include "ops/expr/unicode_tables.inc"
#undef GPUDF_UCD_TABLE
}  // namespace dev
#endif
#if defined(__CUDA_ARCH__)
#define GPUDF_UCD(name) ::gpudf::expr::ucd::dev::name
#else
#define GPUDF_UCD(name) ::gpudf::expr::ucd::host::name
#endif

inline constexpr uint32_t kMulti = 0x80000000u;

/// Index of `cp` in the sorted `keys`, or -1.
GPUDF_HD inline int32_t find_key(const uint32_t* keys, int32_t n, uint32_t cp) {
  int32_t lo = 0, hi = n;
  while (lo < hi) {
    const int32_t mid = (lo + hi) >> 1;
    if (keys[mid] < cp) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && keys[lo] == cp ? lo : -1;
}

/// Whether `cp` lies in one of the sorted, flattened [first, last] pairs.
GPUDF_HD inline bool in_ranges(const uint32_t* flat, int32_t n, uint32_t cp) {
  int32_t lo = 0, hi = n / 2;  // first pair whose last >= cp
  while (lo < hi) {
    const int32_t mid = (lo + hi) >> 1;
    if (flat[2 * mid + 1] < cp) lo = mid + 1;
    else hi = mid;
  }
  return lo < n / 2 && flat[2 * lo] <= cp;
}

GPUDF_HD inline bool is_cased(uint32_t cp) {
  if (cp < 0x80) return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
  return in_ranges(GPUDF_UCD(kCasedRanges), GPUDF_UCD(kCasedRangesCount), cp);
}
GPUDF_HD inline bool is_case_ignorable(uint32_t cp) {
  if (cp < 0x80) return cp == '\'' || cp == '.' || cp == ':' || cp == '^' || cp == '`';
  return in_ranges(GPUDF_UCD(kCaseIgnorableRanges), GPUDF_UCD(kCaseIgnorableRangesCount), cp);
}
GPUDF_HD inline bool is_alphanumeric(uint32_t cp) {
  if (cp < 0x80) return (cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z');
  return in_ranges(GPUDF_UCD(kAlphanumericRanges), GPUDF_UCD(kAlphanumericRangesCount), cp);
}

/// The mapping of `cp` into out[0..3); returns how many code points it maps to (1 when unchanged).
GPUDF_HD inline int32_t map_code_point(uint32_t cp, CaseMode mode, uint32_t* out) {
  const uint32_t* keys;
  const uint32_t* vals;
  int32_t n;
  if (mode == CaseMode::Upper) {
    keys = GPUDF_UCD(kUpperKeys), vals = GPUDF_UCD(kUpperValues), n = GPUDF_UCD(kUpperKeysCount);
  } else if (mode == CaseMode::Lower) {
    keys = GPUDF_UCD(kLowerKeys), vals = GPUDF_UCD(kLowerValues), n = GPUDF_UCD(kLowerKeysCount);
  } else {
    keys = GPUDF_UCD(kTitleKeys), vals = GPUDF_UCD(kTitleValues), n = GPUDF_UCD(kTitleKeysCount);
  }
  const int32_t at = find_key(keys, n, cp);
  if (at < 0) {
    out[0] = cp;
    return 1;
  }
  const uint32_t v = vals[at];
  if (!(v & kMulti)) {
    out[0] = v;
    return 1;
  }
  const int32_t start = int32_t((v & ~kMulti) >> 8), count = int32_t(v & 0xFF);
  for (int32_t k = 0; k < count; ++k) out[k] = GPUDF_UCD(kCaseExtra)[start + k];
  return count;
}

}  // namespace ucd

/// Decodes the code point at s[pos] (pos < n); `len` gets its byte length. An invalid or
/// truncated sequence decodes as the single byte (len 1), marked by *valid = false.
GPUDF_HD inline uint32_t utf8_decode(const char* s, int64_t n, int64_t pos, int32_t* len, bool* valid) {
  const uint32_t c = static_cast<unsigned char>(s[pos]);
  *valid = true;
  *len = 1;
  if (c < 0x80) return c;
  int32_t need = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (need == 0 || pos + need > n) {
    *valid = false;
    return c;
  }
  uint32_t cp = c & (0xFFu >> (need + 1));
  for (int32_t k = 1; k < need; ++k) {
    const uint32_t b = static_cast<unsigned char>(s[pos + k]);
    if ((b & 0xC0) != 0x80) {
      *valid = false;
      return c;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  *len = need;
  return cp;
}

/// Writes `cp` as UTF-8 at dst (when not null); returns its byte length.
GPUDF_HD inline int32_t utf8_encode(uint32_t cp, char* dst) {
  int32_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  if (dst) {
    if (len == 1) {
      dst[0] = static_cast<char>(cp);
    } else {
      for (int32_t k = len - 1; k > 0; --k) {
        dst[k] = static_cast<char>(0x80 | (cp & 0x3F));
        cp >>= 6;
      }
      dst[0] = static_cast<char>((len == 2 ? 0xC0 : len == 3 ? 0xE0 : 0xF0) | cp);
    }
  }
  return len;
}

namespace ucd {

/// Final_Sigma: the capital sigma at [pos, pos + len) is preceded by a cased letter (with only
/// case-ignorable characters between) and not followed by one.
GPUDF_HD inline bool final_sigma(const char* s, int64_t n, int64_t pos, int32_t len) {
  bool before = false;
  for (int64_t p = pos; p > 0;) {
    int64_t q = p - 1;
    while (q > 0 && (static_cast<unsigned char>(s[q]) & 0xC0) == 0x80 && p - q < 4) --q;
    int32_t l;
    bool ok;
    const uint32_t cp = utf8_decode(s, n, q, &l, &ok);
    if (!ok || q + l != p) break;
    if (is_case_ignorable(cp)) {
      p = q;
      continue;
    }
    before = is_cased(cp);
    break;
  }
  if (!before) return false;
  for (int64_t p = pos + len; p < n;) {
    int32_t l;
    bool ok;
    const uint32_t cp = utf8_decode(s, n, p, &l, &ok);
    if (!ok) return true;
    if (is_case_ignorable(cp)) {
      p += l;
      continue;
    }
    return !is_cased(cp);
  }
  return true;
}

}  // namespace ucd

/// Case maps n bytes of `src` into `dst` (when not null: it must hold the returned size, which a
/// call with dst == nullptr computes). Returns the mapped byte length.
GPUDF_HD inline int64_t utf8_case_convert(const char* src, int64_t n, CaseMode mode, char* dst) {
  int64_t out = 0;
  bool word = false;  // title case: the previous character was alphanumeric
  for (int64_t pos = 0; pos < n;) {
    const unsigned char c = static_cast<unsigned char>(src[pos]);
    if (c < 0x80) {
      const bool lower = c >= 'a' && c <= 'z', upper = c >= 'A' && c <= 'Z';
      const bool up = mode == CaseMode::Upper || (mode == CaseMode::Title && !word);
      unsigned char m = c;
      if (up && lower) m = static_cast<unsigned char>(c - 32);
      if (!up && upper) m = static_cast<unsigned char>(c + 32);
      if (dst) dst[out] = static_cast<char>(m);
      ++out;
      ++pos;
      word = lower || upper || (c >= '0' && c <= '9');
      continue;
    }
    int32_t len;
    bool ok;
    const uint32_t cp = utf8_decode(src, n, pos, &len, &ok);
    if (!ok) {
      if (dst) dst[out] = src[pos];
      ++out;
      ++pos;
      word = false;
      continue;
    }
    CaseMode m = mode == CaseMode::Title ? (word ? CaseMode::Lower : CaseMode::Title) : mode;
    uint32_t mapped[3];
    int32_t count;
    if (m == CaseMode::Lower && cp == 0x3A3) {
      mapped[0] = ucd::final_sigma(src, n, pos, len) ? 0x3C2 : 0x3C3;
      count = 1;
    } else {
      count = ucd::map_code_point(cp, m, mapped);
    }
    for (int32_t k = 0; k < count; ++k) out += utf8_encode(mapped[k], dst ? dst + out : nullptr);
    pos += len;
    if (mode == CaseMode::Title) word = ucd::is_alphanumeric(cp);
  }
  return out;
}

}  // namespace gpudf::expr
