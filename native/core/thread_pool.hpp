// A fixed pool of worker threads for the CPU backend. parallel_for splits [0, n) into chunks of
// at least `grain` items; the calling thread works too. Calls from inside a worker run inline,
// so nested parallelism cannot deadlock.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

namespace gpudf {

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that run work, the caller included.
  unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()) + 1; }

  /// Runs fn(begin, end) over disjoint chunks covering [0, n). The first exception thrown by any
  /// chunk is rethrown here after all chunks finished.
  void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

 private:
  void worker_loop();
  std::vector<std::thread> workers_;
  std::deque<std::function<void()>> queue_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
};

/// While alive, parallel_for calls on this thread run inline, as inside a worker: for work that
/// is already spread over the pool (a morsel each) and whose ops would otherwise wait for
/// workers busy with other morsels.
class InlineScope {
 public:
  InlineScope();
  ~InlineScope();
  InlineScope(const InlineScope&) = delete;
  InlineScope& operator=(const InlineScope&) = delete;

 private:
  bool was_;
};

/// The process-wide pool, sized to the machine's hardware threads.
ThreadPool& cpu_pool();

/// Runs row(i) -> bool ("this row is bad") for every i in [0, n) on the pool, in blocks of 64
/// rows (one validity word each, so no two threads write one bitmap byte), at least `grain` rows
/// a chunk; returns the first bad row, or -1 when none is. The strict parses and conversions
/// use it to name the first row that failed, as their CUDA kernels do with an atomic.
template <typename RowFn>
int64_t parallel_rows_first_bad(int64_t n, int64_t grain, RowFn row) {
  std::atomic<int64_t> bad{std::numeric_limits<int64_t>::max()};
  const int64_t blocks = (n + 63) / 64;
  cpu_pool().parallel_for(blocks, std::max<int64_t>(1, grain / 64), [&](int64_t b0, int64_t b1) {
    int64_t local_bad = std::numeric_limits<int64_t>::max();
    for (int64_t i = b0 * 64; i < std::min(n, b1 * 64); ++i) {
      if (row(i)) local_bad = std::min(local_bad, i);
    }
    int64_t cur = bad.load();
    while (local_bad < cur && !bad.compare_exchange_weak(cur, local_bad)) {
    }
  });
  const int64_t first = bad.load();
  return first == std::numeric_limits<int64_t>::max() ? -1 : first;
}

}  // namespace gpudf
