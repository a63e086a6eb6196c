// CPU group_rows: keys that are integer-like or strings of up to 7 bytes become one int64 code
// (packed_keys) when the codes fit. Otherwise every row is hashed once (row_hash). Up to a few
// hundred thousand groups, one table per thread over a contiguous range of rows, merged in
// range order; with more, a radix partition of the rows by high hash bits with one
// open-addressing table per partition. A table keeps a single fixed-width or string key itself
// (no reads of the key column at a group's first row). See groupby.hpp for the contract.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/dispatch.hpp"
#include "core/thread_pool.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/groupby/groupby_internal.hpp"
#include "ops/groupby/group_table.hpp"
#include "ops/hash/row_hash.hpp"

namespace gpudf::detail {
namespace {

using groupby_detail::kBlockRows;
using groupby_detail::num_blocks;
using groupby_detail::thread_ranges;
using namespace group_table;

/// Rows each range scans before judging whether its groups are too many for one table per range.
inline constexpr int64_t kProbeRows = int64_t(1) << 18;
/// Rows after which a range whose rows were nearly all (95%) new groups gives up at once.
inline constexpr int64_t kEarlyRows = int64_t(1) << 14;
/// Most groups a range's table may hold (beyond it the partitioned path takes over).
inline constexpr int64_t kMaxRangeGroups = int64_t(1) << 21;
/// Rows hashed (and their slots prefetched) ahead of their probes.
inline constexpr int64_t kBatch = 32;

/// Turns each range's local ids into global ones: ids[i] = to_global[range of i][ids[i]]
/// (-1 stays -1). Parallel over fixed blocks.
template <typename IdT>
void remap_ranges(int64_t n, const std::vector<int64_t>& range_start, const std::vector<HostVector<IdT>>& to_global,
                  IdT* ids) {
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
}

/// Most distinct values (max - min + 1) an integer key may span for direct indexing.
inline constexpr uint64_t kDirectSpan = uint64_t(1) << 24;

/// One integer key whose values span at most kDirectSpan (and at most 4 slots a row): a
/// group's id is found in an array indexed by value - min (nulls after the last value), with
/// no hashing. Each range lists where values first appear in it; the lists merged in range
/// order number the values by first appearance. False when the span is too wide.
template <typename T, typename IdT>
bool by_direct_index(const ColumnView& c, bool drop_nulls, int64_t n, IdT* ids, HostVector<int64_t>& first_rows) {
  using U = std::make_unsigned_t<T>;
  const std::vector<int64_t> range_start = thread_ranges(n);
  const auto ranges = int64_t(range_start.size()) - 1;
  std::vector<T> lo(size_t(ranges), std::numeric_limits<T>::max()), hi(size_t(ranges), std::numeric_limits<T>::lowest());
  cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      T l = lo[size_t(r)], h = hi[size_t(r)];
      const T* x = c.values<T>();
      if (c.validity == nullptr) {  // a loop the compiler vectorizes
        for (int64_t i = range_start[size_t(r)]; i < range_start[size_t(r + 1)]; ++i) {
          l = std::min(l, x[i]);
          h = std::max(h, x[i]);
        }
      } else {
        for (int64_t i = range_start[size_t(r)]; i < range_start[size_t(r + 1)]; ++i)
          if (c.is_valid(i)) {
            l = std::min(l, x[i]);
            h = std::max(h, x[i]);
          }
      }
      lo[size_t(r)] = l;
      hi[size_t(r)] = h;
    }
  });
  const T min = *std::min_element(lo.begin(), lo.end()), max = *std::max_element(hi.begin(), hi.end());
  // max - min in unsigned arithmetic (exact for any pair), compared before adding 1.
  const uint64_t diff = min <= max ? uint64_t(U(U(max) - U(min))) : 0;
  if (diff >= kDirectSpan || diff >= uint64_t(std::max<int64_t>(n, 256)) * 4) return false;
  const uint64_t span = min <= max ? diff + 1 : 0;
  const auto slot_of = [&](int64_t i) { return c.is_valid(i) ? int64_t(U(U(c.values<T>()[i]) - U(min))) : int64_t(span); };
  // Each range lists the rows where a value first appears in it (no ids written yet), and
  // stops early once every value the span allows has appeared (keys of a few dense values) ...
  const auto slots = int64_t(span) + (c.validity != nullptr && !drop_nulls ? 1 : 0);
  std::vector<HostVector<int64_t>> reps(static_cast<size_t>(ranges));
  cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
    HostVector<uint8_t> seen(span + 1);
    for (int64_t r = r0; r < r1; ++r) {
      std::fill(seen.begin(), seen.end(), uint8_t(0));
      auto& rep = reps[size_t(r)];
      for (int64_t i = range_start[size_t(r)]; i < range_start[size_t(r + 1)] && int64_t(rep.size()) < slots; ++i) {
        if (drop_nulls && !c.is_valid(i)) continue;
        uint8_t& m = seen[size_t(slot_of(i))];
        if (!m) {
          m = 1;
          rep.push_back(i);
        }
      }
    }
  });
  // ... the lists, in range order, number the values by first appearance ...
  HostVector<IdT> global(span + 1, IdT(-1));
  first_rows.clear();
  for (const auto& rep : reps)
    for (const int64_t row : rep) {
      IdT& g = global[size_t(slot_of(row))];
      if (g < 0) {
        g = IdT(first_rows.size());
        first_rows.push_back(row);
      }
    }
  // ... and one pass writes every row's id (a dropped null row's slot keeps -1).
  cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) ids[i] = global[size_t(slot_of(i))];
  });
  return true;
}

template <typename IdT, typename Store>
struct Grouper {
  const Keys& keys;
  const Store& proto;
  int64_t n;
  IdT* ids;
  HostVector<uint64_t> h;
  HostVector<int64_t> first_rows;

  void hash_rows() {
    h.resize(size_t(n));
    cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; i += kBatch) proto.hash_block(i, std::min(kBatch, e - i), h.data() + i);
    });
  }

  /// Contiguous ranges of rows (one per pool thread) each fill a table of their own; the ranges'
  /// groups are then merged in range order, so ids are numbered by first appearance whatever
  /// the number of ranges. False (nothing usable) when the groups are nearly as many as the
  /// rows: more than half of a range's first kProbeRows rows (or all its rows, when fewer)
  /// start a group, or 95% of its first kEarlyRows, or a range meets more than
  /// kMaxRangeGroups; the partitioned path, whose
  /// tables stay cache-sized, then does better.
  bool by_ranges() {
    const std::vector<int64_t> range_start = thread_ranges(n);
    const auto ranges = int64_t(range_start.size()) - 1;
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
            proto.hash_block(i, m, hb);
            for (int64_t k = 0; k < m; ++k) t.prefetch(hb[k]);
            for (int64_t k = 0; k < m; ++k)
              ids[i + k] = keys.dropped(i + k) ? IdT(-1) : IdT(t.find_or_insert(hb[k], i + k));
          }
          const int64_t seen = std::min(end, b + kBlockRows) - begin, probe = std::min(kProbeRows, end - begin);
          const bool probing = seen >= probe && seen - kBlockRows < probe;
          // Nearly every row a new group early on: no need to scan kProbeRows to know.
          const bool early = seen >= kEarlyRows && seen - kBlockRows < kEarlyRows && t.size() * 100 > seen * 95;
          if (t.size() > kMaxRangeGroups || early || (probing && t.size() * 2 > seen)) {
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
    std::vector<HostVector<IdT>> to_global(static_cast<size_t>(ranges));
    for (int64_t r = 0; r < ranges; ++r) {
      const GroupTable<Store>& t = tables[size_t(r)];
      auto& m = to_global[size_t(r)];
      m.resize(size_t(t.size()));
      for (size_t k = 0; k < m.size(); ++k) m[k] = IdT(global.find_or_insert(t.hashes[k], t.reps[k]));
    }
    tables.clear();
    remap_ranges(n, range_start, to_global, ids);
    first_rows.assign(global.reps.begin(), global.reps.end());
    return true;
  }

  /// Many groups: rows radix-partitioned by the top hash bits (stable; each row's hash moved
  /// with it, so a partition's probes read it in order), one cache-sized table per partition.
  /// Ids are then numbered by first appearance: a bitmap of the groups' first rows, whose
  /// prefix popcounts rank each first row, turns a partition's local ids into global ones.
  template <typename PartStore>
  void by_partitions(const PartStore& part_proto) {
    const int pbits = std::clamp(int(std::bit_width(uint64_t(n))) - 14, 0, 11);
    const int64_t parts = int64_t(1) << pbits;
    const int shift = 64 - pbits;
    auto part_of = [&](uint64_t hash) { return pbits ? int64_t(hash >> shift) : int64_t(0); };
    // rows[k]: the partitioned rows; hk[k]: row k's hash, overwritten by its local id once probed.
    HostVector<IdT> rows;
    HostVector<uint64_t> hk;
    const HostVector<int64_t> part_begin = groupby_detail::counting_scatter(
        groupby_detail::block_ranges(n), parts,
        [&](int64_t i) { return keys.dropped(i) ? int64_t(-1) : part_of(h[size_t(i)]); },
        [&](int64_t total) {
          rows.resize(size_t(total));
          hk.resize(size_t(total));
        },
        [&](int64_t at, int64_t i) {
          rows[size_t(at)] = IdT(i);
          hk[size_t(at)] = h[size_t(i)];
        });
    HostVector<uint64_t>().swap(h);
    std::vector<HostVector<int64_t>> reps(static_cast<size_t>(parts));
    const int64_t words = (n + 63) / 64;
    std::vector<std::atomic<uint64_t>> first(static_cast<size_t>(words));
    cpu_pool().parallel_for(words, 1 << 14, [&](int64_t w0, int64_t w1) {
      for (int64_t w = w0; w < w1; ++w) first[size_t(w)].store(0, std::memory_order_relaxed);
    });
    cpu_pool().parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t b = part_begin[size_t(p)], e = part_begin[size_t(p + 1)];
        GroupTable<PartStore> t(std::min<int64_t>(e - b, 1 << 16), part_proto);
        for (int64_t k = b; k < e; ++k) hk[size_t(k)] = uint64_t(t.find_or_insert(hk[size_t(k)], int64_t(rows[size_t(k)])));
        for (const int64_t r : t.reps) first[size_t(r >> 6)].fetch_or(uint64_t(1) << (r & 63), std::memory_order_relaxed);
        reps[size_t(p)] = std::move(t.reps);
      }
    });
    // rank[w]: first rows before word w (a scan over per-chunk popcounts).
    HostVector<int64_t> rank(static_cast<size_t>(words + 1), 0);
    const std::vector<int64_t> wr = thread_ranges(words);
    std::vector<int64_t> chunk_total(wr.size(), 0);
    cpu_pool().parallel_for(int64_t(wr.size()) - 1, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c) {
        int64_t k = 0;
        for (int64_t w = wr[size_t(c)]; w < wr[size_t(c + 1)]; ++w) {
          rank[size_t(w)] = k;
          k += std::popcount(first[size_t(w)].load(std::memory_order_relaxed));
        }
        chunk_total[size_t(c)] = k;
      }
    });
    std::exclusive_scan(chunk_total.begin(), chunk_total.end(), chunk_total.begin(), int64_t(0));
    const int64_t count = chunk_total.back();
    first_rows.resize(size_t(count));
    cpu_pool().parallel_for(int64_t(wr.size()) - 1, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c)
        for (int64_t w = wr[size_t(c)]; w < wr[size_t(c + 1)]; ++w) {
          rank[size_t(w)] += chunk_total[size_t(c)];
          int64_t at = rank[size_t(w)];
          for (uint64_t bits = first[size_t(w)].load(std::memory_order_relaxed); bits; bits &= bits - 1)
            first_rows[size_t(at++)] = w * 64 + std::countr_zero(bits);
        }
    });
    auto id_of_first = [&](int64_t r) {
      const uint64_t below = first[size_t(r >> 6)].load(std::memory_order_relaxed) & ((uint64_t(1) << (r & 63)) - 1);
      return rank[size_t(r >> 6)] + std::popcount(below);
    };
    if (keys.drop_nulls)
      cpu_pool().parallel_for(n, 1 << 14, [&](int64_t b, int64_t e) { std::fill(ids + b, ids + e, IdT(-1)); });
    cpu_pool().parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
      HostVector<IdT> global;
      for (int64_t p = p0; p < p1; ++p) {
        const auto& rp = reps[size_t(p)];
        global.resize(rp.size());
        for (size_t j = 0; j < rp.size(); ++j) global[j] = IdT(id_of_first(rp[j]));
        for (int64_t k = part_begin[size_t(p)]; k < part_begin[size_t(p + 1)]; ++k)
          ids[rows[size_t(k)]] = global[size_t(hk[size_t(k)])];
      }
    });
  }
};

template <typename IdT, typename Store>
HostVector<int64_t> group_into(const Keys& keys, const Store& proto, int64_t n, IdT* ids) {
  Grouper<IdT, Store> g{keys, proto, n, ids, {}, {}};
  // Hashes are computed inside the range pass (no array of them); the partitioned path keeps them.
  if (!g.by_ranges()) {
    g.hash_rows();
    // Nearly-unique keys: a multi-column key is compared through its first row rather than
    // encoded for every group.
    if constexpr (std::is_same_v<Store, MultiKey>) g.by_partitions(RowKeys{&keys});
    else g.by_partitions(proto);
  }
  return std::move(g.first_rows);
}

/// group_into with the key store that fits the keys.
template <typename IdT>
HostVector<int64_t> group_with_store(const Keys& keys, int64_t n, IdT* ids) {
  if (keys.n == 1 && is_string_key(keys.cols[0].type))
    return group_into(keys, StringKey{keys.cols, {}}, n, ids);
  if (keys.n == 1) {
    return type_dispatch(keys.cols[0].type, [&]<TypeId T>() {
      using S = storage_t<T>;
      if constexpr (std::is_integral_v<S>) {
        HostVector<int64_t> first;
        if (by_direct_index<S>(keys.cols[0], keys.drop_nulls, n, ids, first)) return first;
      }
      if constexpr (std::is_arithmetic_v<S>)
        return group_into(keys, FixedKey<S>{keys.cols}, n, ids);
      else
        return group_into(keys, MultiKey{&keys, {}}, n, ids);
    });
  }
  return group_into(keys, MultiKey{&keys, {}}, n, ids);
}

/// Longest string (bytes) a packed key holds.
inline constexpr int64_t kShortString = 7;

/// Row i of an integer-like key (bool, integers but uint64, dates, timestamps, durations) as int64.
inline int64_t int_value(const ColumnView& c, int64_t i) {
  switch (c.type) {
    case TypeId::Bool:
    case TypeId::UInt8: return c.values<uint8_t>()[i];
    case TypeId::Int8: return c.values<int8_t>()[i];
    case TypeId::Int16: return c.values<int16_t>()[i];
    case TypeId::UInt16: return c.values<uint16_t>()[i];
    case TypeId::Int32:
    case TypeId::Date32: return c.values<int32_t>()[i];
    case TypeId::UInt32: return c.values<uint32_t>()[i];
    default: return c.values<int64_t>()[i];
  }
}

/// The codes of rows [b, e) of a string key into out (its bytes as an integer with the length
/// in the top byte, so "a" and "a\0" differ), their range into l / h, and
/// any_null set when a row is null; false at the first string longer than kShortString bytes.
template <typename O>
bool short_string_codes(const ColumnView& c, int64_t b, int64_t e, int64_t* out, int64_t& l, int64_t& h,
                        uint8_t& any_null) {
  const O* o = c.string_offsets<O>();
  const uint8_t* d = c.data;
  for (int64_t i = b; i < e; ++i) {
    if (c.validity && !c.is_valid(i)) {
      any_null = 1;
      out[i] = 0;
      continue;
    }
    const int64_t at = int64_t(o[i]), len = int64_t(o[i + 1]) - at;
    if (len > kShortString) return false;
    uint64_t v = uint64_t(len) << 56;
    for (int64_t j = 0; j < len; ++j) v |= uint64_t(d[at + j]) << (8 * j);
    out[i] = int64_t(v);
    l = std::min(l, int64_t(v));
    h = std::max(h, int64_t(v));
  }
  return true;
}

/// Several integer-like or short-string keys (or one short-string key) as one int64 key with
/// the same groups: key k's code is its value (int_value) minus the key's minimum (or one code
/// past its values for a null, a group of its own), the codes combined in mixed radix. Grouping
/// that one column is a fixed-width key (or direct indexing) instead of the encoded multi-column
/// store or string hashing. Null when a key is of another dtype, a string is longer than
/// kShortString bytes or the codes need more than 62 bits. drop_nulls: a row with a null key is
/// null in the result.
ColumnPtr packed_keys(const std::vector<ColumnView>& keys, bool drop_nulls) {
  const int64_t n = keys[0].size;
  const size_t nk = keys.size();
  for (const ColumnView& k : keys) {
    const TypeId t = k.type;
    if (!(t == TypeId::Bool || (t >= TypeId::Int8 && t <= TypeId::UInt32) || t == TypeId::Date32 ||
          is_timestamp(t) || is_duration(t) || is_string(t)))
      return nullptr;
  }
  std::vector<int64_t> lo(nk, INT64_MAX), hi(nk, INT64_MIN);
  std::vector<uint8_t> nulls(nk, 0);
  std::atomic<bool> long_string{false};
  // A string key's codes are computed once, in the first pass, and read back in the second.
  std::vector<HostVector<int64_t>> codes(nk);
  for (size_t k = 0; k < nk; ++k)
    if (is_string(keys[k].type)) codes[k].resize(size_t(n));
  std::mutex m;
  cpu_pool().parallel_for(n, 1 << 16, [&](int64_t b, int64_t e) {
    std::vector<int64_t> l(nk, INT64_MAX), h(nk, INT64_MIN);
    std::vector<uint8_t> any(nk, 0);
    for (size_t k = 0; k < nk; ++k) {
      const ColumnView& c = keys[k];
      bool ok = true;
      if (c.type == TypeId::Utf8) ok = short_string_codes<int32_t>(c, b, e, codes[k].data(), l[k], h[k], any[k]);
      else if (c.type == TypeId::LargeUtf8) ok = short_string_codes<int64_t>(c, b, e, codes[k].data(), l[k], h[k], any[k]);
      else
        for (int64_t i = b; i < e; ++i) {
          if (!c.is_valid(i)) {
            any[k] = 1;
            continue;
          }
          const int64_t v = int_value(c, i);
          l[k] = std::min(l[k], v);
          h[k] = std::max(h[k], v);
        }
      if (!ok) {
        long_string.store(true, std::memory_order_relaxed);
        return;
      }
    }
    std::lock_guard<std::mutex> lock(m);
    for (size_t k = 0; k < nk; ++k) {
      lo[k] = std::min(lo[k], l[k]);
      hi[k] = std::max(hi[k], h[k]);
      nulls[k] |= any[k];
    }
  });
  if (long_string.load()) return nullptr;
  std::vector<uint64_t> radix(nk), mult(nk);
  uint64_t total = 1;
  for (size_t k = nk; k-- > 0;) {
    // The width is compared before adding 1: INT64_MIN..INT64_MAX would wrap the span to 0.
    const uint64_t width = lo[k] <= hi[k] ? uint64_t(hi[k]) - uint64_t(lo[k]) : 0;
    if (width >= (uint64_t(1) << 62)) return nullptr;
    const uint64_t span = lo[k] <= hi[k] ? width + 1 : 0;
    radix[k] = span + (nulls[k] && !drop_nulls ? 1 : 0);
    if (radix[k] == 0) radix[k] = 1;
    mult[k] = total;
    if (radix[k] > (uint64_t(1) << 62) / total) return nullptr;
    total *= radix[k];
  }
  bool any_null = false;
  for (uint8_t x : nulls) any_null |= x != 0;
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, n, drop_nulls && any_null);
  auto* code = reinterpret_cast<uint64_t*>(out->data()->data());
  uint8_t* bits = out->has_validity() ? out->validity()->data() : nullptr;
  cpu_pool().parallel_for(bitmap_bytes(n), 1 << 12, [&](int64_t y0, int64_t y1) {
    const int64_t b = y0 * 8, e = std::min(n, y1 * 8);
    std::fill(code + b, code + e, uint64_t(0));
    // Key by key over the block: a string key without nulls is one loop the compiler vectorizes.
    for (size_t k = 0; k < nk; ++k) {
      const ColumnView& c = keys[k];
      const uint64_t base = uint64_t(lo[k]), mk = mult[k];
      if (!codes[k].empty() && !nulls[k]) {
        const int64_t* v = codes[k].data();
        for (int64_t i = b; i < e; ++i) code[i] += (uint64_t(v[i]) - base) * mk;
        continue;
      }
      for (int64_t i = b; i < e; ++i) {
        const bool ok = c.is_valid(i);
        const uint64_t v = ok ? uint64_t(codes[k].empty() ? int_value(c, i) : codes[k][size_t(i)]) - base : radix[k] - 1;
        code[i] += v * mk;
      }
    }
    if (bits)
      for (int64_t i = b; i < e; ++i) {
        bool valid = true;
        for (size_t k = 0; k < nk; ++k) valid &= keys[k].is_valid(i);
        if (valid) set_bit(bits, i);
      }
  });
  return out;
}

}  // namespace

GroupIds group_rows_cpu(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order) {
  (void)maintain_order;  // every CPU path numbers ids by first appearance
  if (keys.size() > 1 || is_string(keys[0].type))
    if (ColumnPtr packed = packed_keys(keys, drop_nulls)) return group_rows_cpu({packed->view()}, drop_nulls, maintain_order);
  const int64_t n = keys[0].size;
  bool nullable = false;
  for (const ColumnView& k : keys) nullable |= k.validity != nullptr;
  const Keys k{keys.data(), int32_t(keys.size()), drop_nulls && nullable};
  GroupIds out;
  const bool wide = n >= (int64_t(1) << 31);
  out.ids = Column::allocate(cpu_device(), wide ? TypeId::Int64 : TypeId::Int32, n, false);
  HostVector<int64_t> first =
      wide ? group_with_store(k, n, reinterpret_cast<int64_t*>(out.ids->data()->data()))
           : group_with_store(k, n, reinterpret_cast<int32_t*>(out.ids->data()->data()));
  out.count = int64_t(first.size());
  out.first_rows = Column::allocate(cpu_device(), TypeId::Int64, out.count, false);
  if (out.count) std::memcpy(out.first_rows->data()->data(), first.data(), first.size() * sizeof(int64_t));
  return out;
}

}  // namespace gpudf::detail
