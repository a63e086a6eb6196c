// CUDA sort: CUB radix sort of (normalised key, row) pairs per fixed-width key, Thrust's stable
// merge sort with the shared byte-wise comparator per string key, and a one-bit CUB radix pass
// per nullable key to move its nulls (stable). Temporary memory comes from the Device.
#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "ops/sort/sort.hpp"
#include "ops/sort/thrust_allocator.cuh"

namespace gpudf::detail {
namespace {

constexpr int kBlock = kBlockThreads;

__global__ void iota_kernel(int64_t* out, int64_t n) {
  GPUDF_GRID_STRIDE(i, n) out[i] = i;
}

template <typename S, typename U>
__global__ void normalise_kernel(ColumnView c, const int64_t* perm, int64_t n, bool desc, U* keys) {
  GPUDF_GRID_STRIDE(i, n) keys[i] = order_key<S>(c, perm[i], desc);
}

__global__ void null_flag_kernel(ColumnView c, const int64_t* perm, int64_t n, bool nulls_last,
                                 uint8_t* flags) {
  GPUDF_GRID_STRIDE(i, n) flags[i] = null_flag(c, perm[i], nulls_last);
}

template <typename O>
struct StringLess {
  ColumnView c;
  bool desc;
  __device__ bool operator()(int64_t a, int64_t b) const {
    int r = compare_strings<O>(c, a, b);
    return desc ? r > 0 : r < 0;
  }
};

/// The permutation in two device buffers (CUB's double buffer swaps between them).
struct Perm {
  BufferPtr a, b;
  int64_t* current;
  int64_t* other() const {
    auto* pa = reinterpret_cast<int64_t*>(a->data());
    return current == pa ? reinterpret_cast<int64_t*>(b->data()) : pa;
  }
};

/// Stable radix sort of `perm` by keys[0, n) over bits [0, end_bit).
template <typename U>
void sort_pairs(Device& dev, U* keys, U* keys_alt, Perm& perm, int64_t n, int end_bit,
                cudaStream_t stream) {
  cub::DoubleBuffer<U> kd(keys, keys_alt);
  cub::DoubleBuffer<int64_t> vd(perm.current, perm.other());
  size_t temp_bytes = 0;
  GPUDF_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, kd, vd, n, 0, end_bit, stream));
  BufferPtr temp = Buffer::allocate(dev, std::max<size_t>(temp_bytes, 1));
  GPUDF_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp->data(), temp_bytes, kd, vd, n, 0, end_bit, stream));
  perm.current = vd.Current();
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));  // before `temp` goes back to the pool
}

struct FixedPass {
  template <TypeId T>
  void operator()(const SortKey& key, Perm& perm, int64_t n, cudaStream_t stream) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      using U = typename order_type<S>::type;
      Device& dev = *key.column.device;
      BufferPtr k0 = Buffer::allocate(dev, size_t(n) * sizeof(U));
      BufferPtr k1 = Buffer::allocate(dev, size_t(n) * sizeof(U));
      auto* keys = reinterpret_cast<U*>(k0->data());
      normalise_kernel<S, U><<<grid_for(n), kBlock, 0, stream>>>(key.column, perm.current, n,
                                                                  key.descending, keys);
      GPUDF_CUDA_TRY(cudaGetLastError());
      sort_pairs<U>(dev, keys, reinterpret_cast<U*>(k1->data()), perm, n, int(sizeof(U) * 8), stream);
    }
  }
};

template <typename O>
void string_pass(const SortKey& key, Perm& perm, int64_t n, cudaStream_t stream) {
  ThrustAllocator alloc(*key.column.device);
  thrust::stable_sort(thrust::cuda::par_nosync(alloc).on(stream), perm.current, perm.current + n,
                      StringLess<O>{key.column, key.descending});
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

void null_pass(const SortKey& key, Perm& perm, int64_t n, cudaStream_t stream) {
  Device& dev = *key.column.device;
  BufferPtr f0 = Buffer::allocate(dev, size_t(n));
  BufferPtr f1 = Buffer::allocate(dev, size_t(n));
  null_flag_kernel<<<grid_for(n), kBlock, 0, stream>>>(key.column, perm.current, n, key.nulls_last,
                                                       f0->data());
  GPUDF_CUDA_TRY(cudaGetLastError());
  sort_pairs<uint8_t>(dev, f0->data(), f1->data(), perm, n, 1, stream);
}

}  // namespace

ColumnPtr sorted_order_cuda(const std::vector<SortKey>& keys) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = *keys.front().column.device;
  const int64_t n = keys.front().column.size;
  if (n == 0) return Column::allocate(dev, TypeId::Int64, 0, false);
  Perm perm{Buffer::allocate(dev, size_t(n) * 8), Buffer::allocate(dev, size_t(n) * 8), nullptr};
  perm.current = reinterpret_cast<int64_t*>(perm.a->data());
  iota_kernel<<<grid_for(n), kBlock, 0, stream>>>(perm.current, n);
  GPUDF_CUDA_TRY(cudaGetLastError());
  for (auto k = keys.rbegin(); k != keys.rend(); ++k) {
    const ColumnView& c = k->column;
    if (c.null_count == c.size) continue;
    if (c.type == TypeId::Utf8) string_pass<int32_t>(*k, perm, n, stream);
    else if (c.type == TypeId::LargeUtf8) string_pass<int64_t>(*k, perm, n, stream);
    else type_dispatch(c.type, FixedPass{}, *k, perm, n, stream);
    if (c.validity && c.null_count != 0) null_pass(*k, perm, n, stream);
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  // The result owns whichever buffer holds the final permutation.
  BufferPtr data = perm.current == reinterpret_cast<int64_t*>(perm.a->data()) ? perm.a : perm.b;
  return std::make_shared<Column>(dev, TypeId::Int64, n, data, nullptr, nullptr, 0);
}

}  // namespace gpudf::detail
