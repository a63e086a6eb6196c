// CUDA backend of groupBy. group_rows: an open-addressing table of row indices filled with
// atomicCAS (equality: rows_equal on the keys), each slot's smallest row kept with atomicMin,
// then ids numbered by first appearance with a scan (so maintain_order always holds).
// Aggregations: the same composition as the CPU (groupby_compose.hpp) over two primitives.
// fold: a fold whose combine gives the same bits in any order (counts, wrapping integer sums
// and products, a row chosen under a total order: first/last, min/max, argMin/argMax) runs as
// atomics on 64-bit words per group — with few groups each block first folds its rows into a
// copy of the words in shared memory and merges that into the global words, with many every row
// updates the global words. Float sums, means and variances keep the CPU's fixed shape
// (fold_shape.hpp) so their rounding is the CPU's bit for bit: with few groups, one thread per
// fixed row chunk folds its rows in row order into the chunk's partials, then one thread per
// group combines them in chunk order; with many, one thread per group over its segment of a
// stable sort of the ids. sorted (median, quantile, nUnique): sorted_order by id then value,
// then one thread per group. Per-row logic lives in GPUDF_HD headers the CPU tests exercise.
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <algorithm>
#include <bit>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/buffer.hpp"
#include "core/cuda/cuda_utils.cuh"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/groupby/fold_shape.hpp"
#include "ops/groupby/groupby_compose.hpp"
#include "ops/hash/row_hash.hpp"
#include "ops/sort/sort.hpp"
#include "ops/sort/thrust_allocator.cuh"

namespace gpudf::detail {
namespace {

using namespace groupby_detail;

template <typename T>
T* ptr(const BufferPtr& b) {
  return reinterpret_cast<T*>(b ? b->data() : nullptr);
}

BufferPtr device_buffer(size_t bytes) { return Buffer::allocate(cuda_device(), bytes); }

template <typename T, typename Alloc>
BufferPtr upload(const std::vector<T, Alloc>& host, cudaStream_t stream) {
  BufferPtr b = device_buffer(host.size() * sizeof(T));
  if (!host.empty())
    GPUDF_CUDA_TRY(cudaMemcpyAsync(b->data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  return b;
}

template <typename T>
HostVector<T> download(const BufferPtr& b, size_t n, cudaStream_t stream) {
  HostVector<T> host(n);
  if (n) GPUDF_CUDA_TRY(cudaMemcpyAsync(host.data(), b->data(), n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return host;
}

// ---- group_rows ------------------------------------------------------------------------------

__global__ void hash_kernel(const ColumnView* keys, int32_t nkeys, int64_t n, bool drop_nulls, uint64_t* hashes,
                            uint8_t* dropped) {
  GPUDF_GRID_STRIDE(i, n) {
    dropped[i] = drop_nulls && any_key_null(keys, nkeys, i);
    hashes[i] = row_hash(keys, nkeys, i);
  }
}

/// Inserts every kept row: a slot holds the row that claimed it (atomicCAS); rows equal to it
/// share the slot. slot_min keeps each slot's smallest row (its group's first row).
__global__ void insert_kernel(const ColumnView* keys, int32_t nkeys, int64_t n, const uint64_t* hashes,
                              const uint8_t* dropped, unsigned long long* slots, uint64_t mask, int64_t* slot_of,
                              long long* slot_min) {
  GPUDF_GRID_STRIDE(i, n) {
    if (dropped[i]) {
      slot_of[i] = -1;
      continue;
    }
    const uint64_t h = hashes[i];
    for (uint64_t s = h & mask;; s = (s + 1) & mask) {
      unsigned long long cur = atomic_load_relaxed(&slots[s]);
      if (cur == ~0ULL) {
        cur = atomicCAS(&slots[s], ~0ULL, static_cast<unsigned long long>(i));
        if (cur == ~0ULL) {
          slot_of[i] = int64_t(s);
          atomicMin(&slot_min[s], static_cast<long long>(i));
          break;
        }
      }
      const auto r = static_cast<int64_t>(cur);
      if (hashes[r] == h && rows_equal(keys, r, keys, i, nkeys)) {
        slot_of[i] = int64_t(s);
        atomicMin(&slot_min[s], static_cast<long long>(i));
        break;
      }
    }
  }
}

__global__ void first_flag_kernel(const int64_t* slot_of, const long long* slot_min, int64_t n, int64_t* flags) {
  GPUDF_GRID_STRIDE(i, n) flags[i] = slot_of[i] >= 0 && slot_min[slot_of[i]] == i ? 1 : 0;
}

template <typename IdT>
__global__ void id_kernel(const int64_t* slot_of, const long long* slot_min, const int64_t* rank, int64_t n, IdT* ids) {
  GPUDF_GRID_STRIDE(i, n) ids[i] = slot_of[i] < 0 ? IdT(-1) : IdT(rank[slot_min[slot_of[i]]]);
}

struct IsSet {
  const int64_t* flags;
  __device__ bool operator()(int64_t i) const { return flags[i] != 0; }
};

// ---- aggregation primitives ------------------------------------------------------------------

__global__ void read_ids_kernel(IndexReader ids, int64_t n, int64_t* out) {
  GPUDF_GRID_STRIDE(i, n) out[i] = ids(i);
}

template <typename GF>
__global__ void fold_kernel(GF f, const int64_t* rows, const int64_t* offsets, int64_t count,
                            typename GF::Acc* out) {
  GPUDF_GRID_STRIDE(g, count) {
    typename GF::Acc acc = f.identity();
    for (int64_t k = offsets[g]; k < offsets[g + 1]; ++k) acc = f.combine(acc, f.load(rows[k], g));
    out[g] = acc;
  }
}

/// Chunk c's partials (count accumulators at partial + c * count): its rows folded in row order.
template <typename GF>
__global__ void chunk_fold_kernel(GF f, IndexReader ids, int64_t n, int64_t count, int64_t chunks,
                                  typename GF::Acc* partial) {
  GPUDF_GRID_STRIDE(c, chunks) {
    typename GF::Acc* p = partial + c * count;
    for (int64_t g = 0; g < count; ++g) p[g] = f.identity();
    for (int64_t i = c * n / chunks, end = (c + 1) * n / chunks; i < end; ++i) {
      const int64_t g = ids(i);
      if (uint64_t(g) < uint64_t(count)) p[g] = f.combine(p[g], f.load(i, g));
    }
  }
}

/// Each group's result: the identity combined with every chunk's partial, in chunk order.
template <typename GF>
__global__ void combine_chunks_kernel(GF f, const typename GF::Acc* partial, int64_t count, int64_t chunks,
                                      typename GF::Acc* out) {
  GPUDF_GRID_STRIDE(g, count) {
    typename GF::Acc acc = f.identity();
    for (int64_t c = 0; c < chunks; ++c) acc = f.combine(acc, partial[c * count + g]);
    out[g] = acc;
  }
}

template <typename Op>
__global__ void sorted_kernel(Op op, const int64_t* perm, const int64_t* begin, const int64_t* valid, int64_t count,
                              typename Op::Out* out) {
  GPUDF_GRID_STRIDE(g, count) out[g] = op.apply(perm, begin[g], valid[g]);
}

// ---- atomic folds ---------------------------------------------------------------------------
// An adapter runs a fold on kWords 64-bit words per group: identity(k) is word k's start,
// update(w, i, g) merges row i into group g's words with atomics, merge(dst, src, g) merges one
// block's words into the global ones, acc(w, g) reads the fold's accumulator back. Only folds
// whose combine is exact in any order have one (AtomicOf), so no schedule changes a result.

using ull = unsigned long long;

/// Rows and valid values: two words, added.
struct CountWords {
  CountRowsValid f;
  using Acc = RowsValid;
  static constexpr int kWords = 2;
  __device__ ull identity(int) const { return 0; }
  __device__ void update(ull* w, int64_t i, int64_t) const {
    atomicAdd(&w[0], 1ull);
    if (f.v.is_valid(i)) atomicAdd(&w[1], 1ull);
  }
  __device__ void merge(ull* dst, const ull* src, int64_t) const {
    if (src[0]) atomicAdd(&dst[0], src[0]);
    if (src[1]) atomicAdd(&dst[1], src[1]);
  }
  __device__ Acc acc(const ull* w, int64_t) const { return {int64_t(w[0]), int64_t(w[1])}; }
};

/// A fold whose accumulator is a 64-bit integer, kept as it is in one word.
template <typename GF>
struct OneWord {
  GF f;
  using Acc = typename GF::Acc;
  static constexpr int kWords = 1;
  __device__ ull identity(int) const { return ull(f.identity()); }
  __device__ Acc acc(const ull* w, int64_t) const { return Acc(w[0]); }
};

/// The word summed with wrap-around (SumWrap, RowsBefore): atomicAdd.
template <typename GF>
struct AddWord : OneWord<GF> {
  __device__ void update(ull* w, int64_t i, int64_t g) const {
    if (const ull x = ull(this->f.load(i, g))) atomicAdd(w, x);
  }
  __device__ void merge(ull* dst, const ull* src, int64_t) const {
    if (src[0]) atomicAdd(dst, src[0]);
  }
};

/// The word merged by combine in a compare-and-swap loop, for a combine that is exact,
/// commutative and associative (a wrapping product, the first / last row, a row chosen under a
/// total order). No plain read of the word: the first CAS guesses the identity and returns what
/// the word holds.
template <typename GF>
struct CasWord : OneWord<GF> {
  using Acc = typename GF::Acc;
  __device__ void put(ull* w, Acc x) const {
    ull seen = ull(this->f.identity());
    while (true) {
      const ull want = ull(this->f.combine(Acc(seen), x));
      if (want == seen) return;
      const ull was = atomicCAS(w, seen, want);
      if (was == seen) return;
      seen = was;
    }
  }
  __device__ void update(ull* w, int64_t i, int64_t g) const {
    const Acc x = this->f.load(i, g);
    if (ull(x) != ull(this->f.identity())) put(w, x);
  }
  __device__ void merge(ull* dst, const ull* src, int64_t) const {
    if (src[0] != ull(this->f.identity())) put(dst, Acc(src[0]));
  }
};

/// A group's extreme number as its row (ArgExtreme orders rows as ValueExtreme does: NaN loses
/// unless all are NaN, ties to the smaller row), the value read at that row at the end.
template <typename T>
struct ExtremeWord : CasWord<PerGroup<reduce_detail::ArgExtreme<T>>> {
  using Acc = typename ValueExtreme<T>::Acc;
  __device__ Acc acc(const ull* w, int64_t) const {
    const auto row = int64_t(w[0]);
    return row < 0 ? Acc{T(0), -1} : Acc{this->f.f.v.template values<T>()[row], row};
  }
};

/// The adapter of a fold (void: none, the fold keeps its fixed shape).
template <typename GF>
struct AtomicOf {
  using type = void;
};
template <>
struct AtomicOf<CountRowsValid> {
  using type = CountWords;
  static type make(const CountRowsValid& f) { return {f}; }
};
template <>
struct AtomicOf<RowsBefore> {
  using type = AddWord<RowsBefore>;
  static type make(const RowsBefore& f) { return {{f}}; }
};
template <>
struct AtomicOf<EdgeRow> {
  using type = CasWord<EdgeRow>;
  static type make(const EdgeRow& f) { return {{f}}; }
};
template <typename T>
struct AtomicOf<PerGroup<reduce_detail::SumWrap<T>>> {
  using type = AddWord<PerGroup<reduce_detail::SumWrap<T>>>;
  static type make(const PerGroup<reduce_detail::SumWrap<T>>& f) { return {{f}}; }
};
template <typename T>
struct AtomicOf<PerGroup<reduce_detail::ProdWrap<T>>> {
  using type = CasWord<PerGroup<reduce_detail::ProdWrap<T>>>;
  static type make(const PerGroup<reduce_detail::ProdWrap<T>>& f) { return {{f}}; }
};
template <typename T>
struct AtomicOf<PerGroup<reduce_detail::ArgExtreme<T>>> {
  using type = CasWord<PerGroup<reduce_detail::ArgExtreme<T>>>;
  static type make(const PerGroup<reduce_detail::ArgExtreme<T>>& f) { return {{f}}; }
};
template <typename T>
struct AtomicOf<ValueExtreme<T>> {
  using type = ExtremeWord<T>;
  static type make(const ValueExtreme<T>& f) { return {{{{{f.v, f.want_max}}}}}; }
};

/// Words per group a block may pre-aggregate in shared memory (32 KiB, under the 48 KiB every
/// device gives a launch without opting in), and the most blocks that pre-aggregate.
constexpr int64_t kSharedWords = 4096;
constexpr int kPreBlocks = 1024;

template <typename A>
__global__ void init_words_kernel(A a, int64_t words, ull* w) {
  GPUDF_GRID_STRIDE(k, words) w[k] = a.identity(int(k % A::kWords));
}

/// Every row with an id in [0, count) merged into its group's global words.
template <typename A>
__global__ void atomic_fold_kernel(A a, IndexReader ids, int64_t n, int64_t count, ull* words) {
  GPUDF_GRID_STRIDE(i, n) {
    const int64_t g = ids(i);
    if (uint64_t(g) < uint64_t(count)) a.update(words + g * A::kWords, i, g);
  }
}

/// The same with few groups: the block's rows merged into its own copy of the words in shared
/// memory first, which is then merged into the global words.
template <typename A>
__global__ void shared_fold_kernel(A a, IndexReader ids, int64_t n, int64_t count, ull* words) {
  extern __shared__ ull block_words[];
  constexpr int W = A::kWords;
  for (int64_t k = threadIdx.x; k < count * W; k += blockDim.x) block_words[k] = a.identity(int(k % W));
  __syncthreads();
  GPUDF_GRID_STRIDE(i, n) {
    const int64_t g = ids(i);
    if (uint64_t(g) < uint64_t(count)) a.update(block_words + g * W, i, g);
  }
  __syncthreads();
  for (int64_t g = threadIdx.x; g < count; g += blockDim.x) a.merge(words + g * W, block_words + g * W, g);
}

template <typename A>
__global__ void words_acc_kernel(A a, const ull* words, int64_t count, typename A::Acc* out) {
  GPUDF_GRID_STRIDE(g, count) out[g] = a.acc(words + g * A::kWords, g);
}

/// The CUDA backend of groupby_compose.hpp: segments (rows stably sorted by id, offsets per
/// group) built once per call, on first use.
struct CudaBackend {
  ColumnView id_view;
  int64_t n;
  int64_t count;
  mutable BufferPtr rows, offsets;

  void build_segments() const {
    if (rows) return;
    cudaStream_t stream = cuda_current_stream();
    ThrustAllocator alloc(cuda_device());
    auto policy = thrust::cuda::par_nosync(alloc).on(stream);
    BufferPtr keys = device_buffer(size_t(n) * sizeof(int64_t));
    rows = device_buffer(size_t(n) * sizeof(int64_t));
    offsets = device_buffer(size_t(count + 1) * sizeof(int64_t));
    if (n > 0) {
      read_ids_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(IndexReader{id_view.data, id_view.offset, id_view.type},
                                                                  n, ptr<int64_t>(keys));
      GPUDF_CUDA_TRY(cudaGetLastError());
      thrust::sequence(policy, ptr<int64_t>(rows), ptr<int64_t>(rows) + n);
      thrust::stable_sort_by_key(policy, ptr<int64_t>(keys), ptr<int64_t>(keys) + n, ptr<int64_t>(rows));
    }
    // Group g starts at the first sorted id >= g (dropped rows, id -1, come first).
    auto groups = thrust::counting_iterator<int64_t>(0);
    thrust::lower_bound(policy, ptr<int64_t>(keys), ptr<int64_t>(keys) + n, groups, groups + count + 1,
                        ptr<int64_t>(offsets));
    GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  }

  template <typename A>
  HostVector<typename A::Acc> atomic_fold(const A& a) const {
    using Acc = typename A::Acc;
    cudaStream_t stream = cuda_current_stream();
    const int64_t words = count * A::kWords;
    BufferPtr w = device_buffer(size_t(words) * sizeof(ull));
    init_words_kernel<<<grid_for(words), kBlockThreads, 0, stream>>>(a, words, ptr<ull>(w));
    GPUDF_CUDA_TRY(cudaGetLastError());
    if (n > 0) {
      // Pre-aggregate when the words fit in shared memory and each block folds several rows
      // into each of them; else rows go straight to the global words.
      const IndexReader ids{id_view.data, id_view.offset, id_view.type};
      if (words <= kSharedWords && n >= 4 * words)
        shared_fold_kernel<<<std::min(grid_for(n), kPreBlocks), kBlockThreads, size_t(words) * sizeof(ull), stream>>>(
            a, ids, n, count, ptr<ull>(w));
      else
        atomic_fold_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(a, ids, n, count, ptr<ull>(w));
      GPUDF_CUDA_TRY(cudaGetLastError());
    }
    BufferPtr out = device_buffer(size_t(count) * sizeof(Acc));
    words_acc_kernel<<<grid_for(count), kBlockThreads, 0, stream>>>(a, ptr<ull>(w), count, ptr<Acc>(out));
    GPUDF_CUDA_TRY(cudaGetLastError());
    return download<Acc>(out, size_t(count), stream);
  }

  template <typename GF>
  HostVector<typename GF::Acc> fold(const GF& f) const {
    if (count == 0) return {};
    if constexpr (!std::is_void_v<typename AtomicOf<GF>::type>) return atomic_fold(AtomicOf<GF>::make(f));
    else return shaped_fold(f);
  }

  /// fold_shape.hpp's fixed shape: per-chunk partials combined in chunk order, or each group's
  /// rows in row order over a stable sort of the ids.
  template <typename GF>
  HostVector<typename GF::Acc> shaped_fold(const GF& f) const {
    using Acc = typename GF::Acc;
    cudaStream_t stream = cuda_current_stream();
    BufferPtr out = device_buffer(size_t(count) * sizeof(Acc));
    if (const int64_t chunks = partial_chunks(n, count)) {
      BufferPtr partial = device_buffer(size_t(chunks * count) * sizeof(Acc));
      const IndexReader ids{id_view.data, id_view.offset, id_view.type};
      chunk_fold_kernel<<<grid_for(chunks), kBlockThreads, 0, stream>>>(f, ids, n, count, chunks, ptr<Acc>(partial));
      GPUDF_CUDA_TRY(cudaGetLastError());
      combine_chunks_kernel<<<grid_for(count), kBlockThreads, 0, stream>>>(f, ptr<Acc>(partial), count, chunks,
                                                                           ptr<Acc>(out));
      GPUDF_CUDA_TRY(cudaGetLastError());
      return download<Acc>(out, size_t(count), stream);
    }
    build_segments();
    fold_kernel<<<grid_for(count), kBlockThreads, 0, stream>>>(f, ptr<int64_t>(rows), ptr<int64_t>(offsets), count,
                                                               ptr<Acc>(out));
    GPUDF_CUDA_TRY(cudaGetLastError());
    return download<Acc>(out, size_t(count), stream);
  }

  template <typename GF, typename... A>
  HostVector<typename GF::Acc> fold_with(const GF& f, const HostVector<A>&... per_group) const {
    cudaStream_t stream = cuda_current_stream();
    const std::vector<BufferPtr> held{upload(per_group, stream)...};  // braced: in order
    return fold(bound_to(std::index_sequence_for<A...>{}, f, held, per_group...));
  }

  template <size_t... I, typename GF, typename... A>
  static GF bound_to(std::index_sequence<I...>, const GF& f, const std::vector<BufferPtr>& held,
                     const HostVector<A>&...) {
    return f.bound(reinterpret_cast<const A*>(held[I] ? held[I]->data() : nullptr)...);
  }

  HostVector<RowsValid> rows_valid(const ColumnView& v) const { return fold(CountRowsValid{v}); }

  template <typename Op>
  HostVector<typename Op::Out> sorted(const Op& op, const ColumnView& v, const HostVector<RowsValid>& rv) const {
    using Out = typename Op::Out;
    if (count == 0) return {};
    cudaStream_t stream = cuda_current_stream();
    ColumnPtr perm = sorted_order({SortKey{id_view, false, true}, SortKey{v, false, true}});
    HostVector<int64_t> valid(rv.size());
    for (size_t g = 0; g < rv.size(); ++g) valid[g] = rv[g].valid;
    BufferPtr begin = upload(sorted_group_begins(rv, n), stream);
    BufferPtr dvalid = upload(valid, stream);
    BufferPtr out = device_buffer(size_t(count) * sizeof(Out));
    sorted_kernel<<<grid_for(count), kBlockThreads, 0, stream>>>(
        op, reinterpret_cast<const int64_t*>(perm->data()->data()) + perm->offset(), ptr<int64_t>(begin),
        ptr<int64_t>(dvalid), count, ptr<Out>(out));
    GPUDF_CUDA_TRY(cudaGetLastError());
    return download<Out>(out, size_t(count), stream);
  }
};

__global__ void head_kernel(const int64_t* rows, const int64_t* offsets, const int64_t* at, int64_t count, int64_t n,
                            bool from_end, int64_t* out) {
  GPUDF_GRID_STRIDE(g, count) {
    const int64_t take = at[g + 1] - at[g];
    const int64_t first = from_end ? offsets[g + 1] - take : offsets[g];
    for (int64_t k = 0; k < take; ++k) out[at[g] + k] = rows[first + k];
  }
}

template <typename IdT>
void assign_ids(const int64_t* slot_of, const long long* slot_min, const int64_t* rank, int64_t n, IdT* ids,
                cudaStream_t stream) {
  id_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(slot_of, slot_min, rank, n, ids);
  GPUDF_CUDA_TRY(cudaGetLastError());
}

}  // namespace

GroupIds group_rows_cuda(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order) {
  (void)maintain_order;  // ids are always numbered by first appearance here
  const int64_t n = keys[0].size;
  cudaStream_t stream = cuda_current_stream();
  ThrustAllocator alloc(cuda_device());
  auto policy = thrust::cuda::par_nosync(alloc).on(stream);
  const bool wide = n >= (int64_t(1) << 31);
  GroupIds out;
  out.ids = Column::allocate(cuda_device(), wide ? TypeId::Int64 : TypeId::Int32, n, false);
  if (n == 0) {
    out.first_rows = Column::allocate(cuda_device(), TypeId::Int64, 0, false);
    return out;
  }
  BufferPtr dkeys = upload(keys, stream);
  const auto* kv = ptr<const ColumnView>(dkeys);
  const auto nk = int32_t(keys.size());
  const uint64_t cap = std::bit_ceil(uint64_t(n) * 2);
  BufferPtr hashes = device_buffer(size_t(n) * 8), dropped = device_buffer(size_t(n));
  BufferPtr slots = device_buffer(size_t(cap) * 8), slot_min = device_buffer(size_t(cap) * 8);
  BufferPtr slot_of = device_buffer(size_t(n) * 8), flags = device_buffer(size_t(n) * 8),
            rank = device_buffer(size_t(n) * 8);
  GPUDF_CUDA_TRY(cudaMemsetAsync(slots->data(), 0xFF, size_t(cap) * 8, stream));
  GPUDF_CUDA_TRY(cudaMemsetAsync(slot_min->data(), 0x7F, size_t(cap) * 8, stream));  // > every row
  hash_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(kv, nk, n, drop_nulls, ptr<uint64_t>(hashes),
                                                         ptr<uint8_t>(dropped));
  GPUDF_CUDA_TRY(cudaGetLastError());
  insert_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(kv, nk, n, ptr<uint64_t>(hashes), ptr<uint8_t>(dropped),
                                                           ptr<unsigned long long>(slots), cap - 1,
                                                           ptr<int64_t>(slot_of), ptr<long long>(slot_min));
  GPUDF_CUDA_TRY(cudaGetLastError());
  first_flag_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(ptr<int64_t>(slot_of), ptr<long long>(slot_min), n,
                                                               ptr<int64_t>(flags));
  GPUDF_CUDA_TRY(cudaGetLastError());
  thrust::exclusive_scan(policy, ptr<int64_t>(flags), ptr<int64_t>(flags) + n, ptr<int64_t>(rank));
  if (wide)
    assign_ids(ptr<int64_t>(slot_of), ptr<long long>(slot_min), ptr<int64_t>(rank), n,
               reinterpret_cast<int64_t*>(out.ids->data()->data()), stream);
  else
    assign_ids(ptr<int64_t>(slot_of), ptr<long long>(slot_min), ptr<int64_t>(rank), n,
               reinterpret_cast<int32_t*>(out.ids->data()->data()), stream);
  BufferPtr first = device_buffer(size_t(n) * 8);
  auto rows = thrust::counting_iterator<int64_t>(0);
  const int64_t count =
      thrust::copy_if(policy, rows, rows + n, ptr<int64_t>(first), IsSet{ptr<int64_t>(flags)}) - ptr<int64_t>(first);
  out.count = count;
  out.first_rows = Column::allocate(cuda_device(), TypeId::Int64, count, false);
  if (count)
    GPUDF_CUDA_TRY(cudaMemcpyAsync(out.first_rows->data()->data(), first->data(), size_t(count) * 8,
                                   cudaMemcpyDeviceToDevice, stream));
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

ColumnPtr group_aggregate_cuda(const ColumnView& values, const ColumnView& ids, int64_t count, ReduceKind kind,
                               const ReduceOptions& options) {
  return aggregate(CudaBackend{ids, ids.size, count, nullptr, nullptr}, values, count, kind, options);
}

ColumnPtr group_corr_cuda(const ColumnView& a, const ColumnView& b, const ColumnView& ids, int64_t count, bool cov,
                          int64_t ddof) {
  return corr(CudaBackend{ids, ids.size, count, nullptr, nullptr}, a, b, cov, ddof);
}

ColumnPtr group_head_rows_cuda(const ColumnView& ids, int64_t count, int64_t n, bool from_end) {
  const CudaBackend be{ids, ids.size, count, nullptr, nullptr};
  be.build_segments();
  cudaStream_t stream = cuda_current_stream();
  HostVector<int64_t> offsets = download<int64_t>(be.offsets, size_t(count + 1), stream);
  HostVector<int64_t> at = head_offsets(offsets, n);
  ColumnPtr out = Column::allocate(cuda_device(), TypeId::Int64, at.back(), false);
  if (count && at.back()) {
    BufferPtr dat = upload(at, stream);
    head_kernel<<<grid_for(count), kBlockThreads, 0, stream>>>(ptr<int64_t>(be.rows), ptr<int64_t>(be.offsets),
                                                               ptr<int64_t>(dat), count, n, from_end,
                                                               reinterpret_cast<int64_t*>(out->data()->data()));
    GPUDF_CUDA_TRY(cudaGetLastError());
  }
  GPUDF_CUDA_TRY(cudaStreamSynchronize(stream));
  return out;
}

ColumnPtr group_last_rows_cuda(const ColumnView& ids, int64_t count) {
  const CudaBackend be{ids, ids.size, count, nullptr, nullptr};
  return result_column(cuda_device(), TypeId::Int64, be.fold(EdgeRow{true}), {});
}

}  // namespace gpudf::detail
