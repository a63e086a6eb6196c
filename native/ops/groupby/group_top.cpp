// group_top_rows: argument checks and the path choice; the CPU candidate pass and the composed
// (sorted) path (see group_top.hpp).
#include "ops/groupby/group_top.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/groupby/groupby_internal.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {
namespace detail {
namespace {

/// Set in a candidate's tie for a null value: its key is ~0, and a non-null value may have that
/// key too (NaN ascending, the minimum integer descending); the tag puts the null after it.
inline constexpr int64_t kNullTag = int64_t(1) << 62;

/// A row's place in its group's order: by key, then by tie (the row, tagged when null).
struct Candidate {
  uint64_t key;
  int64_t tie;
  bool operator<(const Candidate& o) const { return key < o.key || (key == o.key && tie < o.tie); }
};

/// An empty slot: after every candidate, so arrays start full of them and need no fill count.
inline constexpr Candidate kEmpty{~uint64_t(0), INT64_MAX};

/// Inserts c into best[0..n) (ascending, the worst last) when it beats the worst.
inline void offer(Candidate* best, int64_t n, Candidate c) {
  if (!(c < best[n - 1])) return;
  int64_t j = n - 1;
  for (; j > 0 && c < best[j - 1]; --j) best[j] = best[j - 1];
  best[j] = c;
}

/// One range of rows: each row's candidate offered to its group's array of n in `cands`.
struct OfferRows {
  template <TypeId T>
  void operator()(const ColumnView& by, IndexReader ids, int64_t count, int64_t n, bool largest,
                  int64_t begin, int64_t end, Candidate* cands) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      const S* v = by.values<S>();
      const uint64_t flip = largest ? ~uint64_t(0) : 0;  // descending: the keys reversed
      auto run = [&](auto nullable) {
        for (int64_t i = begin; i < end; ++i) {
          const int64_t g = ids(i);
          if (g < 0 || g >= count) continue;
          Candidate c{uint64_t(order_bits<S>(v[i])) ^ flip, i};
          if constexpr (decltype(nullable)::value) {
            if (!by.is_valid(i)) c = {~uint64_t(0), i | kNullTag};
          }
          offer(cands + g * n, n, c);
        }
      };
      if (by.validity) run(std::true_type{});
      else run(std::false_type{});
    } else {
      GPUDF_FAIL(Internal, "the top-k candidate pass takes fixed-width values");
    }
  }
};

}  // namespace

bool top_candidates_fit(const ColumnView& by, int64_t rows, int64_t count, int64_t n, int64_t budget_bytes) {
  if (is_string(by.type) || n <= 0 || n > kMaxTopCandidates) return false;
  const auto ranges = int64_t(groupby_detail::thread_ranges(rows).size()) - 1;
  return count <= budget_bytes / int64_t(sizeof(Candidate)) / (n * ranges);
}

ColumnPtr group_top_rows_cpu(const ColumnView& ids, int64_t count, const ColumnView& by, int64_t n, bool largest) {
  GPUDF_EXPECTS(n > 0 && n <= kMaxTopCandidates && !is_string(by.type), Internal, "top-k candidate pass out of its range");
  GPUDF_EXPECTS(ids.size < kNullTag, Internal, "too many rows for the top-k candidate pass");
  const std::vector<int64_t> start = groupby_detail::thread_ranges(ids.size);
  const auto ranges = int64_t(start.size()) - 1;
  const int64_t per_range = count * n;
  BufferPtr scratch = Buffer::allocate(cpu_device(), size_t(ranges * per_range) * sizeof(Candidate));
  auto* cands = reinterpret_cast<Candidate*>(scratch ? scratch->data() : nullptr);
  const IndexReader reader{ids.data, ids.offset, ids.type};
  cpu_pool().parallel_for(ranges, 1, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      Candidate* mine = cands + r * per_range;
      std::fill(mine, mine + per_range, kEmpty);
      type_dispatch(by.type, OfferRows{}, by, reader, count, n, largest, start[size_t(r)], start[size_t(r + 1)], mine);
    }
  });
  // Per group: the ranges' arrays merged into range 0's (the best n of all), then counted.
  HostVector<int64_t> at(size_t(count + 1), 0);
  cpu_pool().parallel_for(count, 1024, [&](int64_t g0, int64_t g1) {
    std::array<Candidate, kMaxTopCandidates> merged;
    for (int64_t g = g0; g < g1; ++g) {
      Candidate* best = cands + g * n;
      for (int64_t r = 1; r < ranges; ++r) {
        const Candidate* other = cands + r * per_range + g * n;
        for (int64_t k = 0, i = 0, j = 0; k < n; ++k) merged[size_t(k)] = other[j] < best[i] ? other[j++] : best[i++];
        std::copy_n(merged.begin(), n, best);
      }
      int64_t k = 0;
      while (k < n && best[k].tie != kEmpty.tie) ++k;
      at[size_t(g + 1)] = k;
    }
  });
  for (int64_t g = 0; g < count; ++g) at[size_t(g + 1)] += at[size_t(g)];
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, at[size_t(count)], false);
  auto* dst = reinterpret_cast<int64_t*>(out->data() ? out->data()->data() : nullptr);
  cpu_pool().parallel_for(count, 1024, [&](int64_t g0, int64_t g1) {
    for (int64_t g = g0; g < g1; ++g)
      for (int64_t k = 0, e = at[size_t(g + 1)] - at[size_t(g)]; k < e; ++k)
        dst[at[size_t(g)] + k] = cands[g * n + k].tie & ~kNullTag;
  });
  return out;
}

ColumnPtr group_top_rows_sorted(const ColumnView& ids, int64_t count, const ColumnView& by, int64_t n, bool largest) {
  // The rows in the sort's order; each group's first n of them; back to row indices.
  ColumnPtr order = sorted_order({SortKey{by, largest, true}});
  ColumnPtr sorted_ids = gather_unchecked(ids, order->view());
  ColumnPtr at = group_head_rows(sorted_ids->view(), count, n, false);
  return gather_unchecked(order->view(), at->view());
}

}  // namespace detail

ColumnPtr group_top_rows(const ColumnView& ids, int64_t count, const ColumnView& by, int64_t n, bool largest) {
  detail::check_group_ids(ids, ids.size, count);
  GPUDF_EXPECTS(by.size == ids.size, InvalidArgument,
                "the values column has " + std::to_string(by.size) + " rows, the group ids " + std::to_string(ids.size));
  GPUDF_EXPECTS(by.device == ids.device, InvalidArgument, "the values column and the group ids are on different devices");
  GPUDF_EXPECTS(n >= 0, InvalidArgument, "n must be >= 0, got " + std::to_string(n));
  if (n == 0 || count == 0) return Column::allocate(*ids.device, TypeId::Int64, 0, false);
  if (!on_cuda(ids) && detail::top_candidates_fit(by, ids.size, count, n, detail::kTopCandidateBytes))
    return detail::group_top_rows_cpu(ids, count, by, n, largest);
  return detail::group_top_rows_sorted(ids, count, by, n, largest);
}

}  // namespace gpudf
