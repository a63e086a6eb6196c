// Tests of the CUDA simulator itself (suite cuda_sim; only in the GPUDF_CUDA_SIM=ON build): the
// scheduling it promises (barriers, shared memory, atomics under every schedule), the failures it
// must expose (a missing barrier, a divergent barrier, bad launch shapes, host pointers) and its
// models of CUB and of device memory.
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "sim_helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf::testing;
using namespace cuda_sim::test;

namespace {

constexpr int kThreads = 256;

__global__ void block_sum(const int* in, int n, unsigned long long* out) {
  __shared__ int partial[kThreads];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, (unsigned long long)partial[0]);
}

// The barrier between the shared-memory writes and the neighbour's read is missing.
__global__ void rotate_missing_barrier(int base, int* out) {
  __shared__ int v[kThreads];
  v[threadIdx.x] = base + int(threadIdx.x);
  out[threadIdx.x] = v[(threadIdx.x + 1) % kThreads];
}

__global__ void rotate_with_barrier(int base, int* out) {
  __shared__ int v[kThreads];
  v[threadIdx.x] = base + int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = v[(threadIdx.x + 1) % kThreads];
}

__global__ void atomics_kernel(int* i32, unsigned long long* u64, float* f32, double* f64, long long* lo,
                               long long* hi, unsigned int* bits, int* cas_counter) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(i32, 1);
  atomicAdd(u64, (unsigned long long)g);
  atomicAdd(f32, 0.5f);
  atomicAdd(f64, 0.25);
  atomicMin(lo, (long long)g - 1000);
  atomicMax(hi, (long long)g * 3);
  atomicOr(bits + (g / 32) % 4, 1u << (g % 32));
  int old = atomicAdd(cas_counter, 0), seen;  // an atomic read: a plain one races the CAS
  while ((seen = atomicCAS(cas_counter, old, old + 1)) != old) old = seen;
}

__global__ void reverse_in_dynamic_shared(const int* in, int* out, int* first_read) {
  extern __shared__ int dyn[];
  const unsigned t = threadIdx.x;
  if (t == 0) first_read[blockIdx.x] = dyn[0];  // before any write: the block's fresh (poisoned) memory
  __syncthreads();
  dyn[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = dyn[blockDim.x - 1 - t];
}

__global__ void early_exit_before_barrier(int* out) {
  if (threadIdx.x < 16) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void different_barriers(int* out) {
  // Two different barrier calls (distinct functions, so the compiler cannot merge them).
  if (threadIdx.x % 2) {
    __syncthreads();
  } else {
    __syncthreads_or(1);
  }
  out[threadIdx.x] = 1;
}

__global__ void barrier_reductions(int* out) {
  const int t = threadIdx.x;
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t >= 0);
  int a2 = __syncthreads_and(t != 5);
  int o = __syncthreads_or(t == 77);
  int o2 = __syncthreads_or(0);
  if (t == 0) {
    out[0] = c;
    out[1] = a;
    out[2] = a2;
    out[3] = o;
    out[4] = o2;
  }
}

__global__ void coordinates(int* out) {
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  const int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const int thread = (tz * blockDim.y + ty) * blockDim.x + tx;
  atomicAdd(out + block * blockDim.x * blockDim.y * blockDim.z + thread, 1);
}

// Thread 0 waits for the block's last thread: progress needs atomics to be scheduling points.
__global__ void spin_wait(int* flag, int* out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {
    }
    *out = 1;
  } else if (threadIdx.x == blockDim.x - 1) {
    atomicExch(flag, 1);
  }
}

__global__ void touch(int* p) { p[threadIdx.x] = 1; }

// Warp-level primitives: a full-warp sum by butterfly and by shuffle-down, an inclusive scan by
// shuffle-up, a broadcast, a ballot and a vote, per 32-lane warp of a 3-D block.
__global__ void warp_ops(const int* in, int* out) {
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned lane = t % 32;
  const int v = in[t];
  int x = v;
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  long long d = v;
  for (int o = 16; o > 0; o >>= 1) d += __shfl_down_sync(0xffffffffu, d, o);
  int scan = v;
  for (int o = 1; o < 32; o <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, scan, o);
    if (lane >= unsigned(o)) scan += y;
  }
  const double b = __shfl_sync(0xffffffffu, double(v) * 0.5, 7);
  const unsigned ballot = __ballot_sync(0xffffffffu, v % 2 == 1);
  const int any = __any_sync(0xffffffffu, v == 1000);
  const int all = __all_sync(0xffffffffu, v >= 0);
  __syncwarp();
  const unsigned red = __reduce_add_sync(0xffffffffu, unsigned(v));
  const int mx = __reduce_max_sync(0xffffffffu, -v);
  const unsigned match = __match_any_sync(0xffffffffu, v % 4);
  int* o = out + t * 10;
  o[0] = x;
  o[1] = lane == 0 ? int(d) : -1;
  o[2] = scan;
  o[3] = int(b * 2);
  o[4] = int(ballot);
  o[5] = any;
  o[6] = all;
  o[7] = int(red);
  o[8] = mx;
  o[9] = int(match);
}

// Sub-warp shuffles (width 8) and a shuffle among the even lanes only.
__global__ void warp_widths(const int* in, int* out) {
  const unsigned t = threadIdx.x, lane = t % 32;
  const int v = in[t];
  out[t * 4 + 0] = __shfl_sync(0xffffffffu, v, 3, 8);
  out[t * 4 + 1] = __shfl_down_sync(0xffffffffu, v, 2, 8);
  out[t * 4 + 2] = __shfl_xor_sync(0xffffffffu, v, 9, 8);
  out[t * 4 + 3] = -1;
  if (lane % 2 == 0) out[t * 4 + 3] = __shfl_sync(0x55555555u, v, (lane + 2) % 32);
}

// Lane 5 leaves before the shuffle its mask waits for.
__global__ void warp_lane_exits(int* out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, int(threadIdx.x), 0);
}

// A warp's lanes in two different operations.
__global__ void warp_divergent_ops(int* out) {
  if (threadIdx.x % 2) {
    out[threadIdx.x] = int(__ballot_sync(0xffffffffu, 1));
  } else {
    out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);
  }
}

// A mask naming lanes past the end of a 40-thread block's second warp.
__global__ void warp_mask_past_block(int* out) { out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0); }

}  // namespace

TEST(cuda_sim, block_reduction_with_barriers_is_right_under_every_schedule) {
  const int n = 100003;
  std::vector<int> h(n);
  std::mt19937 rng(1);
  for (int& x : h) x = int(rng() % 1000);
  const unsigned long long expect = std::accumulate(h.begin(), h.end(), 0ull);
  int* in = to_device(h);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    SCOPED_TRACE(s);
    auto* out = device_alloc<unsigned long long>(1);
    cudaMemsetAsync(out, 0, sizeof *out, nullptr);
    block_sum<<<(n + kThreads - 1) / kThreads, kThreads>>>(in, n, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(out, 1)[0], expect);
    cudaFreeAsync(out, nullptr);
  }
  cudaFreeAsync(in, nullptr);
}

TEST(cuda_sim, a_missing_barrier_gives_a_wrong_answer_under_some_schedule) {
  int* out = device_alloc<int>(kThreads);
  int wrong_schedules = 0, base = 1000;
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    base += 1000;  // a new value each launch, so stale shared memory cannot look right
    rotate_missing_barrier<<<1, kThreads>>>(base, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> got = to_host(out, kThreads);
    bool right = true;
    for (int t = 0; t < kThreads; ++t) right = right && got[t] == base + (t + 1) % kThreads;
    wrong_schedules += !right;
    // The same kernel with its barrier is right everywhere.
    rotate_with_barrier<<<1, kThreads>>>(base + 7, out);
    got = to_host(out, kThreads);
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(got[t], base + 7 + (t + 1) % kThreads);
  }
  EXPECT_TRUE(wrong_schedules >= 2);  // forward and the random ones at least
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, atomics_across_blocks) {
  const int blocks = 64, n = blocks * kThreads;
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    SCOPED_TRACE(s);
    int* i32 = device_alloc<int>(1);
    auto* u64 = device_alloc<unsigned long long>(1);
    float* f32 = device_alloc<float>(1);
    double* f64 = device_alloc<double>(1);
    auto* lo = device_alloc<long long>(1);
    auto* hi = device_alloc<long long>(1);
    auto* bits = device_alloc<unsigned int>(4);
    int* cas = device_alloc<int>(1);
    for (void* p : {(void*)i32, (void*)f32, (void*)cas}) cudaMemsetAsync(p, 0, 4, nullptr);
    for (void* p : {(void*)u64, (void*)f64, (void*)hi}) cudaMemsetAsync(p, 0, 8, nullptr);
    cudaMemsetAsync(lo, 0x7f, 8, nullptr);
    cudaMemsetAsync(bits, 0, 16, nullptr);
    atomics_kernel<<<blocks, kThreads>>>(i32, u64, f32, f64, lo, hi, bits, cas);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(i32, 1)[0], n);
    EXPECT_EQ(to_host(u64, 1)[0], (unsigned long long)n * (n - 1) / 2);
    EXPECT_EQ(to_host(f32, 1)[0], float(n) * 0.5f);
    EXPECT_EQ(to_host(f64, 1)[0], double(n) * 0.25);
    EXPECT_EQ(to_host(lo, 1)[0], -1000LL);
    EXPECT_EQ(to_host(hi, 1)[0], (long long)(n - 1) * 3);
    for (unsigned w : to_host(bits, 4)) EXPECT_EQ(w, 0xffffffffu);
    EXPECT_EQ(to_host(cas, 1)[0], n);
    for (void* p : {(void*)i32, (void*)u64, (void*)f32, (void*)f64, (void*)lo, (void*)hi, (void*)bits, (void*)cas})
      cudaFreeAsync(p, nullptr);
  }
}

TEST(cuda_sim, dynamic_shared_memory_is_per_block_and_poisoned) {
  const int blocks = 5, threads = 96, n = blocks * threads;
  std::vector<int> h(n);
  std::iota(h.begin(), h.end(), 0);
  int* in = to_device(h);
  int* out = device_alloc<int>(n);
  int* first = device_alloc<int>(blocks);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    reverse_in_dynamic_shared<<<blocks, threads, threads * sizeof(int)>>>(in, out, first);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    std::vector<int> got = to_host(out, n);
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t) EXPECT_EQ(got[b * threads + t], b * threads + threads - 1 - t);
    for (int f : to_host(first, blocks)) EXPECT_EQ(unsigned(f), 0xA5A5A5A5u);
  }
  for (int* p : {in, out, first}) cudaFreeAsync(p, nullptr);
}

TEST(cuda_sim, bad_launch_configurations_fail_with_cuda_errors) {
  int* out = device_alloc<int>(1024);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  touch<<<1, 2048>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // not sticky
  touch<<<0, 32>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  touch<<<1, dim3(32, 32, 2)>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  touch<<<dim3(1, 70000), 32>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  touch<<<1, 32, 64 * 1024>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)), "invalid configuration argument");
  touch<<<1, 1024>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, divergent_barriers_are_reported_not_hung) {
  int* out = device_alloc<int>(kThreads);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    early_exit_before_barrier<<<2, kThreads>>>(out);
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaErrorLaunchFailure);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    different_barriers<<<1, 64>>>(out);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  }
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, barrier_reductions_and_coordinates) {
  int* out = device_alloc<int>(5);
  barrier_reductions<<<1, 200>>>(out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(to_host(out, 5), (std::vector<int>{67, 1, 0, 1, 0}));
  cudaFreeAsync(out, nullptr);
  const dim3 grid(3, 2, 2), block(8, 4, 2);
  const int n = 12 * 64;
  int* hits = device_alloc<int>(n);
  cudaMemsetAsync(hits, 0, n * sizeof(int), nullptr);
  coordinates<<<grid, block>>>(hits);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(to_host(hits, n), std::vector<int>(n, 1));
  cudaFreeAsync(hits, nullptr);
}

TEST(cuda_sim, spin_waits_on_other_threads_progress) {
  int* flag = device_alloc<int>(1);
  int* out = device_alloc<int>(1);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    cudaMemsetAsync(flag, 0, 4, nullptr);
    cudaMemsetAsync(out, 0, 4, nullptr);
    spin_wait<<<1, 128>>>(flag, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(out, 1)[0], 1);
  }
  cudaFreeAsync(flag, nullptr);
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, warp_shuffles_votes_and_reductions_match_the_cuda_definitions) {
  const dim3 block(16, 4, 2);  // 128 threads, 4 warps across y and z
  const int n = 128;
  std::vector<int> h(n);
  std::mt19937 rng(3);
  for (int& x : h) x = int(rng() % 997);
  h[40] = 1000;  // warp 1 has a lane equal to 1000
  int* in = to_device(h);
  int* out = device_alloc<int>(n * 10);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    SCOPED_TRACE(s);
    warp_ops<<<1, block>>>(in, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<int> got = to_host(out, n * 10);
    for (int t = 0; t < n; ++t) {
      const int w = t / 32, lane = t % 32;
      int sum = 0, scan = 0, mx = INT32_MIN;
      unsigned ballot = 0, match = 0;
      bool any = false;
      for (int l = 0; l < 32; ++l) {
        const int v = h[w * 32 + l];
        sum += v;
        if (l <= lane) scan += v;
        ballot |= unsigned(v % 2 == 1) << l;
        any = any || v == 1000;
        mx = std::max(mx, -v);
        match |= unsigned(v % 4 == h[t] % 4) << l;
      }
      const int* o = got.data() + t * 10;
      EXPECT_EQ(o[0], sum);
      EXPECT_EQ(o[1], lane == 0 ? sum : -1);
      EXPECT_EQ(o[2], scan);
      EXPECT_EQ(o[3], h[w * 32 + 7]);
      EXPECT_EQ(unsigned(o[4]), ballot);
      EXPECT_EQ(o[5], int(any));
      EXPECT_EQ(o[6], 1);
      EXPECT_EQ(o[7], sum);
      EXPECT_EQ(o[8], mx);
      EXPECT_EQ(unsigned(o[9]), match);
    }
  }
  cudaFreeAsync(in, nullptr);
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, sub_warp_shuffles_and_partial_masks) {
  const int n = 64;
  std::vector<int> h(n);
  std::iota(h.begin(), h.end(), 100);
  int* in = to_device(h);
  int* out = device_alloc<int>(n * 4);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    warp_widths<<<1, n>>>(in, out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    const std::vector<int> got = to_host(out, n * 4);
    for (int t = 0; t < n; ++t) {
      const int seg = t & ~7, pos = t & 7, lane = t % 32;
      EXPECT_EQ(got[t * 4 + 0], h[seg + 3]);
      EXPECT_EQ(got[t * 4 + 1], pos + 2 < 8 ? h[t + 2] : h[t]);
      // xor 9 leaves the 8-lane segment for later lanes (own value), reaches earlier ones.
      const int src = (t & ~31) + (lane ^ 9);
      EXPECT_EQ(got[t * 4 + 2], (lane ^ 9) >= (lane & ~7) + 8 ? h[t] : h[src]);
      EXPECT_EQ(got[t * 4 + 3], lane % 2 == 0 ? h[(t & ~31) + (lane + 2) % 32] : -1);
    }
  }
  cudaFreeAsync(in, nullptr);
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, broken_warp_operations_fail_the_launch_instead_of_hanging) {
  int* out = device_alloc<int>(64);
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    warp_lane_exits<<<1, 32>>>(out);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    warp_divergent_ops<<<1, 32>>>(out);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    warp_mask_past_block<<<1, 40>>>(out);
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
    // The same operations, well formed, still work afterwards.
    warp_mask_past_block<<<1, 32>>>(out);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(to_host(out, 32), std::vector<int>(32, 1));
  }
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim, device_memory_is_poisoned_and_kept_apart_from_host_memory) {
  unsigned char* d = device_alloc<unsigned char>(1000);
  for (unsigned char b : to_host(d, 1000)) EXPECT_EQ(int(b), 0xA5);
  std::vector<int> host(8);
  EXPECT_EQ(cudaMemcpyAsync(host.data(), d, 8, cudaMemcpyHostToDevice, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyAsync(d, host.data(), 8, cudaMemcpyDeviceToHost, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyAsync(d + 996, host.data(), 8, cudaMemcpyHostToDevice, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemsetAsync(host.data(), 0, 8, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyAsync(d + 8, d, 8, cudaMemcpyDeviceToDevice, nullptr), cudaSuccess);
  EXPECT_EQ(cudaMemcpyAsync(host.data(), d, 8, cudaMemcpyDefault, nullptr), cudaSuccess);
  cudaGetLastError();
  touch<<<1, 8>>>(host.data());  // a host pointer handed to a kernel
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaFreeAsync(host.data(), nullptr), cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFreeAsync(d, nullptr);
  int count = 0;
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(count, 1);
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_EQ(std::string(prop.name), "gpudf CUDA simulator");
}

TEST(cuda_sim, cub_models_match_host_references_and_enforce_the_temp_storage_protocol) {
  const int n = 5000;
  std::mt19937_64 rng(3);
  std::vector<int64_t> v(n);
  for (auto& x : v) x = int64_t(rng() % 100);
  int64_t* d = to_device(v);
  std::size_t bytes = 0;
  ASSERT_EQ(cub::DeviceScan::ExclusiveSum(nullptr, bytes, d, d, n), cudaSuccess);
  ASSERT_TRUE(bytes > 0);
  char* temp = device_alloc<char>(bytes);
  std::size_t small = bytes - 1;
  EXPECT_EQ(cub::DeviceScan::ExclusiveSum(temp, small, d, d, n), cudaErrorInvalidValue);
  cudaGetLastError();
  ASSERT_EQ(cub::DeviceScan::ExclusiveSum(temp, bytes, d, d, n), cudaSuccess);  // in place
  std::vector<int64_t> scan(n);
  std::exclusive_scan(v.begin(), v.end(), scan.begin(), int64_t(0));
  EXPECT_EQ(to_host(d, n), scan);
  cudaFreeAsync(temp, nullptr);

  // Flagged: the even values, in order.
  std::vector<uint8_t> flags(n);
  for (int i = 0; i < n; ++i) flags[i] = v[i] % 2 == 0;
  int64_t* in = to_device(v);
  uint8_t* df = to_device(flags);
  int64_t* out = device_alloc<int64_t>(n);
  int64_t* count = device_alloc<int64_t>(1);
  bytes = 0;
  ASSERT_EQ(cub::DeviceSelect::Flagged(nullptr, bytes, in, df, out, count, n), cudaSuccess);
  temp = device_alloc<char>(bytes);
  ASSERT_EQ(cub::DeviceSelect::Flagged(temp, bytes, in, df, out, count, n), cudaSuccess);
  std::vector<int64_t> even;
  for (int64_t x : v) if (x % 2 == 0) even.push_back(x);
  const int64_t m = to_host(count, 1)[0];
  ASSERT_EQ(m, int64_t(even.size()));
  EXPECT_EQ(to_host(out, std::size_t(m)), even);
  cudaFreeAsync(temp, nullptr);

  // SortPairs over a bit range, under each schedule (the result may be in either buffer).
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    SCOPED_TRACE(s);
    std::vector<uint64_t> keys(n);
    for (auto& k : keys) k = rng();
    std::vector<int64_t> vals(n);
    std::iota(vals.begin(), vals.end(), 0);
    uint64_t* k0 = to_device(keys);
    uint64_t* k1 = device_alloc<uint64_t>(n);
    int64_t* v0 = to_device(vals);
    int64_t* v1 = device_alloc<int64_t>(n);
    cub::DoubleBuffer<uint64_t> kb(k0, k1);
    cub::DoubleBuffer<int64_t> vb(v0, v1);
    bytes = 0;
    ASSERT_EQ(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, n, 8, 40), cudaSuccess);
    temp = device_alloc<char>(bytes);
    ASSERT_EQ(cub::DeviceRadixSort::SortPairs(temp, bytes, kb, vb, n, 8, 40), cudaSuccess);
    auto digit = [](uint64_t k) { return (k >> 8) & ((1ull << 32) - 1); };
    std::vector<int64_t> order(vals);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return digit(keys[a]) < digit(keys[b]); });
    std::vector<uint64_t> sorted_keys(n);
    for (int i = 0; i < n; ++i) sorted_keys[i] = keys[order[i]];
    EXPECT_EQ(to_host(vb.Current(), n), order);
    EXPECT_EQ(to_host(kb.Current(), n), sorted_keys);
    for (void* p : {(void*)k0, (void*)k1, (void*)v0, (void*)v1, (void*)temp}) cudaFreeAsync(p, nullptr);
  }
  for (void* p : {(void*)d, (void*)in, (void*)df, (void*)out, (void*)count}) cudaFreeAsync(p, nullptr);
}
