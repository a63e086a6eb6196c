// GPUDF_HD marks per-element logic that both backends share: __host__ __device__ under nvcc, empty
// under the host compiler. The CPU loops call it, so the CPU tests exercise what the kernels run.
#pragma once

#if defined(__CUDACC__)
#define GPUDF_HD __host__ __device__
#else
#define GPUDF_HD
#endif
