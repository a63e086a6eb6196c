#include "core/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <exception>

namespace gpudf {
namespace {
thread_local bool t_in_worker = false;
}

InlineScope::InlineScope() : was_(t_in_worker) { t_in_worker = true; }
InlineScope::~InlineScope() { t_in_worker = was_; }

ThreadPool::ThreadPool(unsigned threads) {
  unsigned extra = threads > 1 ? threads - 1 : 0;
  workers_.reserve(extra);
  for (unsigned i = 0; i < extra; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::worker_loop() {
  t_in_worker = true;
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_ && queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

void ThreadPool::parallel_for(int64_t n, int64_t grain,
                              const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  int64_t max_chunks = static_cast<int64_t>(size()) * 4;
  int64_t chunks = std::min<int64_t>(max_chunks, (n + grain - 1) / grain);
  if (chunks <= 1 || workers_.empty() || t_in_worker) {
    fn(0, n);
    return;
  }
  int64_t step = std::max(grain, (n + chunks - 1) / chunks);
  chunks = (n + step - 1) / step;
  std::atomic<int64_t> next{0};
  int64_t helpers_done = 0;
  std::exception_ptr error;
  std::mutex error_mutex;
  std::mutex done_mutex;
  std::condition_variable done_cv;

  // Each participant pulls chunk indices until none are left (cheap dynamic balancing).
  auto run = [&] {
    for (;;) {
      int64_t c = next.fetch_add(1);
      if (c >= chunks) break;
      int64_t begin = c * step;
      int64_t end = std::min(n, begin + step);
      if (begin < end) {
        try {
          fn(begin, end);
        } catch (...) {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (!error) error = std::current_exception();
        }
      }
    }
  };
  // A helper must have left `run` before this frame's locals die, so we wait for every helper
  // to finish (one that starts late finds no chunk left and returns at once).
  auto helper = [&] {
    run();
    std::lock_guard<std::mutex> lock(done_mutex);
    ++helpers_done;
    done_cv.notify_all();
  };
  int64_t helpers = std::min<int64_t>(static_cast<int64_t>(workers_.size()), chunks - 1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int64_t i = 0; i < helpers; ++i) queue_.emplace_back(helper);
  }
  cv_.notify_all();
  run();
  std::unique_lock<std::mutex> lock(done_mutex);
  done_cv.wait(lock, [&] { return helpers_done == helpers; });
  lock.unlock();
  if (error) std::rethrow_exception(error);
}

ThreadPool& cpu_pool() {
  static ThreadPool pool(std::max(1u, std::thread::hardware_concurrency()));
  return pool;
}

}  // namespace gpudf
