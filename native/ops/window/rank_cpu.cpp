// rank per segment on the CPU without a sort of the whole column: the valid rows are bucketed by
// segment id (a stable counting sort over the pool), then each segment's rows are sorted on their
// own by (order key, row) and ranked, the segments spread over the pool. A segment of ~100 rows
// sorts in cache, where a radix sort by (segment, value) moves every row through memory once per
// digit and the ranks go back through a gather. The segments may lie anywhere in the column.
#include <algorithm>
#include <vector>

#include "core/dispatch.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/window/window.hpp"
#include "ops/window/window_functors.hpp"

namespace gpudf::window::detail {
namespace {

template <typename U>
struct Keyed {
  U key;
  uint32_t row;
};

/// The rows of each bucket: rows[start[g], start[g + 1]) are segment g's valid rows, ascending.
struct Buckets {
  HostVector<int64_t> start;
  HostVector<uint32_t> rows;
  int64_t largest = 0;
};

/// Segment ids all in [0, n): their count (max + 1), else -1.
int64_t id_range(const int32_t* seg, int64_t n) {
  const int64_t chunks = block_count(n, 1 << 16);
  const int64_t per = (n + chunks - 1) / chunks;
  std::vector<int32_t> lo(size_t(chunks), 0), hi(size_t(chunks), 0);
  cpu_pool().parallel_for(chunks, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const int64_t b = c * per, e = std::min(n, b + per);
      int32_t l = seg[b], h = seg[b];
      for (int64_t i = b + 1; i < e; ++i) {
        l = std::min(l, seg[i]);
        h = std::max(h, seg[i]);
      }
      lo[size_t(c)] = l;
      hi[size_t(c)] = h;
    }
  });
  const int32_t l = *std::min_element(lo.begin(), lo.end()), h = *std::max_element(hi.begin(), hi.end());
  return (l < 0 || int64_t(h) >= n) ? -1 : int64_t(h) + 1;
}

/// Counting sort of the valid rows by segment, stable: each block of rows counts its rows per
/// segment, the counts are laid out segment by segment (block order within one), and each block
/// writes its rows at its offsets.
Buckets bucket_rows(const ColumnView& v, const int32_t* seg, int64_t groups) {
  const int64_t n = v.size;
  int64_t blocks = std::min<int64_t>(cpu_pool().size(), std::max<int64_t>(1, n >> 16));
  blocks = std::max<int64_t>(1, std::min<int64_t>(blocks, 4 * n / std::max<int64_t>(groups, 1)));
  const int64_t per = (n + blocks - 1) / blocks;
  HostVector<int64_t> at(size_t(blocks * groups), 0);
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t* counts = at.data() + b * groups;
      for (int64_t i = b * per, e = std::min(n, i + per); i < e; ++i)
        if (v.is_valid(i)) ++counts[seg[i]];
    }
  });
  Buckets out;
  out.start.assign(size_t(groups + 1), 0);
  int64_t total = 0;
  for (int64_t g = 0; g < groups; ++g) {
    out.start[size_t(g)] = total;
    for (int64_t b = 0; b < blocks; ++b) {
      const int64_t c = at[size_t(b * groups + g)];
      at[size_t(b * groups + g)] = total;
      total += c;
    }
    out.largest = std::max(out.largest, total - out.start[size_t(g)]);
  }
  out.start[size_t(groups)] = total;
  out.rows.resize(size_t(total));
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      int64_t* next = at.data() + b * groups;
      for (int64_t i = b * per, e = std::min(n, i + per); i < e; ++i)
        if (v.is_valid(i)) out.rows[size_t(next[seg[i]]++)] = uint32_t(i);
    }
  });
  return out;
}

template <typename S, typename R>
void rank_buckets(const ColumnView& v, const Buckets& bk, RankMethod method, bool descending, R* out) {
  using U = typename order_type<S>::type;
  const int64_t groups = int64_t(bk.start.size()) - 1;
  cpu_pool().parallel_for(groups, 64, [&](int64_t g0, int64_t g1) {
    HostVector<Keyed<U>> items;
    for (int64_t g = g0; g < g1; ++g) {
      const int64_t b = bk.start[size_t(g)], m = bk.start[size_t(g + 1)] - b;
      items.resize(size_t(m));
      for (int64_t k = 0; k < m; ++k) {
        const uint32_t r = bk.rows[size_t(b + k)];
        items[size_t(k)] = Keyed<U>{order_key<S>(v, r, descending), r};
      }
      std::sort(items.begin(), items.end(), [](const Keyed<U>& x, const Keyed<U>& y) {
        return x.key < y.key || (x.key == y.key && x.row < y.row);
      });
      int64_t dense = 0, p = 0;
      while (p < m) {
        int64_t q = p + 1;
        while (q < m && items[size_t(q)].key == items[size_t(p)].key) ++q;
        ++dense;
        for (int64_t k = p; k < q; ++k) out[items[size_t(k)].row] = R(rank_value(method, k, 0, p, q, dense));
        p = q;
      }
    }
  });
}

}  // namespace

bool rank_partitioned_cpu(const ColumnView& v, const int32_t* seg, RankMethod method, bool descending, Column& out) {
  const int64_t n = v.size;
  if (is_string(v.type) || n == 0 || n >= (int64_t(1) << 32)) return false;
  const int64_t groups = id_range(seg, n);
  if (groups < 0) return false;
  Buckets bk = bucket_rows(v, seg, groups);
  // One segment holding most rows would sort on one thread: the column-wide sort is parallel.
  if (cpu_pool().size() > 1 && bk.largest > n / 2 && n > (1 << 16)) return false;
  const ColumnView o = out.view();
  auto run = [&]<typename R>(R* dst) {
    // Null rows rank null; their slots get 0, as the sorted path writes.
    cpu_pool().parallel_for(n, 1 << 16, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i)
        if (!v.is_valid(i)) dst[i] = R(0);
    });
    type_dispatch(v.type, [&]<TypeId T>() {
      if constexpr (!is_string(T)) rank_buckets<storage_t<T>, R>(v, bk, method, descending, dst);
    });
  };
  if (method == RankMethod::Average) run(const_cast<double*>(o.values<double>()));
  else run(const_cast<uint32_t*>(o.values<uint32_t>()));
  return true;
}

}  // namespace gpudf::window::detail
