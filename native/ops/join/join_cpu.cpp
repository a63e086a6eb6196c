// The CPU hash join over the thread pool: the build side's table (BuildTable: a direct-index
// table of chain heads for one integer key of small span, or for several integer keys whose
// spans multiply to a small one, packed into one code; else radix-partitioned hash regions;
// a presence bitmap in front of the hash table when one integer key spans few enough values),
// the probe (chain heads, counts, fill; full joins mark matched build rows), and semi / anti
// joins of a small left side by marking the left rows the right side's probes reach.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/gather/gather.hpp"
#include "ops/join/join.hpp"

namespace gpudf::detail {
namespace {

template <typename T>
T* host_array(BufferPtr& holder, int64_t n) {
  holder = Buffer::allocate(cpu_device(), size_t(std::max<int64_t>(n, 1)) * sizeof(T));
  return reinterpret_cast<T*>(holder->data());
}

/// Row `row` takes part in the join (no null key, unless nulls match).
inline bool joinable(const ColumnView* keys, int32_t nk, int64_t row, bool check_nulls) {
  return !check_nulls || !any_key_null(keys, nk, row);
}

bool has_nulls(const std::vector<ColumnView>& keys) {
  for (const ColumnView& k : keys)
    if (k.validity != nullptr) return true;
  return false;
}

/// Partition bits: regions of about 16K rows, so each partition's table stays in cache.
int32_t partition_bits(int64_t rows) {
  int32_t bits = 0;
  while (bits < 12 && (rows >> bits) > (int64_t(1) << 14)) ++bits;
  return bits;
}

/// The most output rows a join may produce here: its two int64 gather maps alone must fit in
/// the machine's memory. Counting stops once past it, so a join that cannot fit fails in
/// moments instead of counting billions of matches first.
int64_t max_join_rows() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return std::numeric_limits<int64_t>::max();
  return int64_t(pages) * int64_t(page) / int64_t(2 * sizeof(int64_t));
}

inline int64_t partition_of(uint64_t hash, int32_t bits) {
  return bits == 0 ? 0 : int64_t(hash >> (64 - bits));
}

/// Inserts build rows `rows[0..n)` (ascending) into region r, last first, so chains ascend.
void insert_rows(uint64_t* slots, uint32_t* next, SlotRange r, const uint32_t* rows, int64_t n,
                 const uint64_t* hashes, const ColumnView* keys, int32_t nk) {
  std::memset(slots + r.base, 0, size_t(r.size) * sizeof(uint64_t));
  for (int64_t j = n - 1; j >= 0; --j) {
    uint32_t row = rows[j];
    uint64_t h = hashes[row];
    int64_t pos = slot_start(h, r.size);
    while (true) {
      uint64_t& s = slots[r.base + pos];
      if (s == 0) {
        next[row] = kNoRow;
        s = pack_slot(h, row);
        break;
      }
      if (slot_holds(s, h, keys, keys, nk, row)) {
        next[row] = slot_row(s);
        s = pack_slot(h, row);
        break;
      }
      if (++pos == r.size) pos = 0;
    }
  }
}

/// Row i of an integer column as int64 (every integer dtype but uint64, and temporal ones).
inline int64_t int_key(const ColumnView& c, int64_t i) {
  switch (value_width(c.type)) {
    case 1: return c.type == TypeId::Int8 ? c.values<int8_t>()[i] : int64_t(c.values<uint8_t>()[i]);
    case 2: return c.type == TypeId::Int16 ? c.values<int16_t>()[i] : int64_t(c.values<uint16_t>()[i]);
    case 4: return c.type == TypeId::UInt32 ? int64_t(c.values<uint32_t>()[i]) : int64_t(c.values<int32_t>()[i]);
    default: return c.values<int64_t>()[i];
  }
}

/// The values of one integer key: [min, min + span) over its non-null rows. False for other
/// keys (several columns, strings, floats, uint64) or when no row is non-null.
bool key_range(const std::vector<ColumnView>& keys, int64_t& min, uint64_t& span) {
  if (keys.size() != 1) return false;
  const ColumnView& k = keys[0];
  const TypeId t = k.type;
  const bool integer = (t >= TypeId::Int8 && t <= TypeId::UInt32) || t == TypeId::Date32 ||
                       is_timestamp(t) || is_duration(t);
  if (!integer || k.size == 0) return false;
  std::atomic<int64_t> lo{INT64_MAX}, hi{INT64_MIN};
  parallel_blocks(k.size, 1 << 16, [&](int64_t, int64_t b, int64_t e) {
    int64_t l = INT64_MAX, h = INT64_MIN;
    for (int64_t i = b; i < e; ++i)
      if (k.is_valid(i)) {
        const int64_t v = int_key(k, i);
        l = std::min(l, v);
        h = std::max(h, v);
      }
    for (int64_t cur = lo.load(); l < cur && !lo.compare_exchange_weak(cur, l);) {}
    for (int64_t cur = hi.load(); h > cur && !hi.compare_exchange_weak(cur, h);) {}
  });
  if (lo.load() > hi.load()) return false;
  min = lo.load();
  // Keys from INT64_MIN to INT64_MAX span 2^64 values, which uint64 cannot hold (the +1 would
  // wrap to 0 and size a zero-slot table); such a key is no range.
  const uint64_t width = uint64_t(hi.load()) - uint64_t(min);
  if (width == UINT64_MAX) return false;
  span = width + 1;
  return true;
}

/// The build side, ready to probe. Chains (next) ascend by build row in both layouts.
class BuildTable {
 public:
  BuildTable(const std::vector<ColumnView>& build, bool nulls_equal)
      : keys_(build), nk_(int32_t(build.size())), nb_(build[0].size), nulls_equal_(nulls_equal),
        nulls_(!nulls_equal && has_nulls(build)) {
    GPUDF_EXPECTS(nb_ < int64_t(kNoRow) - 1, InvalidArgument, "join: the build side must have fewer than 2^32 - 1 rows");
    next_ = host_array<uint32_t>(next_buf_, nb_);
    uint64_t span = 0;
    // Up to 64 slots a row (at most 64 MiB of heads): a probe then costs one array read, which
    // measured faster than the hash table even for sparse keys (TPC-H's order keys: 1 in 4
    // used, a build side of 1 in 25 orders). Wider: hash, behind a presence bitmap.
    const uint64_t cap = std::min<uint64_t>(std::max<uint64_t>(uint64_t(1) << 20, uint64_t(nb_) * 64), uint64_t(1) << 24);
    if (key_range(build, min_, span)) {
      if (span <= cap) build_direct(int64_t(span));
      else if (span <= (uint64_t(1) << 27)) present_span_ = int64_t(span);
    } else if (plan_packed(build, cap)) {
      build_packed();
    }
    if (direct_span_ == 0) build_hashed();
  }

  const uint32_t* next() const { return next_; }
  int64_t rows() const { return nb_; }

  /// Chain heads (kNoRow: no match) of probe rows [begin, end) into out[0, end - begin).
  void find_heads(const std::vector<ColumnView>& probe, bool probe_nulls, int64_t begin, int64_t end, uint32_t* out) const {
    const ColumnView* pk = probe.data();
    uint32_t* heads = out - begin;  // heads[i] for probe row i
    if (!pack_span_.empty()) {
      for (int64_t i = begin; i < end; ++i) {
        uint64_t code = 0;
        heads[i] = nb_ > 0 && packed_code(pk, i, code) ? heads_[size_t(code)] : kNoRow;
      }
      return;
    }
    if (direct_span_ > 0) {
      const ColumnView& k = pk[0];
      for (int64_t i = begin; i < end; ++i) {
        uint32_t head = kNoRow;
        if (nb_ > 0 && joinable(pk, nk_, i, probe_nulls)) {
          if (k.is_valid(i)) {
            const uint64_t slot = uint64_t(int_key(k, i)) - uint64_t(min_);
            if (slot < uint64_t(direct_span_)) head = heads_[size_t(slot)];
          } else {
            head = heads_[size_t(direct_span_)];
          }
        }
        heads[i] = head;
      }
      return;
    }
    // Groups of kGroup rows: hash all and prefetch their slots, then probe and prefetch their
    // chains (the table is larger than the caches for big build sides). A value the presence
    // bitmap does not hold is no match, without hashing.
    constexpr int64_t kGroup = 16;
    uint64_t hs[kGroup];
    bool live[kGroup];
    const ColumnView& k0 = pk[0];
    for (int64_t g = begin; g < end; g += kGroup) {
      const int64_t m = std::min(kGroup, end - g);
      for (int64_t j = 0; j < m; ++j) {
        live[j] = nb_ > 0 && joinable(pk, nk_, g + j, probe_nulls);
        if (live[j] && present_span_ > 0 && k0.is_valid(g + j)) {
          const uint64_t v = uint64_t(int_key(k0, g + j)) - uint64_t(min_);
          live[j] = v < uint64_t(present_span_) && ((present_[size_t(v >> 6)] >> (v & 63)) & 1);
        }
        if (!live[j]) continue;
        hs[j] = row_hash(pk, nk_, g + j);
        const SlotRange& r = ranges_[size_t(partition_of(hs[j], bits_))];
        __builtin_prefetch(slots_ + r.base + slot_start(hs[j], r.size));
      }
      for (int64_t j = 0; j < m; ++j) {
        uint32_t head = kNoRow;
        if (live[j]) {
          uint64_t s = find_slot(slots_, ranges_[size_t(partition_of(hs[j], bits_))], hs[j], keys_.data(), pk, nk_, g + j);
          if (s != 0) {
            head = slot_row(s);
            __builtin_prefetch(next_ + head);
          }
        }
        heads[g + j] = head;
      }
    }
  }

 private:
  /// Every joinable row at its value's slot, last first (ascending chains).
  void build_direct(int64_t span) {
    direct_span_ = span;
    const ColumnView& k = keys_[0];
    heads_.assign(size_t(span) + 1, kNoRow);
    for (int64_t i = nb_ - 1; i >= 0; --i) {
      if (!joinable(keys_.data(), nk_, i, nulls_)) continue;
      const int64_t slot = k.is_valid(i) ? int_key(k, i) - min_ : span;
      next_[i] = heads_[size_t(slot)];
      heads_[size_t(slot)] = uint32_t(i);
    }
  }

  /// Several integer keys (TPC-H's supplier and nation, say) whose ranges on the build side
  /// multiply to at most `cap` values: each row's keys pack into one code, key k's value minus
  /// its minimum times the product of the later keys' spans (with nulls_equal, a null is one
  /// more value of its key), and the direct table takes the codes.
  bool plan_packed(const std::vector<ColumnView>& build, uint64_t cap) {
    if (build.size() < 2 || nb_ == 0) return false;
    std::vector<int64_t> mins(build.size());
    std::vector<uint64_t> spans(build.size()), radix(build.size());
    uint64_t total = 1;
    for (size_t k = 0; k < build.size(); ++k) {
      if (!key_range({build[k]}, mins[k], spans[k])) return false;
      radix[k] = spans[k] + (nulls_equal_ ? 1 : 0);
      if (radix[k] == 0 || total > cap / radix[k]) return false;
      total *= radix[k];
    }
    pack_min_ = std::move(mins);
    pack_span_ = std::move(spans);
    pack_stride_.assign(build.size(), 1);
    for (size_t k = build.size() - 1; k > 0; --k) pack_stride_[k - 1] = pack_stride_[k] * radix[k];
    direct_span_ = int64_t(total);
    return true;
  }

  /// Row i's code under the packing; false when no build row can have it (a value outside its
  /// key's build range, or a null where nulls never match).
  bool packed_code(const ColumnView* keys, int64_t i, uint64_t& code) const {
    uint64_t c = 0;
    for (int32_t k = 0; k < nk_; ++k) {
      uint64_t v;
      if (keys[k].is_valid(i)) {
        v = uint64_t(int_key(keys[k], i)) - uint64_t(pack_min_[size_t(k)]);
        if (v >= pack_span_[size_t(k)]) return false;
      } else if (nulls_equal_) {
        v = pack_span_[size_t(k)];
      } else {
        return false;
      }
      c += v * pack_stride_[size_t(k)];
    }
    code = c;
    return true;
  }

  /// Every row with a code at its code's slot, last first (ascending chains).
  void build_packed() {
    heads_.assign(size_t(direct_span_), kNoRow);
    for (int64_t i = nb_ - 1; i >= 0; --i) {
      uint64_t code = 0;
      if (!packed_code(keys_.data(), i, code)) continue;
      next_[i] = heads_[size_t(code)];
      heads_[size_t(code)] = uint32_t(i);
    }
  }

  /// Hash every row, radix-partition the joinable rows (stable), one region each.
  void build_hashed() {
    const ColumnView* bk = keys_.data();
    uint64_t* hashes = host_array<uint64_t>(hash_buf_, nb_);
    bits_ = partition_bits(nb_);
    const int64_t parts = int64_t(1) << bits_;
    const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
    std::vector<int64_t> hist(size_t(max_blocks * parts), 0);
    if (present_span_ > 0) present_.assign(size_t((present_span_ + 63) / 64), 0);
    const int64_t blocks = parallel_blocks(nb_, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* hb = hist.data() + b * parts;
      for (int64_t i = begin; i < end; ++i) {
        if (!joinable(bk, nk_, i, nulls_)) continue;
        uint64_t h = row_hash(bk, nk_, i);
        hashes[i] = h;
        ++hb[partition_of(h, bits_)];
        if (present_span_ > 0 && bk[0].is_valid(i)) {
          const uint64_t v = uint64_t(int_key(bk[0], i)) - uint64_t(min_);
          std::atomic_ref<uint64_t>(present_[size_t(v >> 6)]).fetch_or(uint64_t(1) << (v & 63), std::memory_order_relaxed);
        }
      }
    });
    // Partition-major offsets: partition p's rows from block 0, then block 1, ...
    std::vector<int64_t> part_start(size_t(parts) + 1, 0);
    ranges_.resize(static_cast<size_t>(parts));
    int64_t pos = 0, slot_total = 0;
    for (int64_t p = 0; p < parts; ++p) {
      part_start[size_t(p)] = pos;
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t c = hist[size_t(b * parts + p)];
        hist[size_t(b * parts + p)] = pos;
        pos += c;
      }
      int64_t count = pos - part_start[size_t(p)];
      ranges_[size_t(p)] = SlotRange{slot_total, 2 * count + 1};
      slot_total += 2 * count + 1;
    }
    part_start[size_t(parts)] = pos;
    BufferPtr order_buf;
    uint32_t* order = host_array<uint32_t>(order_buf, pos);
    parallel_blocks(nb_, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* at = hist.data() + b * parts;
      for (int64_t i = begin; i < end; ++i)
        if (joinable(bk, nk_, i, nulls_)) order[at[partition_of(hashes[i], bits_)]++] = uint32_t(i);
    });
    slots_ = host_array<uint64_t>(slot_buf_, slot_total);
    cpu_pool().parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p)
        insert_rows(slots_, next_, ranges_[size_t(p)], order + part_start[size_t(p)],
                    part_start[size_t(p) + 1] - part_start[size_t(p)], hashes, bk, nk_);
    });
  }

  const std::vector<ColumnView>& keys_;
  int32_t nk_;
  int64_t nb_;
  bool nulls_equal_;
  bool nulls_;  // null keys are not joinable
  BufferPtr next_buf_, hash_buf_, slot_buf_;
  uint32_t* next_ = nullptr;
  int64_t min_ = 0;
  // Direct layout: heads_[value - min] (the null slot last); packed keys: heads_[code], each
  // key's minimum, span and stride (empty when not packed).
  int64_t direct_span_ = 0;
  HostVector<uint32_t> heads_;
  std::vector<int64_t> pack_min_;
  std::vector<uint64_t> pack_span_, pack_stride_;
  // Hash layout: slots per radix partition; the presence bitmap of values when present_span_.
  uint64_t* slots_ = nullptr;
  int32_t bits_ = 0;
  std::vector<SlotRange> ranges_;
  int64_t present_span_ = 0;
  HostVector<uint64_t> present_;
};

}  // namespace

namespace {

/// A CPU JoinTable: the build keys' views (the table reads them) and the table.
struct CpuJoinTable final : JoinTable {
  CpuJoinTable(const std::vector<ColumnView>& build, bool ne) : keys(build), nulls_equal(ne), table(keys, ne) {}
  std::vector<ColumnView> keys;
  bool nulls_equal;
  BuildTable table;
};

}  // namespace

std::shared_ptr<const JoinTable> build_table_cpu(const std::vector<ColumnView>& build, bool nulls_equal) {
  return std::make_shared<CpuJoinTable>(build, nulls_equal);
}

ProbeResult hash_join_cpu(const std::vector<ColumnView>& build, const std::vector<ColumnView>& probe,
                          JoinHow kind, bool nulls_equal) {
  return probe_table_cpu(*build_table_cpu(build, nulls_equal), probe, kind);
}

ProbeResult probe_table_cpu(const JoinTable& built, const std::vector<ColumnView>& probe, JoinHow kind) {
  const auto& cpu = dynamic_cast<const CpuJoinTable&>(built);
  const BuildTable& table = cpu.table;
  const bool nulls_equal = cpu.nulls_equal;
  const int64_t nb = table.rows(), np = probe[0].size;
  const uint32_t* next = table.next();
  const bool probe_nulls = !nulls_equal && has_nulls(probe);
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;

  // Probe, pass 1: each row's chain head and the output rows per block (full: mark matches).
  BufferPtr head_buf, matched_buf;
  uint32_t* heads = host_array<uint32_t>(head_buf, np);
  uint8_t* matched = nullptr;
  if (kind == JoinHow::Full) {
    matched = host_array<uint8_t>(matched_buf, nb);
    std::memset(matched, 0, size_t(nb));
  }
  std::vector<int64_t> block_out(size_t(max_blocks) + 1, 0);
  std::vector<uint8_t> block_missing(size_t(max_blocks), 0);
  const JoinHow probe_kind = kind == JoinHow::Full ? JoinHow::Left : kind;
  const int64_t max_rows = max_join_rows();
  std::atomic<int64_t> counted{0};  // output rows counted so far, over every block
  const int64_t blocks = parallel_blocks(np, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t out = 0, reported = 0;
    bool missing = false;
    // A few hundred rows at a time: their heads, then their counts (heads still in cache).
    constexpr int64_t kStep = 256;
    for (int64_t g = begin; g < end; g += kStep) {
      if (counted.fetch_add(out - reported, std::memory_order_relaxed) + (out - reported) > max_rows) return;
      reported = out;
      const int64_t e = std::min(end, g + kStep);
      table.find_heads(probe, probe_nulls, g, e, heads + g);
      for (int64_t i = g; i < e; ++i) {
        const uint32_t head = heads[i];
        missing |= head == kNoRow;
        out += probe_count(head, next, probe_kind);
        if (matched)
          for (uint32_t r = head; r != kNoRow; r = next[r])
            if (!matched[r]) std::atomic_ref<uint8_t>(matched[r]).store(1, std::memory_order_relaxed);
      }
    }
    block_out[size_t(b) + 1] = out;
    block_missing[size_t(b)] = missing;
  });
  auto refuse = [](int64_t rows) {
    const int64_t bytes = rows * int64_t(2 * sizeof(int64_t));
    throw OutOfMemoryError(size_t(bytes), "the join's output has over " + std::to_string(rows) + " rows: its row maps alone need " +
                                              std::to_string(bytes) + " bytes, more than this machine's memory");
  };
  if (counted.load() > max_rows) refuse(counted.load());
  for (int64_t b = 0; b < blocks; ++b) block_out[size_t(b) + 1] += block_out[size_t(b)];
  const int64_t probe_total = block_out[size_t(blocks)];
  ProbeResult res;
  for (int64_t b = 0; b < blocks; ++b) res.build_missing |= block_missing[size_t(b)] != 0;
  if (kind == JoinHow::Inner || kind == JoinHow::Semi || kind == JoinHow::Anti) res.build_missing = false;

  // Full: the build rows nobody matched (null keys included), in build order, go last.
  std::vector<int64_t> unmatched_at(size_t(max_blocks) + 1, 0);
  int64_t ublocks = 0;
  if (matched) {
    ublocks = parallel_blocks(nb, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t c = 0;
      for (int64_t i = begin; i < end; ++i) c += matched[i] == 0;
      unmatched_at[size_t(b) + 1] = c;
    });
    for (int64_t b = 0; b < ublocks; ++b) unmatched_at[size_t(b) + 1] += unmatched_at[size_t(b)];
  }
  const int64_t unmatched = unmatched_at[size_t(ublocks)];
  res.probe_missing = unmatched > 0;
  const int64_t total = probe_total + unmatched;
  if (total > max_rows) refuse(total);

  res.probe = Column::allocate(cpu_device(), TypeId::Int64, total, false);
  int64_t* pm = reinterpret_cast<int64_t*>(res.probe->data()->data());
  int64_t* bm = nullptr;
  if (kind != JoinHow::Semi && kind != JoinHow::Anti) {
    res.build = Column::allocate(cpu_device(), TypeId::Int64, total, false);
    bm = reinterpret_cast<int64_t*>(res.build->data()->data());
  }
  // Pass 2 over the same blocks: fill from each block's start.
  parallel_blocks(np, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t at = block_out[size_t(b)];
    for (int64_t i = begin; i < end; ++i) {
      probe_fill(heads[i], next, probe_kind, i, at, pm, bm);
      at += probe_count(heads[i], next, probe_kind);
    }
  });
  if (matched) {
    parallel_blocks(nb, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t at = probe_total + unmatched_at[size_t(b)];
      for (int64_t i = begin; i < end; ++i)
        if (!matched[i]) {
          pm[at] = -1;
          bm[at++] = i;
        }
    });
  }
  return res;
}

JoinMaps left_join_building_left_cpu(const std::vector<ColumnView>& left, const std::vector<ColumnView>& right,
                                     bool nulls_equal) {
  // A full join built on the left, then without the right rows nobody on the left matched.
  ProbeResult pr = hash_join_cpu(left, right, JoinHow::Full, nulls_equal);
  const int64_t n = pr.probe->size();
  const int64_t* b = pr.build->view().values<int64_t>();
  const int64_t* p = pr.probe->view().values<int64_t>();
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  std::vector<int64_t> at(size_t(max_blocks) + 1, 0);
  const int64_t blocks = parallel_blocks(n, 1 << 15, [&](int64_t blk, int64_t begin, int64_t end) {
    int64_t c = 0;
    for (int64_t i = begin; i < end; ++i) c += b[i] >= 0;
    at[size_t(blk) + 1] = c;
  });
  for (int64_t k = 0; k < blocks; ++k) at[size_t(k) + 1] += at[size_t(k)];
  JoinMaps maps;
  maps.left = Column::allocate(cpu_device(), TypeId::Int64, at[size_t(blocks)], false);
  maps.right = Column::allocate(cpu_device(), TypeId::Int64, at[size_t(blocks)], false);
  int64_t* l = reinterpret_cast<int64_t*>(maps.left->data()->data());
  int64_t* r = reinterpret_cast<int64_t*>(maps.right->data()->data());
  parallel_blocks(n, 1 << 15, [&](int64_t blk, int64_t begin, int64_t end) {
    int64_t k = at[size_t(blk)];
    for (int64_t i = begin; i < end; ++i)
      if (b[i] >= 0) {
        l[k] = b[i];
        r[k++] = p[i];
      }
  });
  maps.left_has_missing = false;
  maps.right_has_missing = pr.probe_missing;  // left rows nobody on the right matched
  return maps;
}

ColumnPtr semi_join_by_marking_cpu(const std::vector<ColumnView>& left, const std::vector<ColumnView>& right, bool anti,
                                    bool nulls_equal) {
  const BuildTable table(left, nulls_equal);
  const int64_t nl = table.rows(), nr = right[0].size;
  const uint32_t* next = table.next();
  const bool probe_nulls = !nulls_equal && has_nulls(right);
  BufferPtr matched_buf;
  uint8_t* matched = host_array<uint8_t>(matched_buf, nl);
  std::memset(matched, 0, size_t(nl));
  // Each right row marks its chain; a chain whose head is marked is (being) marked whole.
  parallel_blocks(nr, 1 << 14, [&](int64_t, int64_t begin, int64_t end) {
    constexpr int64_t kStep = 256;
    uint32_t heads[kStep];
    for (int64_t g = begin; g < end; g += kStep) {
      const int64_t e = std::min(end, g + kStep);
      table.find_heads(right, probe_nulls, g, e, heads);
      for (int64_t i = g; i < e; ++i) {
        const uint32_t head = heads[i - g];
        if (head == kNoRow || std::atomic_ref<uint8_t>(matched[head]).load(std::memory_order_relaxed)) continue;
        for (uint32_t r = head; r != kNoRow; r = next[r]) std::atomic_ref<uint8_t>(matched[r]).store(1, std::memory_order_relaxed);
      }
    }
  });
  // The kept left rows, ascending: counts per block, then each block writes from its start.
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  std::vector<int64_t> at(size_t(max_blocks) + 1, 0);
  const uint8_t want = anti ? 0 : 1;
  const int64_t blocks = parallel_blocks(nl, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t c = 0;
    for (int64_t i = begin; i < end; ++i) c += matched[i] == want;
    at[size_t(b) + 1] = c;
  });
  for (int64_t b = 0; b < blocks; ++b) at[size_t(b) + 1] += at[size_t(b)];
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, at[size_t(blocks)], false);
  int64_t* rows = reinterpret_cast<int64_t*>(out->data()->data());
  parallel_blocks(nl, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t k = at[size_t(b)];
    for (int64_t i = begin; i < end; ++i)
      if (matched[i] == want) rows[k++] = i;
  });
  return out;
}

JoinMaps cross_maps_cpu(int64_t left_rows, int64_t right_rows) {
  const int64_t n = left_rows * right_rows;
  JoinMaps maps;
  maps.left = Column::allocate(cpu_device(), TypeId::Int64, n, false);
  maps.right = Column::allocate(cpu_device(), TypeId::Int64, n, false);
  int64_t* l = reinterpret_cast<int64_t*>(maps.left->data()->data());
  int64_t* r = reinterpret_cast<int64_t*>(maps.right->data()->data());
  parallel_blocks(n, 1 << 15, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      l[i] = i / right_rows;
      r[i] = i % right_rows;
    }
  });
  return maps;
}

ColumnPtr coalesce_map_cpu(const ColumnView& left, const ColumnView& right, int64_t left_rows) {
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, left.size, false);
  int64_t* o = reinterpret_cast<int64_t*>(out->data()->data());
  const int64_t* l = left.values<int64_t>();
  const int64_t* r = right.values<int64_t>();
  parallel_blocks(left.size, 1 << 15, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) o[i] = coalesce_index(l[i], r[i], left_rows);
  });
  return out;
}

}  // namespace gpudf::detail
