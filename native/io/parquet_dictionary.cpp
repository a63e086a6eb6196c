#include "io/parquet_dictionary.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "io/parquet_bits.hpp"
#include "io/parquet_stats.hpp"
#include "ops/hash/row_hash.hpp"

namespace gpudf::parquet {
namespace {

// Give up on a dictionary when it passes this many bytes, or when more than 3/4 of the first
// kProbeRows rows (or half of all rows) are distinct.
constexpr int64_t kMaxDictionaryBytes = int64_t(16) << 20;
constexpr int64_t kProbeRows = 65536;
constexpr int kMinRleRun = 16;

std::string_view string_at(const ColumnView& v, int64_t row) {
  int64_t len;
  const uint8_t* p = string_bytes(v, row, &len);
  return {reinterpret_cast<const char*>(p), size_t(len)};
}

/// Values packed LSB first at `w` bits each; n a multiple of 8 (the caller pads).
void put_bitpacked(std::string& out, const uint32_t* values, int64_t n, int w) {
  const size_t pos = out.size();
  out.resize(pos + size_t(n / 8 * w));
  uint8_t* dst = reinterpret_cast<uint8_t*>(out.data() + pos);
  uint64_t acc = 0;
  int bits = 0;
  for (int64_t i = 0; i < n; ++i) {
    acc |= uint64_t(values[i]) << bits;
    bits += w;
    while (bits >= 8) {
      *dst++ = uint8_t(acc);
      acc >>= 8;
      bits -= 8;
    }
  }
}

int64_t run_length(const uint32_t* values, int64_t i, int64_t n, int64_t cap) {
  int64_t j = i + 1;
  while (j < n && j - i < cap && values[j] == values[i]) ++j;
  return j - i;
}

}  // namespace

void put_hybrid(std::string& out, const uint32_t* values, int64_t n, int w) {
  const int value_bytes = (w + 7) / 8;
  int64_t i = 0;
  while (i < n) {
    const int64_t run = run_length(values, i, n, n);
    if (run >= kMinRleRun) {
      put_varint(out, uint64_t(run) << 1);
      for (int b = 0; b < value_bytes; ++b) out.push_back(char(values[i] >> (8 * b)));
      i += run;
      continue;
    }
    // Whole groups of 8 up to where a long run starts (or the end, padded with zeros).
    int64_t j = i;
    do {
      j = std::min(n, j + 8);
    } while (j < n && run_length(values, j, n, kMinRleRun) < kMinRleRun);
    const int64_t count = j - i;
    const int64_t padded = (count + 7) / 8 * 8;
    put_varint(out, (uint64_t(padded / 8) << 1) | 1);
    if (padded == count) {
      put_bitpacked(out, values + i, count, w);
    } else {
      HostVector<uint32_t> tail(values + i, values + j);
      tail.resize(size_t(padded), 0);
      put_bitpacked(out, tail.data(), padded, w);
    }
    i = j;
  }
}

namespace {

/// The first min(len, 8) bytes of p as a little-endian word (zero above), read with one load
/// when 8 bytes are available before `limit`.
inline uint64_t head_word(const char* p, size_t len, const char* limit) {
  uint64_t w = 0;
  if (p + 8 <= limit) {
    std::memcpy(&w, p, 8);
    if (len < 8) w &= (uint64_t(1) << (8 * len)) - 1;
  } else {
    std::memcpy(&w, p, std::min<size_t>(len, 8));
  }
  return w;
}

/// Whether a dictionary of `entries` distinct values over `n` rows pays (checked again at the
/// end; `seen` rows so far).
bool worth_it(int64_t entries, int64_t seen, int64_t n) {
  if (seen == kProbeRows && entries * 4 > seen * 3) return false;
  if (seen < n) return true;
  return entries > 0 && (n < 16 || entries * 2 <= n);  // an all-null chunk stays PLAIN
}

/// Doubles the open-addressing table (linear probing) and re-inserts entries [0, count).
template <typename HashOf>
void grow(HostVector<int32_t>& slots, uint64_t& mask, size_t count, HashOf hash_of) {
  slots.assign(slots.size() * 2, -1);
  mask = slots.size() - 1;
  for (size_t e = 0; e < count; ++e) {
    uint64_t s = hash_of(e) & mask;
    while (slots[s] >= 0) s = (s + 1) & mask;
    slots[s] = int32_t(e);
  }
}

int index_bits(size_t entries) {
  return std::max(1, int(std::bit_width(entries == 0 ? 0u : uint32_t(entries - 1))));
}

template <typename O>
std::optional<Dictionary> build_strings(const ColumnView& v, int64_t begin, int64_t end) {
  const O* offs = v.string_offsets<O>();
  const char* chars = reinterpret_cast<const char*>(v.data);
  const char* limit = chars + offs[end];
  const int64_t n = end - begin;
  Dictionary d;
  d.begin = begin;
  d.indices.assign(size_t(n), 0);
  // Per entry: hash, length and first 16 bytes, so strings up to 16 bytes (ids, codes) are
  // told apart without touching the column's bytes again (a cache miss per row).
  struct Entry {
    uint64_t hash;
    uint64_t w0, w1;
    const char* p;
    size_t len;
  };
  HostVector<Entry> entries;
  HostVector<int32_t> slots(1024, -1);
  uint64_t mask = slots.size() - 1;
  int64_t bytes = 0;
  // Rows go in blocks: hash the block and prefetch each row's home slot, then the entry it
  // holds, then probe. With many distinct values the table outgrows the cache and the probe
  // would otherwise wait on two memory loads per row.
  constexpr int64_t kBlock = 64;
  uint64_t bh[kBlock], bw0[kBlock], bw1[kBlock];
  for (int64_t b0 = begin; b0 < end; b0 += kBlock) {
    const int64_t b1 = std::min(end, b0 + kBlock);
    for (int64_t r = b0; r < b1; ++r) {
      const char* p = chars + offs[r];
      const size_t len = size_t(offs[r + 1] - offs[r]);
      const uint64_t w0 = head_word(p, len, limit);
      const uint64_t w1 = len > 8 ? head_word(p + 8, len - 8, limit) : 0;
      const uint64_t h = len <= 16 ? mix64(mix64(w0 ^ (uint64_t(len) * kHashSeed)) ^ w1)
                                   : hash_bytes(reinterpret_cast<const uint8_t*>(p), int64_t(len));
      bh[r - b0] = h;
      bw0[r - b0] = w0;
      bw1[r - b0] = w1;
      __builtin_prefetch(&slots[h & mask]);
    }
    for (int64_t r = b0; r < b1; ++r) {
      const int32_t e = slots[bh[r - b0] & mask];
      if (e >= 0) __builtin_prefetch(&entries[size_t(e)]);
    }
    for (int64_t r = b0; r < b1; ++r) {
      if (!v.is_valid(r)) continue;
      const char* p = chars + offs[r];
      const size_t len = size_t(offs[r + 1] - offs[r]);
      const uint64_t h = bh[r - b0], w0 = bw0[r - b0], w1 = bw1[r - b0];
      uint64_t slot = h & mask;
      int32_t found = -1;
      for (; slots[slot] >= 0; slot = (slot + 1) & mask) {
        const Entry& e = entries[size_t(slots[slot])];
        if (e.hash == h && e.w0 == w0 && e.w1 == w1 && e.len == len &&
            (len <= 16 || std::memcmp(e.p, p, len) == 0)) {
          found = slots[slot];
          break;
        }
      }
      if (found < 0) {
        found = int32_t(entries.size());
        entries.push_back({h, w0, w1, p, len});
        d.entries.push_back(r);
        slots[slot] = found;
        bytes += 4 + int64_t(len);
        if (bytes > kMaxDictionaryBytes) return std::nullopt;
        if (entries.size() * 2 > slots.size())  // keep the load under 1/2
          grow(slots, mask, entries.size(), [&](size_t e) { return entries[e].hash; });
      }
      d.indices[size_t(r - begin)] = uint32_t(found);
      if (!worth_it(int64_t(entries.size()), r - begin + 1, n)) return std::nullopt;
    }
  }
  if (!worth_it(int64_t(entries.size()), n, n)) return std::nullopt;
  d.bit_width = index_bits(entries.size());
  // Statistics come cheap here: min and max over the distinct values only.
  for (int64_t e : d.entries) {
    if (d.min_entry < 0 || string_at(v, e) < string_at(v, d.min_entry)) d.min_entry = e;
    if (d.max_entry < 0 || string_at(v, d.max_entry) < string_at(v, e)) d.max_entry = e;
  }
  return d;
}


/// Fixed-width values: the table keys on the value's bits.
template <typename S>
std::optional<Dictionary> build_fixed(const ColumnView& v, int64_t begin, int64_t end) {
  const S* src = v.values<S>();
  const int64_t n = end - begin;
  Dictionary d;
  d.begin = begin;
  d.indices.assign(size_t(n), 0);
  HostVector<uint64_t> keys;
  HostVector<int32_t> slots(1024, -1);
  uint64_t mask = slots.size() - 1;
  for (int64_t r = begin; r < end; ++r) {
    if (!v.is_valid(r)) continue;
    uint64_t key = 0;
    std::memcpy(&key, src + r, sizeof(S));
    uint64_t slot = mix64(key) & mask;
    int32_t found = -1;
    for (; slots[slot] >= 0; slot = (slot + 1) & mask) {
      if (keys[size_t(slots[slot])] == key) {
        found = slots[slot];
        break;
      }
    }
    if (found < 0) {
      found = int32_t(keys.size());
      keys.push_back(key);
      d.entries.push_back(r);
      slots[slot] = found;
      if (int64_t(keys.size()) * int64_t(sizeof(S)) > kMaxDictionaryBytes) return std::nullopt;
      if (keys.size() * 2 > slots.size()) grow(slots, mask, keys.size(), [&](size_t e) { return mix64(keys[e]); });
    }
    d.indices[size_t(r - begin)] = uint32_t(found);
    if (!worth_it(int64_t(keys.size()), r - begin + 1, n)) return std::nullopt;
  }
  if (!worth_it(int64_t(keys.size()), n, n)) return std::nullopt;
  d.bit_width = index_bits(keys.size());
  return d;
}

struct BuildDictionary {
  template <TypeId T>
  std::optional<Dictionary> operator()(const ColumnView& v, int64_t begin, int64_t end) const {
    using S = storage_t<T>;
    if constexpr (T == TypeId::Bool) {
      return std::nullopt;  // PLAIN bools take one bit each already
    } else if constexpr (is_string(T)) {
      return build_strings<typename S::offset_type>(v, begin, end);
    } else {
      return build_fixed<S>(v, begin, end);
    }
  }
};

/// The dictionary page's values as the physical type P, with min/max.
template <TypeId T, typename P>
void put_fixed_entries(std::string& out, const ColumnView& v, const Dictionary& d, Statistics& st) {
  using S = storage_t<T>;
  const S* src = v.values<S>();
  const size_t pos = out.size();
  out.resize(pos + d.entries.size() * sizeof(P));
  char* dst = out.data() + pos;
  MinMax<S, P> mm;
  for (int64_t r : d.entries) {
    const P x = P(src[r]);
    std::memcpy(dst, &x, sizeof(P));
    dst += sizeof(P);
    mm.add(src[r]);
  }
  mm.store(st, int64_t(d.entries.size()));
}

struct PutEntries {
  template <TypeId T>
  void operator()(std::string& out, const ColumnView& v, const Dictionary& d, Statistics& st) const {
    using S = storage_t<T>;
    if constexpr (T == TypeId::Bool || is_string(T)) {
      GPUDF_FAIL(Internal, "no fixed-width dictionary for this dtype");
    } else if constexpr (std::is_floating_point_v<S> || sizeof(S) == 8) {
      put_fixed_entries<T, S>(out, v, d, st);
    } else {
      put_fixed_entries<T, int32_t>(out, v, d, st);  // narrow ints are INT32 in Parquet
    }
  }
};

}  // namespace

std::optional<Dictionary> build_dictionary(const ColumnView& v, int64_t begin, int64_t end) {
  return type_dispatch(v.type, BuildDictionary{}, v, begin, end);
}

void put_dictionary_page(std::string& out, const ColumnView& v, const Dictionary& d, Statistics& stats) {
  if (!is_string(v.type)) return type_dispatch(v.type, PutEntries{}, out, v, d, stats);
  for (int64_t e : d.entries) {
    const std::string_view s = string_at(v, e);
    const uint32_t len = uint32_t(s.size());
    out.append(reinterpret_cast<const char*>(&len), 4);
    out.append(s.data(), s.size());
  }
  constexpr size_t kMaxStatBytes = 64;
  if (d.min_entry < 0) return;
  const std::string_view lo = string_at(v, d.min_entry), hi = string_at(v, d.max_entry);
  if (lo.size() <= kMaxStatBytes && hi.size() <= kMaxStatBytes) {
    stats.has_min_max = true;
    stats.min = std::string(lo);
    stats.max = std::string(hi);
  }
}

void put_dictionary_indices(std::string& out, const ColumnView& v, const Dictionary& d, int64_t begin,
                            int64_t end) {
  out.push_back(char(d.bit_width));
  const uint32_t* idx = d.indices.data() + (begin - d.begin);
  if (v.validity == nullptr || v.null_count == 0) {
    put_hybrid(out, idx, end - begin, d.bit_width);
    return;
  }
  HostVector<uint32_t> valid;
  valid.reserve(size_t(end - begin));
  for (int64_t r = begin; r < end; ++r)
    if (v.is_valid(r)) valid.push_back(idx[r - begin]);
  put_hybrid(out, valid.data(), int64_t(valid.size()), d.bit_width);
}

}  // namespace gpudf::parquet
