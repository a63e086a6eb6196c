// ops/groupby group_mode: exact values on a small case (ties to the smallest, a null mode, null
// tied with a value, rows of id -1 ignored, strings), then random int32 values with nulls against
// a naive reference over sizes with one and several thread ranges; argument errors.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ops/groupby/groupby.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

/// The smallest most frequent value of each group, null a value that loses ties.
std::vector<std::optional<int32_t>> reference(const std::vector<int32_t>& ids, const std::vector<std::optional<int32_t>>& v,
                                              int32_t groups) {
  std::vector<std::map<std::optional<int32_t>, int64_t>> counts(static_cast<size_t>(groups));
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] >= 0) ++counts[size_t(ids[i])][v[i]];
  std::vector<std::optional<int32_t>> out;
  for (const auto& m : counts) {
    std::optional<int32_t> best;
    int64_t most = 0;
    bool null_best = false;
    for (const auto& [value, c] : m) {
      if (c > most || (c == most && null_best && value)) {
        most = c;
        best = value;
        null_best = !value;
      }
    }
    out.push_back(null_best ? std::nullopt : best);
  }
  return out;
}

}  // namespace

TEST(group_mode, exact_small_cases) {
  const std::vector<int32_t> ids = {0, 0, 0, 1, 1, 2, 2, 2, -1, -1, 3, 3};
  ColumnPtr id = on_test_device(host_column(TypeId::Int32, ids));
  ColumnPtr v = on_test_device(host_column<int64_t>(TypeId::Int64, {5, 3, 5, 8, 7, 0, 0, 2, 9, 9, 4, 0},
                                                    {true, true, true, true, true, false, false, true, true, true, true, false}));
  EXPECT_EQ(read_values<int64_t>(group_mode(v->view(), id->view(), 4)),
            (std::vector<std::optional<int64_t>>{5, 7, std::nullopt, 4}));
  ColumnPtr s = on_test_device(host_strings(TypeId::Utf8, {"b", "a", "a", "z", "y", std::nullopt, "q", "q", "w", "w", std::nullopt, "c"}));
  EXPECT_EQ(read_strings(group_mode(s->view(), id->view(), 4)),
            (std::vector<std::optional<std::string>>{"a", "y", "q", "c"}));
}

TEST(group_mode, random_values_match_reference) {
  Rng rng(41);
  for (int64_t n : {int64_t(1), int64_t(77), int64_t(20000)}) {
    const int32_t groups = int32_t(n / 10 + 1);
    const size_t rows = static_cast<size_t>(n);
    std::vector<int32_t> ids(rows), values(rows);
    std::vector<bool> valid(rows);
    std::vector<std::optional<int32_t>> opt(rows);
    for (int64_t i = 0; i < n; ++i) {
      ids[size_t(i)] = rng.next() % 13 == 0 ? -1 : int32_t(rng.next() % uint64_t(groups));
      values[size_t(i)] = int32_t(rng.next() % 6) - 2;
      valid[size_t(i)] = rng.next() % 5 != 0;
      if (valid[size_t(i)]) opt[size_t(i)] = values[size_t(i)];
    }
    // Every group gets a row (groups come from group_rows, which makes no empty ones).
    for (int32_t g = 0; g < groups && g < n; ++g) ids[size_t(g)] = g;
    const int32_t used = int32_t(std::min<int64_t>(groups, n));
    ColumnPtr got = group_mode(on_test_device(host_column(TypeId::Int32, values, valid))->view(),
                               on_test_device(host_column(TypeId::Int32, ids))->view(), used);
    EXPECT_EQ(read_values<int32_t>(got), reference(ids, opt, used));
  }
}

TEST(group_mode, argument_errors) {
  ColumnPtr id = on_test_device(host_column<int32_t>(TypeId::Int32, {0, 0}));
  ColumnPtr v = on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2, 3}));
  EXPECT_THROW_CODE(group_mode(v->view(), id->view(), 1), ErrorCode::InvalidArgument);
}
