// CUDA concat: device-to-device copies for values and string bytes, one kernel per part for the
// rebased string offsets and for the validity bytes it touches (kernels on one stream run in
// order, so parts sharing a boundary byte do not race).
#include <algorithm>

#include "core/cuda/cuda_utils.cuh"
#include "ops/concat/concat.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = kBlockThreads;

template <typename O>
__global__ void offsets_kernel(const O* in, int64_t n, int64_t char_pos, O* out) {
  GPUDF_GRID_STRIDE(i, n) out[i] = static_cast<O>(int64_t(in[i]) - int64_t(in[0]) + char_pos);
}

__global__ void validity_kernel(ColumnView part, int64_t at, uint8_t* bits) {
  int64_t first = at >> 3, last = (at + part.size - 1) >> 3;
  for (int64_t b = first + blockIdx.x * int64_t(blockDim.x) + threadIdx.x; b <= last;
       b += int64_t(gridDim.x) * blockDim.x)
    bits[b] = concat_validity_byte(bits[b], part, at, b);
}

template <typename O>
int64_t read_offset(const ColumnView& p, int64_t i, cudaStream_t stream) {
  O v = 0;
  GPUDF_CUDA_TRY(cudaMemcpyAsync(&v, p.string_offsets<O>() + i, sizeof(O), cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return int64_t(v);
}

int64_t first_offset(const ColumnView& p, int64_t i, cudaStream_t stream) {
  return p.type == TypeId::Utf8 ? read_offset<int32_t>(p, i, stream) : read_offset<int64_t>(p, i, stream);
}

}  // namespace

std::vector<int64_t> string_spans_cuda(const std::vector<ColumnView>& parts) {
  cudaStream_t stream = cuda_current_stream();
  std::vector<int64_t> spans;
  for (const ColumnView& p : parts) spans.push_back(first_offset(p, p.size, stream) - first_offset(p, 0, stream));
  return spans;
}

ColumnPtr concat_cuda(const std::vector<ColumnView>& parts, const std::vector<int64_t>& spans) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = *parts.front().device;
  const TypeId type = parts.front().type;
  int64_t rows = 0, bytes = 0;
  bool nullable = false;
  for (const ColumnView& p : parts) rows += p.size, nullable |= p.validity != nullptr;
  for (int64_t s : spans) bytes += s;
  ColumnPtr out = Column::allocate(dev, type, rows, nullable, bytes);
  int64_t at = 0, char_pos = 0;
  for (size_t k = 0; k < parts.size(); ++k) {
    const ColumnView& p = parts[k];
    if (nullable && p.size) {
      validity_kernel<<<grid_for((p.size + 7) / 8 + 1), kBlock, 0, stream>>>(p, at, out->validity()->data());
      GPUDF_CUDA_TRY(cudaGetLastError());
    }
    if (is_string(type)) {
      if (p.size) {
        if (type == TypeId::Utf8)
          offsets_kernel<int32_t><<<grid_for(p.size), kBlock, 0, stream>>>(
              p.string_offsets<int32_t>(), p.size, char_pos, reinterpret_cast<int32_t*>(out->offsets()->data()) + at);
        else
          offsets_kernel<int64_t><<<grid_for(p.size), kBlock, 0, stream>>>(
              p.string_offsets<int64_t>(), p.size, char_pos, reinterpret_cast<int64_t*>(out->offsets()->data()) + at);
        GPUDF_CUDA_TRY(cudaGetLastError());
      }
      if (spans[k])
        GPUDF_CUDA_TRY(cudaMemcpyAsync(out->data()->data() + char_pos, p.data + first_offset(p, 0, stream),
                                       size_t(spans[k]), cudaMemcpyDeviceToDevice, stream));
      char_pos += spans[k];
    } else if (p.size) {
      const int64_t w = value_width(type);
      GPUDF_CUDA_TRY(cudaMemcpyAsync(out->data()->data() + at * w, p.data + p.offset * w, size_t(p.size * w),
                                     cudaMemcpyDeviceToDevice, stream));
    }
    at += p.size;
  }
  if (is_string(type)) {
    int32_t last32 = int32_t(char_pos);
    int64_t last64 = char_pos;
    const size_t ow = size_t(offset_width(type));
    GPUDF_CUDA_TRY(cudaMemcpyAsync(out->offsets()->data() + size_t(rows) * ow,
                                   ow == 4 ? static_cast<const void*>(&last32) : &last64, ow,
                                   cudaMemcpyHostToDevice, stream));
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace gpudf::detail
