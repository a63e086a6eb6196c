// The device side of the CUDA simulator: kernel launch, barriers, atomics and the few device
// intrinsics gpudf's kernels use. Included by cuda_runtime.h.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cuda_sim {

/// A launch's <<<grid, block, shmem, stream>>>, with CUDA's defaults for the last two.
struct LaunchConfig {
  dim3 grid;
  dim3 block;
  std::size_t shmem;
  cudaStream_t stream;
};
inline LaunchConfig config(dim3 grid, dim3 block, std::size_t shmem = 0, cudaStream_t stream = nullptr) {
  return LaunchConfig{grid, block, shmem, stream};
}

/// The running block's dynamic shared memory (the launch's shmem bytes, poisoned per block).
void* dynamic_shared_memory();
/// The running block's copy of the static `__shared__` variable whose declaration owns `key`
/// (scripts/cuda-sim-rewrite.mjs): laid out at its first use in the launch, poisoned per block.
void* static_shared_memory(const void* key, std::size_t size, std::size_t align);
template <typename T>
T& static_shared(const void* key) {
  return *static_cast<T*>(static_shared_memory(key, sizeof(T), alignof(T)));
}

namespace detail {
using ThreadFn = void (*)(void* body);
/// Checks the configuration (failures go to cudaGetLastError), counts the launch, then runs
/// every block and thread; fn(body) is one CUDA thread's body.
void launch(const LaunchConfig& cfg, const char* kernel, ThreadFn fn, void* body);
/// False (and the launch fails with cudaErrorIllegalAddress) when a pointer argument is neither
/// null nor inside a device allocation: a host pointer handed to a kernel.
bool check_pointer_argument(const char* kernel, int index, const void* p);
/// A scheduling point: atomics may let other threads of the block run (see scheduler.cpp).
void atomic_point();

/// Warp operations (scheduler.cpp): a barrier of the lanes `mask` names, each lane giving
/// `value` (and `arg`: a shuffle's width << 8 | its lane or delta, clamped to 255) and getting
/// its result once every named lane has arrived.
enum WarpOp {
  kWarpSync, kWarpShfl, kWarpShflUp, kWarpShflDown, kWarpShflXor, kWarpBallot, kWarpAny, kWarpAll,
  kWarpMatchAny, kWarpReduceAdd, kWarpReduceMinU, kWarpReduceMaxU, kWarpReduceMinI, kWarpReduceMaxI,
  kWarpReduceAnd, kWarpReduceOr, kWarpReduceXor,
};
uint64_t warp_op(int op, uint32_t mask, uint64_t value, uint32_t arg);
/// The lanes of the caller's warp that have not exited.
uint32_t active_mask();

template <typename T>
uint64_t warp_bits(T v) {
  static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "warp shuffles take 32- and 64-bit integers and floats");
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}
template <typename T>
T warp_value(uint64_t u) {
  T v;
  std::memcpy(&v, &u, sizeof(T));
  return v;
}
inline uint32_t shuffle_arg(int width, long long lane_or_delta, bool wrap) {
  const uint32_t w = width > 0 && width <= 255 ? uint32_t(width) : 0;  // checked in warp_op
  const uint32_t d = wrap ? uint32_t(lane_or_delta) & 31u
                          : uint32_t(lane_or_delta < 0 ? 255 : lane_or_delta > 255 ? 255 : lane_or_delta);
  return w << 8 | d;
}

template <typename T>
bool check_argument(const char* kernel, int index, const T& v) {
  if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>) {
    return check_pointer_argument(kernel, index, static_cast<const void*>(v));
  } else {
    return true;
  }
}
}  // namespace detail

/// kernel<<<cfg>>>(args...) after scripts/cuda-sim-rewrite.mjs: the arguments are evaluated and
/// copied once, as CUDA does; every simulated thread calls body with (copies of) them.
template <typename Body, typename... Args>
void launch(const LaunchConfig& cfg, const char* kernel, Body body, Args&&... args) {
  std::tuple<std::decay_t<Args>...> values(std::forward<Args>(args)...);
  bool ok = true;
  int index = 0;
  std::apply([&](const auto&... v) { ((ok = ok && detail::check_argument(kernel, index++, v)), ...); }, values);
  if (!ok) return;
  auto thread = [&] { std::apply(body, values); };
  detail::launch(cfg, kernel, [](void* p) { (*static_cast<decltype(thread)*>(p))(); }, &thread);
}

}  // namespace cuda_sim

// ---- Barriers. Out of line: each is a scheduling point of the block's fibers.
void __syncthreads();
int __syncthreads_count(int predicate);
int __syncthreads_and(int predicate);
int __syncthreads_or(int predicate);
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// ---- Atomics: exactly CUDA's overloads (so what compiles here compiles under nvcc), each on a
// std::atomic_ref and each a scheduling point.
#define CUDA_SIM_ATOMIC_RMW(name, T, expr)         \
  inline T name(T* address, T val) {               \
    ::cuda_sim::detail::atomic_point();            \
    std::atomic_ref<T> a(*address);                \
    return expr;                                   \
  }
#define CUDA_SIM_ATOMIC_MINMAX(name, T, better)                                   \
  inline T name(T* address, T val) {                                              \
    ::cuda_sim::detail::atomic_point();                                           \
    std::atomic_ref<T> a(*address);                                               \
    T old = a.load();                                                             \
    while (better(val, old) && !a.compare_exchange_weak(old, val)) {              \
    }                                                                             \
    return old;                                                                   \
  }
#define CUDA_SIM_LESS(a, b) ((a) < (b))
#define CUDA_SIM_GREATER(a, b) ((a) > (b))

CUDA_SIM_ATOMIC_RMW(atomicAdd, int, a.fetch_add(val))
CUDA_SIM_ATOMIC_RMW(atomicAdd, unsigned int, a.fetch_add(val))
CUDA_SIM_ATOMIC_RMW(atomicAdd, unsigned long long int, a.fetch_add(val))
CUDA_SIM_ATOMIC_RMW(atomicAdd, float, a.fetch_add(val))
CUDA_SIM_ATOMIC_RMW(atomicAdd, double, a.fetch_add(val))
CUDA_SIM_ATOMIC_RMW(atomicSub, int, a.fetch_sub(val))
CUDA_SIM_ATOMIC_RMW(atomicSub, unsigned int, a.fetch_sub(val))
CUDA_SIM_ATOMIC_RMW(atomicExch, int, a.exchange(val))
CUDA_SIM_ATOMIC_RMW(atomicExch, unsigned int, a.exchange(val))
CUDA_SIM_ATOMIC_RMW(atomicExch, unsigned long long int, a.exchange(val))
CUDA_SIM_ATOMIC_RMW(atomicExch, float, a.exchange(val))
CUDA_SIM_ATOMIC_RMW(atomicAnd, int, a.fetch_and(val))
CUDA_SIM_ATOMIC_RMW(atomicAnd, unsigned int, a.fetch_and(val))
CUDA_SIM_ATOMIC_RMW(atomicAnd, unsigned long long int, a.fetch_and(val))
CUDA_SIM_ATOMIC_RMW(atomicOr, int, a.fetch_or(val))
CUDA_SIM_ATOMIC_RMW(atomicOr, unsigned int, a.fetch_or(val))
CUDA_SIM_ATOMIC_RMW(atomicOr, unsigned long long int, a.fetch_or(val))
CUDA_SIM_ATOMIC_RMW(atomicXor, int, a.fetch_xor(val))
CUDA_SIM_ATOMIC_RMW(atomicXor, unsigned int, a.fetch_xor(val))
CUDA_SIM_ATOMIC_RMW(atomicXor, unsigned long long int, a.fetch_xor(val))
CUDA_SIM_ATOMIC_MINMAX(atomicMin, int, CUDA_SIM_LESS)
CUDA_SIM_ATOMIC_MINMAX(atomicMin, unsigned int, CUDA_SIM_LESS)
CUDA_SIM_ATOMIC_MINMAX(atomicMin, long long int, CUDA_SIM_LESS)
CUDA_SIM_ATOMIC_MINMAX(atomicMin, unsigned long long int, CUDA_SIM_LESS)
CUDA_SIM_ATOMIC_MINMAX(atomicMax, int, CUDA_SIM_GREATER)
CUDA_SIM_ATOMIC_MINMAX(atomicMax, unsigned int, CUDA_SIM_GREATER)
CUDA_SIM_ATOMIC_MINMAX(atomicMax, long long int, CUDA_SIM_GREATER)
CUDA_SIM_ATOMIC_MINMAX(atomicMax, unsigned long long int, CUDA_SIM_GREATER)

#define CUDA_SIM_ATOMIC_CAS(T)                     \
  inline T atomicCAS(T* address, T compare, T val) { \
    ::cuda_sim::detail::atomic_point();            \
    std::atomic_ref<T> a(*address);                \
    a.compare_exchange_strong(compare, val);       \
    return compare;                                \
  }
CUDA_SIM_ATOMIC_CAS(int)
CUDA_SIM_ATOMIC_CAS(unsigned int)
CUDA_SIM_ATOMIC_CAS(unsigned long long int)
CUDA_SIM_ATOMIC_CAS(unsigned short int)

#undef CUDA_SIM_ATOMIC_RMW
#undef CUDA_SIM_ATOMIC_MINMAX
#undef CUDA_SIM_ATOMIC_CAS

// ---- Integer intrinsics.
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
template <typename T>
inline T __ldg(const T* p) {
  return *p;
}

// ---- Warp-level primitives over 32-lane warps (lane = linear thread index % 32). Each is a
// barrier of the lanes its mask names (see scheduler.cpp); a mask naming a lane that exits, or
// lanes of one warp in different operations, fails the launch. Reading a lane outside the mask
// gives poison (0xA5 bytes): it is undefined on the GPU.
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  ::cuda_sim::detail::warp_op(::cuda_sim::detail::kWarpSync, mask, 0, 32u << 8);
}
template <typename T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize) {
  namespace d = ::cuda_sim::detail;
  return d::warp_value<T>(d::warp_op(d::kWarpShfl, mask, d::warp_bits(var), d::shuffle_arg(width, src_lane, true)));
}
template <typename T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {
  namespace d = ::cuda_sim::detail;
  return d::warp_value<T>(d::warp_op(d::kWarpShflUp, mask, d::warp_bits(var), d::shuffle_arg(width, delta, false)));
}
template <typename T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {
  namespace d = ::cuda_sim::detail;
  return d::warp_value<T>(d::warp_op(d::kWarpShflDown, mask, d::warp_bits(var), d::shuffle_arg(width, delta, false)));
}
template <typename T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize) {
  namespace d = ::cuda_sim::detail;
  return d::warp_value<T>(d::warp_op(d::kWarpShflXor, mask, d::warp_bits(var), d::shuffle_arg(width, lane_mask, false)));
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  namespace d = ::cuda_sim::detail;
  return unsigned(d::warp_op(d::kWarpBallot, mask, predicate != 0, 32u << 8));
}
inline int __any_sync(unsigned mask, int predicate) {
  namespace d = ::cuda_sim::detail;
  return int(d::warp_op(d::kWarpAny, mask, predicate != 0, 32u << 8));
}
inline int __all_sync(unsigned mask, int predicate) {
  namespace d = ::cuda_sim::detail;
  return int(d::warp_op(d::kWarpAll, mask, predicate != 0, 32u << 8));
}
inline unsigned __activemask() { return ::cuda_sim::detail::active_mask(); }
template <typename T>
inline unsigned __match_any_sync(unsigned mask, T value) {
  namespace d = ::cuda_sim::detail;
  return unsigned(d::warp_op(d::kWarpMatchAny, mask, d::warp_bits(value), 32u << 8));
}
#define CUDA_SIM_WARP_REDUCE(name, T, op)                                                        \
  inline T name(unsigned mask, T value) {                                                        \
    namespace d = ::cuda_sim::detail;                                                            \
    return T(uint32_t(d::warp_op(op, mask, uint32_t(value), 32u << 8)));                          \
  }
CUDA_SIM_WARP_REDUCE(__reduce_add_sync, unsigned, d::kWarpReduceAdd)
CUDA_SIM_WARP_REDUCE(__reduce_add_sync, int, d::kWarpReduceAdd)
CUDA_SIM_WARP_REDUCE(__reduce_min_sync, unsigned, d::kWarpReduceMinU)
CUDA_SIM_WARP_REDUCE(__reduce_min_sync, int, d::kWarpReduceMinI)
CUDA_SIM_WARP_REDUCE(__reduce_max_sync, unsigned, d::kWarpReduceMaxU)
CUDA_SIM_WARP_REDUCE(__reduce_max_sync, int, d::kWarpReduceMaxI)
CUDA_SIM_WARP_REDUCE(__reduce_and_sync, unsigned, d::kWarpReduceAnd)
CUDA_SIM_WARP_REDUCE(__reduce_or_sync, unsigned, d::kWarpReduceOr)
CUDA_SIM_WARP_REDUCE(__reduce_xor_sync, unsigned, d::kWarpReduceXor)
#undef CUDA_SIM_WARP_REDUCE
