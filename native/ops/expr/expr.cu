// The CUDA backend of the expression interpreter: one kernel per program, one thread per row
// (grid-stride), evaluating every node of that row with the same eval_node the CPU runs.
// String results are written as views, then offsets (CUB scan) and bytes are gathered.

#include <limits>
#include <vector>

#include "core/cuda/cuda_utils.cuh"
#include "core/dispatch.hpp"
#include "ops/expr/eval_element.hpp"
#include "ops/expr/expr.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf::expr::detail {
namespace {

constexpr int kBlock = 128;

template <int CAP>
struct RowAcc {
  const Slot* slots;
  const uint8_t* valids;
  __device__ Slot slot(int32_t k) const { return slots[k]; }
  __device__ bool valid(int32_t k) const { return valids[k] != 0; }
};

__device__ void store_fixed(TypeId t, uint8_t* data, int64_t row, Slot v, bool ok) {
  switch (t) {
    case TypeId::Bool:
    case TypeId::Int8:
    case TypeId::UInt8: reinterpret_cast<uint8_t*>(data)[row] = ok ? uint8_t(v.i) : 0; break;
    case TypeId::Int16:
    case TypeId::UInt16: reinterpret_cast<uint16_t*>(data)[row] = ok ? uint16_t(v.i) : 0; break;
    case TypeId::Int32:
    case TypeId::UInt32:
    case TypeId::Date32: reinterpret_cast<uint32_t*>(data)[row] = ok ? uint32_t(v.i) : 0; break;
    case TypeId::Float32: reinterpret_cast<float*>(data)[row] = ok ? float(v.f) : 0.f; break;
    case TypeId::Float64: reinterpret_cast<double*>(data)[row] = ok ? v.f : 0.0; break;
    default: reinterpret_cast<int64_t*>(data)[row] = ok ? v.i : 0; break;
  }
}

/// Fixed-width results go to `data`/`bits`; string results to `views`/`view_ok`.
template <int CAP>
__global__ void expr_kernel(ProgramView p, int64_t rows, uint8_t* data, uint32_t* bits, Slot* views,
                            uint8_t* view_ok) {
  Slot slots[CAP];
  uint8_t valids[CAP];
  RowAcc<CAP> acc{slots, valids};
  const int32_t last = p.num_nodes - 1;
  for (int64_t row = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; row < rows;
       row += int64_t(gridDim.x) * blockDim.x) {
    for (int32_t j = 0; j < p.num_nodes; ++j) {
      bool ok;
      eval_node(p, p.nodes[j], row, acc, slots[j], ok);
      valids[j] = ok;
    }
    const bool ok = valids[last] != 0;
    if (views) {
      Slot v = slots[last];
      if (!ok) v.n = 0;
      views[row] = v;
      view_ok[row] = ok;
    } else {
      store_fixed(p.nodes[last].type, data, row, slots[last], ok);
      if (ok) atomicOr(bits + (row >> 5), 1u << (row & 31));
    }
  }
}

template <typename T>
T* upload(const std::vector<T>& host, std::vector<BufferPtr>& keep, cudaStream_t stream) {
  if (host.empty()) return nullptr;
  BufferPtr b = Buffer::allocate(cuda_device(), host.size() * sizeof(T));
  GPUDF_CUDA_TRY(cudaMemcpyAsync(b->data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  keep.push_back(b);
  return reinterpret_cast<T*>(b->data());
}

int grid_for(int64_t rows) { return int(std::min<int64_t>((rows + kBlock - 1) / kBlock, 65535)); }

__global__ void view_lengths(const Slot* views, int64_t rows, int64_t* lengths) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x)
    lengths[i] = views[i].n;
}

template <typename O>
__global__ void gather_views(const Slot* views, const uint8_t* ok, const int64_t* starts, int64_t rows,
                             O* offsets, char* bytes, uint32_t* bits) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t at = starts[i];
    offsets[i] = O(at);
    if (i == rows - 1) offsets[rows] = O(at + views[i].n);
    for (int64_t k = 0; k < views[i].n; ++k) bytes[at + k] = views[i].s[k];
    if (ok[i]) atomicOr(bits + (i >> 5), 1u << (i & 31));
  }
}

}  // namespace

ColumnPtr run_cuda(const Program& p) {
  cudaStream_t stream = cuda_current_stream();
  Device& dev = cuda_device();
  std::vector<BufferPtr> keep;
  std::vector<ColumnView> inputs;
  for (const ColumnPtr& c : p.inputs) inputs.push_back(c->view());
  std::vector<char> text(p.text.begin(), p.text.end());
  const char* text_dev = upload(text, keep, stream);
  ProgramView view;
  view.nodes = upload(p.nodes, keep, stream);
  view.num_nodes = int32_t(p.nodes.size());
  view.inputs = upload(inputs, keep, stream);
  view.consts = upload(p.bound_consts(text_dev), keep, stream);
  view.const_types = upload(p.const_types, keep, stream);
  const int64_t rows = p.rows;
  const TypeId type = p.result_type();
  auto launch = [&](uint8_t* data, uint32_t* bits, Slot* views, uint8_t* ok) {
    if (rows == 0) return;
    if (view.num_nodes <= 32)
      expr_kernel<32><<<grid_for(rows), kBlock, 0, stream>>>(view, rows, data, bits, views, ok);
    else
      expr_kernel<kMaxNodes><<<grid_for(rows), kBlock, 0, stream>>>(view, rows, data, bits, views, ok);
    GPUDF_CUDA_TRY(cudaGetLastError());
  };
  if (!is_string(type)) {
    ColumnPtr out = Column::allocate(dev, type, rows, true);
    launch(out->data()->data(), reinterpret_cast<uint32_t*>(out->validity()->data()), nullptr, nullptr);
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
    return out;
  }
  BufferPtr views = Buffer::allocate(dev, size_t(rows) * sizeof(Slot));
  BufferPtr ok = Buffer::allocate(dev, size_t(rows));
  BufferPtr starts = Buffer::allocate(dev, size_t(rows + 1) * sizeof(int64_t));
  Slot* v = reinterpret_cast<Slot*>(views ? views->data() : nullptr);
  int64_t* st = reinterpret_cast<int64_t*>(starts->data());
  launch(nullptr, nullptr, v, ok ? ok->data() : nullptr);
  int64_t total = 0;
  if (rows > 0) {
    view_lengths<<<grid_for(rows), kBlock, 0, stream>>>(v, rows, st);
    // The extra element (rows) is scanned from zero: clear it first.
    GPUDF_CUDA_TRY(cudaMemsetAsync(st + rows, 0, sizeof(int64_t), stream));
    total = gpudf::detail::exclusive_scan_cuda(dev, st, rows);
  }
  ColumnPtr out = Column::allocate(dev, type, rows, true, total);
  char* bytes = reinterpret_cast<char*>(out->data() ? out->data()->data() : nullptr);
  uint32_t* bits = reinterpret_cast<uint32_t*>(out->validity() ? out->validity()->data() : nullptr);
  if (rows == 0) {
    dev.memset(out->offsets()->data(), 0, out->offsets()->size());
  } else if (type == TypeId::Utf8) {
    gather_views<int32_t><<<grid_for(rows), kBlock, 0, stream>>>(
        v, ok->data(), st, rows, reinterpret_cast<int32_t*>(out->offsets()->data()), bytes, bits);
  } else {
    gather_views<int64_t><<<grid_for(rows), kBlock, 0, stream>>>(
        v, ok->data(), st, rows, reinterpret_cast<int64_t*>(out->offsets()->data()), bytes, bits);
  }
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

namespace {

/// Pass 1: the case-mapped byte length of every row, into sizes[0..rows) (sizes[rows] = 0).
template <typename O>
__global__ void case_size_kernel(const O* in_off, const char* src, int64_t rows, CaseMode mode, int64_t* sizes) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x) {
    sizes[i] = utf8_case_convert(src + in_off[i], int64_t(in_off[i + 1] - in_off[i]), mode, nullptr);
    if (i == rows - 1) sizes[rows] = 0;
  }
}

/// Pass 2: rows written at their scanned starts; offsets and validity set.
template <typename O>
__global__ void case_write_kernel(const O* in_off, const char* src, const uint8_t* in_bits, int64_t in_offset,
                                  int64_t rows, CaseMode mode, const int64_t* starts, O* out_off, char* dst,
                                  uint32_t* out_bits) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < rows; i += int64_t(gridDim.x) * blockDim.x) {
    out_off[i] = O(starts[i]);
    if (i == rows - 1) out_off[rows] = O(starts[rows]);
    utf8_case_convert(src + in_off[i], int64_t(in_off[i + 1] - in_off[i]), mode, dst ? dst + starts[i] : nullptr);
    if (in_bits && bit_is_set(in_bits, in_offset + i)) atomicOr(out_bits + (i >> 5), 1u << (i & 31));
  }
}

template <typename O>
ColumnPtr case_map_typed(const ColumnView& v, CaseMode mode, cudaStream_t stream) {
  const int64_t n = v.size;
  Device& dev = cuda_device();
  if (n == 0) {
    ColumnPtr out = Column::allocate(dev, v.type, 0, v.validity != nullptr, 0);
    dev.memset(out->offsets()->data(), 0, out->offsets()->size());
    return out;
  }
  const O* in_off = v.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(v.data);
  BufferPtr starts = Buffer::allocate(dev, size_t(n + 1) * sizeof(int64_t));
  int64_t* st = reinterpret_cast<int64_t*>(starts->data());
  case_size_kernel<O><<<grid_for(n), kBlock, 0, stream>>>(in_off, src, n, mode, st);
  GPUDF_CUDA_TRY(cudaGetLastError());
  const int64_t total = gpudf::detail::exclusive_scan_cuda(dev, st, n);
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the case-mapped strings exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  ColumnPtr out = Column::allocate(dev, v.type, n, v.validity != nullptr, total);
  case_write_kernel<O><<<grid_for(n), kBlock, 0, stream>>>(
      in_off, src, v.validity, v.offset, n, mode, st, reinterpret_cast<O*>(out->offsets()->data()),
      reinterpret_cast<char*>(total && out->data() ? out->data()->data() : nullptr),
      reinterpret_cast<uint32_t*>(out->validity() ? out->validity()->data() : nullptr));
  GPUDF_CUDA_TRY(cudaGetLastError());
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace

ColumnPtr case_map_cuda(const ColumnPtr& strings, CaseMode mode) {
  ColumnView v = strings->view();
  cudaStream_t stream = cuda_current_stream();
  return v.type == TypeId::Utf8 ? case_map_typed<int32_t>(v, mode, stream)
                                : case_map_typed<int64_t>(v, mode, stream);
}

}  // namespace gpudf::expr::detail
