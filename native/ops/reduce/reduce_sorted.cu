// CUDA backend of the sort-based reductions with Thrust: order statistics (the sorted order keys
// of the valid rows), distinct counts and value counts (sorted keys, then reduce_by_key). Apart
// from the tiled folds (reduce.cu) so the two compile in parallel.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <vector>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "core/host_vector.hpp"
#include "ops/reduce/reduce.hpp"
#include "ops/reduce/reduce_cuda.cuh"
#include "ops/reduce/reduce_functors.hpp"

namespace gpudf::reduce_detail {
namespace {

/// Thrust's temporary storage, taken from the CUDA device (so it is counted in memory()).
struct CountedAllocator {
  using value_type = char;
  char* allocate(std::ptrdiff_t n) { return static_cast<char*>(cuda_device().allocate(size_t(n))); }
  void deallocate(char* p, size_t n) { cuda_device().deallocate(p, n); }
};

struct IsValid {
  ColumnView v;
  __device__ bool operator()(int64_t i) const { return v.is_valid(i); }
};
template <typename S>
struct KeyOf {
  ColumnView v;
  __device__ uint64_t operator()(int64_t i) const { return order_key(v.values<S>()[i]); }
};
template <typename O>
struct StringLess {
  StringRows<O> s;
  __device__ bool operator()(int64_t a, int64_t b) const { return s.compare(a, b) < 0; }
};
template <typename O>
struct StringEq {
  StringRows<O> s;
  __device__ bool operator()(int64_t a, int64_t b) const { return s.compare(a, b) == 0; }
};

/// The sorted order keys of the valid rows (a device buffer of `*count` keys).
struct SortedKeys {
  template <TypeId T>
  BufferPtr operator()(const ColumnView& v, int64_t* count) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      cudaStream_t stream = cuda_current_stream();
      CountedAllocator alloc;
      auto policy = thrust::cuda::par_nosync(alloc).on(stream);
      BufferPtr keys = Buffer::allocate(cuda_device(), size_t(v.size) * sizeof(uint64_t));
      uint64_t* k = typed<uint64_t>(keys);
      auto rows = thrust::counting_iterator<int64_t>(0);
      uint64_t* end = thrust::copy_if(policy, thrust::make_transform_iterator(rows, KeyOf<S>{v}),
                                      thrust::make_transform_iterator(rows + v.size, KeyOf<S>{v}), rows,
                                      k, IsValid{v});
      *count = end - k;
      thrust::sort(policy, k, end);
      GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
      return keys;
    } else {
      GPUDF_FAIL(Dtype, "order statistics need a numeric column");
    }
  }
};

struct GroupCuda {
  template <TypeId T>
  Groups operator()(const ColumnView& v, bool with_values, int64_t* num_groups) const {
    using S = storage_t<T>;
    cudaStream_t stream = cuda_current_stream();
    CountedAllocator alloc;
    auto policy = thrust::cuda::par_nosync(alloc).on(stream);
    Groups g;
    int64_t m = 0;
    BufferPtr sorted;  // keys (fixed width) or row indices (strings), sorted by value
    if constexpr (std::is_arithmetic_v<S>) {
      sorted = SortedKeys{}.template operator()<T>(v, &m);
    } else {
      sorted = Buffer::allocate(cuda_device(), size_t(v.size) * sizeof(int64_t));
      int64_t* r = typed<int64_t>(sorted);
      auto rows = thrust::counting_iterator<int64_t>(0);
      m = thrust::copy_if(policy, rows, rows + v.size, r, IsValid{v}) - r;
      thrust::sort(policy, r, r + m, StringLess<typename S::offset_type>{{v}});
    }
    BufferPtr out_keys = Buffer::allocate(cuda_device(), size_t(m) * 8);
    BufferPtr out_counts = Buffer::allocate(cuda_device(), size_t(m) * sizeof(int64_t));
    auto ones = thrust::constant_iterator<int64_t>(1);
    int64_t groups;
    if constexpr (std::is_arithmetic_v<S>) {
      uint64_t* k = typed<uint64_t>(sorted);
      groups = thrust::reduce_by_key(policy, k, k + m, ones, typed<uint64_t>(out_keys), typed<int64_t>(out_counts))
                   .first - typed<uint64_t>(out_keys);
    } else {
      int64_t* r = typed<int64_t>(sorted);
      groups = thrust::reduce_by_key(policy, r, r + m, ones, typed<int64_t>(out_keys), typed<int64_t>(out_counts),
                                     StringEq<typename S::offset_type>{{v}})
                   .first - typed<int64_t>(out_keys);
    }
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    *num_groups = groups;
    if (!with_values) return g;
    g.counts.resize(size_t(groups));
    HostVector<uint64_t>& dst_keys = g.keys;
    size_t bytes = size_t(groups) * 8;
    if constexpr (std::is_arithmetic_v<S>) {
      dst_keys.resize(size_t(groups));
      GPUDF_CUDA_TRY(cudaMemcpyAsync(dst_keys.data(), out_keys->data(), bytes, cudaMemcpyDeviceToHost, stream));
    } else {
      g.rows.resize(size_t(groups));
      GPUDF_CUDA_TRY(cudaMemcpyAsync(g.rows.data(), out_keys->data(), bytes, cudaMemcpyDeviceToHost, stream));
    }
    GPUDF_CUDA_TRY(cudaMemcpyAsync(g.counts.data(), out_counts->data(), bytes, cudaMemcpyDeviceToHost, stream));
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return g;
  }
};

}  // namespace

void select_keys_cuda(const ColumnView& v, int64_t lo, int64_t hi, uint64_t out[2]) {
  int64_t m = 0;
  BufferPtr keys = type_dispatch(v.type, SortedKeys{}, v, &m);
  GPUDF_EXPECTS(0 <= lo && lo <= hi && hi < m, Internal, "rank out of range");
  cudaStream_t stream = cuda_current_stream();
  const uint64_t* k = typed<uint64_t>(keys);
  GPUDF_CUDA_TRY(cudaMemcpyAsync(&out[0], k + lo, 8, cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaMemcpyAsync(&out[1], k + hi, 8, cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

Groups group_values_cuda(const ColumnView& v, bool with_values, int64_t* num_groups) {
  return type_dispatch(v.type, GroupCuda{}, v, with_values, num_groups);
}

}  // namespace gpudf::reduce_detail
