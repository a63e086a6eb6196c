// For the simulator's own tests: switch the schedule within one process (not thread-safe: call
// only while no kernel runs). Spec as GPUDF_CUDA_SIM_SCHEDULE: forward, reverse, random[:seed].
#pragma once

namespace cuda_sim {
bool set_schedule(const char* spec);
}  // namespace cuda_sim
