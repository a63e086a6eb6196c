// Window ops, CUDA backend: rank as a run-marking kernel, Thrust scans of run and segment
// starts, and a scatter kernel; shift and row index kernels. The cumulative scans are in
// window_scan.cu (their Thrust scan per dtype is most of the compile time; apart, the two
// files compile in parallel).
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/scan.h>

#include "core/bitmask.hpp"
#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "ops/sort/thrust_allocator.cuh"
#include "ops/window/window_functors.hpp"

namespace gpudf::window::detail {
namespace {

__global__ void copy_bits_kernel(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t n) {
  GPUDF_GRID_STRIDE(byte, (n + 7) / 8) {
    uint32_t b = 0;
    for (int64_t j = 0; j < 8 && byte * 8 + j < n; ++j)
      if (bit_is_set(src, src_offset + byte * 8 + j)) b |= 1u << j;
    dst[byte] = uint8_t(b);
  }
}

template <typename S>
__global__ void row_index_kernel(S* out, int64_t n, int64_t offset) {
  GPUDF_GRID_STRIDE(i, n) out[i] = S(offset + i);
}

__global__ void shift_rows_kernel(int64_t rows, int64_t n, const int32_t* seg, int64_t* out) {
  GPUDF_GRID_STRIDE(i, rows) {
    const int64_t j = i - n;
    out[i] = (j >= 0 && j < rows && (seg == nullptr || seg[j] == seg[i])) ? j : -1;
  }
}

template <typename S>
struct SameFixed {
  __device__ bool operator()(const ColumnView& c, int64_t p) const { return same_value<S>(c, p); }
};
template <typename O>
struct SameString {
  __device__ bool operator()(const ColumnView& c, int64_t p) const { return same_string<O>(c, p); }
};

/// Row p starts a run of equal values (a null row is a run of its own).
template <typename Same>
__device__ bool run_starts(const ColumnView& c, const int32_t* seg, int64_t p) {
  if (p == 0 || (seg && seg[p] != seg[p - 1]) || !c.is_valid(p) || !c.is_valid(p - 1)) return true;
  return !Same{}(c, p);
}

template <typename Same>
__global__ void rank_marks_kernel(ColumnView c, const int32_t* seg, int64_t* run_start, int64_t* seg_start,
                                  int64_t* dense, int64_t* run_end_rev, int32_t* keys) {
  const int64_t n = c.size;
  GPUDF_GRID_STRIDE(p, n) {
    const bool starts = run_starts<Same>(c, seg, p);
    run_start[p] = starts ? p : 0;
    seg_start[p] = (p == 0 || (seg && seg[p] != seg[p - 1])) ? p : 0;
    dense[p] = starts && c.is_valid(p) ? 1 : 0;
    const bool last = p == n - 1 || run_starts<Same>(c, seg, p + 1);
    run_end_rev[n - 1 - p] = last ? p + 1 : INT64_MAX;
    keys[p] = seg ? seg[p] : 0;
  }
}

__global__ void rank_write_kernel(int64_t n, RankMethod method, const int64_t* order, const int64_t* run_start,
                                  const int64_t* seg_start, const int64_t* dense, const int64_t* run_end_rev,
                                  void* out) {
  GPUDF_GRID_STRIDE(p, n) {
    const double r = rank_value(method, p, seg_start[p], run_start[p], run_end_rev[n - 1 - p], dense[p]);
    if (method == RankMethod::Average) static_cast<double*>(out)[order[p]] = r;
    else static_cast<uint32_t*>(out)[order[p]] = uint32_t(r);
  }
}

int64_t* i64(const BufferPtr& b) { return reinterpret_cast<int64_t*>(b->data()); }

}  // namespace

void copy_bits_cuda(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t n) {
  cudaStream_t stream = cuda_current_stream();
  copy_bits_kernel<<<grid_for((n + 7) / 8), kBlockThreads, 0, stream>>>(src, src_offset, dst, n);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

void row_index_cuda(Column& out, int64_t offset) {
  cudaStream_t stream = cuda_current_stream();
  const ColumnView o = out.view();
  type_dispatch(o.type, [&]<TypeId T>() {
    using S = storage_t<T>;
    if constexpr (std::is_integral_v<S> && T != TypeId::Bool) {
      row_index_kernel<S><<<grid_for(o.size), kBlockThreads, 0, stream>>>(const_cast<S*>(o.values<S>()), o.size, offset);
      GPUDF_CUDA_TRY(cudaGetLastError());
      GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    } else {
      GPUDF_FAIL(Dtype, "a row index must be an integer dtype");
    }
  });
}

void shift_rows_cuda(int64_t rows, int64_t n, const int32_t* seg, int64_t* out) {
  cudaStream_t stream = cuda_current_stream();
  shift_rows_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(rows, n, seg, out);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

void rank_sorted_cuda(const ColumnView& sv, const int32_t* seg, const int64_t* order, RankMethod method, Column& out) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = out.device();
  const int64_t n = sv.size;
  BufferPtr rs = Buffer::allocate(dev, size_t(n) * 8), ss = Buffer::allocate(dev, size_t(n) * 8);
  BufferPtr dn = Buffer::allocate(dev, size_t(n) * 8), re = Buffer::allocate(dev, size_t(n) * 8);
  BufferPtr keys = Buffer::allocate(dev, size_t(n) * 4);
  int32_t* k = reinterpret_cast<int32_t*>(keys->data());
  auto marks = [&]<typename Same>() {
    rank_marks_kernel<Same><<<grid_for(n), kBlockThreads, 0, stream>>>(sv, seg, i64(rs), i64(ss), i64(dn), i64(re), k);
  };
  type_dispatch(sv.type, [&]<TypeId T>() {
    if constexpr (T == TypeId::Utf8) marks.template operator()<SameString<int32_t>>();
    else if constexpr (T == TypeId::LargeUtf8) marks.template operator()<SameString<int64_t>>();
    else marks.template operator()<SameFixed<storage_t<T>>>();
  });
  GPUDF_CUDA_TRY(cudaGetLastError());
  ThrustAllocator alloc(dev);
  auto policy = thrust::cuda::par_nosync(alloc).on(stream);
  thrust::inclusive_scan(policy, i64(rs), i64(rs) + n, i64(rs), thrust::maximum<int64_t>());
  thrust::inclusive_scan(policy, i64(ss), i64(ss) + n, i64(ss), thrust::maximum<int64_t>());
  thrust::inclusive_scan(policy, i64(re), i64(re) + n, i64(re), thrust::minimum<int64_t>());
  thrust::inclusive_scan_by_key(policy, k, k + n, i64(dn), i64(dn));
  void* o = const_cast<uint8_t*>(out.view().data);
  rank_write_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(n, method, order, i64(rs), i64(ss), i64(dn), i64(re), o);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace gpudf::window::detail
