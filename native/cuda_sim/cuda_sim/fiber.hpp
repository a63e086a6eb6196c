// User-space fibers for the simulator's CUDA threads: a stack from a per-host-thread pool and
// a context switch of a few instructions (the callee-saved registers; no signal mask, so no
// system call), with the AddressSanitizer fiber annotations when built
// with -fsanitize=address.
#pragma once

#include <cstddef>

namespace cuda_sim::fiber {

struct Stack {
  char* lo = nullptr;  // lowest usable byte (a guard page lies below it)
  std::size_t size = 0;
};

/// A stack from the calling host thread's pool (mapped on first need, kept for the thread's life).
Stack acquire_stack();
void release_stack(Stack s);
/// Unmaps a stack for good (at thread exit, whatever the order thread_locals die in).
void free_stack(Stack s);
/// Forgets the frames of a context abandoned on this stack (sanitizer bookkeeping).
void reset_stack(Stack s);

/// A saved context: the stack pointer at which its registers were pushed.
struct Context {
  void* sp = nullptr;
  const void* stack_lo = nullptr;  // the stack's bounds, for the sanitizer annotations
  std::size_t stack_size = 0;
};

using Entry = void (*)(void* arg);

/// Prepares `ctx` so that the first switch to it runs entry(arg) on `stack`. The entry must never
/// return: it ends by switching away for good (exit_to).
void make_context(Context& ctx, Stack stack, Entry entry, void* arg);

/// Saves the running context in `from` and resumes `to`.
void switch_to(Context& from, const Context& to);
/// Resumes `to`; the running context is abandoned (its stack may be reused).
[[noreturn]] void exit_to(const Context& to);
/// Records the calling host thread's own stack in `ctx` (for the sanitizer annotations), before
/// the first switch away from it.
void init_host_context(Context& ctx);
/// Called first thing in a new fiber's entry: completes the switch that started it, and fills
/// `from` with the stack bounds of the context that switched to it.
void on_fiber_start(Context& from);

}  // namespace cuda_sim::fiber
