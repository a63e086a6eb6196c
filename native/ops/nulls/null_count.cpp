#include "ops/nulls/null_count.hpp"

#include <algorithm>
#include <atomic>

#include "core/thread_pool.hpp"

namespace gpudf {

namespace detail {

int64_t count_valid_cpu(const uint8_t* bits, int64_t begin, int64_t end) {
  std::atomic<int64_t> total{0};
  // Split on whole bytes so no two chunks touch the same byte; 1 MiB of bitmap per chunk.
  int64_t first_byte = begin >> 3;
  int64_t bytes = ((end - 1) >> 3) - first_byte + 1;
  cpu_pool().parallel_for(bytes, int64_t{1} << 20, [&](int64_t b0, int64_t b1) {
    int64_t lo = std::max(begin, (first_byte + b0) * 8);
    int64_t hi = std::min(end, (first_byte + b1) * 8);
    total.fetch_add(count_set_bits(bits, lo, hi));
  });
  return total.load();
}

}  // namespace detail

int64_t count_nulls(const ColumnView& column) {
  if (column.validity == nullptr || column.size == 0) return 0;
  int64_t begin = column.offset;
  int64_t end = column.offset + column.size;
  int64_t valid = 0;
#ifdef GPUDF_WITH_CUDA
  if (column.device->kind() == DeviceKind::Cuda)
    valid = detail::count_valid_cuda(column.validity, begin, end);
  else
#endif
    valid = detail::count_valid_cpu(column.validity, begin, end);
  return column.size - valid;
}

}  // namespace gpudf
