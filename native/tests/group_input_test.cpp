// ops/groupby/group_input (choose_rows) on the test device, then group_aggregate over the chosen
// rows, against per-group references computed with plain loops over the host data.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "ops/groupby/group_input.hpp"
#include "ops/groupby/groupby.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

struct Data {
  std::vector<int64_t> v, t, ids;
  std::vector<bool> v_valid, t_valid, ok_valid;
  std::vector<uint8_t> ok;
};

Data make(int64_t n, int64_t groups, uint64_t seed) {
  Rng rng(seed);
  Data d;
  for (int64_t i = 0; i < n; ++i) {
    d.v.push_back(int64_t(rng.next() % 1000) - 500);
    d.t.push_back(int64_t(rng.next() % 50));  // ties: the sort must be stable
    d.ids.push_back(int64_t(rng.next() % uint64_t(std::max<int64_t>(groups, 1))));
    d.v_valid.push_back(rng.coin(90));
    d.t_valid.push_back(rng.coin(90));
    d.ok.push_back(rng.coin(40) ? 1 : 0);
    d.ok_valid.push_back(rng.coin(85));
  }
  return d;
}

ColumnPtr ints(const std::vector<int64_t>& v, const std::vector<bool>& valid = {}) {
  return on_test_device(host_column<int64_t>(TypeId::Int64, v, valid));
}

std::vector<int32_t> as_ids(const std::vector<int64_t>& ids) { return {ids.begin(), ids.end()}; }

}  // namespace

TEST(group_input, filter_sum_len_first_per_group) {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(33), int64_t(1000), int64_t(70001)}) {
    const int64_t groups = std::min<int64_t>(7, n);  // group_aggregate wants count <= rows
    const Data d = make(n, groups, uint64_t(n) + 11);
    const ColumnPtr v = ints(d.v, d.v_valid);
    const ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, as_ids(d.ids)));
    const ColumnPtr ok = on_test_device(host_column<uint8_t>(TypeId::Bool, d.ok, d.ok_valid));
    const ChosenRows chosen = choose_rows(RowChoice::Filter, v, ids, {ok}, {}, {});
    const ColumnPtr sum = group_aggregate(chosen.values->view(), chosen.ids->view(), groups, ReduceKind::Sum, {});
    const ColumnPtr len = group_aggregate(chosen.ids->view(), chosen.ids->view(), groups, ReduceKind::Len, {});
    const ColumnPtr first = group_aggregate(chosen.values->view(), chosen.ids->view(), groups, ReduceKind::First, {});
    // Ungrouped: the chosen values compacted, in row order.
    const ColumnPtr whole = choose_rows(RowChoice::Filter, v, nullptr, {ok}, {}, {}).values;
    std::vector<std::optional<int64_t>> want_whole;
    std::vector<std::optional<int64_t>> want_sum(size_t(groups), int64_t(0)), want_len(size_t(groups), int64_t(0)), want_first(static_cast<size_t>(groups));
    std::vector<bool> seen(size_t(groups), false);
    for (int64_t i = 0; i < n; ++i) {
      if (!d.ok_valid[size_t(i)] || !d.ok[size_t(i)]) continue;  // null counts as false
      want_whole.push_back(d.v_valid[size_t(i)] ? std::optional<int64_t>(d.v[size_t(i)]) : std::nullopt);
      const size_t g = size_t(d.ids[size_t(i)]);
      *want_len[g] += 1;
      if (d.v_valid[size_t(i)]) *want_sum[g] += d.v[size_t(i)];
      if (!seen[g]) want_first[g] = d.v_valid[size_t(i)] ? std::optional<int64_t>(d.v[size_t(i)]) : std::nullopt;
      seen[g] = true;
    }
    EXPECT_EQ(read_values<int64_t>(sum), want_sum);  // a group with no chosen row sums to 0
    EXPECT_EQ(read_values<int64_t>(len), want_len);
    EXPECT_EQ(read_values<int64_t>(first), want_first);
    EXPECT_EQ(read_values<int64_t>(whole), want_whole);
  }
}

TEST(group_input, sort_by_last_and_first_per_group) {
  for (int64_t n : {int64_t(1), int64_t(64), int64_t(5000), int64_t(100003)}) {
    for (bool descending : {false, true}) {
      const int64_t groups = std::min<int64_t>(13, n);
      const Data d = make(n, groups, uint64_t(n) * 3 + (descending ? 1 : 0));
      const ColumnPtr v = ints(d.v, d.v_valid);
      const ColumnPtr t = ints(d.t, d.t_valid);
      const ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, as_ids(d.ids)));
      const ChosenRows chosen = choose_rows(RowChoice::SortBy, v, ids, {t}, {descending}, {true});
      const ColumnPtr last = group_aggregate(chosen.values->view(), chosen.ids->view(), groups, ReduceKind::Last, {});
      const ColumnPtr first = group_aggregate(chosen.values->view(), chosen.ids->view(), groups, ReduceKind::First, {});
      // Reference: the stable order by t (nulls last), per group.
      std::vector<int64_t> order(static_cast<size_t>(n));
      std::iota(order.begin(), order.end(), int64_t(0));
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        const bool va = d.t_valid[size_t(a)], vb = d.t_valid[size_t(b)];
        if (va != vb) return va;  // valid before null
        if (!va) return false;
        return descending ? d.t[size_t(a)] > d.t[size_t(b)] : d.t[size_t(a)] < d.t[size_t(b)];
      });
      std::vector<std::optional<int64_t>> want_first(static_cast<size_t>(groups)), want_last(static_cast<size_t>(groups));
      std::vector<bool> seen(size_t(groups), false);
      for (int64_t i : order) {
        const size_t g = size_t(d.ids[size_t(i)]);
        const std::optional<int64_t> x = d.v_valid[size_t(i)] ? std::optional<int64_t>(d.v[size_t(i)]) : std::nullopt;
        if (!seen[g]) want_first[g] = x;
        want_last[g] = x;
        seen[g] = true;
      }
      EXPECT_EQ(read_values<int64_t>(first), want_first);
      EXPECT_EQ(read_values<int64_t>(last), want_last);
    }
  }
}

TEST(group_input, errors) {
  const ColumnPtr v = ints({1, 2, 3});
  EXPECT_THROW_CODE(choose_rows(RowChoice::Filter, v, nullptr, {ints({1, 0, 1})}, {}, {}), ErrorCode::Dtype);
  EXPECT_THROW_CODE(choose_rows(RowChoice::Filter, v, nullptr, {ints({1, 0})}, {}, {}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(choose_rows(RowChoice::SortBy, v, nullptr, {ints({1, 0, 2})}, {}, {}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(choose_rows(RowChoice::SortBy, v, ints({0, 0}), {ints({1, 0, 2})}, {false}, {true}), ErrorCode::InvalidArgument);
}
