#include "core/cuda/cuda_utils.cuh"
#include "ops/nulls/null_count.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = 256;

// One thread per bitmap byte (grid-stride), a block reduction in shared memory, then one atomic
// per block.
__global__ void count_valid_kernel(const uint8_t* bits, int64_t begin, int64_t end,
                                   int64_t first_byte, int64_t bytes,
                                   unsigned long long* out) {
  __shared__ unsigned long long partial[kBlock];
  unsigned long long local = 0;
  for (int64_t b = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; b < bytes;
       b += int64_t(gridDim.x) * blockDim.x) {
    local += set_bits_in_byte(bits, first_byte + b, begin, end);
  }
  partial[threadIdx.x] = local;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
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
