// What the simulator's block scheduler (scheduler.cpp) and its warp operations (warp.cpp) share:
// the state of a launch in progress on a host thread. Internal to native/cuda_sim/; both files
// must see the same CUDA_SIM_TSAN (cuda_sim.cmake compiles them alike).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_sim/fiber.hpp"
#include "cuda_sim/internal.hpp"
#include "tsan.hpp"

namespace cuda_sim::detail {

enum class State : uint8_t { NotStarted, Running, AtBarrier, AtWarp, Ready, Done };

struct Fiber {
  fiber::Context ctx;
  fiber::Stack stack;
  bool detached = false;  // its runner's loop ends when the current thread ends
  bool finished = false;
};

struct Thread {
  Fiber* fiber = nullptr;
  State state = State::NotStarted;
  int predicate = 0;
  int op = 0;                  // which barrier call (__syncthreads or a reducing variant)
  uint32_t atomics = 0;
  uint64_t value = 0;          // a warp operation's operand, then its result
  uint32_t arg = 0;            // a shuffle's (width << 8 | lane or delta)
};

/// A warp operation in progress: the lanes that have arrived, and what the first one asked for.
struct Warp {
  uint32_t arrived = 0;
  uint32_t mask = 0;
  int op = 0;
};

/// splitmix64: the schedules' random numbers (cheap; std::mt19937_64 showed in profiles).
struct Rng {
  using result_type = uint64_t;
  uint64_t state = 0;
  static constexpr uint64_t min() { return 0; }
  static constexpr uint64_t max() { return ~uint64_t(0); }
  uint64_t operator()() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

enum BarrierOp { kSync = 0, kCount = 1, kAnd = 2, kOr = 3 };

/// A block's static shared memory (the GPU's limit without opt-in, as for dynamic).
constexpr std::size_t kStaticSharedBytes = 48 * 1024;

struct Run {
  const char* kernel;
  ThreadFn fn;
  void* body;
  unsigned threads;                 // per block
  std::vector<unsigned> order;      // phase 0's thread order
  unsigned next_pos = 0;            // next position of `order` a runner starts
  std::vector<Thread> slots;
  std::vector<uint3> coords;        // threadIdx of each linear thread index
  std::vector<unsigned> waiting;    // at the barrier, in arrival order
  std::vector<Warp> warps;          // per warp of 32 lanes (linear thread index / 32)
  unsigned at_warp = 0;             // threads parked in a warp operation
  std::vector<unsigned> ready;      // resumable (barrier opened, or yielded) from ready_head on
  std::size_t ready_head = 0;
  unsigned finished = 0;
  unsigned current = 0;
  int barrier_count = 0;
  bool failed = false;
  Rng rng;
  fiber::Context sched;
  std::vector<Fiber*> spare;        // idle fibers, each with its stack
  // Shared memory: the launch's dynamic bytes, then kStaticSharedBytes for its static __shared__
  // variables, laid out as their declarations first run (statics, static_used).
  std::vector<unsigned char> shared;
  unsigned char* dynamic_shared = nullptr;
  unsigned char* static_shared = nullptr;
  std::size_t dynamic_bytes = 0;
  std::size_t static_at = 0;  // offset of the static part
  struct StaticShared {
    const void* key;
    std::size_t offset;
  };
  std::vector<StaticShared> statics;
  std::size_t static_used = 0;
  TsanHooks tsan;
  ~Run() {
    for (Fiber* f : spare) {
      if (!TsanHooks::kActive) fiber::free_stack(f->stack);  // else the stacks are the hooks'
      delete f;
    }
  }
};

/// The running launch of this host thread (null outside one).
extern thread_local Run* t_run;

inline void set_thread(Run& r, unsigned t) {
  r.current = t;
  threadIdx = r.coords[t];
}

/// Fails the launch (the first failure wins) with `what` and the running block's coordinates.
void fail(Run& r, const std::string& what);
/// Called on a thread's fiber: parks it (it keeps the fiber) and switches straight to whatever
/// runs next; the scheduler's own context only runs when the block is done or has failed.
void park(Run& r);

}  // namespace cuda_sim::detail
