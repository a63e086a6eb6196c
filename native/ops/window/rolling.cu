// Rolling windows, CUDA backend: a kernel for the bounds (per row a binary search of its
// segment, then of the `by` values), a kernel that flags a descending `by` within a segment,
// and the aggregation kernel: one thread per validity byte (8 rows), each row aggregated over
// its window directly (direct_row in rolling_functors.hpp, the rules the CPU's sliding states
// follow).
#include "core/bitmask.hpp"
#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "ops/window/rolling_functors.hpp"

namespace gpudf::window::detail {
namespace {

__global__ void fixed_bounds_kernel(int64_t rows, int64_t before, int64_t after, const int32_t* seg, int64_t* start,
                                    int64_t* end) {
  GPUDF_GRID_STRIDE(i, rows) {
    int64_t lo = 0, hi = 0;
    segment_of(seg, rows, i, lo, hi);
    start[i] = i - before > lo ? i - before : lo;
    end[i] = i + after + 1 < hi ? i + after + 1 : hi;
  }
}

__global__ void unsorted_kernel(const int64_t* by, int64_t rows, const int32_t* seg, int32_t* flag) {
  GPUDF_GRID_STRIDE(i, rows) {
    if (i > 0 && by[i] < by[i - 1] && (seg == nullptr || seg[i] == seg[i - 1])) atomicExch(flag, 1);
  }
}

__global__ void by_bounds_kernel(const int64_t* by, int64_t rows, int64_t span, Closed closed, const int32_t* seg,
                                 int64_t* start, int64_t* end) {
  GPUDF_GRID_STRIDE(i, rows) {
    int64_t lo = 0, hi = 0;
    segment_of(seg, rows, i, lo, hi);
    by_window(by, lo, hi, i, span, closed, start[i], end[i]);
  }
}

template <typename S>
__global__ void rolling_kernel(ColumnView in, const int64_t* start, const int64_t* end, RollParams p, const double* w,
                               S* out, uint8_t* valid) {
  const int64_t n = in.size;
  GPUDF_GRID_STRIDE(byte, (n + 7) / 8) {
    uint32_t bits = 0;
    for (int64_t k = 0; k < 8 && byte * 8 + k < n; ++k) {
      const int64_t i = byte * 8 + k;
      S x = S(0);
      const bool ok = direct_row<S>(in, i, start[i], end[i], p, w, x);
      out[i] = ok ? x : S(0);
      if (ok) bits |= 1u << k;
    }
    valid[byte] = uint8_t(bits);
  }
}

}  // namespace

void fixed_bounds_cuda(int64_t rows, int64_t before, int64_t after, const int32_t* seg, int64_t* start, int64_t* end) {
  cudaStream_t stream = cuda_current_stream();
  fixed_bounds_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(rows, before, after, seg, start, end);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

bool by_bounds_cuda(Device& device, const int64_t* by, int64_t rows, int64_t span, Closed closed, const int32_t* seg,
                    int64_t* start, int64_t* end) {
  cudaStream_t stream = cuda_current_stream();
  BufferPtr flag = Buffer::allocate(device, sizeof(int32_t));
  int32_t* f = reinterpret_cast<int32_t*>(flag->data());
  GPUDF_CUDA_TRY(cudaMemsetAsync(f, 0, sizeof(int32_t), stream));
  unsorted_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(by, rows, seg, f);
  GPUDF_CUDA_TRY(cudaGetLastError());
  int32_t unsorted = 0;
  GPUDF_CUDA_TRY(cudaMemcpyAsync(&unsorted, f, sizeof(int32_t), cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  if (unsorted) return false;
  by_bounds_kernel<<<grid_for(rows), kBlockThreads, 0, stream>>>(by, rows, span, closed, seg, start, end);
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return true;
}

void rolling_cuda(const ColumnView& in, const int64_t* start, const int64_t* end, const RollOptions& o, Column& out,
                  uint8_t* valid) {
  cudaStream_t stream = cuda_current_stream();
  Device& device = out.device();
  BufferPtr weights;
  const double* w = nullptr;
  if (!o.weights.empty()) {
    const size_t bytes = o.weights.size() * sizeof(double);
    weights = Buffer::allocate(device, bytes);
    GPUDF_CUDA_TRY(cudaMemcpyAsync(weights->data(), o.weights.data(), bytes, cudaMemcpyHostToDevice, stream));
    w = reinterpret_cast<const double*>(weights->data());
  }
  const RollParams p = params_of(o);
  type_dispatch(in.type, [&]<TypeId T>() {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      S* o_values = const_cast<S*>(out.view().values<S>());
      rolling_kernel<S><<<grid_for((in.size + 7) / 8), kBlockThreads, 0, stream>>>(in, start, end, p, w, o_values, valid);
      GPUDF_CUDA_TRY(cudaGetLastError());
    } else {
      GPUDF_FAIL(Dtype, "rolling windows are not supported for strings");
    }
  });
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
}

}  // namespace gpudf::window::detail
