// core/thread_pool: parallel_for covers [0, n) exactly once, rethrows a chunk's exception after
// every chunk finished, and nests (inline in workers) without deadlock.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

/// Runs parallel_for and checks: every index visited once, chunks non-empty and in range.
void check_coverage(ThreadPool& pool, int64_t n, int64_t grain) {
  SCOPED_TRACE("n=" + std::to_string(n) + " grain=" + std::to_string(grain) +
               " threads=" + std::to_string(pool.size()));
  std::vector<std::atomic<uint8_t>> hits(static_cast<std::size_t>(n));
  for (auto& h : hits) h.store(0);
  std::atomic<int64_t> bad_chunks{0}, calls{0};
  pool.parallel_for(n, grain, [&](int64_t b, int64_t e) {
    calls.fetch_add(1);
    if (!(0 <= b && b < e && e <= n)) {
      bad_chunks.fetch_add(1);
      return;
    }
    for (int64_t i = b; i < e; ++i) hits[std::size_t(i)].fetch_add(1, std::memory_order_relaxed);
  });
  EXPECT_EQ(bad_chunks.load(), 0);
  int64_t first_bad = -1;
  for (int64_t i = 0; i < n; ++i)
    if (hits[std::size_t(i)].load() != 1) {
      first_bad = i;
      break;
    }
  EXPECT_EQ(first_bad, -1);
  if (first_bad >= 0) EXPECT_EQ(int(hits[std::size_t(first_bad)].load()), 1);
  if (n == 0) EXPECT_EQ(calls.load(), 0);
  else EXPECT_TRUE(calls.load() >= 1);
}

const int64_t kSizes[] = {0, 1, 7, 1000, 1000000};
const int64_t kGrains[] = {-5, 0, 1, 7, 1000, int64_t(1) << 20};

}  // namespace

TEST(thread_pool, size_counts_the_caller) {
  EXPECT_EQ(ThreadPool(0).size(), 1u);
  EXPECT_EQ(ThreadPool(1).size(), 1u);
  EXPECT_EQ(ThreadPool(4).size(), 4u);
  EXPECT_TRUE(cpu_pool().size() >= 1u);
  EXPECT_EQ(&cpu_pool(), &cpu_pool());
}

TEST(thread_pool, parallel_for_covers_range_exactly_once_process_pool) {
  for (int64_t n : kSizes)
    for (int64_t g : kGrains) check_coverage(cpu_pool(), n, g);
}

TEST(thread_pool, parallel_for_covers_range_exactly_once_private_pools) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    ThreadPool pool(threads);
    for (int64_t n : kSizes)
      for (int64_t g : kGrains) check_coverage(pool, n, g);
  }
}

TEST(thread_pool, parallel_for_uses_several_threads_for_large_work) {
  ThreadPool pool(4);
  std::mutex m;
  std::vector<std::thread::id> ids;
  std::atomic<int> arrived{0};
  pool.parallel_for(16, 1, [&](int64_t, int64_t) {
    {
      std::lock_guard<std::mutex> lock(m);
      if (std::find(ids.begin(), ids.end(), std::this_thread::get_id()) == ids.end())
        ids.push_back(std::this_thread::get_id());
    }
    arrived.fetch_add(1);
    // Give other participants a chance to pick chunks (bounded wait: never a hard requirement).
    for (int spin = 0; spin < 200 && arrived.load() < 2; ++spin)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_TRUE(ids.size() >= 2u);
  EXPECT_TRUE(ids.size() <= 4u);
}

TEST(thread_pool, exception_in_a_chunk_is_rethrown_after_all_chunks_finished) {
  for (unsigned threads : {1u, 4u}) {
    SCOPED_TRACE("threads=" + std::to_string(threads));
    ThreadPool pool(threads);
    const int64_t n = 1000;
    std::atomic<int64_t> done{0}, in_flight{0};
    bool caught = false;
    try {
      pool.parallel_for(n, 1, [&](int64_t b, int64_t e) {
        in_flight.fetch_add(1);
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        if (b <= 500 && 500 < e) {
          in_flight.fetch_sub(1);
          throw std::runtime_error("chunk holding 500");
        }
        done.fetch_add(e - b);
        in_flight.fetch_sub(1);
      });
    } catch (const std::runtime_error& e) {
      caught = true;
      EXPECT_EQ(std::string(e.what()), std::string("chunk holding 500"));
      // Every other chunk ran to completion before the rethrow.
      EXPECT_EQ(in_flight.load(), 0);
      if (threads == 1) {
        EXPECT_EQ(done.load(), 0);  // one inline chunk: [0, n)
      } else {
        EXPECT_TRUE(done.load() < n);
        EXPECT_TRUE(done.load() >= n / 2);
      }
    }
    EXPECT_TRUE(caught);
    // The pool is still usable afterwards.
    std::atomic<int64_t> sum{0};
    pool.parallel_for(n, 1, [&](int64_t b, int64_t e) { sum.fetch_add(e - b); });
    EXPECT_EQ(sum.load(), n);
  }
}

TEST(thread_pool, every_chunk_runs_even_when_several_throw) {
  ThreadPool pool(4);
  const int64_t n = 64;
  std::vector<std::atomic<int>> seen(n);
  for (auto& s : seen) s.store(0);
  bool caught = false;
  try {
    pool.parallel_for(n, 1, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) seen[std::size_t(i)].fetch_add(1);
      throw std::runtime_error("always");
    });
  } catch (const std::runtime_error&) {
    caught = true;
  }
  EXPECT_TRUE(caught);
  int64_t covered = 0;
  for (auto& s : seen) covered += s.load();
  EXPECT_EQ(covered, n);
}

TEST(thread_pool, gpudf_error_code_survives_the_rethrow) {
  EXPECT_THROW_CODE(cpu_pool().parallel_for(100000, 10,
                                            [](int64_t b, int64_t e) {
                                              if (b == 0) GPUDF_FAIL(Dtype, "boom");
                                            }),
                    ErrorCode::Dtype);
  // The inline (single chunk) path throws directly.
  EXPECT_THROW_CODE(cpu_pool().parallel_for(1, 10, [](int64_t, int64_t) { GPUDF_FAIL(Io, "x"); }),
                    ErrorCode::Io);
}

TEST(thread_pool, nested_parallel_for_completes_and_covers_everything) {
  for (ThreadPool* pool : {&cpu_pool()}) {
    const int64_t outer = 64, inner = 10000;
    std::vector<std::atomic<int64_t>> sums(outer);
    for (auto& s : sums) s.store(0);
    pool->parallel_for(outer, 1, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        pool->parallel_for(inner, 16, [&](int64_t ib, int64_t ie) {
          int64_t local = 0;
          for (int64_t i = ib; i < ie; ++i) local += i;
          sums[std::size_t(o)].fetch_add(local);
        });
      }
    });
    const int64_t want = inner * (inner - 1) / 2;
    for (int64_t o = 0; o < outer; ++o) {
      if (sums[std::size_t(o)].load() != want) {
        SCOPED_TRACE("outer=" + std::to_string(o));
        EXPECT_EQ(sums[std::size_t(o)].load(), want);
      }
    }
  }
  // Three levels deep in a private pool.
  ThreadPool pool(3);
  std::atomic<int64_t> leaves{0};
  pool.parallel_for(8, 1, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      pool.parallel_for(8, 1, [&](int64_t b2, int64_t e2) {
        for (int64_t j = b2; j < e2; ++j)
          pool.parallel_for(8, 1, [&](int64_t b3, int64_t e3) { leaves.fetch_add(e3 - b3); });
      });
  });
  EXPECT_EQ(leaves.load(), 512);
}

TEST(thread_pool, concurrent_callers_share_the_pool) {
  ThreadPool pool(4);
  const int callers = 6;
  const int64_t n = 200000;
  std::vector<int64_t> totals(callers, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < callers; ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 20; ++rep) {
        std::atomic<int64_t> sum{0};
        pool.parallel_for(n, 1000, [&](int64_t b, int64_t e) { sum.fetch_add(e - b); });
        totals[std::size_t(t)] += sum.load();
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < callers; ++t) EXPECT_EQ(totals[std::size_t(t)], 20 * n);
}

// Documented contract (thread_pool.hpp): "splits [0, n) into chunks of at least `grain` items".
// (Fewer than `grain` items run as one chunk.)
TEST(thread_pool, chunks_hold_at_least_grain_items) {
  ThreadPool pool(4);
  for (int64_t n : {9, 10, 17, 1001}) {
    for (int64_t grain : {2, 4, 100}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " grain=" + std::to_string(grain));
      std::mutex m;
      std::vector<std::pair<int64_t, int64_t>> chunks;
      pool.parallel_for(n, grain, [&](int64_t b, int64_t e) {
        std::lock_guard<std::mutex> lock(m);
        chunks.emplace_back(b, e);
      });
      std::sort(chunks.begin(), chunks.end());
      // Every chunk but the last one (which may hold the remainder) has >= grain items.
      int64_t smallest = n;
      for (std::size_t i = 0; i + 1 < chunks.size(); ++i)
        smallest = std::min(smallest, chunks[i].second - chunks[i].first);
      if (chunks.size() > 1 && smallest < grain)
        ADD_FAILURE(std::to_string(chunks.size()) + " chunks, the smallest (not last) holds " +
                    std::to_string(smallest) + " items, fewer than grain " + std::to_string(grain));
    }
  }
}
