#include "ops/sample/sample.hpp"

#include <cstring>
#include <numeric>
#include <string>
#include <unordered_map>

#include "core/error.hpp"
#include "core/transfer.hpp"

namespace gpudf {

HostVector<int64_t> sample_indices(int64_t rows, int64_t n, bool with_replacement, uint64_t seed) {
  GPUDF_EXPECTS(n >= 0, InvalidArgument, "sample size must be >= 0");
  GPUDF_EXPECTS(with_replacement || n <= rows, InvalidArgument,
                "cannot sample " + std::to_string(n) + " rows from " + std::to_string(rows) +
                    " without replacement; pass withReplacement: true or a smaller n");
  GPUDF_EXPECTS(n == 0 || rows > 0, InvalidArgument, "cannot sample rows from an empty frame");
  SplitMix64 rng{seed};
  HostVector<int64_t> out(static_cast<size_t>(n));
  if (with_replacement) {
    for (auto& v : out) v = int64_t(rng.below(uint64_t(rows)));
    return out;
  }
  if (n * 8 >= rows) {  // dense partial Fisher-Yates
    HostVector<int64_t> pool(static_cast<size_t>(rows));
    std::iota(pool.begin(), pool.end(), int64_t(0));
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = i + int64_t(rng.below(uint64_t(rows - i)));
      std::swap(pool[size_t(i)], pool[size_t(j)]);
      out[size_t(i)] = pool[size_t(i)];
    }
    return out;
  }
  std::unordered_map<int64_t, int64_t> swapped;  // the same shuffle, sparse
  auto at = [&](int64_t k) {
    auto it = swapped.find(k);
    return it == swapped.end() ? k : it->second;
  };
  for (int64_t i = 0; i < n; ++i) {
    int64_t j = i + int64_t(rng.below(uint64_t(rows - i)));
    int64_t vi = at(i), vj = at(j);
    swapped[j] = vi;
    swapped[i] = vj;
    out[size_t(i)] = vj;
  }
  return out;
}

ColumnPtr sample_index_column(Device& device, int64_t rows, int64_t n, bool with_replacement,
                              uint64_t seed) {
  HostVector<int64_t> idx = sample_indices(rows, n, with_replacement, seed);
  ColumnPtr host = Column::allocate(cpu_device(), TypeId::Int64, n, false);
  if (n) std::memcpy(host->data()->data(), idx.data(), size_t(n) * sizeof(int64_t));
  return copy_to_device(host, device);
}

}  // namespace gpudf
