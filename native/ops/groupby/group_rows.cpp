// CPU group_rows: every row hashed once (row_hash). Up to a few hundred thousand groups, one
// table per thread over a contiguous range of rows, merged in range order; with more, a radix
// partition of the rows by high hash bits with one open-addressing table per partition. A table
// keeps a single fixed-width or string key itself (no reads of the key column at a group's first
// row). See groupby.hpp for the contract.
#include <algorithm>
#include <cstring>
#include <atomic>
#include <bit>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/dispatch.hpp"
#include "core/thread_pool.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/groupby/groupby_internal.hpp"
#include "ops/hash/row_hash.hpp"

namespace gpudf::detail {
namespace {

using groupby_detail::kBlockRows;
using groupby_detail::num_blocks;
using groupby_detail::partition_rows;

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
// hash (the same as row_hash); set() fills a new group's slot; equal() compares a row with a
// slot. None reads the key columns at a group's first row: with many groups that is a cache
// miss per probe.

/// Any keys: each group's keys are encoded into an arena of the table's own (per key a validity
/// byte, then 8 key bits, or a string's 8-byte length and bytes); a probe compares the row with
/// that encoding, never with the key columns at the group's first row.
struct MultiKey {
  struct Slot : SlotHead {
    uint64_t at;  // the group's encoding: arena[at ..)
  };
  const Keys* keys;
  std::vector<uint8_t> arena;
  uint64_t hash(int64_t row) const { return row_hash(keys->cols, keys->n, row); }
  void set(Slot& s, int64_t row) {
    s.at = arena.size();
    for (int32_t k = 0; k < keys->n; ++k) {
      const ColumnView& c = keys->cols[k];
      const bool valid = c.is_valid(row);
      arena.push_back(uint8_t(valid));
      if (!valid) continue;
      if (is_string_key(c.type)) {
        int64_t len = 0;
        const uint8_t* p = string_bytes(c, row, &len);
        put(&len, 8);
        put(p, len);
      } else {
        const uint64_t bits = key_bits(c, row);
        put(&bits, 8);
      }
    }
  }
  bool equal(const Slot& s, int64_t row) const {
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
        if (int64_t(word) != len || std::memcmp(e, p, size_t(len)) != 0) return false;
        e += len;
      } else if (word != key_bits(c, row)) {
        return false;
      }
    }
    return true;
  }

 private:
  void put(const void* p, int64_t len) {
    const auto* b = static_cast<const uint8_t*>(p);
    arena.insert(arena.end(), b, b + len);
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
  void set(Slot& s, int64_t row) {
    const bool valid = col->is_valid(row);
    s.bits = valid ? bits(row) : 0;
    s.len = valid ? 0 : 1;
  }
  bool equal(const Slot& s, int64_t row) const {
    if (!col->is_valid(row)) return s.len == 1;
    return s.len == 0 && s.bits == bits(row);
  }
};

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

/// One string key: up to 16 bytes kept in the slot; a longer string keeps its first 8 bytes
/// there and the rest in an arena of the table's own (offset in the slot's last 8 bytes).
struct StringKey {
  struct Slot : SlotHead {
    uint8_t key[16];
  };
  static constexpr uint32_t kNull = 0xFFFFFFFFu;
  const ColumnView* col;
  std::vector<uint8_t> arena;
  uint64_t hash(int64_t row) const { return key_hash(*col, row); }
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
  bool equal(const Slot& s, int64_t row) const {
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
  std::vector<int64_t> reps;
  std::vector<uint64_t> hashes;
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
      if (e.hash == h && store.equal(e, row)) return int64_t(e.id1) - 1;
    }
  }

 private:
  void grow() {
    std::vector<Slot> old(std::move(slots_));
    slots_.assign(old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& e : old) {
      if (e.id1 == 0) continue;
      uint64_t s = e.hash & mask_;
      while (slots_[s].id1 != 0) s = (s + 1) & mask_;
      slots_[s] = e;
    }
  }
  std::vector<Slot> slots_;
  uint64_t mask_ = 0;
};

/// Rows each range scans before judging whether its groups are too many for one table per range.
inline constexpr int64_t kProbeRows = int64_t(1) << 18;
/// Most groups a range's table may hold (beyond it the partitioned path takes over).
inline constexpr int64_t kMaxRangeGroups = int64_t(1) << 21;
/// Rows hashed (and their slots prefetched) ahead of their probes.
inline constexpr int64_t kBatch = 32;

template <typename IdT, typename Store>
struct Grouper {
  const Keys& keys;
  const Store& proto;
  int64_t n;
  IdT* ids;
  std::vector<uint64_t> h;
  std::vector<int64_t> first_rows;

  void hash_rows() {
    h.resize(size_t(n));
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) h[size_t(i)] = proto.hash(i);
    });
  }

  /// Contiguous ranges of rows (one per pool thread) each fill a table of their own; the ranges'
  /// groups are then merged in range order, so ids are numbered by first appearance whatever
  /// the number of ranges. False (nothing usable) when the groups are nearly as many as the
  /// rows: more than half of a range's first kProbeRows rows (or all its rows, when fewer)
  /// start a group, or a range meets more than kMaxRangeGroups; the partitioned path, whose
  /// tables stay cache-sized, then does better.
  bool by_ranges() {
    const int64_t ranges = std::clamp<int64_t>(n / kBlockRows, 1, int64_t(cpu_pool().size()));
    std::vector<int64_t> range_start(static_cast<size_t>(ranges + 1));
    for (int64_t r = 0; r <= ranges; ++r) range_start[size_t(r)] = r * n / ranges;
    std::vector<GroupTable<Store>> tables;
    tables.reserve(size_t(ranges));
    for (int64_t r = 0; r < ranges; ++r) tables.emplace_back(1024, proto);
    std::atomic<bool> too_many{false};
    cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        GroupTable<Store>& t = tables[size_t(r)];
        const int64_t begin = range_start[size_t(r)], end = range_start[size_t(r + 1)];
        for (int64_t b = begin; b < end; b += kBlockRows) {
          if (too_many.load(std::memory_order_relaxed)) return;
          // Hashes of a batch first, their slots prefetched, then the probes: the slot loads
          // overlap instead of waiting one after another.
          for (int64_t i = b, e = std::min(end, b + kBlockRows); i < e; i += kBatch) {
            const int64_t m = std::min<int64_t>(kBatch, e - i);
            uint64_t hb[kBatch];
            for (int64_t k = 0; k < m; ++k) {
              hb[k] = proto.hash(i + k);
              t.prefetch(hb[k]);
            }
            for (int64_t k = 0; k < m; ++k)
              ids[i + k] = keys.dropped(i + k) ? IdT(-1) : IdT(t.find_or_insert(hb[k], i + k));
          }
          const int64_t seen = std::min(end, b + kBlockRows) - begin, probe = std::min(kProbeRows, end - begin);
          const bool probing = seen >= probe && seen - kBlockRows < probe;
          if (t.size() > kMaxRangeGroups || (probing && t.size() * 2 > seen)) {
            too_many = true;
            return;
          }
        }
      }
    });
    if (too_many) return false;
    int64_t total = 0;
    for (const auto& t : tables) total += t.size();
    GroupTable<Store> global(std::min<int64_t>(total, n), proto);
    std::vector<std::vector<IdT>> to_global(static_cast<size_t>(ranges));
    for (int64_t r = 0; r < ranges; ++r) {
      const GroupTable<Store>& t = tables[size_t(r)];
      auto& m = to_global[size_t(r)];
      m.resize(size_t(t.size()));
      for (size_t k = 0; k < m.size(); ++k) m[k] = IdT(global.find_or_insert(t.hashes[k], t.reps[k]));
    }
    tables.clear();
    cpu_pool().parallel_for(num_blocks(n), 1, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t begin = b * kBlockRows, end = std::min(n, begin + kBlockRows);
        // The range holding row `begin`, then the block's rows range by range.
        int64_t r = int64_t(std::upper_bound(range_start.begin(), range_start.end(), begin) - range_start.begin()) - 1;
        for (int64_t i = begin; i < end; ++r) {
          const IdT* m = to_global[size_t(r)].data();
          for (const int64_t stop = std::min(end, range_start[size_t(r + 1)]); i < stop; ++i)
            if (ids[i] >= 0) ids[i] = m[ids[i]];
        }
      }
    });
    first_rows = std::move(global.reps);
    return true;
  }

  /// Many groups: rows radix-partitioned by the top hash bits (stable), one table per partition.
  void by_partitions(bool maintain_order) {
    const int pbits = std::clamp(int(std::bit_width(uint64_t(n))) - 14, 0, 11);
    const int64_t parts = int64_t(1) << pbits;
    const int shift = 64 - pbits;
    auto part_of = [&](uint64_t hash) { return pbits ? int64_t(hash >> shift) : int64_t(0); };
    std::vector<int64_t> rows, part_begin;
    partition_rows(n, parts, [&](int64_t i) { return keys.dropped(i) ? int64_t(-1) : part_of(h[size_t(i)]); }, rows,
                   part_begin);
    // Dropped rows keep -1; every other row gets its id from its partition's table.
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) { std::fill(ids + b, ids + e, IdT(-1)); });
    std::vector<std::vector<int64_t>> reps(static_cast<size_t>(parts));
    cpu_pool().parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t b = part_begin[size_t(p)], e = part_begin[size_t(p + 1)];
        GroupTable<Store> t(std::min<int64_t>(e - b, 1 << 16), proto);
        for (int64_t k = b; k < e; ++k) {
          const int64_t i = rows[size_t(k)];
          ids[i] = IdT(t.find_or_insert(h[size_t(i)], i));
        }
        reps[size_t(p)] = std::move(t.reps);
      }
    });
    std::vector<int64_t> base(static_cast<size_t>(parts), 0);
    int64_t count = 0;
    for (int64_t p = 0; p < parts; ++p) {
      base[size_t(p)] = count;
      count += int64_t(reps[size_t(p)].size());
    }
    first_rows.resize(size_t(count));
    for (int64_t p = 0; p < parts; ++p)
      std::copy(reps[size_t(p)].begin(), reps[size_t(p)].end(), first_rows.begin() + base[size_t(p)]);
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        if (ids[i] >= 0) ids[i] = IdT(ids[i] + base[size_t(part_of(h[size_t(i)]))]);
    });
    if (maintain_order) renumber_by_first_row();
  }

  /// Ids in order of first appearance: a row is its group's first row when first_rows says so;
  /// counting those per block gives each group's new id.
  void renumber_by_first_row() {
    const int64_t blocks = num_blocks(n);
    std::vector<int64_t> firsts(static_cast<size_t>(blocks), 0);
    auto scan = [&](bool assign, std::vector<int64_t>& perm) {
      cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          int64_t k = assign ? firsts[size_t(b)] : 0;
          const int64_t end = std::min(n, (b + 1) * kBlockRows);
          for (int64_t i = b * kBlockRows; i < end; ++i) {
            const int64_t g = ids[i];
            if (g < 0 || first_rows[size_t(g)] != i) continue;
            if (assign) perm[size_t(g)] = k;
            ++k;
          }
          if (!assign) firsts[size_t(b)] = k;
        }
      });
    };
    std::vector<int64_t> perm(first_rows.size());
    scan(false, perm);
    std::exclusive_scan(firsts.begin(), firsts.end(), firsts.begin(), int64_t(0));
    scan(true, perm);
    std::vector<int64_t> sorted_first(first_rows.size());
    for (size_t g = 0; g < perm.size(); ++g) sorted_first[size_t(perm[g])] = first_rows[g];
    first_rows.swap(sorted_first);
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        if (ids[i] >= 0) ids[i] = IdT(perm[size_t(ids[i])]);
    });
  }
};

template <typename IdT, typename Store>
std::vector<int64_t> group_into(const Keys& keys, const Store& proto, int64_t n, IdT* ids, bool maintain_order) {
  Grouper<IdT, Store> g{keys, proto, n, ids, {}, {}};
  // Hashes are computed inside the range pass (no array of them); the partitioned path keeps them.
  if (!g.by_ranges()) {
    g.hash_rows();
    g.by_partitions(maintain_order);
  }
  return std::move(g.first_rows);
}

/// group_into with the key store that fits the keys.
template <typename IdT>
std::vector<int64_t> group_with_store(const Keys& keys, int64_t n, IdT* ids, bool maintain_order) {
  if (keys.n == 1 && is_string_key(keys.cols[0].type))
    return group_into(keys, StringKey{keys.cols, {}}, n, ids, maintain_order);
  if (keys.n == 1) {
    return type_dispatch(keys.cols[0].type, [&]<TypeId T>() {
      if constexpr (std::is_arithmetic_v<storage_t<T>>)
        return group_into(keys, FixedKey<storage_t<T>>{keys.cols}, n, ids, maintain_order);
      else
        return group_into(keys, MultiKey{&keys, {}}, n, ids, maintain_order);
    });
  }
  return group_into(keys, MultiKey{&keys, {}}, n, ids, maintain_order);
}

}  // namespace

GroupIds group_rows_cpu(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order) {
  const int64_t n = keys[0].size;
  bool nullable = false;
  for (const ColumnView& k : keys) nullable |= k.validity != nullptr;
  const Keys k{keys.data(), int32_t(keys.size()), drop_nulls && nullable};
  GroupIds out;
  const bool wide = n >= (int64_t(1) << 31);
  out.ids = Column::allocate(cpu_device(), wide ? TypeId::Int64 : TypeId::Int32, n, false);
  std::vector<int64_t> first =
      wide ? group_with_store(k, n, reinterpret_cast<int64_t*>(out.ids->data()->data()), maintain_order)
           : group_with_store(k, n, reinterpret_cast<int32_t*>(out.ids->data()->data()), maintain_order);
  out.count = int64_t(first.size());
  out.first_rows = Column::allocate(cpu_device(), TypeId::Int64, out.count, false);
  if (out.count) std::memcpy(out.first_rows->data()->data(), first.data(), first.size() * sizeof(int64_t));
  return out;
}

}  // namespace gpudf::detail
