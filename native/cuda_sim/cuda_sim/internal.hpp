// What the simulator's runtime (runtime.cpp) and scheduler (scheduler.cpp) share.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuda_sim::detail {

/// The host thread's cudaGetLastError state. A launch error (bad configuration) is set here; an
/// execution error (a divergent barrier, a host pointer in a kernel) also becomes the pending
/// error that the next synchronising call returns.
void set_last_error(cudaError_t error);
void fail_execution(cudaError_t error, const std::string& message);

/// True when [p, p + bytes) lies inside one live device allocation.
bool is_device_range(const void* p, std::size_t bytes);
bool valid_stream(cudaStream_t stream);

/// Counted per kernel (the name the rewrite gives it: "path/file.cu:kernel").
void count_launch(const char* kernel);

/// The order the scheduler runs a block's threads between barriers, and the grid's blocks.
enum class Order { Forward, Reverse, Random };
struct Schedule {
  Order order;
  uint64_t seed;
};
const Schedule& schedule();

/// Bytes poisoned into fresh device memory and dynamic shared memory.
inline constexpr unsigned char kPoisonFresh = 0xA5;
inline constexpr unsigned char kPoisonFreed = 0xDD;

}  // namespace cuda_sim::detail
