// The simulator's kernel execution. A launch runs its blocks one after another on the calling
// host thread, in the schedule's block order. A block's CUDA threads are fibers:
//  - a "runner" fiber calls the thread body for thread after thread, in the schedule's order, as
//    plain calls; a block in which no thread reaches a barrier costs one fiber and two switches;
//  - a thread that reaches __syncthreads (or yields at an atomic) keeps its runner's fiber, and
//    the scheduler starts a new runner for the threads not yet started;
//  - when every thread has arrived or finished, the barrier opens: the waiting threads resume in
//    the schedule's order. Threads that finished while others wait at a barrier (a divergent
//    barrier), or threads in different kinds of barrier (__syncthreads and __syncthreads_or),
//    fail the launch instead of hanging. (Different call sites of the same kind cannot be told
//    apart: g++ may duplicate a call into both arms of a branch, which nvcc never does.)
//  - warp operations (__shfl*_sync, __ballot_sync, __syncwarp, ...) are barriers of the lanes
//    their mask names: each lane parks with its value until the last named lane arrives, which
//    computes every lane's result and makes the others ready. A lane named in a mask that exits or
//    waits elsewhere (a __syncthreads) leaves the warp operation incomplete: the launch fails.
//  - built with -fsanitize=thread (CUDA_SIM_TSAN), every CUDA thread runs in a ThreadSanitizer
//    context of its own, so accesses of two CUDA threads that no barrier, warp operation or
//    atomic orders are reported as races (tsan.hpp).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "block.hpp"


thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

namespace cuda_sim {
namespace detail {

thread_local Run* t_run = nullptr;

namespace {

// One per host thread, reused by its launches (a launch never nests in another): the fibers keep
// their stacks, so a launch allocates nothing once the thread has run a block of its size.
thread_local Run t_engine;

}  // namespace

void fail(Run& r, const std::string& what) {
  if (r.failed) return;
  r.failed = true;
  char where[96];
  std::snprintf(where, sizeof where, " (block %u,%u,%u)", blockIdx.x, blockIdx.y, blockIdx.z);
  fail_execution(cudaErrorLaunchFailure, std::string(r.kernel) + ": " + what + where);
}

namespace {

Fiber* next_fiber(Run& r);
void retire(Run& r, Fiber* f);

[[noreturn]] void runner_main(void* arg) {
  auto* f = static_cast<Fiber*>(arg);
  Run& r = *t_run;
  fiber::Context from;
  fiber::on_fiber_start(from);
  // Under TSan a runner runs one thread: the one whose stack it was given.
  for (bool once = false; !f->detached && r.next_pos < r.threads && !once; once = TsanHooks::kActive) {
    const unsigned t = r.order[r.next_pos++];
    set_thread(r, t);
    Thread& th = r.slots[t];
    th.fiber = f;
    th.state = State::Running;
    r.tsan.start_thread(t);
    try {
      r.fn(r.body);
    } catch (const std::exception& e) {
      r.tsan.leave();
      fail(r, std::string("a C++ exception escaped a thread: ") + e.what());
      r.tsan.enter(t);
    } catch (...) {
      r.tsan.leave();
      fail(r, "a C++ exception escaped a thread");
      r.tsan.enter(t);
    }
    r.tsan.end_thread();
    r.slots[r.current].state = State::Done;
    ++r.finished;
  }
  f->finished = true;
  // Straight on to the next fiber (it cannot be this one: its thread is done).
  Fiber* next = next_fiber(r);
  retire(r, f);
  fiber::exit_to(next ? next->ctx : r.sched);
}

Fiber* new_runner(Run& r) {
  Fiber* f;
  if (!r.spare.empty()) {
    f = r.spare.back();
    r.spare.pop_back();
    // Its last runner left for good from inside runner_main (exit_to never returns): those
    // frames' sanitizer bookkeeping is stale, and the new runner's frames land on it.
    fiber::reset_stack(f->stack);
  } else {
    f = new Fiber;
    if (!TsanHooks::kActive) f->stack = fiber::acquire_stack();
  }
  if (TsanHooks::kActive) f->stack = r.tsan.stack_for(r.order[r.next_pos]);  // the thread it will run
  f->detached = false;
  f->finished = false;
  fiber::make_context(f->ctx, f->stack, &runner_main, f);
  return f;
}

void retire(Run& r, Fiber* f) { r.spare.push_back(f); }

}  // namespace

void park(Run& r) {
  Fiber* f = r.slots[r.current].fiber;
  f->detached = true;
  Fiber* next = next_fiber(r);
  if (next == f) return;  // this thread is the next to run (threadIdx is set)
  fiber::switch_to(f->ctx, next ? next->ctx : r.sched);
}

namespace {

void permutation(std::vector<unsigned>& p, unsigned n, Order order, Rng& rng) {
  p.resize(n);
  for (unsigned i = 0; i < n; ++i) p[i] = order == Order::Reverse ? n - 1 - i : i;
  if (order == Order::Random) std::shuffle(p.begin(), p.end(), rng);
}

/// Opens the barrier all live threads wait at; false when the block cannot go on.
bool open_barrier(Run& r) {
  if (r.at_warp > 0) {
    fail(r, "deadlock: " + std::to_string(r.waiting.size()) + " thread(s) wait at __syncthreads while " +
                std::to_string(r.at_warp) + " wait in a warp operation for lanes that are there");
    return false;
  }
  if (r.finished > 0) {
    fail(r, "divergent __syncthreads: " + std::to_string(r.finished) + " thread(s) exited while " +
                std::to_string(r.waiting.size()) + " wait at a barrier");
    return false;
  }
  const int op = r.slots[r.waiting[0]].op;
  int count = 0;
  for (unsigned t : r.waiting) {
    if (r.slots[t].op != op) {
      fail(r, "divergent __syncthreads: threads of the block wait in different kinds of barrier");
      return false;
    }
    count += r.slots[t].predicate != 0;
  }
  r.barrier_count = count;
  r.tsan.barrier_opened();
  // No thread finished, so all of them wait: resume them in the schedule's order (random picks
  // at random from the ready list anyway).
  if (schedule().order != Order::Random) r.waiting = r.order;
  for (unsigned t : r.waiting) r.slots[t].state = State::Ready;
  r.ready.insert(r.ready.end(), r.waiting.begin(), r.waiting.end());
  r.waiting.clear();
  return true;
}

/// What runs next in the block: a ready thread (its threadIdx set) or a new runner for the threads
/// not yet started, opening the barrier when every thread waits at it; null when the block is
/// done or has failed.
Fiber* next_fiber(Run& r) {
  const bool random = schedule().order == Order::Random;
  while (!r.failed) {
    const bool unstarted = r.next_pos < r.threads;
    const std::size_t queued = r.ready.size() - r.ready_head;
    if (queued > 0 && (!unstarted || (random && (r.rng() & 1)))) {
      if (random) std::swap(r.ready[r.ready_head], r.ready[r.ready_head + r.rng() % queued]);
      const unsigned t = r.ready[r.ready_head++];
      if (r.ready_head == r.ready.size()) {
        r.ready.clear();
        r.ready_head = 0;
      }
      r.slots[t].state = State::Running;
      set_thread(r, t);
      return r.slots[t].fiber;
    }
    if (unstarted) return new_runner(r);
    if (r.waiting.empty()) {
      if (r.at_warp > 0) {
        fail(r, "a warp operation never completed: " + std::to_string(r.at_warp) +
                    " lane(s) wait for lanes named in the mask that exited");
      }
      return nullptr;
    }
    if (!open_barrier(r)) return nullptr;
  }
  return nullptr;
}

void run_block(Run& r) {
  for (Thread& t : r.slots) t = Thread{};
  for (Warp& w : r.warps) w = Warp{};
  r.at_warp = 0;
  r.next_pos = 0;
  r.finished = 0;
  r.waiting.clear();
  r.ready.clear();
  r.ready_head = 0;
  if (schedule().order == Order::Random) std::shuffle(r.order.begin(), r.order.end(), r.rng);
  if (TsanHooks::kActive) {
    // Fresh memory per block: its reuse by the next block is no race (tsan.hpp).
    unsigned char* m = r.tsan.begin_block(r.threads, r.warps.size(), r.shared.size(), r.static_at + r.static_used,
                                          kPoisonFresh);
    r.dynamic_shared = m;
    r.static_shared = m + r.static_at;
  } else {
    std::memset(r.dynamic_shared, kPoisonFresh, r.dynamic_bytes);
    std::memset(r.static_shared, kPoisonFresh, r.static_used);
  }
  // The fibers hand control to each other; back here when no thread can run.
  while (Fiber* f = next_fiber(r)) fiber::switch_to(r.sched, f->ctx);
  if (!r.failed) return;
  // Failed: the parked threads are abandoned where they stand (their frames hold no resources).
  for (Thread& t : r.slots) {
    if (t.state == State::AtBarrier || t.state == State::AtWarp || t.state == State::Ready) {
      // What it did comes before the host thread's next step, as a finished thread's does.
      r.tsan.enter(unsigned(&t - r.slots.data()));
      r.tsan.end_thread();
      fiber::reset_stack(t.fiber->stack);
      retire(r, t.fiber);
      t.state = State::Done;
    }
  }
}

cudaError_t check_config(const LaunchConfig& c) {
  const dim3 b = c.block, g = c.grid;
  if (b.x == 0 || b.y == 0 || b.z == 0 || b.x > 1024 || b.y > 1024 || b.z > 64 ||
      uint64_t(b.x) * b.y * b.z > 1024)
    return cudaErrorInvalidConfiguration;
  if (g.x == 0 || g.y == 0 || g.z == 0 || g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535)
    return cudaErrorInvalidConfiguration;
  if (c.shmem > 48 * 1024) return cudaErrorInvalidValue;  // beyond the default without opt-in
  if (!valid_stream(c.stream)) return cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

}  // namespace

void launch(const LaunchConfig& cfg, const char* kernel, ThreadFn fn, void* body) {
  if (cudaError_t e = check_config(cfg); e != cudaSuccess) {
    set_last_error(e);
    return;
  }
  if (t_run) {
    fail_execution(cudaErrorNotSupported, std::string(kernel) + ": launched from inside a kernel");
    return;
  }
  count_launch(kernel);
  thread_local uint64_t launches = 0;
  Run& r = t_engine;
  r.failed = false;
  r.kernel = kernel;
  r.fn = fn;
  r.body = body;
  r.threads = cfg.block.x * cfg.block.y * cfg.block.z;
  r.rng.state = schedule().seed * 0x9E3779B97F4A7C15ull + ++launches;
  r.slots.resize(r.threads);
  r.warps.resize((r.threads + 31) / 32);
  r.coords.resize(r.threads);
  for (unsigned t = 0, bx = cfg.block.x, by = cfg.block.y; t < r.threads; ++t)
    r.coords[t] = uint3{t % bx, (t / bx) % by, t / (bx * by)};
  permutation(r.order, r.threads, schedule().order, r.rng);
  r.dynamic_bytes = cfg.shmem;
  r.static_at = (cfg.shmem + 15) / 16 * 16;
  r.shared.resize(r.static_at + kStaticSharedBytes);
  r.dynamic_shared = r.shared.data();
  r.static_shared = r.shared.data() + r.static_at;
  r.statics.clear();
  r.static_used = 0;
  const uint3 saved_thread = threadIdx, saved_block = blockIdx;
  const dim3 saved_bdim = blockDim, saved_gdim = gridDim;
  blockDim = cfg.block;
  gridDim = cfg.grid;
  fiber::init_host_context(r.sched);
  r.tsan.begin_launch();
  t_run = &r;
  const uint64_t gx = cfg.grid.x, gy = cfg.grid.y, blocks = gx * gy * cfg.grid.z;
  const Order order = schedule().order;
  std::vector<unsigned> shuffled;
  if (order == Order::Random && blocks <= (1u << 24)) permutation(shuffled, unsigned(blocks), order, r.rng);
  for (uint64_t i = 0; i < blocks && !r.failed; ++i) {
    uint64_t b = order == Order::Reverse ? blocks - 1 - i : shuffled.empty() ? i : shuffled[i];
    blockIdx = uint3{unsigned(b % gx), unsigned((b / gx) % gy), unsigned(b / (gx * gy))};
    run_block(r);
  }
  t_run = nullptr;
  r.tsan.end_launch();
  threadIdx = saved_thread;
  blockIdx = saved_block;
  blockDim = saved_bdim;
  gridDim = saved_gdim;
}

bool check_pointer_argument(const char* kernel, int index, const void* p) {
  if (p == nullptr || is_device_range(p, 0)) return true;
  char what[64];
  std::snprintf(what, sizeof what, ": argument %d (%p) is not device memory", index, p);
  fail_execution(cudaErrorIllegalAddress, std::string(kernel) + what);
  return false;
}

void* current_shared() { return t_run ? t_run->dynamic_shared : nullptr; }

void* static_shared(const void* key, std::size_t size, std::size_t align) {
  Run* r = t_run;
  if (!r) {
    std::fprintf(stderr, "cuda_sim: a __shared__ variable was used outside a kernel\n");
    std::abort();
  }
  for (const Run::StaticShared& v : r->statics)
    if (v.key == key) return r->static_shared + v.offset;
  // The declaration's first run in this launch: its place, poisoned in this block (later blocks
  // poison it with the rest).
  const std::size_t offset = (r->static_used + align - 1) / align * align;
  if (offset + size > kStaticSharedBytes) {
    std::fprintf(stderr, "cuda_sim: %s: static __shared__ variables need more than %zu bytes\n", r->kernel,
                 kStaticSharedBytes);
    std::abort();
  }
  r->tsan.ignore_begin();
  r->statics.push_back({key, offset});
  r->static_used = offset + size;
  std::memset(r->static_shared + offset, kPoisonFresh, size);
  r->tsan.ignore_end();
  return r->static_shared + offset;
}

void atomic_point() {
  Run* r = t_run;
  if (!r) return;
  Thread& th = r->slots[r->current];
  // Forward and reverse yield every 64th atomic of a thread (enough for a spin-wait on another
  // thread to progress); random yields one atomic in four, to interleave read-modify-writes.
  const bool yield = schedule().order == Order::Random ? (r->rng() & 3) == 0 : (++th.atomics & 63) == 0;
  if (!yield) return;
  r->tsan.leave();  // before the bookkeeping: its allocations are the scheduler's
  th.state = State::Ready;
  r->ready.push_back(r->current);
  park(*r);
  r->tsan.enter(r->current);
}

int barrier(int predicate, int op) {
  Run* r = t_run;
  if (!r) {
    std::fprintf(stderr, "cuda_sim: __syncthreads called outside a kernel\n");
    std::abort();
  }
  char* sync = r->tsan.barrier_sync();
  r->tsan.arrive(sync);
  Thread& th = r->slots[r->current];
  th.state = State::AtBarrier;
  th.predicate = predicate;
  th.op = op;
  r->waiting.push_back(r->current);
  park(*r);
  const int n = r->barrier_count;
  r->tsan.depart(r->current, sync);
  switch (op) {
    case kCount: return n;
    case kAnd: return n == int(r->threads);
    case kOr: return n > 0;
    default: return 0;
  }
}


}  // namespace detail

void* dynamic_shared_memory() { return detail::current_shared(); }
void* static_shared_memory(const void* key, std::size_t size, std::size_t align) {
  return detail::static_shared(key, size, align);
}

}  // namespace cuda_sim

void __syncthreads() { cuda_sim::detail::barrier(1, cuda_sim::detail::kSync); }
int __syncthreads_count(int p) { return cuda_sim::detail::barrier(p, cuda_sim::detail::kCount); }
int __syncthreads_and(int p) { return cuda_sim::detail::barrier(p, cuda_sim::detail::kAnd); }
int __syncthreads_or(int p) { return cuda_sim::detail::barrier(p, cuda_sim::detail::kOr); }
