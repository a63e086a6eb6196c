// CPU sort: LSD radix sort of (normalised key, row) pairs over the pool, a parallel stable merge
// sort for strings, and a stable null partition per key (see sort.hpp for the strategy).
#include "ops/sort/sort.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/gather/gather.hpp"
#include "ops/nulls/null_count.hpp"

namespace gpudf {
namespace detail {
namespace {

constexpr int kDigitBits = 8;
constexpr int kBuckets = 1 << kDigitBits;

/// Stable LSD radix sort of keys[0, n) carrying rows; digits where every key agrees are skipped.
template <typename K>
void radix_sort_pairs(std::vector<K>& keys, std::vector<int64_t>& rows) {
  const int64_t n = int64_t(keys.size());
  constexpr int kPasses = int(sizeof(K) * 8 / kDigitBits);
  std::vector<K> keys_tmp(keys.size());
  std::vector<int64_t> rows_tmp(rows.size());
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  // counts[block][pass][bucket]: one read of the keys gives every pass's histogram per block;
  // a block's histogram for a pass is recomputed only after earlier passes moved its keys.
  std::vector<int64_t> counts(size_t(max_blocks) * kBuckets);
  std::vector<int64_t> totals(size_t(kPasses) * kBuckets, 0);
  {
    std::vector<int64_t> all(size_t(max_blocks) * kPasses * kBuckets, 0);
    int64_t blocks = parallel_blocks(n, 1 << 16, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* h = all.data() + b * kPasses * kBuckets;
      for (int64_t i = begin; i < end; ++i)
        for (int p = 0; p < kPasses; ++p) ++h[p * kBuckets + ((keys[i] >> (p * kDigitBits)) & (kBuckets - 1))];
    });
    for (int64_t b = 0; b < blocks; ++b)
      for (int j = 0; j < kPasses * kBuckets; ++j) totals[j] += all[b * kPasses * kBuckets + j];
  }
  for (int p = 0; p < kPasses; ++p) {
    const int64_t* t = totals.data() + p * kBuckets;
    if (std::any_of(t, t + kBuckets, [&](int64_t c) { return c == n; })) continue;  // one digit value
    const int shift = p * kDigitBits;
    std::fill(counts.begin(), counts.end(), 0);
    int64_t blocks = parallel_blocks(n, 1 << 16, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* h = counts.data() + b * kBuckets;
      for (int64_t i = begin; i < end; ++i) ++h[(keys[i] >> shift) & (kBuckets - 1)];
    });
    // Exclusive prefix in (bucket, block) order: block b's bucket d starts after every earlier
    // bucket and after bucket d of blocks before b. That is what keeps the sort stable.
    int64_t pos = 0;
    for (int d = 0; d < kBuckets; ++d)
      for (int64_t b = 0; b < blocks; ++b) {
        int64_t c = counts[b * kBuckets + d];
        counts[b * kBuckets + d] = pos;
        pos += c;
      }
    parallel_blocks(n, 1 << 16, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* next = counts.data() + b * kBuckets;
      for (int64_t i = begin; i < end; ++i) {
        int64_t at = next[(keys[i] >> shift) & (kBuckets - 1)]++;
        keys_tmp[at] = keys[i];
        rows_tmp[at] = rows[i];
      }
    });
    keys.swap(keys_tmp);
    rows.swap(rows_tmp);
  }
}

/// Sorts `perm` by a fixed-width key: normalise through the permutation, then radix sort.
struct FixedPass {
  template <TypeId T>
  void operator()(const SortKey& key, std::vector<int64_t>& perm) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      using U = typename order_type<S>::type;
      std::vector<U> keys(perm.size());
      const ColumnView& c = key.column;
      parallel_blocks(int64_t(perm.size()), 1 << 16, [&](int64_t, int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) keys[i] = order_key<S>(c, perm[i], key.descending);
      });
      radix_sort_pairs<U>(keys, perm);
    } else {
      GPUDF_FAIL(Internal, "FixedPass on a string column");
    }
  }
};

/// Stable merge sort of `perm` by a string key: blocks sorted in parallel, then merged pairwise.
template <typename O>
void string_pass(const SortKey& key, std::vector<int64_t>& perm) {
  const ColumnView& c = key.column;
  const bool desc = key.descending;
  auto less = [&](int64_t a, int64_t b) {
    int r = compare_strings<O>(c, a, b);
    return desc ? r > 0 : r < 0;
  };
  const int64_t n = int64_t(perm.size());
  std::vector<int64_t> bounds;
  int64_t blocks = parallel_blocks(n, 1 << 14, [&](int64_t, int64_t begin, int64_t end) {
    std::stable_sort(perm.begin() + begin, perm.begin() + end, less);
  });
  for (int64_t b = 0; b <= blocks; ++b) bounds.push_back(b * n / std::max<int64_t>(blocks, 1));
  std::vector<int64_t> tmp(perm.size());
  while (bounds.size() > 2) {
    std::vector<int64_t> next;
    const int64_t pairs = int64_t(bounds.size() - 1) / 2;
    cpu_pool().parallel_for(pairs, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        int64_t lo = bounds[2 * p], mid = bounds[2 * p + 1], hi = bounds[2 * p + 2];
        std::merge(perm.begin() + lo, perm.begin() + mid, perm.begin() + mid, perm.begin() + hi,
                   tmp.begin() + lo, less);  // takes the left run first on ties: stable
      }
    });
    for (int64_t p = 0; p <= pairs; ++p) next.push_back(bounds[2 * p]);
    if ((bounds.size() - 1) % 2) {  // an odd run out: carried over unchanged
      int64_t lo = bounds[bounds.size() - 2], hi = bounds.back();
      std::copy(perm.begin() + lo, perm.begin() + hi, tmp.begin() + lo);
      next.push_back(hi);
    }
    perm.swap(tmp);
    bounds.swap(next);
  }
}

/// Moves the rows whose key is null to the front or the back, keeping both groups' order.
void null_pass(const SortKey& key, std::vector<int64_t>& perm) {
  std::vector<int64_t> out(perm.size());
  auto first = key.nulls_last ? std::copy_if(perm.begin(), perm.end(), out.begin(),
                                             [&](int64_t r) { return key.column.is_valid(r); })
                              : std::copy_if(perm.begin(), perm.end(), out.begin(),
                                             [&](int64_t r) { return !key.column.is_valid(r); });
  std::copy_if(perm.begin(), perm.end(), first, [&](int64_t r) {
    return key.column.is_valid(r) != key.nulls_last;
  });
  perm.swap(out);
}

}  // namespace

ColumnPtr sorted_order_cpu(const std::vector<SortKey>& keys) {
  const int64_t n = keys.front().column.size;
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t(0));
  for (auto k = keys.rbegin(); k != keys.rend(); ++k) {
    const ColumnView& c = k->column;
    if (c.null_count == c.size && c.size > 0) continue;  // all null: nothing to order by
    if (c.type == TypeId::Utf8) string_pass<int32_t>(*k, perm);
    else if (c.type == TypeId::LargeUtf8) string_pass<int64_t>(*k, perm);
    else type_dispatch(c.type, FixedPass{}, *k, perm);
    if (c.validity && c.null_count != 0) null_pass(*k, perm);
  }
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, n, false);
  if (n) std::memcpy(out->data()->data(), perm.data(), size_t(n) * sizeof(int64_t));
  return out;
}

void validate_keys(const std::vector<SortKey>& keys) {
  GPUDF_EXPECTS(!keys.empty(), InvalidArgument, "sort needs at least one key");
  for (const SortKey& k : keys)
    GPUDF_EXPECTS(k.column.size == keys.front().column.size && k.column.device == keys.front().column.device,
                  InvalidArgument, "sort keys must have the same length and device");
}

}  // namespace detail

ColumnPtr sorted_order(const std::vector<SortKey>& given) {
  detail::validate_keys(given);
  std::vector<SortKey> keys = given;
  for (SortKey& k : keys)  // the passes skip all-null keys and null partitions of null-free keys
    if (k.column.null_count == kUnknownNullCount) k.column.null_count = count_nulls(k.column);
#ifdef GPUDF_WITH_CUDA
  if (keys.front().column.device->kind() == DeviceKind::Cuda) return detail::sorted_order_cuda(keys);
#endif
  return detail::sorted_order_cpu(keys);
}

}  // namespace gpudf
