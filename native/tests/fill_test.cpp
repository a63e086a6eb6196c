// ops/nulls/fill: fill sources (forward/backward, limits), directional fill, interpolate and the
// pivot scatter on the test device against naive references, over edge lengths, null patterns
// and slices (so a CUDA run covers the Thrust scans and the kernels).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "ops/nulls/fill.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

std::vector<int64_t> ref_sources(const std::vector<bool>& valid, bool backward, int64_t limit) {
  const int64_t n = int64_t(valid.size());
  std::vector<int64_t> out(std::size_t(n), -1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t src = -1;
    if (!backward) {
      for (int64_t j = i; j >= 0; --j) if (valid[std::size_t(j)]) { src = j; break; }
    } else {
      for (int64_t j = i; j < n; ++j) if (valid[std::size_t(j)]) { src = j; break; }
    }
    if (src >= 0 && limit >= 0 && (src > i ? src - i : i - src) > limit) src = -1;
    out[std::size_t(i)] = src;
  }
  return out;
}

}  // namespace

TEST(fill, sources_match_reference_for_patterns_lengths_and_limits) {
  for (Pattern p : kPatterns) {
    for (int64_t len : {1, 7, 64, 65, 3001}) {
      std::vector<bool> valid = make_flags(p, len, uint64_t(len) * 3 + 1);
      std::vector<int32_t> values(static_cast<std::size_t>(len));
      for (int64_t i = 0; i < len; ++i) values[std::size_t(i)] = int32_t(i * 7 - 11);
      ColumnPtr c = on_test_device(host_column(TypeId::Int32, values, valid));
      for (bool backward : {false, true}) {
        for (int64_t limit : {int64_t(-1), int64_t(0), int64_t(2)}) {
          SCOPED_TRACE(std::string(pattern_name(p)) + " len=" + std::to_string(len) + " backward=" +
                       std::to_string(backward) + " limit=" + std::to_string(limit));
          std::vector<int64_t> want = ref_sources(valid, backward, limit);
          auto got = read_values<int64_t>(fill_source_rows(c->view(), backward, limit));
          for (int64_t i = 0; i < len; ++i) ASSERT_EQ(*got[std::size_t(i)], want[std::size_t(i)]);
          auto filled = read_values<int32_t>(fill_directional(c, backward, limit));
          for (int64_t i = 0; i < len; ++i) {
            const int64_t s = want[std::size_t(i)];
            if (s < 0) EXPECT_FALSE(filled[std::size_t(i)].has_value());
            else EXPECT_EQ(filled[std::size_t(i)], values[std::size_t(s)]);
          }
        }
      }
    }
  }
}

TEST(fill, sliced_strings_fill_from_their_own_rows) {
  ColumnPtr c = on_test_device(host_strings(TypeId::Utf8, {"a", std::nullopt, "b", std::nullopt, std::nullopt, "c"}));
  ColumnPtr s = c->slice(1, 4);  // null, b, null, null
  auto fwd = read_strings(fill_directional(s, false, -1));
  EXPECT_EQ(fwd, (std::vector<std::optional<std::string>>{std::nullopt, "b", "b", "b"}));
  auto bwd = read_strings(fill_directional(s, true, -1));
  EXPECT_EQ(bwd, (std::vector<std::optional<std::string>>{"b", "b", std::nullopt, std::nullopt}));
}

TEST(fill, interpolate_is_linear_between_values_and_keeps_ends_null) {
  const int64_t len = 2049;
  std::vector<bool> valid = make_flags(Pattern::Random, len, 9);
  std::vector<int64_t> values(static_cast<std::size_t>(len));
  for (int64_t i = 0; i < len; ++i) values[std::size_t(i)] = (i * 37) % 101 - 50;
  ColumnPtr c = on_test_device(host_column(TypeId::Int64, values, valid));
  ColumnPtr out = interpolate(c);
  ASSERT_EQ(out->type(), TypeId::Float64);
  auto got = read_values<double>(out);
  std::vector<int64_t> prev = ref_sources(valid, false, -1), next = ref_sources(valid, true, -1);
  for (int64_t i = 0; i < len; ++i) {
    const int64_t p = prev[std::size_t(i)], q = next[std::size_t(i)];
    if (p < 0 || q < 0) {
      EXPECT_FALSE(got[std::size_t(i)].has_value());
      continue;
    }
    const double a = double(values[std::size_t(p)]), b = double(values[std::size_t(q)]);
    const double want = p == q ? a : a + (b - a) * double(i - p) / double(q - p);
    ASSERT_TRUE(got[std::size_t(i)].has_value());
    EXPECT_TRUE(std::abs(*got[std::size_t(i)] - want) <= 1e-12 * (1 + std::abs(want)));
  }
  ColumnPtr f32 = on_test_device(host_column(TypeId::Float32, std::vector<float>{1.f, 0.f, 3.f}, {true, false, true}));
  ColumnPtr fo = interpolate(f32);
  EXPECT_EQ(fo->type(), TypeId::Float32);
  EXPECT_EQ(read_values<float>(fo)[1], 2.f);
  EXPECT_THROW_CODE(interpolate(on_test_device(host_strings(TypeId::Utf8, {"x"}))), ErrorCode::Dtype);
}

TEST(fill, scatter_cells_places_each_cell_and_leaves_gaps) {
  // 3 rows x 2 cols; cells (r, c): (0,0) (2,1) (1,0) (0,1)
  ColumnPtr r = on_test_device(host_column(TypeId::Int32, std::vector<int32_t>{0, 2, 1, 0}));
  ColumnPtr c = on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{0, 1, 0, 1}));
  auto grid = read_values<int64_t>(scatter_cells(r->view(), c->view(), 3, 2));
  std::vector<int64_t> want{0, 2, -1, 3, -1, 1};
  ASSERT_EQ(grid.size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k) EXPECT_EQ(*grid[k], want[k]);
}
