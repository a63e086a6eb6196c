// CUDA distinct: after the sort (ops/sort), one thread per sorted position applies the shared
// keep rule, CUB compacts the kept rows, and a CUB radix sort restores the original order when
// asked.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "ops/distinct/distinct.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = kBlockThreads;

__global__ void keep_kernel(const ColumnView* keys, int32_t nk, const int64_t* perm, int64_t n,
                            Keep keep, uint8_t* flags) {
  GPUDF_GRID_STRIDE(i, n) {
    bool prev = i > 0 && rows_equal(keys, nk, perm[i - 1], perm[i]);
    bool next = i + 1 < n && rows_equal(keys, nk, perm[i], perm[i + 1]);
    flags[i] = keep_position(keep, prev, next);
  }
}

}  // namespace

ColumnPtr distinct_indices_cuda(const std::vector<ColumnView>& keys, const ColumnPtr& order,
                                Keep keep, bool maintain_order) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = order->device();
  const int64_t n = order->size();
  if (n == 0) return order;
  const int32_t nk = int32_t(keys.size());
  BufferPtr key_views = Buffer::allocate(dev, keys.size() * sizeof(ColumnView));
  GPUDF_CUDA_TRY(cudaMemcpyAsync(key_views->data(), keys.data(), keys.size() * sizeof(ColumnView),
                                 cudaMemcpyHostToDevice, stream));
  const int64_t* perm = order->view().values<int64_t>();
  BufferPtr flags = Buffer::allocate(dev, size_t(n));
  keep_kernel<<<grid_for(n), kBlock, 0, stream>>>(reinterpret_cast<const ColumnView*>(key_views->data()),
                                          nk, perm, n, keep, flags->data());
  GPUDF_CUDA_TRY(cudaGetLastError());

  BufferPtr kept = Buffer::allocate(dev, size_t(n) * sizeof(int64_t));
  auto* kept_ptr = reinterpret_cast<int64_t*>(kept->data());
  DeviceScalar<int64_t> count(stream);
  size_t temp_bytes = 0;
  GPUDF_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, temp_bytes, perm, flags->data(), kept_ptr,
                                            count.get(), n, stream));
  BufferPtr temp = Buffer::allocate(dev, std::max<size_t>(temp_bytes, 1));
  GPUDF_CUDA_TRY(cub::DeviceSelect::Flagged(temp->data(), temp_bytes, perm, flags->data(), kept_ptr,
                                            count.get(), n, stream));
  const int64_t m = count.value(stream);
  ColumnPtr out = Column::allocate(dev, TypeId::Int64, m, false);
  if (m == 0) return out;
  auto* out_ptr = reinterpret_cast<int64_t*>(out->data()->data());
  if (maintain_order) {
    size_t sort_bytes = 0;
    GPUDF_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, kept_ptr, out_ptr, m, 0, 64, stream));
    BufferPtr sort_temp = Buffer::allocate(dev, std::max<size_t>(sort_bytes, 1));
    GPUDF_CUDA_TRY(cub::DeviceRadixSort::SortKeys(sort_temp->data(), sort_bytes, kept_ptr, out_ptr, m,
                                                  0, 64, stream));
  } else {
    GPUDF_CUDA_TRY(cudaMemcpyAsync(out_ptr, kept_ptr, size_t(m) * sizeof(int64_t),
                                   cudaMemcpyDeviceToDevice, stream));
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace gpudf::detail
