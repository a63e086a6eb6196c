// Joins: key promotion, the choice of build side, orientation and ordering of the gather maps
// (both backends), and the CPU hash join over the thread pool.
#include "ops/join/join.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/concat/concat.hpp"
#include "ops/expr/expr.hpp"
#include "ops/expr/typing.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {
namespace {

/// `column` cast to `to` with the expression cast (the one cast machinery).
ColumnPtr cast_column(const ColumnPtr& column, TypeId to) {
  expr::NodeSpec c;
  c.op = "col";
  c.name.push_back('k');  // not `= "k"`: GCC 12 warns falsely (-Wrestrict) on that assignment here
  expr::NodeSpec k;
  k.op = "cast";
  k.args = {0};
  k.dtype = static_cast<int32_t>(to);
  expr::Frame frame{{"k"}, {column}, column->size()};
  return expr::evaluate({c, k}, frame, column->device());
}

/// The same int64 map read as uint64, so -1 ("no row") sorts after every row.
SortKey unsigned_key(const ColumnPtr& map) {
  ColumnView v = map->view();
  v.type = TypeId::UInt64;
  return SortKey{v, false, true};
}

}  // namespace

void promote_join_keys(std::vector<ColumnPtr>& left, std::vector<ColumnPtr>& right) {
  GPUDF_EXPECTS(!left.empty() && left.size() == right.size(), InvalidArgument,
                "join needs the same number (at least one) of left and right keys");
  for (size_t k = 0; k < left.size(); ++k) {
    TypeId a = left[k]->type(), b = right[k]->type();
    if (a == b) continue;
    std::optional<TypeId> to = expr::value_supertype(a, b);
    GPUDF_EXPECTS(to.has_value(), Dtype,
                  "join keys of dtypes " + std::string(type_name(a)) + " and " + std::string(type_name(b)) +
                      " cannot be compared (key " + std::to_string(k) + ")");
    if (a != *to) left[k] = cast_column(left[k], *to);
    if (b != *to) right[k] = cast_column(right[k], *to);
  }
}

JoinMaps join_maps(const std::vector<ColumnView>& left_keys,
                   const std::vector<ColumnView>& right_keys, JoinHow how, bool nulls_equal,
                   JoinOrder order) {
  GPUDF_EXPECTS(how != JoinHow::Cross, InvalidArgument, "a cross join has no keys: use cross_maps");
  GPUDF_EXPECTS(!left_keys.empty() && left_keys.size() == right_keys.size(), InvalidArgument,
                "join needs the same number (at least one) of left and right keys");
  for (size_t k = 0; k < left_keys.size(); ++k) {
    GPUDF_EXPECTS(left_keys[k].type == right_keys[k].type, Dtype, "join keys must share a dtype");
    GPUDF_EXPECTS(left_keys[k].size == left_keys[0].size && right_keys[k].size == right_keys[0].size,
                  InvalidArgument, "join keys of one side must have the same length");
    GPUDF_EXPECTS(left_keys[k].device == left_keys[0].device && right_keys[k].device == left_keys[0].device,
                  InvalidArgument, "join keys must live on one device");
  }
  const bool left_order = order == JoinOrder::Left || order == JoinOrder::LeftRight;
  const bool right_order = order == JoinOrder::Right || order == JoinOrder::RightLeft;
  // Probe the side whose order is kept (the build side's order is only the chain order).
  bool probe_left = true;
  JoinHow kind = how;
  switch (how) {
    case JoinHow::Inner:
      probe_left = left_order ? true : right_order ? false : left_keys[0].size >= right_keys[0].size;
      break;
    case JoinHow::Right: probe_left = false; kind = JoinHow::Left; break;
    case JoinHow::Full: probe_left = !right_order; break;
    default: break;  // left, semi, anti: probe left
  }
  const auto& probe = probe_left ? left_keys : right_keys;
  const auto& build = probe_left ? right_keys : left_keys;
  detail::ProbeResult pr;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(probe[0])) pr = detail::hash_join_cuda(build, probe, kind, nulls_equal);
  else
#endif
    pr = detail::hash_join_cpu(build, probe, kind, nulls_equal);

  JoinMaps maps;
  if (kind == JoinHow::Semi || kind == JoinHow::Anti) {
    maps.left = pr.probe;  // left order, always
    return maps;
  }
  maps.left = probe_left ? pr.probe : pr.build;
  maps.right = probe_left ? pr.build : pr.probe;
  maps.left_has_missing = probe_left ? pr.probe_missing : pr.build_missing;
  maps.right_has_missing = probe_left ? pr.build_missing : pr.probe_missing;

  // The probe gives (probe row, then chain order); the CPU's chains are ascending, CUDA's not.
  if (order == JoinOrder::None) return maps;
  const bool by_probe = probe_left ? left_order : right_order;
  const bool two_level = order == JoinOrder::LeftRight || order == JoinOrder::RightLeft;
  if (by_probe && (!two_level || !on_cuda(probe[0]))) return maps;
  const ColumnPtr& first = left_order ? maps.left : maps.right;
  const ColumnPtr& second = left_order ? maps.right : maps.left;
  std::vector<SortKey> keys{unsigned_key(first)};
  if (two_level) keys.push_back(unsigned_key(second));
  ColumnPtr perm = sorted_order(keys);
  maps.left = detail::gather_unchecked(maps.left->view(), perm->view());
  maps.right = detail::gather_unchecked(maps.right->view(), perm->view());
  return maps;
}

JoinMaps cross_maps(Device& device, int64_t left_rows, int64_t right_rows) {
  GPUDF_EXPECTS(left_rows >= 0 && right_rows >= 0, InvalidArgument, "row counts must be >= 0");
  GPUDF_EXPECTS(right_rows == 0 || left_rows <= INT64_MAX / std::max<int64_t>(right_rows, 1) / 16,
                InvalidArgument, "cross join result too large");
#ifdef GPUDF_WITH_CUDA
  if (device.kind() == DeviceKind::Cuda) return detail::cross_maps_cuda(device, left_rows, right_rows);
#endif
  return detail::cross_maps_cpu(left_rows, right_rows);
}

ColumnPtr coalesce_keys(const ColumnView& left_key, const ColumnView& right_key,
                        const JoinMaps& maps) {
  if (!maps.left_has_missing) return detail::gather_unchecked(left_key, maps.left->view());
  if (!maps.right_has_missing) return detail::gather_unchecked(right_key, maps.right->view());
  ColumnPtr both = concat({left_key, right_key});
  ColumnPtr idx;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(left_key)) idx = detail::coalesce_map_cuda(maps.left->view(), maps.right->view(), left_key.size);
  else
#endif
    idx = detail::coalesce_map_cpu(maps.left->view(), maps.right->view(), left_key.size);
  return detail::gather_unchecked(both->view(), idx->view());
}

// ---- CPU ----------------------------------------------------------------------------------------

namespace detail {
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

/// The build side of a single integer key whose values span few slots: a chain head per value
/// (index value - min; nulls that match each other in the last slot), no hashing. Chains
/// ascend, as the hash table's.
struct DirectTable {
  int64_t min = 0;
  int64_t span = 0;  // value slots (the null slot, when any, is slots[span])
  HostVector<uint32_t> heads;
};

/// Row i of an integer column as int64 (every integer dtype but uint64, and temporal ones).
inline int64_t int_key(const ColumnView& c, int64_t i) {
  switch (value_width(c.type)) {
    case 1: return c.type == TypeId::Int8 ? c.values<int8_t>()[i] : int64_t(c.values<uint8_t>()[i]);
    case 2: return c.type == TypeId::Int16 ? c.values<int16_t>()[i] : int64_t(c.values<uint16_t>()[i]);
    case 4: return c.type == TypeId::UInt32 ? int64_t(c.values<uint32_t>()[i]) : int64_t(c.values<int32_t>()[i]);
    default: return c.values<int64_t>()[i];
  }
}

/// Slots of a direct table for these build keys, or 0 when hashing is the better choice (not
/// one integer key, or values spread over many more slots than rows).
int64_t direct_span(const std::vector<ColumnView>& build, int64_t& min) {
  if (build.size() != 1) return 0;
  const ColumnView& k = build[0];
  const TypeId t = k.type;
  const bool integer = (t >= TypeId::Int8 && t <= TypeId::UInt32) || t == TypeId::Date32 ||
                       (t >= TypeId::TimestampS && t <= TypeId::TimestampNs);
  if (!integer || k.size == 0) return 0;
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
  if (lo.load() > hi.load()) return 0;
  min = lo.load();
  const uint64_t span = uint64_t(hi.load()) - uint64_t(min) + 1;  // no overflow: int64 range
  // Up to 64 slots a row (at most 64 MiB of heads): a probe then costs one array read, which
  // measured faster than the hash table even for sparse keys (TPC-H's order keys: 1 in 4 used,
  // a build side of 1 in 25 orders).
  const uint64_t cap = std::max<uint64_t>(uint64_t(1) << 20, uint64_t(k.size) * 64);
  return span <= cap && span <= (uint64_t(1) << 24) ? int64_t(span) : 0;
}

}  // namespace

ProbeResult hash_join_cpu(const std::vector<ColumnView>& build, const std::vector<ColumnView>& probe,
                          JoinHow kind, bool nulls_equal) {
  const int32_t nk = int32_t(build.size());
  const int64_t nb = build[0].size, np = probe[0].size;
  GPUDF_EXPECTS(nb < int64_t(kNoRow) - 1, InvalidArgument,
                "join: the build side must have fewer than 2^32 - 1 rows");
  const ColumnView* bk = build.data();
  const ColumnView* pk = probe.data();
  const bool build_nulls = !nulls_equal && has_nulls(build);
  const bool probe_nulls = !nulls_equal && has_nulls(probe);
  BufferPtr next_buf;
  uint32_t* next = host_array<uint32_t>(next_buf, nb);
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;

  DirectTable direct;
  direct.span = direct_span(build, direct.min);
  // The hash table (when not direct): slots per radix partition of the build rows.
  BufferPtr hash_buf, slot_buf, order_buf;
  uint64_t* slots = nullptr;
  int32_t bits = 0;
  std::vector<SlotRange> ranges;
  if (direct.span > 0) {
    // Build: every joinable row at its value's slot, last first (ascending chains).
    const ColumnView& k = bk[0];
    direct.heads.assign(size_t(direct.span) + 1, kNoRow);
    for (int64_t i = nb - 1; i >= 0; --i) {
      if (!joinable(bk, nk, i, build_nulls)) continue;
      const int64_t slot = k.is_valid(i) ? int_key(k, i) - direct.min : direct.span;
      next[i] = direct.heads[size_t(slot)];
      direct.heads[size_t(slot)] = uint32_t(i);
    }
  } else {
    // Build: hash every row, radix-partition the joinable rows (stable), one region each.
    uint64_t* hashes = host_array<uint64_t>(hash_buf, nb);
    bits = partition_bits(nb);
    const int64_t parts = int64_t(1) << bits;
    std::vector<int64_t> hist(size_t(max_blocks * parts), 0);
    const int64_t blocks = parallel_blocks(nb, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* hb = hist.data() + b * parts;
      for (int64_t i = begin; i < end; ++i) {
        if (!joinable(bk, nk, i, build_nulls)) continue;
        uint64_t h = row_hash(bk, nk, i);
        hashes[i] = h;
        ++hb[partition_of(h, bits)];
      }
    });
    // Partition-major offsets: partition p's rows from block 0, then block 1, ...
    std::vector<int64_t> part_start(size_t(parts) + 1, 0);
    ranges.resize(static_cast<size_t>(parts));
    int64_t pos = 0, slot_total = 0;
    for (int64_t p = 0; p < parts; ++p) {
      part_start[size_t(p)] = pos;
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t c = hist[size_t(b * parts + p)];
        hist[size_t(b * parts + p)] = pos;
        pos += c;
      }
      int64_t count = pos - part_start[size_t(p)];
      ranges[size_t(p)] = SlotRange{slot_total, 2 * count + 1};
      slot_total += 2 * count + 1;
    }
    part_start[size_t(parts)] = pos;
    uint32_t* order = host_array<uint32_t>(order_buf, pos);
    parallel_blocks(nb, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* at = hist.data() + b * parts;
      for (int64_t i = begin; i < end; ++i)
        if (joinable(bk, nk, i, build_nulls)) order[at[partition_of(hashes[i], bits)]++] = uint32_t(i);
    });
    slots = host_array<uint64_t>(slot_buf, slot_total);
    cpu_pool().parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p)
        insert_rows(slots, next, ranges[size_t(p)], order + part_start[size_t(p)],
                    part_start[size_t(p) + 1] - part_start[size_t(p)], hashes, bk, nk);
    });
    order_buf.reset();
  }

  // Probe, pass 1: each row's chain head and the output rows per block (full: mark matches).
  BufferPtr head_buf, matched_buf;
  uint32_t* heads = host_array<uint32_t>(head_buf, np);
  uint8_t* matched = nullptr;
  if (kind == JoinHow::Full) {
    matched = host_array<uint8_t>(matched_buf, nb);
    std::memset(matched, 0, size_t(nb));
  }
  // Chain heads of probe rows [begin, end).
  auto find_heads = [&](int64_t begin, int64_t end) {
    if (direct.span > 0) {
      const ColumnView& k = pk[0];
      for (int64_t i = begin; i < end; ++i) {
        uint32_t head = kNoRow;
        if (nb > 0 && joinable(pk, nk, i, probe_nulls)) {
          if (k.is_valid(i)) {
            const uint64_t slot = uint64_t(int_key(k, i)) - uint64_t(direct.min);
            if (slot < uint64_t(direct.span)) head = direct.heads[size_t(slot)];
          } else {
            head = direct.heads[size_t(direct.span)];
          }
        }
        heads[i] = head;
      }
      return;
    }
    // Groups of kGroup rows: hash all and prefetch their slots, then probe and prefetch their
    // chains (the table is larger than the caches for big build sides).
    constexpr int64_t kGroup = 16;
    uint64_t hs[kGroup];
    bool live[kGroup];
    for (int64_t g = begin; g < end; g += kGroup) {
      const int64_t m = std::min(kGroup, end - g);
      for (int64_t j = 0; j < m; ++j) {
        live[j] = nb > 0 && joinable(pk, nk, g + j, probe_nulls);
        if (!live[j]) continue;
        hs[j] = row_hash(pk, nk, g + j);
        const SlotRange& r = ranges[size_t(partition_of(hs[j], bits))];
        __builtin_prefetch(slots + r.base + slot_start(hs[j], r.size));
      }
      for (int64_t j = 0; j < m; ++j) {
        uint32_t head = kNoRow;
        if (live[j]) {
          uint64_t s = find_slot(slots, ranges[size_t(partition_of(hs[j], bits))], hs[j], bk, pk, nk, g + j);
          if (s != 0) {
            head = slot_row(s);
            __builtin_prefetch(next + head);
          }
        }
        heads[g + j] = head;
      }
    }
  };
  std::vector<int64_t> block_out(size_t(max_blocks) + 1, 0);
  std::vector<uint8_t> block_missing(size_t(max_blocks), 0);
  const JoinHow probe_kind = kind == JoinHow::Full ? JoinHow::Left : kind;
  const int64_t blocks = parallel_blocks(np, 1 << 14, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t out = 0;
    bool missing = false;
    // A few hundred rows at a time: their heads, then their counts (heads still in cache).
    constexpr int64_t kStep = 256;
    for (int64_t g = begin; g < end; g += kStep) {
      const int64_t e = std::min(end, g + kStep);
      find_heads(g, e);
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

}  // namespace detail
}  // namespace gpudf
