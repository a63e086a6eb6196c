// CPU group_rows: every row hashed once (row_hash, in parallel); then either per-block tables
// merged in block order (few groups) or a radix partition of the rows by high hash bits with one
// open-addressing table per partition (many groups). See groupby.hpp for the contract.
#include <algorithm>
#include <cstring>
#include <atomic>
#include <bit>
#include <numeric>
#include <vector>

#include "core/error.hpp"
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
  bool equal(int64_t a, int64_t b) const { return rows_equal(cols, a, cols, b, n); }
};

/// Open-addressing table of groups: a slot holds (upper hash bits << 32) | (local id + 1), so
/// most mismatches are rejected without touching the key columns. Ids are dense, in insertion
/// order; reps[id] is the group's first inserted row.
class GroupTable {
 public:
  explicit GroupTable(int64_t expected) {
    uint64_t cap = std::bit_ceil(uint64_t(std::max<int64_t>(expected, 8)) * 2);
    slots_.assign(cap, 0);
    mask_ = cap - 1;
  }
  std::vector<int64_t> reps;
  std::vector<uint64_t> hashes;

  int64_t size() const { return int64_t(reps.size()); }

  /// The id of row's group (hash h), inserting a new group when none matches.
  int64_t find_or_insert(const Keys& keys, uint64_t h, int64_t row) {
    const uint64_t tag = h & 0xFFFFFFFF00000000ULL;
    for (uint64_t s = h & mask_;; s = (s + 1) & mask_) {
      const uint64_t e = slots_[s];
      if (e == 0) {
        const auto id = int64_t(reps.size());
        slots_[s] = tag | uint64_t(id + 1);
        reps.push_back(row);
        hashes.push_back(h);
        if (uint64_t(reps.size()) * 2 > mask_) grow();
        return id;
      }
      if ((e & 0xFFFFFFFF00000000ULL) == tag) {
        const int64_t id = int64_t(e & 0xFFFFFFFFULL) - 1;
        if (hashes[size_t(id)] == h && keys.equal(reps[size_t(id)], row)) return id;
      }
    }
  }

 private:
  void grow() {
    std::vector<uint64_t> old(std::move(slots_));
    slots_.assign(old.size() * 2, 0);
    mask_ = slots_.size() - 1;
    for (uint64_t e : old) {
      if (e == 0) continue;
      const uint64_t h = hashes[size_t((e & 0xFFFFFFFFULL) - 1)];
      uint64_t s = h & mask_;
      while (slots_[s] != 0) s = (s + 1) & mask_;
      slots_[s] = e;
    }
  }
  std::vector<uint64_t> slots_;
  uint64_t mask_ = 0;
};

template <typename IdT>
struct Grouper {
  const Keys& keys;
  int64_t n;
  IdT* ids;
  std::vector<uint64_t> h;
  std::vector<int64_t> first_rows;

  void hash_rows() {
    h.resize(size_t(n));
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) h[size_t(i)] = row_hash(keys.cols, keys.n, i);
    });
  }

  /// Few groups: a table per block of rows, then the blocks' groups merged in block order, so
  /// ids are numbered by first appearance. False (nothing usable) when a block meets more than
  /// `cap` groups.
  bool by_blocks(int64_t cap) {
    const int64_t blocks = num_blocks(n);
    std::vector<std::vector<int64_t>> reps(static_cast<size_t>(blocks));
    std::vector<std::vector<uint64_t>> hashes(static_cast<size_t>(blocks));
    std::atomic<bool> too_many{false};
    cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1 && !too_many.load(std::memory_order_relaxed); ++b) {
        GroupTable t(1024);
        const int64_t end = std::min(n, (b + 1) * kBlockRows);
        for (int64_t i = b * kBlockRows; i < end; ++i) {
          if (keys.dropped(i)) {
            ids[i] = IdT(-1);
            continue;
          }
          ids[i] = IdT(t.find_or_insert(keys, row_hash(keys.cols, keys.n, i), i));
          if (t.size() > cap) {
            too_many = true;
            return;
          }
        }
        reps[size_t(b)] = std::move(t.reps);
        hashes[size_t(b)] = std::move(t.hashes);
      }
    });
    if (too_many) return false;
    GroupTable global(cap);
    std::vector<std::vector<IdT>> to_global(static_cast<size_t>(blocks));
    for (int64_t b = 0; b < blocks; ++b) {
      auto& m = to_global[size_t(b)];
      m.resize(reps[size_t(b)].size());
      for (size_t k = 0; k < m.size(); ++k)
        m[k] = IdT(global.find_or_insert(keys, hashes[size_t(b)][k], reps[size_t(b)][k]));
    }
    cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const IdT* m = to_global[size_t(b)].data();
        const int64_t end = std::min(n, (b + 1) * kBlockRows);
        for (int64_t i = b * kBlockRows; i < end; ++i)
          if (ids[i] >= 0) ids[i] = m[ids[i]];
      }
    });
    first_rows = std::move(global.reps);
    return true;
  }

  /// Many groups: rows radix-partitioned by the top hash bits (stable), one table per partition.
  void by_partitions(bool maintain_order) {
    const int pbits = std::clamp(int(std::bit_width(uint64_t(n))) - 15, 0, 10);
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
        GroupTable t(std::min<int64_t>(e - b, 1 << 16));
        for (int64_t k = b; k < e; ++k) {
          const int64_t i = rows[size_t(k)];
          ids[i] = IdT(t.find_or_insert(keys, h[size_t(i)], i));
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

template <typename IdT>
std::vector<int64_t> group_into(const Keys& keys, int64_t n, IdT* ids, bool maintain_order) {
  Grouper<IdT> g{keys, n, ids, {}, {}};
  // Few groups: hashes are computed inside the block pass (no array of them); many: once, kept.
  if (!g.by_blocks(kBlockRows / 4)) {
    g.hash_rows();
    g.by_partitions(maintain_order);
  }
  return std::move(g.first_rows);
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
      wide ? group_into(k, n, reinterpret_cast<int64_t*>(out.ids->data()->data()), maintain_order)
           : group_into(k, n, reinterpret_cast<int32_t*>(out.ids->data()->data()), maintain_order);
  out.count = int64_t(first.size());
  out.first_rows = Column::allocate(cpu_device(), TypeId::Int64, out.count, false);
  if (out.count) std::memcpy(out.first_rows->data()->data(), first.data(), first.size() * sizeof(int64_t));
  return out;
}

}  // namespace gpudf::detail
