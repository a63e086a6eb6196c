// CUDA hash join: one open-addressing region (join.hpp's layout) filled with atomicCAS, then a
// count pass, an exclusive scan (CUB) and a fill pass over the probe rows, all through the
// GPUDF_HD rules the CPU join runs. Full joins mark matched build rows and append the rest.
#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "ops/gather/gather.hpp"
#include "ops/join/join.hpp"

namespace gpudf::detail {
namespace {

constexpr int kBlock = kBlockThreads;
using ull = unsigned long long;

__global__ void insert_kernel(const ColumnView* keys, int32_t nk, int64_t n, bool skip_nulls,
                              ull* slots, int64_t size, uint32_t* next) {
  GPUDF_GRID_STRIDE(i, n) {
    if (skip_nulls && any_key_null(keys, nk, i)) continue;
    uint64_t h = row_hash(keys, nk, i);
    ull mine = pack_slot(h, uint32_t(i));
    int64_t pos = slot_start(h, size);
    while (true) {
      ull s = atomicCAS(&slots[pos], 0ull, mine);
      if (s == 0) {
        next[i] = kNoRow;
        break;
      }
      if (slot_holds(s, h, keys, keys, nk, i)) {
        // Push row i onto the key's chain (a lock-free stack: the slot word is the head).
        while (true) {
          next[i] = slot_row(s);
          ull old = atomicCAS(&slots[pos], s, mine);
          if (old == s) break;
          s = old;
        }
        break;
      }
      if (++pos == size) pos = 0;
    }
  }
}

__global__ void probe_count_kernel(const ColumnView* bk, const ColumnView* pk, int32_t nk, int64_t n,
                                   bool skip_nulls, const ull* slots, int64_t size,
                                   const uint32_t* next, JoinHow kind, uint32_t* heads,
                                   int64_t* counts, int* missing, uint8_t* matched) {
  GPUDF_GRID_STRIDE(i, n) {
    uint32_t head = kNoRow;
    if (size > 1 && !(skip_nulls && any_key_null(pk, nk, i))) {
      uint64_t h = row_hash(pk, nk, i);
      uint64_t s = find_slot(reinterpret_cast<const uint64_t*>(slots), SlotRange{0, size}, h, bk,
                             pk, nk, i);
      if (s != 0) head = slot_row(s);
    }
    heads[i] = head;
    if (head == kNoRow) atomic_store_relaxed(missing, 1);
    counts[i] = probe_count(head, next, kind);
    if (matched)
      for (uint32_t r = head; r != kNoRow; r = next[r]) atomic_store_relaxed(&matched[r], uint8_t(1));
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) counts[n] = 0;
}

__global__ void probe_fill_kernel(const uint32_t* heads, const int64_t* starts, int64_t n,
                                  const uint32_t* next, JoinHow kind, int64_t* pm, int64_t* bm) {
  GPUDF_GRID_STRIDE(i, n) probe_fill(heads[i], next, kind, i, starts[i], pm, bm);
}

__global__ void unmatched_count_kernel(const uint8_t* matched, int64_t n, int64_t* flags) {
  GPUDF_GRID_STRIDE(i, n) flags[i] = matched[i] == 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) flags[n] = 0;
}

__global__ void unmatched_fill_kernel(const uint8_t* matched, const int64_t* starts, int64_t n,
                                      int64_t base, int64_t* pm, int64_t* bm) {
  GPUDF_GRID_STRIDE(i, n) {
    if (matched[i]) continue;
    pm[base + starts[i]] = -1;
    bm[base + starts[i]] = i;
  }
}

__global__ void cross_kernel(int64_t n, int64_t right_rows, int64_t* l, int64_t* r) {
  GPUDF_GRID_STRIDE(i, n) {
    l[i] = i / right_rows;
    r[i] = i % right_rows;
  }
}

__global__ void coalesce_kernel(const int64_t* l, const int64_t* r, int64_t n, int64_t left_rows,
                                int64_t* out) {
  GPUDF_GRID_STRIDE(i, n) out[i] = coalesce_index(l[i], r[i], left_rows);
}

/// The key views in device memory (kernels index them).
BufferPtr device_views(Device& dev, const std::vector<ColumnView>& keys, cudaStream_t stream) {
  BufferPtr b = Buffer::allocate(dev, keys.size() * sizeof(ColumnView));
  GPUDF_CUDA_TRY(cudaMemcpyAsync(b->data(), keys.data(), keys.size() * sizeof(ColumnView),
                                 cudaMemcpyHostToDevice, stream));
  return b;
}

bool has_nulls(const std::vector<ColumnView>& keys) {
  for (const ColumnView& k : keys)
    if (k.validity != nullptr) return true;
  return false;
}

template <typename T>
T* device_array(Device& dev, BufferPtr& holder, int64_t n) {
  holder = Buffer::allocate(dev, size_t(std::max<int64_t>(n, 1)) * sizeof(T));
  return reinterpret_cast<T*>(holder->data());
}

}  // namespace

namespace {

/// A CUDA JoinTable: the build keys' views on the device, the slots and the chains.
struct CudaJoinTable final : JoinTable {
  Device* dev = nullptr;
  BufferPtr views, slot_buf, next_buf;
  int32_t nk = 0;
  int64_t nb = 0, size = 0;
  bool nulls_equal = false;
};

}  // namespace

std::shared_ptr<const JoinTable> build_table_cuda(const std::vector<ColumnView>& build, bool nulls_equal) {
  auto t = std::make_shared<CudaJoinTable>();
  Device& dev = *build[0].device;
  cudaStream_t stream = cuda_current_stream();
  t->dev = &dev;
  t->nk = int32_t(build.size());
  t->nb = build[0].size;
  t->nulls_equal = nulls_equal;
  GPUDF_EXPECTS(t->nb < int64_t(kNoRow) / 2, InvalidArgument,
                "join: the build side must have fewer than 2^31 rows on CUDA");
  t->views = device_views(dev, build, stream);
  t->size = 2 * t->nb + 1;
  ull* slots = device_array<ull>(dev, t->slot_buf, t->size);
  uint32_t* next = device_array<uint32_t>(dev, t->next_buf, t->nb);
  GPUDF_CUDA_TRY(cudaMemsetAsync(slots, 0, size_t(t->size) * sizeof(ull), stream));
  if (t->nb > 0) {
    insert_kernel<<<grid_for(t->nb), kBlock, 0, stream>>>(reinterpret_cast<const ColumnView*>(t->views->data()), t->nk,
                                                          t->nb, !nulls_equal && has_nulls(build), slots, t->size, next);
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  return t;
}

ProbeResult hash_join_cuda(const std::vector<ColumnView>& build, const std::vector<ColumnView>& probe,
                           JoinHow kind, bool nulls_equal) {
  return probe_table_cuda(*build_table_cuda(build, nulls_equal), probe, kind);
}

ProbeResult probe_table_cuda(const JoinTable& built, const std::vector<ColumnView>& probe, JoinHow kind) {
  const auto& t = dynamic_cast<const CudaJoinTable&>(built);
  Device& dev = *t.dev;
  cudaStream_t stream = cuda_current_stream();
  const int32_t nk = t.nk;
  const int64_t nb = t.nb, np = probe[0].size, size = t.size;
  const bool nulls_equal = t.nulls_equal;
  BufferPtr pk_buf = device_views(dev, probe, stream);
  const auto* bk = reinterpret_cast<const ColumnView*>(t.views->data());
  const auto* pk = reinterpret_cast<const ColumnView*>(pk_buf->data());
  const auto* slots = reinterpret_cast<const ull*>(t.slot_buf->data());
  const auto* next = reinterpret_cast<const uint32_t*>(t.next_buf->data());
  BufferPtr head_buf, count_buf, matched_buf, flag_buf;

  const JoinHow probe_kind = kind == JoinHow::Full ? JoinHow::Left : kind;
  uint32_t* heads = device_array<uint32_t>(dev, head_buf, np);
  int64_t* counts = device_array<int64_t>(dev, count_buf, np + 1);
  uint8_t* matched = nullptr;
  if (kind == JoinHow::Full) {
    matched = device_array<uint8_t>(dev, matched_buf, nb);
    GPUDF_CUDA_TRY(cudaMemsetAsync(matched, 0, size_t(std::max<int64_t>(nb, 1)), stream));
  }
  DeviceScalar<int> missing(stream);
  probe_count_kernel<<<grid_for(np), kBlock, 0, stream>>>(
      bk, pk, nk, np, !nulls_equal && has_nulls(probe), slots, nb > 0 ? size : 1, next, probe_kind,
      heads, counts, missing.get(), matched);
  GPUDF_CUDA_TRY(cudaGetLastError());
  const int64_t probe_total = exclusive_scan_cuda(dev, counts, np);

  ProbeResult res;
  res.build_missing = (kind == JoinHow::Left || kind == JoinHow::Full) && missing.value(stream) != 0;
  int64_t unmatched = 0;
  int64_t* flags = nullptr;
  if (matched) {
    flags = device_array<int64_t>(dev, flag_buf, nb + 1);
    unmatched_count_kernel<<<grid_for(nb), kBlock, 0, stream>>>(matched, nb, flags);
    GPUDF_CUDA_TRY(cudaGetLastError());
    unmatched = exclusive_scan_cuda(dev, flags, nb);
  }
  res.probe_missing = unmatched > 0;
  const int64_t total = probe_total + unmatched;
  res.probe = Column::allocate(dev, TypeId::Int64, total, false);
  int64_t* pm = reinterpret_cast<int64_t*>(res.probe->data()->data());
  int64_t* bm = nullptr;
  if (kind != JoinHow::Semi && kind != JoinHow::Anti) {
    res.build = Column::allocate(dev, TypeId::Int64, total, false);
    bm = reinterpret_cast<int64_t*>(res.build->data()->data());
  }
  if (np > 0) {
    probe_fill_kernel<<<grid_for(np), kBlock, 0, stream>>>(heads, counts, np, next, probe_kind, pm, bm);
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  if (unmatched > 0) {
    unmatched_fill_kernel<<<grid_for(nb), kBlock, 0, stream>>>(matched, flags, nb, probe_total, pm, bm);
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return res;
}

JoinMaps cross_maps_cuda(Device& device, int64_t left_rows, int64_t right_rows) {
  cudaStream_t stream = cuda_current_stream();
  const int64_t n = left_rows * right_rows;
  JoinMaps maps;
  maps.left = Column::allocate(device, TypeId::Int64, n, false);
  maps.right = Column::allocate(device, TypeId::Int64, n, false);
  if (n > 0) {
    cross_kernel<<<grid_for(n), kBlock, 0, stream>>>(
        n, right_rows, reinterpret_cast<int64_t*>(maps.left->data()->data()),
        reinterpret_cast<int64_t*>(maps.right->data()->data()));
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return maps;
}

ColumnPtr coalesce_map_cuda(const ColumnView& left, const ColumnView& right, int64_t left_rows) {
  cudaStream_t stream = cuda_current_stream();
  ColumnPtr out = Column::allocate(*left.device, TypeId::Int64, left.size, false);
  if (left.size > 0) {
    coalesce_kernel<<<grid_for(left.size), kBlock, 0, stream>>>(
        left.values<int64_t>(), right.values<int64_t>(), left.size, left_rows,
        reinterpret_cast<int64_t*>(out->data()->data()));
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

}  // namespace gpudf::detail
