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

/// A key and its row, moved together (one write stream per bucket instead of two).
template <typename K, typename R>
struct Item {
  K key;
  R row;
};

/// Digit width in bits.
template <typename K>
constexpr int digit_bits() {
  return 8;  // measured here: 8-bit digits beat 11-bit ones (more passes, fewer cache misses)
}

/// Uninitialised host scratch from the cpu Device (counted in memory(); huge pages when large).
template <typename T>
struct Scratch {
  BufferPtr buffer;
  T* ptr;
  explicit Scratch(size_t n)
      : buffer(Buffer::allocate(cpu_device(), n * sizeof(T))),
        ptr(reinterpret_cast<T*>(buffer ? buffer->data() : nullptr)) {}
  T& operator[](int64_t i) { return ptr[i]; }
};

/// Stable LSD radix sort of items by key; digits where every key agrees are skipped.
template <typename K, typename R>
void radix_sort_items(Scratch<Item<K, R>>& items, int64_t n) {
  constexpr int kBits = digit_bits<K>();
  constexpr int kBuckets = 1 << kBits;
  constexpr int kPasses = int((sizeof(K) * 8 + kBits - 1) / kBits);
  Scratch<Item<K, R>> tmp(static_cast<size_t>(n));
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  auto digit = [](K key, int p) { return size_t((key >> (p * kBits)) & K(kBuckets - 1)); };
  // One read of the keys gives every pass's totals, so constant digits are skipped up front.
  std::vector<int64_t> totals(size_t(kPasses) * kBuckets, 0);
  {
    std::vector<int64_t> all(size_t(max_blocks) * kPasses * kBuckets, 0);
    int64_t blocks = parallel_blocks(n, 1 << 16, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* h = all.data() + b * kPasses * kBuckets;
      for (int64_t i = begin; i < end; ++i)
        for (int p = 0; p < kPasses; ++p) ++h[p * kBuckets + digit(items[i].key, p)];
    });
    for (int64_t b = 0; b < blocks; ++b)
      for (int j = 0; j < kPasses * kBuckets; ++j) totals[j] += all[b * kPasses * kBuckets + j];
  }
  std::vector<int64_t> counts(size_t(max_blocks) * kBuckets);
  for (int p = 0; p < kPasses; ++p) {
    const int64_t* t = totals.data() + p * kBuckets;
    if (std::any_of(t, t + kBuckets, [&](int64_t c) { return c == n; })) continue;
    std::fill(counts.begin(), counts.end(), 0);
    int64_t blocks = parallel_blocks(n, 1 << 16, [&](int64_t b, int64_t begin, int64_t end) {
      int64_t* h = counts.data() + b * kBuckets;
      for (int64_t i = begin; i < end; ++i) ++h[digit(items[i].key, p)];
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
      for (int64_t i = begin; i < end; ++i) tmp[size_t(next[digit(items[i].key, p)]++)] = items[i];
    });
    std::swap(items, tmp);
  }
}

/// Normalises the key through `perm`, radix sorts, and writes the new order back to `perm`.
template <typename S, typename R>
void radix_pass(const SortKey& key, Scratch<int64_t>& perm, int64_t n) {
  using U = typename order_type<S>::type;
  Scratch<Item<U, R>> items(static_cast<size_t>(n));
  const ColumnView& c = key.column;
  parallel_blocks(n, 1 << 16, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) items[i] = {order_key<S>(c, perm[i], key.descending), R(perm[i])};
  });
  radix_sort_items(items, n);
  parallel_blocks(n, 1 << 16, [&](int64_t, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) perm[i] = int64_t(items[i].row);
  });
}

/// Sorts `perm` by a fixed-width key (32-bit rows while they fit: smaller items move faster).
struct FixedPass {
  template <TypeId T>
  void operator()(const SortKey& key, Scratch<int64_t>& perm, int64_t n) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      if (n <= int64_t(UINT32_MAX)) radix_pass<S, uint32_t>(key, perm, n);
      else radix_pass<S, int64_t>(key, perm, n);
    } else {
      GPUDF_FAIL(Internal, "FixedPass on a string column");
    }
  }
};

/// Stable merge sort of `perm` by a string key: blocks sorted in parallel, then merged pairwise.
template <typename O>
void string_pass(const SortKey& key, Scratch<int64_t>& perm, int64_t n) {
  const ColumnView& c = key.column;
  const bool desc = key.descending;
  auto less = [&](int64_t a, int64_t b) {
    int r = compare_strings<O>(c, a, b);
    return desc ? r > 0 : r < 0;
  };
  std::vector<int64_t> bounds;
  int64_t blocks = parallel_blocks(n, 1 << 14, [&](int64_t, int64_t begin, int64_t end) {
    std::stable_sort(perm.ptr + begin, perm.ptr + end, less);
  });
  for (int64_t b = 0; b <= blocks; ++b) bounds.push_back(b * n / std::max<int64_t>(blocks, 1));
  Scratch<int64_t> tmp(static_cast<size_t>(n));
  while (bounds.size() > 2) {
    std::vector<int64_t> next;
    const int64_t pairs = int64_t(bounds.size() - 1) / 2;
    cpu_pool().parallel_for(pairs, 1, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        int64_t lo = bounds[2 * p], mid = bounds[2 * p + 1], hi = bounds[2 * p + 2];
        std::merge(perm.ptr + lo, perm.ptr + mid, perm.ptr + mid, perm.ptr + hi, tmp.ptr + lo, less);  // takes the left run first on ties: stable
      }
    });
    for (int64_t p = 0; p <= pairs; ++p) next.push_back(bounds[2 * p]);
    if ((bounds.size() - 1) % 2) {  // an odd run out: carried over unchanged
      int64_t lo = bounds[bounds.size() - 2], hi = bounds.back();
      std::copy(perm.ptr + lo, perm.ptr + hi, tmp.ptr + lo);
      next.push_back(hi);
    }
    std::swap(perm, tmp);
    bounds.swap(next);
  }
}

/// Moves the rows whose key is null to the front or the back, keeping both groups' order.
void null_pass(const SortKey& key, Scratch<int64_t>& perm, int64_t n) {
  Scratch<int64_t> out(static_cast<size_t>(n));
  const ColumnView& c = key.column;
  const bool last = key.nulls_last;
  int64_t* next = std::copy_if(perm.ptr, perm.ptr + n, out.ptr, [&](int64_t r) { return c.is_valid(r) == last; });
  std::copy_if(perm.ptr, perm.ptr + n, next, [&](int64_t r) { return c.is_valid(r) != last; });
  std::swap(perm, out);
}

}  // namespace

ColumnPtr sorted_order_cpu(const std::vector<SortKey>& keys) {
  const int64_t n = keys.front().column.size;
  Scratch<int64_t> perm(static_cast<size_t>(n));
  parallel_blocks(n, 1 << 16, [&](int64_t, int64_t b, int64_t e) { std::iota(perm.ptr + b, perm.ptr + e, b); });
  for (auto k = keys.rbegin(); k != keys.rend(); ++k) {
    const ColumnView& c = k->column;
    if (c.null_count == c.size && c.size > 0) continue;  // all null: nothing to order by
    if (c.type == TypeId::Utf8) string_pass<int32_t>(*k, perm, n);
    else if (c.type == TypeId::LargeUtf8) string_pass<int64_t>(*k, perm, n);
    else type_dispatch(c.type, FixedPass{}, *k, perm, n);
    if (c.validity && c.null_count != 0) null_pass(*k, perm, n);
  }
  return std::make_shared<Column>(cpu_device(), TypeId::Int64, n, perm.buffer, nullptr, nullptr, 0);
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
