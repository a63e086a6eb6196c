#include "ops/distinct/distinct.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf {
namespace detail {

std::vector<int64_t> distinct_positions_cpu(const std::vector<ColumnView>& keys, const int64_t* perm,
                                            int64_t n, Keep keep) {
  const ColumnView* kv = keys.data();
  const int32_t nk = int32_t(keys.size());
  // Per block: the kept rows in order; blocks concatenated in order afterwards.
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  std::vector<std::vector<int64_t>> parts{size_t(max_blocks)};
  int64_t blocks = parallel_blocks(n, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
    std::vector<int64_t>& out = parts[size_t(b)];
    bool prev_same = begin > 0 && rows_equal(kv, nk, perm[begin - 1], perm[begin]);
    for (int64_t i = begin; i < end; ++i) {
      bool next_same = i + 1 < n && rows_equal(kv, nk, perm[i], perm[i + 1]);
      if (keep_position(keep, prev_same, next_same)) out.push_back(perm[i]);
      prev_same = next_same;
    }
  });
  std::vector<int64_t> kept;
  for (int64_t b = 0; b < blocks; ++b) kept.insert(kept.end(), parts[b].begin(), parts[b].end());
  return kept;
}

}  // namespace detail

ColumnPtr distinct_indices(const std::vector<ColumnView>& keys, Keep keep, bool maintain_order) {
  GPUDF_EXPECTS(!keys.empty(), InvalidArgument, "unique needs at least one key column");
  std::vector<SortKey> sort_keys;
  for (const ColumnView& k : keys) sort_keys.push_back(SortKey{k, false, true});
  ColumnPtr order = sorted_order(sort_keys);
#ifdef GPUDF_WITH_CUDA
  if (keys.front().device->kind() == DeviceKind::Cuda)
    return detail::distinct_indices_cuda(keys, order, keep, maintain_order);
#endif
  const ColumnView ov = order->view();
  std::vector<int64_t> kept =
      detail::distinct_positions_cpu(keys, ov.values<int64_t>(), ov.size, keep);
  if (maintain_order) std::sort(kept.begin(), kept.end());
  ColumnPtr out = Column::allocate(cpu_device(), TypeId::Int64, int64_t(kept.size()), false);
  if (!kept.empty()) std::memcpy(out->data()->data(), kept.data(), kept.size() * sizeof(int64_t));
  return out;
}

}  // namespace gpudf
