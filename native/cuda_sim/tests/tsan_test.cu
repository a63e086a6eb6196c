// The simulator under ThreadSanitizer (suite cuda_sim_tsan; only in the simulated build with
// GPUDF_CUDA_SIM_SANITIZE=thread): kernels with a missing barrier, a non-atomic update of shared
// memory and a non-atomic update of global memory from several blocks are reported as data races
// under every schedule, and their correct twins, with barriers, warp operations, atomics and
// shared memory that the simulator reuses from block to block, are not.
//
// Each case runs in a process of its own (this binary, a disabled test selected by name), whose
// exit status and output the test reads.
#if defined(__SANITIZE_THREAD__)
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sim_helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf::testing;
using namespace cuda_sim::test;

namespace {

constexpr int kThreads = 128;

// ---- Racy kernels (not inlined, so TSan's reports name them; this file is for the simulator
// only, so a GCC attribute is fine).

// The neighbour's value is read with no barrier after the writes.
__global__ __attribute__((noinline)) void planted_missing_barrier(int* out) {
  __shared__ int v[kThreads];
  v[threadIdx.x] = int(threadIdx.x);
  out[threadIdx.x] = v[(threadIdx.x + 1) % kThreads];
}

// Every thread adds to a shared counter without an atomic.
__global__ __attribute__((noinline)) void planted_shared_counter(int* out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  count += 1;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}

// Each block's first thread adds to one global total without an atomic.
__global__ __attribute__((noinline)) void planted_cross_block_total(int* total) {
  if (threadIdx.x == 0) *total += 1;
}

// ---- Their correct twins, and kernels that use what the simulator reuses.

__global__ void fixed_barrier(int* out) {
  __shared__ int v[kThreads];
  v[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = v[(threadIdx.x + 1) % kThreads];
}

__global__ void fixed_shared_counter(int* out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}

__global__ void fixed_cross_block_total(int* total) {
  if (threadIdx.x == 0) atomicAdd(total, 1);
}

// Many blocks through static and dynamic shared memory, several barrier phases, warp shuffles
// and a __syncwarp hand-over through shared memory.
__global__ void phases_and_warps(const int* in, int* out) {
  __shared__ int tree[kThreads];
  extern __shared__ int lanes[];
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  tree[threadIdx.x] = in[i];
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) tree[threadIdx.x] += tree[threadIdx.x + s];
    __syncthreads();
  }
  int v = in[i];
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) lanes[threadIdx.x / 32] = v;
  __syncwarp();
  const int lane0 = lanes[threadIdx.x / 32];
  out[i] = tree[0] * 1000 + lane0;
}

struct Child {
  int status = -1;
  std::string out;
};

/// Runs the disabled case `name` of this binary in a process of its own (TSan ends a process at
/// its first report, and a fork of a process with threads runs with TSan's checks off), under
/// the caller's device and environment; returns its exit status and its output.
Child run_case(const char* name) {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return {};
  self[n] = 0;
  const std::string cmd = std::string("'") + self + "' --device cuda --run-disabled cuda_sim_tsan_case." + name + " 2>&1";
  Child c;
  std::fflush(stdout);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return c;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) c.out.append(buf, got);
  const int st = pclose(p);
  c.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return c;
}

bool reports_race_in(const Child& c, const char* kernel) {
  return c.status != 0 && c.out.find("WARNING: ThreadSanitizer: data race") != std::string::npos &&
         c.out.find(kernel) != std::string::npos;
}

/// Runs `launch` under every schedule.
template <typename F>
void each_schedule(F launch) {
  for (const char* s : kSchedules) {
    ScheduleScope scope(s);
    launch();
  }
}

}  // namespace

// The cases, run only by the tests below (in a process of their own).
TEST(cuda_sim_tsan_case, DISABLED_missing_barrier) {
  int* out = device_alloc<int>(kThreads);
  each_schedule([&] { planted_missing_barrier<<<1, kThreads>>>(out); });
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim_tsan_case, DISABLED_shared_counter) {
  int* out = device_alloc<int>(2);
  each_schedule([&] { planted_shared_counter<<<2, kThreads>>>(out); });
  cudaFreeAsync(out, nullptr);
}

TEST(cuda_sim_tsan_case, DISABLED_cross_block_total) {
  int* total = device_alloc<int>(1);
  cudaMemsetAsync(total, 0, sizeof(int), nullptr);
  each_schedule([&] { planted_cross_block_total<<<8, 32>>>(total); });
  cudaFreeAsync(total, nullptr);
}

TEST(cuda_sim_tsan_case, DISABLED_correct_kernels) {
  const int blocks = 9, n = blocks * kThreads;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i % 7;
  int* in = to_device(h);
  int* out = device_alloc<int>(n);
  int* total = device_alloc<int>(1);
  cudaMemsetAsync(total, 0, sizeof(int), nullptr);
  each_schedule([&] {
    fixed_barrier<<<1, kThreads>>>(out);
    std::vector<int> got = to_host(out, kThreads);
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(got[t], (t + 1) % kThreads);
    fixed_shared_counter<<<blocks, kThreads>>>(out);
    got = to_host(out, blocks);
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(got[b], kThreads);
    fixed_cross_block_total<<<blocks, 32>>>(total);
    phases_and_warps<<<blocks, kThreads, (kThreads / 32) * sizeof(int)>>>(in, out);
    got = to_host(out, n);
    for (int b = 0; b < blocks; ++b) {
      int tree = 0;
      for (int t = 0; t < kThreads; ++t) tree += h[b * kThreads + t];
      for (int t = 0; t < kThreads; ++t) {
        int warp = 0;
        for (int l = 0; l < 32; ++l) warp += h[b * kThreads + t / 32 * 32 + l];
        EXPECT_EQ(got[b * kThreads + t], tree * 1000 + warp);
      }
    }
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  });
  EXPECT_EQ(to_host(total, 1)[0], blocks * int(sizeof kSchedules / sizeof kSchedules[0]));
  for (int* p : {in, out, total}) cudaFreeAsync(p, nullptr);
}

TEST(cuda_sim_tsan, a_missing_barrier_is_a_race) {
  EXPECT_TRUE(reports_race_in(run_case("DISABLED_missing_barrier"), "planted_missing_barrier"));
}

TEST(cuda_sim_tsan, a_non_atomic_shared_update_is_a_race) {
  EXPECT_TRUE(reports_race_in(run_case("DISABLED_shared_counter"), "planted_shared_counter"));
}

TEST(cuda_sim_tsan, a_non_atomic_update_from_several_blocks_is_a_race) {
  EXPECT_TRUE(reports_race_in(run_case("DISABLED_cross_block_total"), "planted_cross_block_total"));
}

TEST(cuda_sim_tsan, correct_kernels_are_not_reported) {
  const Child c = run_case("DISABLED_correct_kernels");
  EXPECT_EQ(c.status, 0);
  EXPECT_TRUE(c.out.find("1 passed, 0 failed") != std::string::npos);
  EXPECT_TRUE(c.out.find("ThreadSanitizer") == std::string::npos);
  if (c.status != 0) std::fprintf(stderr, "%s", c.out.c_str());
}
#endif
