// Fibers: see cuda_sim/fiber.hpp. x86-64 System V only.
#include "cuda_sim/fiber.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define CUDA_SIM_ASAN 1
#endif

#if !defined(__x86_64__)
#error "the CUDA simulator's context switch is written for x86-64"
#endif

// cuda_sim_switch(save, to): pushes the callee-saved registers, stores the stack pointer in
// *save, loads `to` and pops the same frame from there. MXCSR and the x87 control word are not
// switched (fldcw/ldmxcsr cost more than the rest together): kernels never change FP modes, so
// every fiber runs with its host thread's.
// cuda_sim_fiber_start: where a fresh context "returns" to; calls entry(arg) from r13/r12.
asm(R"(
  .text
  .p2align 4
  .globl cuda_sim_switch
  .hidden cuda_sim_switch
  .type cuda_sim_switch,@function
cuda_sim_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size cuda_sim_switch, .-cuda_sim_switch

  .p2align 4
  .globl cuda_sim_fiber_start
  .hidden cuda_sim_fiber_start
  .type cuda_sim_fiber_start,@function
cuda_sim_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  callq *%r13
  ud2
  .cfi_endproc
  .size cuda_sim_fiber_start, .-cuda_sim_fiber_start
)");

extern "C" void cuda_sim_switch(void** save, void* to);
extern "C" void cuda_sim_fiber_start();

namespace cuda_sim::fiber {
namespace {

#if defined(CUDA_SIM_ASAN)
constexpr std::size_t kStackBytes = 1024 * 1024;  // instrumented frames are several times larger
#else
constexpr std::size_t kStackBytes = 256 * 1024;
#endif

std::size_t page_size() {
  static const std::size_t p = std::size_t(sysconf(_SC_PAGESIZE));
  return p;
}

struct Pool {
  std::vector<Stack> free;
  unsigned made = 0;
  ~Pool() {
    for (Stack s : free) munmap(s.lo - page_size(), kStackBytes + page_size());
  }
};
thread_local Pool t_pool;

}  // namespace

Stack acquire_stack() {
  if (!t_pool.free.empty()) {
    Stack s = t_pool.free.back();
    t_pool.free.pop_back();
    return s;
  }
  const std::size_t guard = page_size();
  void* m = mmap(nullptr, kStackBytes + guard, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (m == MAP_FAILED) {
    std::fprintf(stderr, "cuda_sim: cannot map a fiber stack\n");
    std::abort();
  }
  // A guard page below the stack turns an overflow into a fault instead of silent corruption.
  mprotect(m, guard, PROT_NONE);
  // Stagger the tops: stacks a power of two apart would put every fiber's hot frames in the same
  // cache sets (and thrash L1/L2 as a block's fibers take turns).
  const std::size_t colour = (t_pool.made++ * 1088) % 32768;
  return Stack{static_cast<char*>(m) + guard, kStackBytes - colour};
}

void release_stack(Stack s) {
  reset_stack(s);
  t_pool.free.push_back(s);
}

void free_stack(Stack s) { munmap(s.lo - page_size(), kStackBytes + page_size()); }

void reset_stack(Stack s) {
#if defined(CUDA_SIM_ASAN)
  // Frames abandoned on this stack leave poisoned shadow behind; the next fiber starts clean.
  ASAN_UNPOISON_MEMORY_REGION(s.lo, s.size);
#else
  (void)s;
#endif
}

void make_context(Context& ctx, Stack stack, Entry entry, void* arg) {
  // The frame cuda_sim_switch pops: r15, r14, r13 (entry), r12 (arg), rbx, rbp (0, ending
  // frame-pointer walks), then the "return address" cuda_sim_fiber_start. After that ret the
  // stack pointer is 16-byte aligned, as the ABI wants before a call.
  auto top = reinterpret_cast<uintptr_t>(stack.lo + stack.size) & ~uintptr_t(15);
  auto* w = reinterpret_cast<uint64_t*>(top);
  w[-1] = reinterpret_cast<uint64_t>(&cuda_sim_fiber_start);
  w[-2] = 0;                                    // rbp
  w[-3] = 0;                                    // rbx
  w[-4] = reinterpret_cast<uint64_t>(arg);      // r12
  w[-5] = reinterpret_cast<uint64_t>(entry);    // r13
  w[-6] = 0;                                    // r14
  w[-7] = 0;                                    // r15
  ctx.sp = &w[-7];
  ctx.stack_lo = stack.lo;
  ctx.stack_size = stack.size;
}

void switch_to(Context& from, const Context& to) {
#if defined(CUDA_SIM_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, to.stack_lo, to.stack_size);
  cuda_sim_switch(&from.sp, to.sp);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  cuda_sim_switch(&from.sp, to.sp);
#endif
}

void exit_to(const Context& to) {
  void* dead = nullptr;
#if defined(CUDA_SIM_ASAN)
  __sanitizer_start_switch_fiber(nullptr, to.stack_lo, to.stack_size);
#endif
  cuda_sim_switch(&dead, to.sp);
  __builtin_unreachable();
}

void init_host_context(Context& ctx) {
#if defined(CUDA_SIM_ASAN)
  if (ctx.stack_lo) return;
  pthread_attr_t attr;
  void* lo = nullptr;
  std::size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &lo, &size);
    pthread_attr_destroy(&attr);
  }
  ctx.stack_lo = lo;
  ctx.stack_size = size;
#else
  (void)ctx;
#endif
}

void on_fiber_start(Context& from) {
#if defined(CUDA_SIM_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &from.stack_lo, &from.stack_size);
#else
  (void)from;
#endif
}

}  // namespace cuda_sim::fiber
