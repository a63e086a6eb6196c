// ops/groupby group_top_rows: exact rows on a small float case (NaN, -0.0, nulls, dropped rows),
// then every dtype, null pattern, sliced input and n against a naive reference (a stable sort of
// each group's rows), through the public function, the CPU candidate pass and the composed
// (sorted) path, over sizes with one and several thread ranges; argument errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "ops/groupby/group_top.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

/// Ascending three-way comparison of two non-null rows of a host column under the sort's rules
/// (NaN above +inf and equal to NaN, -0.0 equal to 0.0, strings byte-wise), written apart from
/// the order keys the op uses.
int compare_rows(const ColumnView& v, int64_t a, int64_t b) {
  auto three = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (v.type) {
    case TypeId::Float32:
    case TypeId::Float64: {
      const double x = v.type == TypeId::Float32 ? double(v.values<float>()[a]) : v.values<double>()[a];
      const double y = v.type == TypeId::Float32 ? double(v.values<float>()[b]) : v.values<double>()[b];
      if (std::isnan(x) || std::isnan(y)) return three(int(std::isnan(x)), int(std::isnan(y)));
      return three(x, y);
    }
    case TypeId::Utf8:
    case TypeId::LargeUtf8: {
      auto text = [&](int64_t i) {
        const int64_t b0 = offset_width(v.type) == 4 ? v.string_offsets<int32_t>()[i] : v.string_offsets<int64_t>()[i];
        const int64_t e0 = offset_width(v.type) == 4 ? v.string_offsets<int32_t>()[i + 1] : v.string_offsets<int64_t>()[i + 1];
        return std::string(reinterpret_cast<const char*>(v.data) + b0, size_t(e0 - b0));
      };
      return three(text(a), text(b));  // char_traits<char> compares as unsigned char
    }
    case TypeId::UInt8:
    case TypeId::Bool: return three(v.values<uint8_t>()[a], v.values<uint8_t>()[b]);
    case TypeId::UInt16: return three(v.values<uint16_t>()[a], v.values<uint16_t>()[b]);
    case TypeId::UInt32: return three(v.values<uint32_t>()[a], v.values<uint32_t>()[b]);
    case TypeId::UInt64: return three(v.values<uint64_t>()[a], v.values<uint64_t>()[b]);
    case TypeId::Int8: return three(v.values<int8_t>()[a], v.values<int8_t>()[b]);
    case TypeId::Int16: return three(v.values<int16_t>()[a], v.values<int16_t>()[b]);
    case TypeId::Int32:
    case TypeId::Date32: return three(v.values<int32_t>()[a], v.values<int32_t>()[b]);
    default: return three(v.values<int64_t>()[a], v.values<int64_t>()[b]);
  }
}

/// Each group's rows stably sorted (nulls last, ties in row order), first n, groups ascending.
std::vector<std::optional<int64_t>> reference(const std::vector<int32_t>& ids, int64_t count, const ColumnPtr& by,
                                              int64_t n, bool largest) {
  ColumnPtr h = to_host(by);
  const ColumnView v = h->view();
  std::vector<std::vector<int64_t>> rows(static_cast<size_t>(count));
  for (int64_t i = 0; i < int64_t(ids.size()); ++i)
    if (ids[size_t(i)] >= 0) rows[size_t(ids[size_t(i)])].push_back(i);
  std::vector<std::optional<int64_t>> out;
  for (auto& r : rows) {
    std::stable_sort(r.begin(), r.end(), [&](int64_t a, int64_t b) {
      if (v.is_valid(a) != v.is_valid(b)) return v.is_valid(a);
      if (!v.is_valid(a)) return false;
      const int c = compare_rows(v, a, b);
      return largest ? c > 0 : c < 0;
    });
    for (size_t k = 0; k < std::min(r.size(), size_t(n)); ++k) out.push_back(r[k]);
  }
  return out;
}

/// n values of `type` (sliced by `offset`, with duplicates from `distinct` draws and the
/// extremes of the type), nulls by pattern, on the test device.
ColumnPtr values_of(TypeId type, int64_t n, int64_t distinct, Pattern p, uint64_t seed, int64_t offset) {
  Rng rng(seed);
  const int64_t total = n + offset;
  std::vector<int64_t> draw(static_cast<size_t>(total));
  for (auto& d : draw) d = int64_t(rng.next() % uint64_t(distinct)) - distinct / 2;
  const std::vector<bool> valid = make_flags(p, total, seed + 1);
  auto fixed = [&](auto zero, auto make) {
    std::vector<decltype(zero)> v(static_cast<size_t>(total));
    for (int64_t i = 0; i < total; ++i) v[size_t(i)] = make(draw[size_t(i)], i);
    return on_test_device(host_column(type, v, valid))->slice(offset, n);
  };
  switch (type) {
    case TypeId::Bool: return fixed(uint8_t{}, [](int64_t d, int64_t) { return uint8_t(d & 1); });
    case TypeId::Int8: return fixed(int8_t{}, [](int64_t d, int64_t) { return int8_t(d); });
    case TypeId::UInt16: return fixed(uint16_t{}, [](int64_t d, int64_t) { return uint16_t(d); });
    case TypeId::Int32:
    case TypeId::Date32:
      return fixed(int32_t{}, [](int64_t d, int64_t i) { return i % 97 == 5 ? INT32_MIN : int32_t(d); });
    case TypeId::UInt64:
      return fixed(uint64_t{}, [](int64_t d, int64_t i) { return i % 89 == 3 ? UINT64_MAX : uint64_t(d) * 1000003u; });
    case TypeId::Float32: {
      const float pool[] = {0.0f, -0.0f, float(kNaN), -float(kNaN), float(kInf), -float(kInf)};
      return fixed(float{}, [&](int64_t d, int64_t i) { return i % 7 == 0 ? pool[size_t(d & 0xff) % 6] : float(d) / 4; });
    }
    case TypeId::Float64: {
      const double pool[] = {0.0, -0.0, kNaN, -kNaN, kInf, -kInf};
      return fixed(double{}, [&](int64_t d, int64_t i) { return i % 5 == 0 ? pool[size_t(d & 0xff) % 6] : double(d) / 8; });
    }
    case TypeId::Utf8:
    case TypeId::LargeUtf8: {
      std::vector<std::optional<std::string>> s(static_cast<size_t>(total));
      for (int64_t i = 0; i < total; ++i)
        if (valid[size_t(i)]) s[size_t(i)] = (draw[size_t(i)] % 3 == 0 ? "é" : "id") + std::to_string(draw[size_t(i)]);
      return on_test_device(host_strings(type, s))->slice(offset, n);
    }
    default:  // int64 and the timestamps
      return fixed(int64_t{}, [](int64_t d, int64_t i) { return i % 101 == 7 ? INT64_MIN : i % 103 == 8 ? INT64_MAX : d * 1000003; });
  }
}

/// Group ids in [-1, count) drawn at random (some groups may be empty).
std::vector<int32_t> random_ids(int64_t n, int64_t count, uint64_t seed) {
  Rng rng(seed);
  std::vector<int32_t> ids(static_cast<size_t>(n));
  for (auto& g : ids) g = int32_t(int64_t(rng.next() % uint64_t(count + 1)) - 1);
  return ids;
}

TEST(group_top, exact_float_rows) {
  // Group 0: 1.0, NaN, -0.0, 0.0, null; group 1: null, 5; group 2: 3; row 8 dropped (-1).
  ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, {0, 1, 0, 0, 1, 0, 0, 2, -1}));
  ColumnPtr by = on_test_device(host_column<double>(TypeId::Float64, {1.0, 0, kNaN, -0.0, 5, 0.0, 0, 3, 99},
                                                    {true, false, true, true, true, true, false, true, true}));
  using R = std::vector<std::optional<int64_t>>;
  EXPECT_EQ(read_values<int64_t>(group_top_rows(ids->view(), 3, by->view(), 3, true)), (R{2, 0, 3, 4, 1, 7}));
  EXPECT_EQ(read_values<int64_t>(group_top_rows(ids->view(), 3, by->view(), 3, false)), (R{3, 5, 0, 4, 1, 7}));
  EXPECT_EQ(read_values<int64_t>(group_top_rows(ids->view(), 3, by->view(), 9, false)), (R{3, 5, 0, 2, 6, 4, 1, 7}));
  EXPECT_EQ(read_values<int64_t>(gpudf::detail::group_top_rows_sorted(ids->view(), 3, by->view(), 3, true)), (R{2, 0, 3, 4, 1, 7}));
  EXPECT_EQ(group_top_rows(ids->view(), 3, by->view(), 0, true)->size(), int64_t(0));
  EXPECT_EQ(group_top_rows(ids->view(), 0, by->view(), 2, true)->size(), int64_t(0));
  // Keys that equal a null's order key: NaN ascending (float64), INT64_MIN descending.
  ColumnPtr one = on_test_device(host_column<int32_t>(TypeId::Int32, {0, 0, 0}));
  ColumnPtr nan = on_test_device(host_column<double>(TypeId::Float64, {0, kNaN, 1}, {false, true, true}));
  EXPECT_EQ(read_values<int64_t>(group_top_rows(one->view(), 1, nan->view(), 3, false)), (R{2, 1, 0}));
  ColumnPtr lo = on_test_device(host_column<int64_t>(TypeId::Int64, {0, INT64_MIN, 1}, {false, true, true}));
  EXPECT_EQ(read_values<int64_t>(group_top_rows(one->view(), 1, lo->view(), 3, true)), (R{2, 1, 0}));
}

TEST(group_top, every_dtype_against_a_stable_sort) {
  const TypeId types[] = {TypeId::Bool,    TypeId::Int8,    TypeId::UInt16, TypeId::Int32,     TypeId::Date32,
                          TypeId::Int64,   TypeId::UInt64,  TypeId::Float32, TypeId::Float64, TypeId::TimestampMs,
                          TypeId::Utf8,    TypeId::LargeUtf8};
  for (int64_t rows : {int64_t(0), int64_t(1), int64_t(77), int64_t(5000)})
    for (TypeId type : types)
      for (Pattern p : {Pattern::AllValid, Pattern::Random, Pattern::AllNull}) {
        const int64_t count = rows == 0 ? 0 : rows / 7 + 1;
        const std::vector<int32_t> ids_host = random_ids(rows, count, uint64_t(rows) + 3);
        ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, ids_host));
        ColumnPtr by = values_of(type, rows, 40, p, uint64_t(rows) * 31 + uint64_t(type), 3);
        for (int64_t n : {int64_t(1), int64_t(2), int64_t(5), int64_t(17)})
          for (bool largest : {false, true}) {
            SCOPED_TRACE(std::string(type_name(type)) + " " + pattern_name(p) + " rows=" + std::to_string(rows) +
                         " n=" + std::to_string(n) + " largest=" + std::to_string(largest));
            const auto want = reference(ids_host, count, by, n, largest);
            EXPECT_EQ(read_values<int64_t>(group_top_rows(ids->view(), count, by->view(), n, largest)), want);
            EXPECT_EQ(read_values<int64_t>(gpudf::detail::group_top_rows_sorted(ids->view(), count, by->view(), n, largest)), want);
            if (!on_cuda(ids->view()) && gpudf::detail::top_candidates_fit(by->view(), rows, count, n, gpudf::detail::kTopCandidateBytes))
              EXPECT_EQ(read_values<int64_t>(gpudf::detail::group_top_rows_cpu(ids->view(), count, by->view(), n, largest)), want);
          }
      }
}

TEST(group_top, several_ranges_few_and_many_groups) {
  // Over 2 blocks of rows, so each pool thread keeps its own candidates and they are merged.
  const int64_t rows = 300007;
  for (int64_t count : {int64_t(3), int64_t(20000)})
    for (TypeId type : {TypeId::Float64, TypeId::Int32, TypeId::Utf8}) {
      const std::vector<int32_t> ids_host = random_ids(rows, count, uint64_t(count));
      ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, ids_host));
      ColumnPtr by = values_of(type, rows, 500, Pattern::Random, 11, 0);
      for (int64_t n : {int64_t(2), int64_t(16)})
        for (bool largest : {false, true}) {
          SCOPED_TRACE(std::string(type_name(type)) + " count=" + std::to_string(count) + " n=" + std::to_string(n));
          const auto want = reference(ids_host, count, by, n, largest);
          EXPECT_EQ(read_values<int64_t>(group_top_rows(ids->view(), count, by->view(), n, largest)), want);
          if (!on_cuda(ids->view()) && type != TypeId::Utf8)
            EXPECT_EQ(read_values<int64_t>(gpudf::detail::group_top_rows_cpu(ids->view(), count, by->view(), n, largest)), want);
        }
    }
}

TEST(group_top, path_choice) {
  ColumnPtr f = host_column<double>(TypeId::Float64, {1, 2, 3});
  ColumnPtr s = host_strings(TypeId::Utf8, {"a", "b", "c"});
  EXPECT_TRUE(gpudf::detail::top_candidates_fit(f->view(), 3, 3, 2, gpudf::detail::kTopCandidateBytes));
  EXPECT_FALSE(gpudf::detail::top_candidates_fit(f->view(), 3, 3, 2, 16));  // over the budget: sorted
  EXPECT_FALSE(gpudf::detail::top_candidates_fit(f->view(), 3, 3, gpudf::detail::kMaxTopCandidates + 1, gpudf::detail::kTopCandidateBytes));
  EXPECT_FALSE(gpudf::detail::top_candidates_fit(f->view(), 3, 3, 0, gpudf::detail::kTopCandidateBytes));
  EXPECT_FALSE(gpudf::detail::top_candidates_fit(s->view(), 3, 3, 2, gpudf::detail::kTopCandidateBytes));
}

TEST(group_top, argument_errors) {
  ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, {0, 1, 0}));
  ColumnPtr by = on_test_device(host_column<double>(TypeId::Float64, {1, 2, 3}));
  ColumnPtr short_by = on_test_device(host_column<double>(TypeId::Float64, {1, 2}));
  ColumnPtr float_ids = on_test_device(host_column<double>(TypeId::Float64, {0, 1, 0}));
  EXPECT_THROW_CODE(group_top_rows(ids->view(), 2, by->view(), -1, true), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_top_rows(ids->view(), 2, short_by->view(), 1, true), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_top_rows(float_ids->view(), 2, by->view(), 1, true), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_top_rows(ids->view(), 4, by->view(), 1, true), ErrorCode::InvalidArgument);
  if (on_cuda(ids->view())) {
    ColumnPtr host_by = host_column<double>(TypeId::Float64, {1, 2, 3});
    EXPECT_THROW_CODE(group_top_rows(ids->view(), 2, host_by->view(), 1, true), ErrorCode::InvalidArgument);
  }
}

}  // namespace
