// The regex string functions on CUDA: one row per thread (grid-stride), each thread with its own
// slice of a global scratch buffer for the Pike VM (its size grows with the program, so the grid
// is capped to keep the buffer under kScratchBudget). String results take two passes: every
// row's length, an exclusive scan (exclusive_scan_cuda), then the bytes at their offsets.
#include <algorithm>
#include <limits>
#include <vector>

#include "core/bitmask.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "ops/gather/gather.hpp"
#include "ops/regex/regex_ops.hpp"
#include "ops/regex/regex_row.hpp"

namespace gpudf::regex::detail {
namespace {

constexpr int kBlock = 128;
constexpr int64_t kScratchBudget = int64_t(256) << 20;

struct Launch {
  RegexView rx;
  int32_t k;
  uint8_t* scratch;
  int64_t stride;  // bytes of scratch per thread
  TemplateView tmpl;
  RegexFn fn;
  int32_t group;
  int64_t limit;
};

template <typename O>
struct Rows {
  const O* off;
  const char* src;
  const uint8_t* bits;
  int64_t bit_offset;
  __device__ bool valid(int64_t i) const { return !bits || bit_is_set(bits, bit_offset + i); }
};

__device__ PikeVM thread_vm(const Launch& L) {
  const int64_t tid = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  return PikeVM(L.rx, L.k, L.scratch + tid * L.stride);
}

template <typename O>
__global__ void fixed_kernel(Launch L, Rows<O> in, int64_t rows, uint8_t* bools, uint32_t* ints, uint32_t* out_bits) {
  PikeVM vm = thread_vm(L);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x) {
    if (bools) bools[i] = 0;
    if (ints) ints[i] = 0;
    if (!in.valid(i)) continue;
    uint32_t r;
    if (!rx_fixed(vm, L.fn, in.src + in.off[i], int64_t(in.off[i + 1] - in.off[i]), &r)) continue;
    if (bools) bools[i] = uint8_t(r);
    else ints[i] = r;
    atomicOr(out_bits + (i >> 5), 1u << (i & 31));
  }
}

/// Pass 1: result lengths into sizes[0, rows) (-1: null), sizes[rows] = 0 for the scan.
template <typename O>
__global__ void size_kernel(Launch L, Rows<O> in, int64_t rows, int64_t* sizes, uint8_t* ok) {
  PikeVM vm = thread_vm(L);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x) {
    if (i == rows - 1) sizes[rows] = 0;
    int64_t out = -1;
    if (in.valid(i)) {
      const char* s = in.src + in.off[i];
      const int64_t len = int64_t(in.off[i + 1] - in.off[i]);
      int64_t b, e;
      if (L.fn == RegexFn::Replace) out = rx_replace(vm, s, len, L.tmpl, L.limit, nullptr);
      else if (rx_extract(vm, s, len, L.group, &b, &e)) out = e - b;
    }
    ok[i] = out >= 0;
    sizes[i] = out < 0 ? 0 : out;
  }
}

/// Pass 2: bytes at the scanned starts; offsets and validity.
template <typename O>
__global__ void write_kernel(Launch L, Rows<O> in, int64_t rows, const int64_t* starts, const uint8_t* ok, O* out_off,
                             char* dst, uint32_t* out_bits) {
  PikeVM vm = thread_vm(L);
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x) {
    out_off[i] = O(starts[i]);
    if (i == rows - 1) out_off[rows] = O(starts[rows]);
    if (!ok[i]) continue;
    atomicOr(out_bits + (i >> 5), 1u << (i & 31));
    if (!dst || starts[i + 1] == starts[i]) continue;
    const char* s = in.src + in.off[i];
    const int64_t len = int64_t(in.off[i + 1] - in.off[i]);
    char* d = dst + starts[i];
    int64_t b, e;
    if (L.fn == RegexFn::Replace) rx_replace(vm, s, len, L.tmpl, L.limit, d);
    else if (rx_extract(vm, s, len, L.group, &b, &e))
      for (int64_t k = b; k < e; ++k) d[k - b] = s[k];
  }
}

template <typename T>
T* upload(const T* host, size_t n, std::vector<BufferPtr>& keep, cudaStream_t stream) {
  if (n == 0) return nullptr;
  BufferPtr b = Buffer::allocate(cuda_device(), n * sizeof(T));
  GPUDF_CUDA_TRY(cudaMemcpyAsync(b->data(), host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
  keep.push_back(b);
  return reinterpret_cast<T*>(b->data());
}

template <typename O>
ColumnPtr apply_typed(const ColumnView& v, const RegexCall& call, cudaStream_t stream) {
  Device& dev = cuda_device();
  const int64_t n = v.size;
  const TypeId type = regex_result_type(call.fn, v.type);
  if (n == 0) {
    ColumnPtr out = Column::allocate(dev, type, 0, true, 0);
    if (is_string(type)) dev.memset(out->offsets()->data(), 0, out->offsets()->size());
    return out;
  }
  std::vector<BufferPtr> keep;
  const Regex& rx = *call.rx;
  Launch L;
  L.rx = rx.view_at(upload(rx.insts.data(), rx.insts.size(), keep, stream), upload(rx.ranges.data(), rx.ranges.size(), keep, stream),
                    upload(rx.prefix.data(), rx.prefix.size(), keep, stream), upload(rx.dfa.data(), rx.dfa.size(), keep, stream));
  L.k = regex_slots(call);
  L.stride = (pike_scratch_bytes(L.rx.num_insts, L.k) + 15) / 16 * 16;
  const int64_t max_threads = std::max<int64_t>(kBlock, kScratchBudget / L.stride);
  const int64_t threads = std::min<int64_t>(n, std::min<int64_t>(max_threads, int64_t(65535) * kBlock));
  const int grid = int((threads + kBlock - 1) / kBlock);
  BufferPtr scratch = Buffer::allocate(dev, size_t(grid) * kBlock * size_t(L.stride));
  L.scratch = scratch->data();
  L.fn = call.fn;
  L.group = call.group;
  L.limit = call.limit;
  if (call.tmpl) {
    L.tmpl.pieces = upload(call.tmpl->pieces.data(), call.tmpl->pieces.size(), keep, stream);
    L.tmpl.count = int32_t(call.tmpl->pieces.size());
    L.tmpl.text = upload(call.tmpl->text.data(), call.tmpl->text.size(), keep, stream);
  }
  Rows<O> in{v.string_offsets<O>(), reinterpret_cast<const char*>(v.data), v.validity, v.offset};
  if (!is_string(type)) {
    ColumnPtr out = Column::allocate(dev, type, n, true);
    uint8_t* data = out->data()->data();
    fixed_kernel<O><<<grid, kBlock, 0, stream>>>(L, in, n, type == TypeId::Bool ? data : nullptr,
                                                 type == TypeId::UInt32 ? reinterpret_cast<uint32_t*>(data) : nullptr,
                                                 reinterpret_cast<uint32_t*>(out->validity()->data()));
    GPUDF_CUDA_TRY(cudaGetLastError());
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return out;
  }
  BufferPtr starts = Buffer::allocate(dev, size_t(n + 1) * sizeof(int64_t));
  BufferPtr ok = Buffer::allocate(dev, size_t(n));
  int64_t* st = reinterpret_cast<int64_t*>(starts->data());
  size_kernel<O><<<grid, kBlock, 0, stream>>>(L, in, n, st, ok->data());
  GPUDF_CUDA_TRY(cudaGetLastError());
  const int64_t total = gpudf::detail::exclusive_scan_cuda(dev, st, n);
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the regex results exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  ColumnPtr out = Column::allocate(dev, type, n, true, total);
  write_kernel<O><<<grid, kBlock, 0, stream>>>(L, in, n, st, ok->data(), reinterpret_cast<O*>(out->offsets()->data()),
                                               total ? reinterpret_cast<char*>(out->data()->data()) : nullptr,
                                               reinterpret_cast<uint32_t*>(out->validity()->data()));
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace

ColumnPtr regex_apply_cuda(const ColumnPtr& strings, const RegexCall& call) {
  ColumnView v = strings->view();
  cudaStream_t stream = cuda_current_stream();
  return v.type == TypeId::Utf8 ? apply_typed<int32_t>(v, call, stream) : apply_typed<int64_t>(v, call, stream);
}

}  // namespace gpudf::regex::detail
