// group_rows / group_aggregate / group_corr / group_head_rows: argument checks and the backend
// choice; and the CPU aggregation backend (per-block partials when groups are few, per-group
// segments from a counting sort when many, sorted_order for the order statistics).
#include "ops/groupby/groupby.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/gather/gather.hpp"
#include "ops/nulls/null_count.hpp"
#include "ops/groupby/groupby_compose.hpp"
#include "ops/groupby/groupby_internal.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {
namespace detail {
namespace {

using namespace groupby_detail;

/// Rows a fused pass (CpuBackend::fold_many) hands each fold at a time: their ids stay in cache
/// while every fold reads them.
inline constexpr int64_t kFuseRows = 4096;

/// One fold of a fused pass, type-erased (CpuBackend::fold_many).
struct FoldTask {
  virtual ~FoldTask() = default;
  virtual void fold_alone() = 0;
  virtual void start(int64_t chunks) = 0;
  virtual void fold_block(int64_t chunk, int64_t begin, int64_t end) = 0;
  virtual void combine(int64_t chunks) = 0;
  virtual ColumnPtr finish() = 0;
};

/// Rows ordered by group (ascending rows within a group): group g's rows are
/// rows[offsets[g] .. offsets[g + 1]). Rows with id -1 are left out.
struct Segments {
  HostVector<int64_t> offsets;
  HostVector<int64_t> rows;
};

/// A parallel counting sort: rows are first split stably into ranges of group ids (one pass,
/// per-block histograms), then each range is counting-sorted on its own (cache-sized).
Segments build_segments(IndexReader ids, int64_t n, int64_t count) {
  Segments s;
  s.offsets.assign(size_t(count + 1), 0);
  const int64_t ranges = std::clamp<int64_t>(count / 4096, 1, 1024);
  const int64_t span = std::max<int64_t>(1, (count + ranges - 1) / ranges);
  HostVector<int64_t> by_range;
  HostVector<int64_t> range_begin;
  partition_rows(n, ranges, [&](int64_t i) { const int64_t g = ids(i); return g >= 0 && g < count ? g / span : int64_t(-1); },
                 by_range, range_begin);
  const int64_t total = range_begin[size_t(ranges)];
  s.rows.resize(size_t(total));
  cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t g0 = r * span, g1 = std::min(count, (r + 1) * span);
      const int64_t b = range_begin[size_t(r)], e = range_begin[size_t(r + 1)];
      // Counts of this range's groups, then their starts; each range writes only its own
      // offsets (offsets[count] is the total, set below).
      HostVector<int64_t> at(static_cast<size_t>(g1 - g0), 0);
      for (int64_t k = b; k < e; ++k) ++at[size_t(ids(by_range[size_t(k)]) - g0)];
      int64_t start = b;
      for (int64_t g = g0; g < g1; ++g) {
        const int64_t c = at[size_t(g - g0)];
        s.offsets[size_t(g)] = at[size_t(g - g0)] = start;
        start += c;
      }
      for (int64_t k = b; k < e; ++k) {
        const int64_t i = by_range[size_t(k)];
        s.rows[size_t(at[size_t(ids(i) - g0)]++)] = i;
      }
    }
  });
  s.offsets[size_t(count)] = total;
  return s;
}

/// The CPU backend of groupby_compose.hpp.
struct CpuBackend {
  ColumnView id_view;
  IndexReader ids;
  int64_t n;
  int64_t count;
  mutable std::shared_ptr<Segments> segments;

  const Segments& segs() const {
    if (!segments) segments = std::make_shared<Segments>(build_segments(ids, n, count));
    return *segments;
  }

  template <typename GF, typename IdT>
  static void fold_rows(const GF& f, const IdT* id, int64_t begin, int64_t end, int64_t count, typename GF::Acc* acc) {
    // The accumulator a few rows ahead is prefetched: with many groups they miss the cache. (A
    // prefetch never faults, so the -1 id of a dropped row needs no check.)
    constexpr int64_t kAhead = 16;
    for (int64_t i = begin; i < end; ++i) {
      if (i + kAhead < end) __builtin_prefetch(acc + id[i + kAhead]);
      const int64_t g = id[i];
      if (uint64_t(g) < uint64_t(count)) acc[g] = f.combine(acc[g], f.load(i, g));
    }
  }

  /// Folds rows [begin, end) into acc (count accumulators, indexed by id).
  template <typename GF>
  void fold_range(const GF& f, int64_t begin, int64_t end, typename GF::Acc* acc) const {
    if (id_view.type == TypeId::Int32) fold_rows(f, id_view.values<int32_t>(), begin, end, count, acc);
    else fold_rows(f, id_view.values<int64_t>(), begin, end, count, acc);
  }

  /// out[g] combined with every chunk's partial for g, in chunk order. Chunk by chunk over a run
  /// of groups: each chunk's partials are read in order (group by group, chunk after chunk,
  /// would stride through memory).
  template <typename GF>
  void combine_partials(const GF& f, const HostVector<typename GF::Acc>& partial, int64_t chunks,
                        HostVector<typename GF::Acc>& out) const {
    using Acc = typename GF::Acc;
    cpu_pool().parallel_for(count, 4096, [&](int64_t g0, int64_t g1) {
      for (int64_t c = 0; c < chunks; ++c) {
        const Acc* p = partial.data() + c * count;
        for (int64_t g = g0; g < g1; ++g) out[size_t(g)] = f.combine(out[size_t(g)], p[g]);
      }
    });
  }

  template <typename GF>
  HostVector<typename GF::Acc> fold(const GF& f) const {
    using Acc = typename GF::Acc;
    HostVector<Acc> out(static_cast<size_t>(count), f.identity());
    if (count == 0) return out;
    if (const int64_t chunks = partial_chunks(n, count)) {
      // Per-chunk partials, combined in chunk order: the result does not depend on timing.
      HostVector<Acc> partial(static_cast<size_t>(chunks * count), f.identity());
      cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
        for (int64_t c = c0; c < c1; ++c) fold_range(f, c * n / chunks, (c + 1) * n / chunks, partial.data() + c * count);
      });
      combine_partials(f, partial, chunks, out);
      return out;
    }
    // Many groups: each pool thread owns a run of group ids and folds, in row order, the rows
    // of its groups (every thread reads all ids, the values only of its rows). Each group still
    // sees its rows in ascending order, as a sequential fold would.
    const auto tasks = std::min<int64_t>(int64_t(cpu_pool().size()), std::max<int64_t>(1, count / 1024));
    cpu_pool().parallel_for(tasks, 1, [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t g0 = t * count / tasks, g1 = (t + 1) * count / tasks;
        if (id_view.type == TypeId::Int32) fold_owned(f, id_view.values<int32_t>(), g0, g1, out.data());
        else fold_owned(f, id_view.values<int64_t>(), g0, g1, out.data());
      }
    });
    return out;
  }

  /// Several folds in one pass over the rows: each chunk is walked in blocks of kFuseRows and
  /// every fold takes the block into its own partials while the block's ids are in cache. Each
  /// fold's result equals fold()'s (same chunks, same order). With many groups (no partials)
  /// the folds run one after another.
  void fold_many(const std::vector<FoldTask*>& folds) const {
    const int64_t chunks = partial_chunks(n, count);
    if (chunks == 0 || folds.size() < 2) {
      for (FoldTask* t : folds) t->fold_alone();
      return;
    }
    for (FoldTask* t : folds) t->start(chunks);
    cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
      for (int64_t c = c0; c < c1; ++c)
        for (int64_t b = c * n / chunks, e = (c + 1) * n / chunks; b < e; b += kFuseRows)
          for (FoldTask* t : folds) t->fold_block(c, b, std::min(e, b + kFuseRows));
    });
    for (FoldTask* t : folds) t->combine(chunks);
  }

  /// Folds every row whose id is in [g0, g1) into acc[id], rows in ascending order.
  template <typename GF, typename IdT>
  void fold_owned(const GF& f, const IdT* id, int64_t g0, int64_t g1, typename GF::Acc* acc) const {
    constexpr int64_t kAhead = 16;
    const auto span = uint64_t(g1 - g0);
    for (int64_t i = 0; i < n; ++i) {
      if (i + kAhead < n) __builtin_prefetch(acc + id[i + kAhead]);
      const int64_t g = id[i];
      if (uint64_t(g - g0) < span) acc[g] = f.combine(acc[g], f.load(i, g));
    }
  }

  template <typename GF, typename... A>
  HostVector<typename GF::Acc> fold_with(const GF& f, const HostVector<A>&... per_group) const {
    return fold(f.bound(per_group.data()...));
  }

  HostVector<RowsValid> rows_valid(const ColumnView& v) const { return fold(CountRowsValid{v}); }

  /// Scratch of sorted(): order keys of the valid values, group by group. A column from the CPU
  /// device, whose allocator reuses freed blocks (no zero fill, no fresh pages each call).
  mutable ColumnPtr sorted_keys_;

  /// Fills sorted_keys_ with op.key(row) of every valid row, grouped by id (row order within
  /// a group), and returns each group's start (count + 1 entries): a counting sort over one
  /// range of rows per thread (a histogram per range, of every group).
  template <typename Op>
  HostVector<int64_t> keys_by_group(const Op& op, const ColumnView& v) const {
    uint64_t* keys = nullptr;
    return counting_scatter(
        thread_ranges(n), count,
        [&](int64_t i) {
          const int64_t g = ids(i);
          return uint64_t(g) < uint64_t(count) && v.is_valid(i) ? g : int64_t(-1);
        },
        [&](int64_t total) {
          sorted_keys_ = Column::allocate(cpu_device(), TypeId::UInt64, total, false);
          keys = reinterpret_cast<uint64_t*>(sorted_keys_->data()->data());
        },
        [&](int64_t at, int64_t i) { keys[at] = op.key(i); });
  }

  /// Each group's valid rows put in value order (for a quantile only its two ranks), then
  /// op.apply: a sort per group over the segments, not one sort of every row.
  template <typename Op>
  HostVector<typename Op::Out> sorted(const Op& op, const ColumnView& v, const HostVector<RowsValid>&) const {
    HostVector<typename Op::Out> out(static_cast<size_t>(count));
    if constexpr (requires { op.apply_keys(uint64_t(0), uint64_t(0), int64_t(0)); }) {
      // Quantiles of numbers: the valid values' order keys are counting-sorted by group (read
      // in row order, so no random reads of the column), then the ranks selected in place.
      const HostVector<int64_t> at = keys_by_group(op, v);
      cpu_pool().parallel_for(count, 64, [&](int64_t g0, int64_t g1) {
        for (int64_t g = g0; g < g1; ++g) {
          uint64_t* k0 = reinterpret_cast<uint64_t*>(sorted_keys_->data()->data()) + at[size_t(g)];
          const int64_t valid = at[size_t(g + 1)] - at[size_t(g)];
          out[size_t(g)] = typename Op::Out{};
          if (valid == 0) continue;
          double idx;
          int64_t lo, hi;
          op.ranks(valid, &idx, &lo, &hi);
          std::nth_element(k0, k0 + lo, k0 + valid);
          if (hi > lo) std::iter_swap(k0 + hi, std::min_element(k0 + hi, k0 + valid));
          out[size_t(g)] = op.apply_keys(k0[lo], k0[hi], valid);
        }
      });
      sorted_keys_.reset();
      return out;
    }
    const Segments& s = segs();
    auto less = [&](int64_t a, int64_t b) { return op.less(a, b); };
    cpu_pool().parallel_for(count, 64, [&](int64_t g0, int64_t g1) {
      HostVector<int64_t> rows;
      for (int64_t g = g0; g < g1; ++g) {
        rows.clear();
        for (int64_t k = s.offsets[size_t(g)]; k < s.offsets[size_t(g + 1)]; ++k)
          if (v.is_valid(s.rows[size_t(k)])) rows.push_back(s.rows[size_t(k)]);
        const auto valid = int64_t(rows.size());
        if constexpr (Op::kRanksOnly) {
          if (valid > 0) {
            double idx;
            int64_t lo, hi;
            op.ranks(valid, &idx, &lo, &hi);
            std::nth_element(rows.begin(), rows.begin() + lo, rows.end(), less);
            if (hi > lo) std::iter_swap(rows.begin() + hi, std::min_element(rows.begin() + hi, rows.end(), less));
          }
        } else {
          std::sort(rows.begin(), rows.end(), less);
        }
        out[size_t(g)] = op.apply(rows.data(), 0, valid);
      }
    });
    return out;
  }
};

CpuBackend cpu_backend(const ColumnView& ids, int64_t count) {
  return CpuBackend{ids, IndexReader{ids.data, ids.offset, ids.type}, ids.size, count, nullptr, nullptr};
}

/// A fold and the step that turns its accumulators into a result column, as a FoldTask.
template <typename GF, typename Finish>
struct FoldAndFinish final : FoldTask {
  using Acc = typename GF::Acc;
  FoldAndFinish(const CpuBackend& b, const GF& g, const Finish& fin) : be(b), f(g), finish_(fin) {}
  const CpuBackend& be;
  GF f;
  Finish finish_;
  HostVector<Acc> partial, out;

  void fold_alone() override { out = be.fold(f); }
  void start(int64_t chunks) override { partial.assign(static_cast<size_t>(chunks * be.count), f.identity()); }
  void fold_block(int64_t chunk, int64_t begin, int64_t end) override {
    be.fold_range(f, begin, end, partial.data() + chunk * be.count);
  }
  void combine(int64_t chunks) override {
    out.assign(static_cast<size_t>(be.count), f.identity());
    be.combine_partials(f, partial, chunks, out);
    HostVector<Acc>().swap(partial);
  }
  ColumnPtr finish() override { return finish_(out); }
};

void check_values(const ColumnView& v, const ColumnView& ids, const char* what) {
  GPUDF_EXPECTS(v.size == ids.size, InvalidArgument,
                std::string(what) + " has " + std::to_string(v.size) + " rows, the group ids " +
                    std::to_string(ids.size));
  GPUDF_EXPECTS(v.device == ids.device, InvalidArgument, std::string(what) + " and the group ids are on different devices");
}

}  // namespace

void check_group_ids(const ColumnView& ids, int64_t rows, int64_t count) {
  GPUDF_EXPECTS(ids.type == TypeId::Int32 || ids.type == TypeId::Int64, InvalidArgument,
                "group ids must be int32 or int64, got " + std::string(type_name(ids.type)));
  GPUDF_EXPECTS(ids.validity == nullptr || count_nulls(ids) == 0, InvalidArgument, "group ids must not be null");
  GPUDF_EXPECTS(ids.size == rows, InvalidArgument, "group ids have the wrong length");
  GPUDF_EXPECTS(count >= 0 && count <= std::max<int64_t>(rows, 0), InvalidArgument,
                "group count must be in [0, rows], got " + std::to_string(count));
}

ColumnPtr group_aggregate_cpu(const ColumnView& values, const ColumnView& ids, int64_t count,
                              ReduceKind kind, const ReduceOptions& options) {
  return aggregate(cpu_backend(ids, count), values, count, kind, options);
}

std::vector<ColumnPtr> group_aggregate_many_cpu(const std::vector<ColumnView>& values, const ColumnView& ids,
                                               int64_t count, const std::vector<ReduceKind>& kinds,
                                               const std::vector<ReduceOptions>& options) {
  const CpuBackend be = cpu_backend(ids, count);
  std::vector<ColumnPtr> out(values.size());
  std::vector<std::unique_ptr<FoldTask>> folds;
  std::vector<size_t> fold_of;  // the aggregation each fold answers
  for (size_t i = 0; i < values.size(); ++i) {
    const ColumnView& v = values[i];
    const TypeId rt = reduce_result_type(v.type, kinds[i]);
    const bool one = type_dispatch(v.type, [&]<TypeId T>() {
      return one_fold<storage_t<T>>(kinds[i], v, rt, [&](const auto& f, const auto& finish) {
        using F = std::decay_t<decltype(f)>;
        using Fin = std::decay_t<decltype(finish)>;
        folds.push_back(std::make_unique<FoldAndFinish<F, Fin>>(be, f, finish));
      });
    });
    if (one) fold_of.push_back(i);
    else out[i] = aggregate(be, v, count, kinds[i], options[i]);
  }
  std::vector<FoldTask*> raw;
  for (const auto& t : folds) raw.push_back(t.get());
  be.fold_many(raw);
  for (size_t k = 0; k < folds.size(); ++k) out[fold_of[k]] = folds[k]->finish();
  return out;
}

ColumnPtr group_corr_cpu(const ColumnView& a, const ColumnView& b, const ColumnView& ids, int64_t count,
                         bool cov, int64_t ddof) {
  return corr(cpu_backend(ids, count), a, b, cov, ddof);
}

ColumnPtr group_head_rows_cpu(const ColumnView& ids, int64_t count, int64_t n, bool from_end) {
  const CpuBackend be = cpu_backend(ids, count);
  const Segments& s = be.segs();
  const HostVector<int64_t> at = head_offsets(s.offsets, n);
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, at[size_t(count)], false);
  int64_t* dst = reinterpret_cast<int64_t*>(out->data()->data());
  cpu_pool().parallel_for(count, 1024, [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t take = at[size_t(g + 1)] - at[size_t(g)];
      const int64_t first = from_end ? s.offsets[size_t(g + 1)] - take : s.offsets[size_t(g)];
      std::copy_n(s.rows.begin() + first, take, dst + at[size_t(g)]);
    }
  });
  return out;
}

}  // namespace detail

namespace {
void check_keys(const std::vector<ColumnView>& keys) {
  GPUDF_EXPECTS(!keys.empty(), InvalidArgument, "groupBy needs at least one key column");
  for (const ColumnView& k : keys) {
    GPUDF_EXPECTS(k.size == keys[0].size, InvalidArgument, "group keys have different lengths");
    GPUDF_EXPECTS(k.device == keys[0].device, InvalidArgument, "group keys are on different devices");
  }
}
}  // namespace

GroupIds group_rows(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order) {
  check_keys(keys);
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(keys[0])) return detail::group_rows_cuda(keys, drop_nulls, maintain_order);
#endif
  return detail::group_rows_cpu(keys, drop_nulls, maintain_order);
}

namespace {
/// group_aggregate's argument checks: kind, ids, values, dtype, options.
void check_aggregate(const ColumnView& values, const ColumnView& ids, int64_t count, ReduceKind kind,
                     const ReduceOptions& options) {
  GPUDF_EXPECTS(int32_t(kind) >= 0 && int32_t(kind) < kNumReduceKinds, InvalidArgument,
                "unknown reduction " + std::to_string(int32_t(kind)));
  detail::check_group_ids(ids, ids.size, count);
  detail::check_values(values, ids, "the values column");
  reduce_result_type(values.type, kind);  // ERR_DTYPE before any work
  if (kind == ReduceKind::Quantile)
    GPUDF_EXPECTS(options.q >= 0.0 && options.q <= 1.0, InvalidArgument,
                  "quantile must be in [0, 1], got " + std::to_string(options.q));
  if (kind == ReduceKind::Std || kind == ReduceKind::Var)
    GPUDF_EXPECTS(options.ddof >= 0, InvalidArgument, "ddof must be >= 0");
}
}  // namespace

ColumnPtr group_aggregate(const ColumnView& values, const ColumnView& ids, int64_t count, ReduceKind kind,
                          const ReduceOptions& options) {
  check_aggregate(values, ids, count, kind, options);
  if (aggregates_as_counts(values.type, kind))
    return counts_as_duration(group_aggregate(counts_view(values), ids, count, kind, options), values.type);
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(values)) return detail::group_aggregate_cuda(values, ids, count, kind, options);
#endif
  return detail::group_aggregate_cpu(values, ids, count, kind, options);
}

std::vector<ColumnPtr> group_aggregate_many(const std::vector<ColumnView>& values, const ColumnView& ids, int64_t count,
                                            const std::vector<ReduceKind>& kinds,
                                            const std::vector<ReduceOptions>& options) {
  GPUDF_EXPECTS(kinds.size() == values.size() && options.size() == values.size(), InvalidArgument,
                "group_aggregate_many needs one kind and one options entry per values column");
  for (size_t i = 0; i < values.size(); ++i) check_aggregate(values[i], ids, count, kinds[i], options[i]);
  std::vector<ColumnView> counted = values;
  for (size_t i = 0; i < values.size(); ++i)
    if (aggregates_as_counts(values[i].type, kinds[i])) counted[i] = counts_view(values[i]);
  std::vector<ColumnPtr> out;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(ids)) {
    for (size_t i = 0; i < values.size(); ++i)
      out.push_back(detail::group_aggregate_cuda(counted[i], ids, count, kinds[i], options[i]));
  } else {
    out = detail::group_aggregate_many_cpu(counted, ids, count, kinds, options);
  }
#else
  out = detail::group_aggregate_many_cpu(counted, ids, count, kinds, options);
#endif
  for (size_t i = 0; i < values.size(); ++i)
    if (counted[i].type != values[i].type) out[i] = counts_as_duration(out[i], values[i].type);
  return out;
}

ColumnPtr group_corr(const ColumnView& a, const ColumnView& b, const ColumnView& ids, int64_t count, bool cov,
                     int64_t ddof) {
  detail::check_group_ids(ids, ids.size, count);
  detail::check_values(a, ids, "the first column");
  detail::check_values(b, ids, "the second column");
  GPUDF_EXPECTS(ddof >= 0, InvalidArgument, "ddof must be >= 0");
  for (const ColumnView* c : {&a, &b}) {
    const TypeId t = c->type;
    GPUDF_EXPECTS(t >= TypeId::Int8 && t <= TypeId::Float64, Dtype,
                  std::string(cov ? "cov" : "corr") + " does not accept a " + std::string(type_name(t)) + " column");
  }
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(a)) return detail::group_corr_cuda(a, b, ids, count, cov, ddof);
#endif
  return detail::group_corr_cpu(a, b, ids, count, cov, ddof);
}

ColumnPtr group_head_rows(const ColumnView& ids, int64_t count, int64_t n, bool from_end) {
  detail::check_group_ids(ids, ids.size, count);
  GPUDF_EXPECTS(n >= 0, InvalidArgument, "n must be >= 0, got " + std::to_string(n));
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(ids)) return detail::group_head_rows_cuda(ids, count, n, from_end);
#endif
  return detail::group_head_rows_cpu(ids, count, n, from_end);
}

ColumnPtr group_sizes(const ColumnView& ids, int64_t count) {
  return group_aggregate(ids, ids, count, ReduceKind::Len);
}

ColumnPtr group_last_rows(const ColumnView& ids, int64_t count) {
  detail::check_group_ids(ids, ids.size, count);
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(ids)) return detail::group_last_rows_cuda(ids, count);
#endif
  const HostVector<int64_t> rows = detail::cpu_backend(ids, count).fold(groupby_detail::EdgeRow{true});
  return groupby_detail::result_column(cpu_device(), TypeId::Int64, rows, {});
}

}  // namespace gpudf
