// Host models of the CUB device algorithms gpudf calls, with CUB's signatures and its two-call
// temp-storage protocol: a call with d_temp_storage == nullptr only writes the bytes needed; the
// real call must pass device memory of at least that size (poisoned here, so results may not
// depend on its contents). Work runs eagerly on the calling host thread.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <vector>

#include "cuda_sim/internal.hpp"

namespace cuda_sim::detail {

/// Whether DeviceRadixSort leaves its result in the DoubleBuffers' alternate halves (as CUB does
/// after an odd number of passes): always under the forward schedule, never under reverse, at
/// random under random, so callers must follow the selector.
bool radix_result_in_alternate();

/// CUB's protocol. Returns true when this is the size query (done), else checks the storage.
inline bool temp_storage(void* temp, std::size_t& bytes, std::size_t need, cudaStream_t stream,
                         const char* algorithm, cudaError_t& status) {
  status = cudaSuccess;
  if (!valid_stream(stream)) {
    status = cudaErrorInvalidResourceHandle;
  } else if (temp == nullptr) {
    bytes = need;
    return true;
  } else if (bytes < need || !is_device_range(temp, need)) {
    std::fprintf(stderr, "cuda_sim: %s: temp storage %p of %zu bytes is not %zu bytes of device memory\n",
                 algorithm, temp, bytes, need);
    status = cudaErrorInvalidValue;
  } else {
    std::memset(temp, kPoisonFresh, bytes);
    return false;
  }
  set_last_error(status);
  return true;
}

inline std::size_t temp_need(std::size_t n) { return 768 + 16 * ((n + 255) / 256); }

/// A raw-pointer range handed to a device algorithm must be device memory.
template <typename It>
bool device_range(It it, std::size_t n, const char* algorithm, cudaError_t& status) {
  if constexpr (std::is_pointer_v<It>) {
    if (n > 0 && !is_device_range(it, n * sizeof(*it))) {
      std::fprintf(stderr, "cuda_sim: %s: %p..+%zu elements is not device memory\n", algorithm,
                   static_cast<const void*>(it), n);
      status = cudaErrorIllegalAddress;
      set_last_error(status);
      return false;
    }
  }
  return true;
}

/// CUB's radix order: unsigned bits whose unsigned order is the key order.
template <typename K>
auto radix_bits(K k) {
  if constexpr (std::is_floating_point_v<K>) {
    using U = std::conditional_t<sizeof(K) == 8, uint64_t, uint32_t>;
    U u;
    std::memcpy(&u, &k, sizeof u);
    const U sign = U(1) << (sizeof(U) * 8 - 1);
    return (u & sign) ? U(~u) : U(u | sign);
  } else if constexpr (std::is_signed_v<K>) {
    using U = std::make_unsigned_t<K>;
    return U(U(k) ^ (U(1) << (sizeof(U) * 8 - 1)));
  } else {
    return k;
  }
}

}  // namespace cuda_sim::detail

namespace cub {

template <typename T>
struct DoubleBuffer {
  T* d_buffers[2] = {nullptr, nullptr};
  int selector = 0;
  DoubleBuffer() = default;
  DoubleBuffer(T* current, T* alternate) : d_buffers{current, alternate} {}
  T* Current() const { return d_buffers[selector]; }
  T* Alternate() const { return d_buffers[selector ^ 1]; }
};

struct DeviceScan {
  template <typename In, typename Out, typename N>
  static cudaError_t ExclusiveSum(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Out d_out,
                                  N num_items, cudaStream_t stream = nullptr) {
    namespace d = cuda_sim::detail;
    cudaError_t st;
    const auto n = std::size_t(num_items);
    if (d::temp_storage(d_temp_storage, temp_storage_bytes, d::temp_need(n), stream, "DeviceScan::ExclusiveSum", st))
      return st;
    if (!d::device_range(d_in, n, "DeviceScan::ExclusiveSum", st) ||
        !d::device_range(d_out, n, "DeviceScan::ExclusiveSum", st))
      return st;
    using T = typename std::iterator_traits<In>::value_type;
    T sum{};
    for (std::size_t i = 0; i < n; ++i) {
      T v = d_in[i];  // read before the write: in place (d_in == d_out) is allowed
      d_out[i] = sum;
      sum = sum + v;
    }
    return cudaSuccess;
  }
};

struct DeviceSelect {
  template <typename In, typename Flags, typename Out, typename NumSelected, typename N>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes, In d_in, Flags d_flags,
                             Out d_out, NumSelected d_num_selected_out, N num_items, cudaStream_t stream = nullptr) {
    namespace d = cuda_sim::detail;
    cudaError_t st;
    const auto n = std::size_t(num_items);
    if (d::temp_storage(d_temp_storage, temp_storage_bytes, d::temp_need(n), stream, "DeviceSelect::Flagged", st))
      return st;
    if (!d::device_range(d_in, n, "DeviceSelect::Flagged", st) ||
        !d::device_range(d_flags, n, "DeviceSelect::Flagged", st) ||
        !d::device_range(d_num_selected_out, 1, "DeviceSelect::Flagged", st))
      return st;
    std::size_t m = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (d_flags[i]) d_out[m++] = d_in[i];
    }
    if (!d::device_range(d_out, m, "DeviceSelect::Flagged", st)) return st;
    *d_num_selected_out = static_cast<typename std::iterator_traits<NumSelected>::value_type>(m);
    return cudaSuccess;
  }
};

struct DeviceRadixSort {
  template <typename K, typename V, typename N>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<K>& d_keys,
                               DoubleBuffer<V>& d_values, N num_items, int begin_bit = 0,
                               int end_bit = int(sizeof(K) * 8), cudaStream_t stream = nullptr) {
    namespace d = cuda_sim::detail;
    cudaError_t st;
    const auto n = std::size_t(num_items);
    if (d::temp_storage(d_temp_storage, temp_storage_bytes, d::temp_need(n), stream, "DeviceRadixSort::SortPairs", st))
      return st;
    if (begin_bit < 0 || end_bit > int(sizeof(K) * 8) || begin_bit >= end_bit) {
      d::set_last_error(cudaErrorInvalidValue);
      return cudaErrorInvalidValue;
    }
    for (void* p : {(void*)d_keys.Current(), (void*)d_keys.Alternate()})
      if (!d::device_range(static_cast<K*>(p), n, "DeviceRadixSort::SortPairs", st)) return st;
    for (void* p : {(void*)d_values.Current(), (void*)d_values.Alternate()})
      if (!d::device_range(static_cast<V*>(p), n, "DeviceRadixSort::SortPairs", st)) return st;
    using U = decltype(d::radix_bits(K{}));
    const int width = end_bit - begin_bit;
    const U mask = width >= int(sizeof(U) * 8) ? U(~U(0)) : U((U(1) << width) - 1);
    auto digit = [&](const K& k) { return U(d::radix_bits(k) >> begin_bit) & mask; };
    const K* keys = d_keys.Current();
    const V* vals = d_values.Current();
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::size_t(0));
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return digit(keys[a]) < digit(keys[b]); });
    K* ko = d_keys.Alternate();
    V* vo = d_values.Alternate();
    for (std::size_t i = 0; i < n; ++i) {
      ko[i] = keys[idx[i]];
      vo[i] = vals[idx[i]];
    }
    if (d::radix_result_in_alternate()) {
      d_keys.selector ^= 1;
      d_values.selector ^= 1;
    } else {
      std::copy(ko, ko + n, d_keys.Current());
      std::copy(vo, vo + n, d_values.Current());
    }
    return cudaSuccess;
  }

  template <typename K, typename V, typename N>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,
                               K* d_keys_out, const V* d_values_in, V* d_values_out, N num_items,
                               int begin_bit = 0, int end_bit = int(sizeof(K) * 8), cudaStream_t stream = nullptr) {
    namespace d = cuda_sim::detail;
    cudaError_t st;
    const auto n = std::size_t(num_items);
    if (d::temp_storage(d_temp_storage, temp_storage_bytes, d::temp_need(n), stream, "DeviceRadixSort::SortPairs", st))
      return st;
    std::copy(d_keys_in, d_keys_in + n, d_keys_out);
    std::copy(d_values_in, d_values_in + n, d_values_out);
    // Stable order of the outputs by digit, through host scratch.
    std::vector<K> ka(n);
    std::vector<V> va(n);
    const K* keys = d_keys_out;
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::size_t(0));
    using U = decltype(d::radix_bits(K{}));
    const int width = end_bit - begin_bit;
    const U mask = width >= int(sizeof(U) * 8) ? U(~U(0)) : U((U(1) << width) - 1);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      return (U(d::radix_bits(keys[a]) >> begin_bit) & mask) < (U(d::radix_bits(keys[b]) >> begin_bit) & mask);
    });
    for (std::size_t i = 0; i < n; ++i) {
      ka[i] = d_keys_out[idx[i]];
      va[i] = d_values_out[idx[i]];
    }
    std::copy(ka.begin(), ka.end(), d_keys_out);
    std::copy(va.begin(), va.end(), d_values_out);
    return cudaSuccess;
  }
};

}  // namespace cub
