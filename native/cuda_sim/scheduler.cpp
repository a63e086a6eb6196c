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
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda_sim/fiber.hpp"
#include "cuda_sim/internal.hpp"

thread_local uint3 threadIdx;
thread_local uint3 blockIdx;
thread_local dim3 blockDim;
thread_local dim3 gridDim;

namespace cuda_sim {
namespace detail {
namespace {

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
  std::vector<unsigned char> shared;  // dynamic shared memory
  ~Run() {
    for (Fiber* f : spare) {
      fiber::free_stack(f->stack);
      delete f;
    }
  }
};

thread_local Run* t_run = nullptr;
// One per host thread, reused by its launches (a launch never nests in another): the fibers keep
// their stacks, so a launch allocates nothing once the thread has run a block of its size.
thread_local Run t_engine;

inline void set_thread(Run& r, unsigned t) {
  r.current = t;
  threadIdx = r.coords[t];
}

void fail(Run& r, const std::string& what) {
  if (r.failed) return;
  r.failed = true;
  char where[96];
  std::snprintf(where, sizeof where, " (block %u,%u,%u)", blockIdx.x, blockIdx.y, blockIdx.z);
  fail_execution(cudaErrorLaunchFailure, std::string(r.kernel) + ": " + what + where);
}

Fiber* next_fiber(Run& r);
void retire(Run& r, Fiber* f);

[[noreturn]] void runner_main(void* arg) {
  auto* f = static_cast<Fiber*>(arg);
  Run& r = *t_run;
  fiber::Context from;
  fiber::on_fiber_start(from);
  while (!f->detached && r.next_pos < r.threads) {
    const unsigned t = r.order[r.next_pos++];
    set_thread(r, t);
    Thread& th = r.slots[t];
    th.fiber = f;
    th.state = State::Running;
    try {
      r.fn(r.body);
    } catch (const std::exception& e) {
      fail(r, std::string("a C++ exception escaped a thread: ") + e.what());
    } catch (...) {
      fail(r, "a C++ exception escaped a thread");
    }
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
    f->stack = fiber::acquire_stack();
  }
  f->detached = false;
  f->finished = false;
  fiber::make_context(f->ctx, f->stack, &runner_main, f);
  return f;
}

void retire(Run& r, Fiber* f) { r.spare.push_back(f); }

/// Called on a thread's fiber: parks it (it keeps the fiber) and switches straight to whatever
/// runs next; the scheduler's own context only runs when the block is done or has failed.
void park(Run& r) {
  Fiber* f = r.slots[r.current].fiber;
  f->detached = true;
  Fiber* next = next_fiber(r);
  if (next == f) return;  // this thread is the next to run (threadIdx is set)
  fiber::switch_to(f->ctx, next ? next->ctx : r.sched);
}

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
  if (!r.shared.empty()) std::memset(r.shared.data(), kPoisonFresh, r.shared.size());
  // The fibers hand control to each other; back here when no thread can run.
  while (Fiber* f = next_fiber(r)) fiber::switch_to(r.sched, f->ctx);
  if (!r.failed) return;
  // Failed: the parked threads are abandoned where they stand (their frames hold no resources).
  for (Thread& t : r.slots) {
    if (t.state == State::AtBarrier || t.state == State::AtWarp || t.state == State::Ready) {
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
  r.shared.resize(cfg.shmem);
  const uint3 saved_thread = threadIdx, saved_block = blockIdx;
  const dim3 saved_bdim = blockDim, saved_gdim = gridDim;
  blockDim = cfg.block;
  gridDim = cfg.grid;
  fiber::init_host_context(r.sched);
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

void* current_shared() { return t_run ? t_run->shared.data() : nullptr; }

void atomic_point() {
  Run* r = t_run;
  if (!r) return;
  Thread& th = r->slots[r->current];
  // Forward and reverse yield every 64th atomic of a thread (enough for a spin-wait on another
  // thread to progress); random yields one atomic in four, to interleave read-modify-writes.
  const bool yield = schedule().order == Order::Random ? (r->rng() & 3) == 0 : (++th.atomics & 63) == 0;
  if (!yield) return;
  th.state = State::Ready;
  r->ready.push_back(r->current);
  park(*r);
}

int barrier(int predicate, int op) {
  Run* r = t_run;
  if (!r) {
    std::fprintf(stderr, "cuda_sim: __syncthreads called outside a kernel\n");
    std::abort();
  }
  Thread& th = r->slots[r->current];
  th.state = State::AtBarrier;
  th.predicate = predicate;
  th.op = op;
  r->waiting.push_back(r->current);
  park(*r);
  const int n = r->barrier_count;
  switch (op) {
    case kCount: return n;
    case kAnd: return n == int(r->threads);
    case kOr: return n > 0;
    default: return 0;
  }
}


namespace {

/// The value lane `src` contributed, or poison when that lane is not in the operation's mask
/// (reading an inactive lane is undefined on the GPU).
uint64_t lane_value(const uint64_t* in, uint32_t mask, unsigned src) {
  return mask >> src & 1 ? in[src] : 0xA5A5A5A5A5A5A5A5ull;
}

/// Every named lane's result, once all of them have arrived (operands are read from a copy:
/// the results overwrite them lane by lane).
void complete_warp(Run& r, unsigned w) {
  Warp& wp = r.warps[w];
  const unsigned base = w * 32;
  const uint32_t mask = wp.mask;
  uint64_t in[32];
  for (unsigned l = 0; l < 32; ++l) in[l] = mask >> l & 1 ? r.slots[base + l].value : 0;
  uint32_t ballot = 0;
  for (unsigned l = 0; l < 32; ++l) ballot |= uint32_t(mask >> l & 1 && in[l] != 0) << l;
  uint32_t red = 0;
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    const uint32_t u = uint32_t(in[l]);
    switch (wp.op) {
      case kWarpReduceAdd: red += u; break;
      case kWarpReduceMinU: red = first || u < red ? u : red; break;
      case kWarpReduceMaxU: red = first || u > red ? u : red; break;
      case kWarpReduceMinI: red = first || int32_t(u) < int32_t(red) ? u : red; break;
      case kWarpReduceMaxI: red = first || int32_t(u) > int32_t(red) ? u : red; break;
      case kWarpReduceAnd: red = first ? u : red & u; break;
      case kWarpReduceOr: red |= u; break;
      case kWarpReduceXor: red ^= u; break;
      default: break;
    }
    first = false;
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    const uint32_t arg = r.slots[base + l].arg;
    const unsigned width = arg >> 8, delta = arg & 0xff;
    const unsigned seg = l & ~(width - 1), pos = l & (width - 1);
    uint64_t out = 0;
    switch (wp.op) {
      case kWarpShfl: out = lane_value(in, mask, seg + (delta & (width - 1))); break;
      case kWarpShflUp: out = pos >= delta ? lane_value(in, mask, l - delta) : in[l]; break;
      case kWarpShflDown: out = pos + delta < width ? lane_value(in, mask, l + delta) : in[l]; break;
      case kWarpShflXor: {
        const unsigned src = l ^ delta;
        out = src >= seg + width ? in[l] : lane_value(in, mask, src);
        break;
      }
      case kWarpBallot: out = ballot; break;
      case kWarpAny: out = ballot != 0; break;
      case kWarpAll: out = ballot == mask; break;
      case kWarpMatchAny: {
        uint32_t m = 0;
        for (unsigned k = 0; k < 32; ++k) m |= uint32_t(mask >> k & 1 && in[k] == in[l]) << k;
        out = m;
        break;
      }
      case kWarpSync: break;
      default: out = red; break;
    }
    r.slots[base + l].value = out;
  }
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned t = base + l;
    if (mask >> l & 1 && t != r.current) {
      r.slots[t].state = State::Ready;
      r.ready.push_back(t);
      --r.at_warp;
    }
  }
  wp = Warp{};
}

/// Parks the failing thread so the block ends (its frame is abandoned like a barrier's).
uint64_t fail_warp(Run& r, const std::string& what) {
  fail(r, what);
  r.slots[r.current].state = State::AtBarrier;
  park(r);
  return 0;
}

}  // namespace

uint64_t warp_op(int op, uint32_t mask, uint64_t value, uint32_t arg) {
  Run* r = t_run;
  if (!r) {
    std::fprintf(stderr, "cuda_sim: a warp operation was called outside a kernel\n");
    std::abort();
  }
  const unsigned t = r->current, lane = t & 31, w = t >> 5;
  const unsigned lanes = std::min(32u, r->threads - w * 32);
  const uint32_t present = lanes == 32 ? ~0u : (1u << lanes) - 1;
  const std::string where = " (warp " + std::to_string(w) + ", lane " + std::to_string(lane) + ")";
  if (!(mask >> lane & 1)) return fail_warp(*r, "a warp operation's mask does not name the calling lane" + where);
  if (mask & ~present) return fail_warp(*r, "a warp operation's mask names lanes that do not exist" + where);
  const unsigned width = arg >> 8;
  if (width == 0 || width > 32 || (width & (width - 1)) != 0)
    return fail_warp(*r, "a shuffle's width is not a power of two up to 32" + where);
  Warp& wp = r->warps[w];
  if (wp.arrived == 0) {
    wp.op = op;
    wp.mask = mask;
  } else if (wp.op != op || wp.mask != mask) {
    return fail_warp(*r, "divergent warp operation: lanes of a warp wait in different operations or masks" + where);
  }
  Thread& th = r->slots[t];
  th.value = value;
  th.arg = arg;
  wp.arrived |= 1u << lane;
  if (wp.arrived == mask) {
    complete_warp(*r, w);
    return th.value;
  }
  th.state = State::AtWarp;
  ++r->at_warp;
  park(*r);
  return th.value;
}

uint32_t active_mask() {
  Run* r = t_run;
  if (!r) return 0;
  const unsigned w = r->current >> 5;
  uint32_t m = 0;
  for (unsigned l = 0; l < 32 && w * 32 + l < r->threads; ++l)
    m |= uint32_t(r->slots[w * 32 + l].state != State::Done) << l;
  return m;
}

}  // namespace detail

void* dynamic_shared_memory() { return detail::current_shared(); }

}  // namespace cuda_sim

void __syncthreads() { cuda_sim::detail::barrier(1, cuda_sim::detail::kSync); }
int __syncthreads_count(int p) { return cuda_sim::detail::barrier(p, cuda_sim::detail::kCount); }
int __syncthreads_and(int p) { return cuda_sim::detail::barrier(p, cuda_sim::detail::kAnd); }
int __syncthreads_or(int p) { return cuda_sim::detail::barrier(p, cuda_sim::detail::kOr); }
