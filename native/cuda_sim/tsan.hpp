// The simulator's ThreadSanitizer hooks (scheduler.cpp). Built with -fsanitize=thread
// (GPUDF_CUDA_SIM_SANITIZE=thread defines CUDA_SIM_TSAN for scheduler.cpp and fiber.cpp, which are
// themselves compiled without instrumentation, see cuda_sim.cmake); otherwise every hook is an
// empty inline function.
//
// A host thread's runner fibers call many CUDA threads' bodies one after another, so to TSan they
// would all be one thread. Instead each CUDA thread's code runs in a TSan context of its own
// (created once per thread index and reused: one set for even blocks, one for odd ones, so
// neighbouring blocks are told apart), and the scheduler's own code runs in the host thread's
// context. Switches carry no synchronisation; the orderings CUDA promises are added explicitly:
//  - a launch happens after everything before it on the host thread, and the host thread's next
//    step after all of the launch's threads (launch_start / launch_end);
//  - a __syncthreads orders every thread of the block before it with every thread after it, a
//    warp operation the lanes it names. Each block has sync addresses of its own (from a ring of
//    kSyncBlocks entries: blocks that many apart share them), two for its barriers and two per
//    warp, used by turns: a thread that runs on to the next barrier before another has left this
//    one releases into the other address, so what it did after the barrier cannot reach the
//    thread that is late. (Warps whose lanes take turns in operations of different masks can
//    still meet the same address two operations apart: a race may then go unreported, never the
//    reverse.)
//  - atomics order what the C++ memory model says (std::atomic_ref is instrumented).
// Memory the simulator would reuse where a GPU does not must not carry one thread's accesses to
// another, or reuse would read as a race: each CUDA thread (context) has a stack of its own, and
// each block gets fresh shared memory (allocated with TSan's accounting off, which clears its
// history; this TSan's AnnotateNewMemory does nothing).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_sim/fiber.hpp"

#if defined(CUDA_SIM_TSAN)
extern "C" {
void* __tsan_get_current_fiber();
void* __tsan_create_fiber(unsigned flags);
void __tsan_switch_to_fiber(void* fiber, unsigned flags);
void __tsan_acquire(void* addr);
void __tsan_release(void* addr);
void __tsan_ignore_thread_begin();
void __tsan_ignore_thread_end();
}
#endif

namespace cuda_sim::detail {

#if defined(CUDA_SIM_TSAN)
class TsanHooks {
 public:
  static constexpr bool kActive = true;

  ~TsanHooks() {
    for (auto& pool : stacks_)
      for (fiber::Stack st : pool) fiber::free_stack(st);
    std::free(block_memory_);
  }

  void begin_launch() {
    if (sync_.empty()) sync_.resize(kSyncBlocks * kSyncPerBlock);
    host_ = __tsan_get_current_fiber();
    __tsan_release(&launch_start_);
  }
  void end_launch() { __tsan_acquire(&launch_end_); }

  /// A block of `threads` threads in `warps` warps: its contexts, stacks and sync addresses, and
  /// `bytes` of fresh shared memory whose first `poisoned` bytes are filled with `poison`.
  unsigned char* begin_block(unsigned threads, std::size_t warps, std::size_t bytes, std::size_t poisoned,
                             unsigned char poison) {
    pool_ = unsigned(blocks_ & 1);
    while (contexts_[pool_].size() < threads) {
      contexts_[pool_].push_back(__tsan_create_fiber(0));
      stacks_[pool_].push_back(fiber::acquire_stack());
    }
    block_sync_ = &sync_[(blocks_ % kSyncBlocks) * kSyncPerBlock];
    ++blocks_;
    barrier_generation_ = 0;
    warp_generation_.assign(warps, 0);
    ignore_begin();
    std::free(block_memory_);
    block_memory_ = static_cast<unsigned char*>(std::malloc(bytes ? bytes : 1));
    if (!block_memory_) {
      std::fprintf(stderr, "cuda_sim: no memory for a block's shared memory\n");
      std::abort();
    }
    std::memset(block_memory_, poison, poisoned);
    ignore_end();
    return block_memory_;
  }

  /// The stack CUDA thread `t` of the running block runs on (every thread has its own).
  fiber::Stack stack_for(unsigned t) const { return stacks_[pool_][t]; }

  /// From the scheduler into CUDA thread t's code, and back.
  void enter(unsigned t) { __tsan_switch_to_fiber(contexts_[pool_][t], kNoSync); }
  void leave() { __tsan_switch_to_fiber(host_, kNoSync); }

  void start_thread(unsigned t) {
    enter(t);
    __tsan_acquire(&launch_start_);
  }
  void end_thread() {
    __tsan_release(&launch_end_);
    leave();
  }

  /// A thread arriving at a barrier (or a warp operation) releases into its sync address and
  /// leaves for the scheduler; resumed, it enters its context and acquires what the others released.
  char* barrier_sync() { return block_sync_ + (barrier_generation_ & 1); }
  char* warp_sync(unsigned warp) { return block_sync_ + 2 + 2 * warp + (warp_generation_[warp] & 1); }
  void arrive(char* sync) {
    __tsan_release(sync);
    leave();
  }
  void depart(unsigned t, char* sync) {
    enter(t);
    __tsan_acquire(sync);
  }
  void barrier_opened() { ++barrier_generation_; }
  void warp_completed(unsigned warp) { ++warp_generation_[warp]; }

  void ignore_begin() { __tsan_ignore_thread_begin(); }
  void ignore_end() { __tsan_ignore_thread_end(); }

 private:
  static constexpr unsigned kNoSync = 1;  // __tsan_switch_to_fiber_no_sync
  static constexpr std::size_t kSyncBlocks = 1024;
  static constexpr std::size_t kSyncPerBlock = 2 + 2 * (1024 / 32);

  void* host_ = nullptr;
  std::vector<void*> contexts_[2];
  std::vector<fiber::Stack> stacks_[2];
  unsigned pool_ = 0;
  std::vector<char> sync_;
  char* block_sync_ = nullptr;
  uint32_t barrier_generation_ = 0;
  std::vector<uint32_t> warp_generation_;
  uint64_t blocks_ = 0;
  char launch_start_ = 0, launch_end_ = 0;
  unsigned char* block_memory_ = nullptr;
};
#else
class TsanHooks {
 public:
  static constexpr bool kActive = false;
  void begin_launch() {}
  void end_launch() {}
  unsigned char* begin_block(unsigned, std::size_t, std::size_t, std::size_t, unsigned char) { return nullptr; }
  fiber::Stack stack_for(unsigned) const { return {}; }
  void enter(unsigned) {}
  void leave() {}
  void start_thread(unsigned) {}
  void end_thread() {}
  char* barrier_sync() { return nullptr; }
  char* warp_sync(unsigned) { return nullptr; }
  void arrive(char*) {}
  void depart(unsigned, char*) {}
  void barrier_opened() {}
  void warp_completed(unsigned) {}
  void ignore_begin() {}
  void ignore_end() {}
};
#endif

}  // namespace cuda_sim::detail
