// ops/window: segmented scans (every op, both directions, sliced inputs, sizes spanning several
// CPU blocks and CUDA grids), shift maps and ranks on the test device against naive references.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ops/window/window.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;
using namespace gpudf::window;

namespace {

std::vector<std::optional<int64_t>> naive_scan(const std::vector<int64_t>& v, const std::vector<bool>& valid,
                                               const std::vector<int32_t>* seg, ScanOp op, bool reverse) {
  const int64_t n = int64_t(v.size());
  std::vector<std::optional<int64_t>> out(static_cast<size_t>(n));
  std::optional<int64_t> acc;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t r = reverse ? n - 1 - k : k;
    const int64_t prev = reverse ? r + 1 : r - 1;
    if (k > 0 && seg && (*seg)[size_t(r)] != (*seg)[size_t(prev)]) acc.reset();
    if (!valid[size_t(r)]) continue;
    const int64_t x = v[size_t(r)];
    if (!acc) acc = x;
    else if (op == ScanOp::Sum) acc = int64_t(uint64_t(*acc) + uint64_t(x));
    else if (op == ScanOp::Min) acc = std::min(*acc, x);
    else acc = std::max(*acc, x);
    out[size_t(r)] = acc;
  }
  return out;
}

}  // namespace

TEST(window, segmented_scans_match_reference) {
  for (int64_t n : {int64_t(1), int64_t(7), int64_t(64), int64_t(1000), int64_t(300007)}) {
    Rng rng(uint64_t(n) * 3 + 1);
    std::vector<int64_t> v(static_cast<size_t>(n) + 5);
    for (auto& x : v) x = int64_t(rng.next() % 2001) - 1000;
    std::vector<bool> valid = make_flags(Pattern::Random, n + 5, uint64_t(n));
    ColumnPtr all = on_test_device(host_column<int64_t>(TypeId::Int64, v, valid));
    ColumnPtr col = all->slice(5, n);  // a view at an offset
    std::vector<int64_t> vs(v.begin() + 5, v.end());
    std::vector<bool> vv(valid.begin() + 5, valid.end());
    for (int64_t run : {int64_t(0), int64_t(3), int64_t(5000)}) {
      std::vector<int32_t> seg = run ? segments_of(n, uint64_t(n + run), run) : std::vector<int32_t>{};
      ColumnPtr segc = run ? on_test_device(host_column<int32_t>(TypeId::Int32, seg)) : nullptr;
      for (ScanOp op : {ScanOp::Sum, ScanOp::Min, ScanOp::Max}) {
        for (bool reverse : {false, true}) {
          SCOPED_TRACE("n=" + std::to_string(n) + " run=" + std::to_string(run) + " op=" + std::to_string(int(op)) +
                       " reverse=" + std::to_string(reverse));
          ColumnPtr got = scan(col, op, reverse, segc);
          EXPECT_EQ(read_values<int64_t>(got), naive_scan(vs, vv, run ? &seg : nullptr, op, reverse));
        }
      }
    }
  }
}

TEST(window, shift_rows_stay_in_segment) {
  const int64_t n = 1003;
  std::vector<int32_t> seg = segments_of(n, 9, 6);
  ColumnPtr segc = on_test_device(host_column<int32_t>(TypeId::Int32, seg));
  for (int64_t k : {int64_t(-3), int64_t(-1), int64_t(0), int64_t(1), int64_t(2), int64_t(2000)}) {
    ColumnPtr got = shift_rows(test_device(), n, k, segc);
    std::vector<std::optional<int64_t>> want(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = i - k;
      want[size_t(i)] = (j >= 0 && j < n && seg[size_t(j)] == seg[size_t(i)]) ? j : -1;
    }
    EXPECT_EQ(read_values<int64_t>(got), want);
  }
}

TEST(window, rank_methods_match_reference) {
  const int64_t n = 2001;
  Rng rng(4);
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = int32_t(rng.next() % 40);
  std::vector<bool> valid = make_flags(Pattern::Random, n, 8);
  std::vector<int32_t> seg = segments_of(n, 5, 50);
  ColumnPtr col = on_test_device(host_column<int32_t>(TypeId::Int32, v, valid));
  ColumnPtr segc = on_test_device(host_column<int32_t>(TypeId::Int32, seg));
  for (RankMethod m : {RankMethod::Min, RankMethod::Max, RankMethod::Dense, RankMethod::Ordinal, RankMethod::Average}) {
    for (bool desc : {false, true}) {
      SCOPED_TRACE("method=" + std::to_string(int(m)) + " desc=" + std::to_string(desc));
      ColumnPtr got = rank(col, m, desc, segc);
      std::vector<std::optional<double>> want(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        if (!valid[size_t(i)]) continue;
        int64_t less = 0, equal = 0, equal_before = 0;
        std::vector<int32_t> distinct_less;
        for (int64_t j = 0; j < n; ++j) {
          if (seg[size_t(j)] != seg[size_t(i)] || !valid[size_t(j)]) continue;
          const bool before = desc ? v[size_t(j)] > v[size_t(i)] : v[size_t(j)] < v[size_t(i)];
          if (before) {
            ++less;
            if (std::find(distinct_less.begin(), distinct_less.end(), v[size_t(j)]) == distinct_less.end())
              distinct_less.push_back(v[size_t(j)]);
          } else if (v[size_t(j)] == v[size_t(i)]) {
            ++equal;
            if (j < i) ++equal_before;
          }
        }
        double r = 0;
        switch (m) {
          case RankMethod::Min: r = double(less + 1); break;
          case RankMethod::Max: r = double(less + equal); break;
          case RankMethod::Dense: r = double(distinct_less.size() + 1); break;
          case RankMethod::Ordinal: r = double(less + equal_before + 1); break;
          case RankMethod::Average: r = double(2 * less + equal + 1) / 2; break;
        }
        want[size_t(i)] = r;
      }
      std::vector<std::optional<double>> have(static_cast<size_t>(n));
      if (m == RankMethod::Average) {
        have = read_values<double>(got);
      } else {
        auto u = read_values<uint32_t>(got);
        for (int64_t i = 0; i < n; ++i)
          if (u[size_t(i)]) have[size_t(i)] = double(*u[size_t(i)]);
      }
      EXPECT_EQ(have, want);
    }
  }
}

TEST(window, dtype_rules) {
  EXPECT_EQ(cum_sum_type(TypeId::Int8), TypeId::Int64);
  EXPECT_EQ(cum_sum_type(TypeId::Int32), TypeId::Int32);
  EXPECT_EQ(cum_sum_type(TypeId::Bool), TypeId::UInt32);
  EXPECT_EQ(cum_prod_type(TypeId::UInt32), TypeId::Int64);
  EXPECT_EQ(diff_type(TypeId::UInt16), TypeId::Int32);
  EXPECT_THROW_CODE(cum_sum_type(TypeId::Utf8), gpudf::ErrorCode::Dtype);
}

TEST(window, row_index_on_the_device) {
  for (TypeId t : {TypeId::UInt32, TypeId::Int64}) {
    for (int64_t n : {int64_t(0), int64_t(1), int64_t(1000)}) {
      ColumnPtr c = row_index(test_device(), n, 7, t);
      EXPECT_EQ(c->size(), n);
      EXPECT_TRUE(!c->has_validity());
      ColumnPtr h = to_host(c);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t v = t == TypeId::UInt32 ? int64_t(h->view().values<uint32_t>()[i]) : h->view().values<int64_t>()[i];
        if (v != i + 7) {
          EXPECT_EQ(v, i + 7);
          break;
        }
      }
    }
  }
}
