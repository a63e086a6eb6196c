// The CPU grouping tables of group_rows.cpp: open-addressing tables whose slots keep the full
// hash and, through a key store, the key itself, so that a probe touches one slot and never the
// key columns at a group's first row (a cache miss per probe when groups are many).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/column.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "ops/hash/row_hash.hpp"

namespace gpudf::detail::group_table {

/// Rows whose keys may hold nulls are dropped (id -1) when drop_nulls.
struct Keys {
  const ColumnView* cols;
  int32_t n;
  bool drop_nulls;
  bool dropped(int64_t row) const { return drop_nulls && any_key_null(cols, n, row); }
};

/// The start of every table slot: the full hash, the group's id + 1 (0: empty) and a word of
/// the key store's. A store's slot adds what it keeps inline, so that most probes touch this
/// one slot and nothing else.
struct SlotHead {
  uint64_t hash;
  uint32_t id1;
  uint32_t len;  // key store's: a string's length, or a fixed-width key's null flag
};

// Key stores: how a table decides that a row's keys equal a group's. hash(row) is the row's
// hash (the same as row_hash); set() fills a new group's slot; equal(slot, row, rep) compares
// a row with a slot (rep: the group's first row). Only RowKeys reads the key columns at rep:
// with many groups that is a cache miss per probe.

/// a[0, len) == b[0, len) for len <= 16, with fixed-size loads that stay inside both ranges
/// (two overlapping words), not a call to memcmp.
inline bool short_equal(const uint8_t* a, const uint8_t* b, int64_t len) {
  auto word = [](const uint8_t* p, int w) {
    uint64_t x = 0;
    if (w == 8) std::memcpy(&x, p, 8);
    else {
      uint32_t y;
      std::memcpy(&y, p, 4);
      x = y;
    }
    return x;
  };
  if (len >= 8) return word(a, 8) == word(b, 8) && word(a + len - 8, 8) == word(b + len - 8, 8);
  if (len >= 4) return word(a, 4) == word(b, 4) && word(a + len - 4, 4) == word(b + len - 4, 4);
  for (int64_t k = 0; k < len; ++k)
    if (a[k] != b[k]) return false;
  return true;
}

/// a[0, len) == b[0, len): short_equal up to 16 bytes, memcmp beyond.
inline bool bytes_equal(const uint8_t* a, const uint8_t* b, int64_t len) {
  return len <= 16 ? short_equal(a, b, len) : std::memcmp(a, b, size_t(len)) == 0;
}

/// row_hash of rows [begin, begin + m) into out[0, m), computed column by column: one type
/// dispatch per column and block instead of a switch per row and key. Same values as row_hash.
inline void row_hashes(const ColumnView* keys, int32_t nkeys, int64_t begin, int64_t m, uint64_t* out) {
  for (int32_t k = 0; k < nkeys; ++k) {
    const ColumnView& c = keys[k];
    auto put = [&](int64_t j, uint64_t kh) { out[j] = k == 0 ? kh : mix64(out[j] ^ (kh + kHashSeed)); };
    auto strings = [&](const auto* o) {
      for (int64_t j = 0; j < m; ++j) {
        const int64_t i = begin + j;
        put(j, c.is_valid(i) ? hash_bytes(c.data + o[i], int64_t(o[i + 1] - o[i])) : kNullHash);
      }
    };
    auto fixed = [&]<typename T>(const T* v) {
      for (int64_t j = 0; j < m; ++j) {
        const int64_t i = begin + j;
        uint64_t bits;
        if constexpr (std::is_floating_point_v<T>) bits = uint64_t(order_bits<T>(v[i]));
        else bits = uint64_t(std::make_unsigned_t<T>(v[i]));
        put(j, c.is_valid(i) ? mix64(bits + kHashSeed) : kNullHash);
      }
    };
    if (c.type == TypeId::Utf8) strings(c.string_offsets<int32_t>());
    else if (c.type == TypeId::LargeUtf8) strings(c.string_offsets<int64_t>());
    else if (c.type == TypeId::Float32) fixed(c.values<float>());
    else if (c.type == TypeId::Float64) fixed(c.values<double>());
    else if (value_width(c.type) == 1) fixed(c.values<uint8_t>());
    else if (value_width(c.type) == 2) fixed(c.values<uint16_t>());
    else if (value_width(c.type) == 4) fixed(c.values<uint32_t>());
    else fixed(c.values<uint64_t>());
  }
}

/// Any keys, compared with the group's first row in the key columns: for nearly-unique keys,
/// where encoding every group (MultiKey) costs more than the rare comparison saves.
struct RowKeys {
  using Slot = SlotHead;
  const Keys* keys;
  uint64_t hash(int64_t row) const { return row_hash(keys->cols, keys->n, row); }
  void hash_block(int64_t begin, int64_t m, uint64_t* out) const { row_hashes(keys->cols, keys->n, begin, m, out); }
  void set(Slot&, int64_t) {}
  bool equal(const Slot&, int64_t row, int64_t rep) const { return rows_equal(keys->cols, rep, keys->cols, row, keys->n); }
};

/// Any keys: each group's keys are encoded into an arena of the table's own (per key a validity
/// byte, then 8 key bits, or a string's 8-byte length and bytes); a probe compares the row with
/// that encoding, never with the key columns at the group's first row.
struct MultiKey {
  struct Slot : SlotHead {
    uint64_t at;  // the group's encoding: arena[at ..)
  };
  const Keys* keys;
  HostVector<uint8_t> arena;
  uint64_t hash(int64_t row) const { return row_hash(keys->cols, keys->n, row); }
  void hash_block(int64_t begin, int64_t m, uint64_t* out) const { row_hashes(keys->cols, keys->n, begin, m, out); }
  void set(Slot& s, int64_t row) {
    // The encoding's size first, then one resize and plain writes (not an insert per field).
    int64_t size = keys->n;
    for (int32_t k = 0; k < keys->n; ++k) {
      const ColumnView& c = keys->cols[k];
      if (!c.is_valid(row)) continue;
      int64_t len = 0;
      if (is_string_key(c.type)) string_bytes(c, row, &len);
      size += 8 + len;
    }
    s.at = arena.size();
    arena.resize(arena.size() + size_t(size));
    uint8_t* e = arena.data() + s.at;
    for (int32_t k = 0; k < keys->n; ++k) {
      const ColumnView& c = keys->cols[k];
      const bool valid = c.is_valid(row);
      *e++ = uint8_t(valid);
      if (!valid) continue;
      if (is_string_key(c.type)) {
        int64_t len = 0;
        const uint8_t* p = string_bytes(c, row, &len);
        std::memcpy(e, &len, 8);
        if (len) std::memcpy(e + 8, p, size_t(len));
        e += 8 + len;
      } else {
        const uint64_t bits = key_bits(c, row);
        std::memcpy(e, &bits, 8);
        e += 8;
      }
    }
  }
  bool equal(const Slot& s, int64_t row, int64_t) const {
    const uint8_t* e = arena.data() + s.at;
    for (int32_t k = 0; k < keys->n; ++k) {
      const ColumnView& c = keys->cols[k];
      const bool valid = c.is_valid(row);
      if (*e++ != uint8_t(valid)) return false;
      if (!valid) continue;
      uint64_t word;
      std::memcpy(&word, e, 8);
      e += 8;
      if (is_string_key(c.type)) {
        int64_t len = 0;
        const uint8_t* p = string_bytes(c, row, &len);
        if (int64_t(word) != len || !bytes_equal(e, p, len)) return false;
        e += len;
      } else if (word != key_bits(c, row)) {
        return false;
      }
    }
    return true;
  }
};

/// One fixed-width key of storage type T, kept in the slot: a probe never reads the key
/// column at the group's first row (a cache miss when groups are many).
template <typename T>
struct FixedKey {
  struct Slot : SlotHead {
    uint64_t bits;
  };
  const ColumnView* col;
  uint64_t bits(int64_t row) const {
    if constexpr (std::is_floating_point_v<T>) return order_bits<T>(col->values<T>()[row]);
    else return uint64_t(std::make_unsigned_t<T>(col->values<T>()[row]));
  }
  uint64_t hash(int64_t row) const { return col->is_valid(row) ? mix64(bits(row) + kHashSeed) : kNullHash; }
  void hash_block(int64_t begin, int64_t m, uint64_t* out) const {
    for (int64_t j = 0; j < m; ++j) out[j] = hash(begin + j);
  }
  void set(Slot& s, int64_t row) {
    const bool valid = col->is_valid(row);
    s.bits = valid ? bits(row) : 0;
    s.len = valid ? 0 : 1;
  }
  bool equal(const Slot& s, int64_t row, int64_t) const {
    if (!col->is_valid(row)) return s.len == 1;
    return s.len == 0 && s.bits == bits(row);
  }
};

/// One string key: up to 16 bytes kept in the slot; a longer string keeps its first 8 bytes
/// there and the rest in an arena of the table's own (offset in the slot's last 8 bytes).
struct StringKey {
  struct Slot : SlotHead {
    uint8_t key[16];
  };
  static constexpr uint32_t kNull = 0xFFFFFFFFu;
  const ColumnView* col;
  HostVector<uint8_t> arena;
  uint64_t hash(int64_t row) const { return key_hash(*col, row); }
  void hash_block(int64_t begin, int64_t m, uint64_t* out) const { row_hashes(col, 1, begin, m, out); }
  void set(Slot& s, int64_t row) {
    std::memset(s.key, 0, 16);
    if (!col->is_valid(row)) {
      s.len = kNull;
      return;
    }
    int64_t len = 0;
    const uint8_t* p = string_bytes(*col, row, &len);
    GPUDF_EXPECTS(len < int64_t(kNull), InvalidArgument, "a group key string is too long");
    s.len = uint32_t(len);
    if (len <= 16) {
      std::memcpy(s.key, p, size_t(len));
      return;
    }
    const uint64_t at = arena.size();
    std::memcpy(s.key, p, 8);
    std::memcpy(s.key + 8, &at, 8);
    arena.insert(arena.end(), p + 8, p + len);
  }
  bool equal(const Slot& s, int64_t row, int64_t) const {
    if (!col->is_valid(row)) return s.len == kNull;
    int64_t len = 0;
    const uint8_t* p = string_bytes(*col, row, &len);
    if (s.len == kNull || int64_t(s.len) != len) return false;
    if (len <= 16) return short_equal(s.key, p, len);
    uint64_t at;
    std::memcpy(&at, s.key + 8, 8);
    return std::memcmp(s.key, p, 8) == 0 && std::memcmp(arena.data() + at, p + 8, size_t(len - 8)) == 0;
  }
};

/// Open-addressing table of groups (linear probing, load <= 1/2). Ids are dense, in insertion
/// order; reps[id] is the group's first inserted row, hashes[id] its hash.
template <typename Store>
class GroupTable {
 public:
  using Slot = typename Store::Slot;
  GroupTable(int64_t expected, const Store& proto) : store(proto) {
    uint64_t cap = std::bit_ceil(uint64_t(std::max<int64_t>(expected, 8)) * 2);
    slots_.assign(cap, Slot{});
    mask_ = cap - 1;
  }
  HostVector<int64_t> reps;
  HostVector<uint64_t> hashes;
  Store store;

  int64_t size() const { return int64_t(reps.size()); }

  /// Starts loading the slot where a probe for hash h begins.
  void prefetch(uint64_t h) const { __builtin_prefetch(&slots_[h & mask_]); }

  /// The id of row's group (hash h), inserting a new group when none matches.
  int64_t find_or_insert(uint64_t h, int64_t row) {
    for (uint64_t s = h & mask_;; s = (s + 1) & mask_) {
      Slot& e = slots_[s];
      if (e.id1 == 0) {
        const auto id = int64_t(reps.size());
        GPUDF_EXPECTS(id < int64_t(0xFFFFFFFFu), InvalidArgument, "too many groups for one table");
        e.hash = h;
        e.id1 = uint32_t(id + 1);
        store.set(e, row);
        reps.push_back(row);
        hashes.push_back(h);
        if (uint64_t(reps.size()) * 2 > mask_) grow();
        return id;
      }
      if (e.hash == h && store.equal(e, row, reps[size_t(e.id1 - 1)])) return int64_t(e.id1) - 1;
    }
  }

 private:
  void grow() {
    HostVector<Slot> old(std::move(slots_));
    slots_.assign(old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& e : old) {
      if (e.id1 == 0) continue;
      uint64_t s = e.hash & mask_;
      while (slots_[s].id1 != 0) s = (s + 1) & mask_;
      slots_[s] = e;
    }
  }
  HostVector<Slot> slots_;
  uint64_t mask_ = 0;
};

}  // namespace gpudf::detail::group_table
