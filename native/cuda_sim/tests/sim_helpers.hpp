// What the simulator's own tests share: schedules to try, and device memory to and from vectors.
#pragma once

#include <cuda_runtime.h>

#include <cstdlib>
#include <new>
#include <vector>

#include "cuda_sim/testing.hpp"

namespace cuda_sim::test {

inline const char* const kSchedules[] = {"forward", "reverse", "random:7", "random:12345"};

/// Sets a schedule for the scope of a test, restoring the environment's afterwards.
struct ScheduleScope {
  explicit ScheduleScope(const char* spec) { cuda_sim::set_schedule(spec); }
  ~ScheduleScope() {
    const char* env = std::getenv("GPUDF_CUDA_SIM_SCHEDULE");
    cuda_sim::set_schedule(env ? env : "forward");
  }
};

template <typename T>
inline T* device_alloc(std::size_t n) {
  void* p = nullptr;
  if (cudaMallocAsync(&p, n * sizeof(T), nullptr) != cudaSuccess) throw std::bad_alloc();
  return static_cast<T*>(p);
}
template <typename T>
inline T* to_device(const std::vector<T>& v) {
  T* d = device_alloc<T>(v.size());
  cudaMemcpyAsync(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, nullptr);
  return d;
}
template <typename T>
inline std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> v(n);
  cudaMemcpyAsync(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost, nullptr);
  return v;
}

}  // namespace cuda_sim::test
