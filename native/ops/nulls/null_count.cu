#include "core/cuda/cuda_utils.cuh"
#include "ops/nulls/null_count.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = 256;

// One thread per bitmap byte (grid-stride); each warp sums its lanes' counts with shuffles, the
// warps' sums meet in shared memory and the first warp sums those; then one atomic per block.
__global__ void count_valid_kernel(const uint8_t* bits, int64_t begin, int64_t end,
                                   int64_t first_byte, int64_t bytes,
                                   unsigned long long* out) {
  __shared__ unsigned long long warp_sums[kBlock / 32];
  unsigned long long local = 0;
  for (int64_t b = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; b < bytes;
       b += int64_t(gridDim.x) * blockDim.x) {
    local += set_bits_in_byte(bits, first_byte + b, begin, end);
  }
  for (int o = 16; o > 0; o >>= 1) local += __shfl_down_sync(0xffffffffu, local, o);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = local;
  __syncthreads();
  if (warp == 0) {
    local = lane < kBlock / 32 ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) local += __shfl_down_sync(0xffffffffu, local, o);
    if (lane == 0) atomicAdd(out, local);
  }
}

}  // namespace

int64_t count_valid_cuda(const uint8_t* bits, int64_t begin, int64_t end) {
  cudaStream_t stream = cuda_current_stream();
  int64_t first_byte = begin >> 3;
  int64_t bytes = ((end - 1) >> 3) - first_byte + 1;
  DeviceScalar<unsigned long long> result(stream);
  int blocks = static_cast<int>(std::min<int64_t>((bytes + kBlock - 1) / kBlock, 4096));
  count_valid_kernel<<<blocks, kBlock, 0, stream>>>(bits, begin, end, first_byte, bytes,
                                                    result.get());
  GPUDF_CUDA_TRY(cudaGetLastError());
  return static_cast<int64_t>(result.value(stream));
}

}  // namespace gpudf::detail
