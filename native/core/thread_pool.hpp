// A fixed pool of worker threads for the CPU backend. parallel_for splits [0, n) into chunks of
// at least `grain` items; the calling thread works too. Calls from inside a worker run inline,
// so nested parallelism cannot deadlock.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
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

}  // namespace gpudf
