// thrust::cuda::par_nosync(alloc).on(stream) for the simulated build: Thrust itself is the
// toolkit's, built for its CPP (sequential host) device system; the policy keeps the caller's
// allocator, so Thrust's scratch space still comes from the simulated device.
#pragma once

#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/system/cpp/execution_policy.h>

#include <cstdio>
#include <cstdlib>

#include "cuda_sim/internal.hpp"

namespace thrust::cuda {

inline void check_stream(cudaStream_t s) {
  if (!::cuda_sim::detail::valid_stream(s)) {
    std::fprintf(stderr, "cuda_sim: a Thrust policy was given an unknown stream\n");
    std::abort();
  }
}

template <typename Policy>
struct sim_policy : Policy {
  explicit sim_policy(Policy p) : Policy(p) {}
  Policy on(cudaStream_t s) const {
    check_stream(s);
    return *this;
  }
};

struct sim_par_t {
  template <typename Allocator>
  auto operator()(Allocator& alloc) const {
    using P = decltype(thrust::cpp::par(alloc));
    return sim_policy<P>(thrust::cpp::par(alloc));
  }
  auto on(cudaStream_t s) const {
    check_stream(s);
    return thrust::cpp::par;
  }
};

inline constexpr sim_par_t par_nosync{};
inline constexpr sim_par_t par{};

}  // namespace thrust::cuda
