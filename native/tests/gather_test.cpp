// ops/gather, ops/concat, ops/sample on the test device, against references computed with plain
// loops over the host data.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ops/concat/concat.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sample/sample.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

ColumnPtr index_column(const std::vector<int64_t>& idx) {
  return on_test_device(host_column<int64_t>(TypeId::Int64, idx));
}

template <typename T>
std::vector<std::optional<T>> pick(const std::vector<std::optional<T>>& v, const std::vector<int64_t>& idx) {
  std::vector<std::optional<T>> out;
  for (int64_t i : idx) out.push_back(v[size_t(i)]);
  return out;
}

std::vector<std::optional<std::string>> some_strings(int64_t n, uint64_t seed) {
  static const char* pool[] = {"", "a", "héllo", "日本語", "🦀", "zz", "a longer string of more than 32 bytes ✓"};
  Rng rng(seed);
  std::vector<std::optional<std::string>> out;
  for (int64_t i = 0; i < n; ++i) {
    if (rng.coin(20)) out.push_back(std::nullopt);
    else out.push_back(std::string(pool[rng.next() % 7]) + std::to_string(i % 5));
  }
  return out;
}

}  // namespace

TEST(gather, fixed_width_every_width_with_nulls_and_slices) {
  for (int64_t len : {1, 31, 32, 33, 64, 65, 100003}) {
    for (int64_t offset : {0, 3}) {
      SCOPED_TRACE("len=" + std::to_string(len) + " offset=" + std::to_string(offset));
      const int64_t rows = len + offset;
      Rng rng{uint64_t(len)};
      std::vector<int64_t> v64(static_cast<size_t>(rows));
      for (auto& x : v64) x = int64_t(rng.next());
      std::vector<int32_t> v32(v64.begin(), v64.end());
      std::vector<int16_t> v16(v64.begin(), v64.end());
      std::vector<uint8_t> v8(v64.begin(), v64.end());
      std::vector<bool> valid = make_flags(Pattern::Random, rows, uint64_t(len) + 1);
      std::vector<int64_t> idx;
      for (int64_t i = 0; i < len * 2; ++i) idx.push_back(int64_t(rng.next() % uint64_t(len)));
      ColumnPtr ic = index_column(idx);
      std::vector<int64_t> shifted;
      for (int64_t i : idx) shifted.push_back(i + offset);
      auto c64 = on_test_device(host_column(TypeId::Int64, v64, valid))->slice(offset, len);
      EXPECT_EQ(read_values<int64_t>(gather(c64->view(), ic->view())), pick(masked(v64, valid), shifted));
      auto c32 = on_test_device(host_column(TypeId::Float32, v32))->slice(offset, len);
      EXPECT_EQ(read_values<int32_t>(gather(c32->view(), ic->view())), pick(masked(v32, {}), shifted));
      auto c16 = on_test_device(host_column(TypeId::UInt16, v16, valid))->slice(offset, len);
      EXPECT_EQ(read_values<int16_t>(gather(c16->view(), ic->view())), pick(masked(v16, valid), shifted));
      auto c8 = on_test_device(host_column(TypeId::Bool, v8, valid))->slice(offset, len);
      EXPECT_EQ(read_values<uint8_t>(gather(c8->view(), ic->view())), pick(masked(v8, valid), shifted));
    }
  }
}

TEST(gather, strings_utf8_and_large_utf8) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    for (int64_t len : {1, 33, 65, 100003}) {
      SCOPED_TRACE(std::string(type_name(t)) + " len=" + std::to_string(len));
      auto values = some_strings(len + 5, uint64_t(len));
      ColumnPtr c = on_test_device(host_strings(t, values))->slice(5, len);
      Rng rng(9);
      std::vector<int64_t> idx, shifted;
      for (int64_t i = 0; i < len + 7; ++i) {
        idx.push_back(int64_t(rng.next() % uint64_t(len)));
        shifted.push_back(idx.back() + 5);
      }
      ColumnPtr out = gather(c->view(), index_column(idx)->view());
      EXPECT_EQ(out->type(), t);
      EXPECT_EQ(read_strings(out), pick(values, shifted));
    }
  }
}

TEST(gather, empty_indices_and_empty_columns) {
  ColumnPtr empty_idx = index_column({});
  ColumnPtr s = on_test_device(host_strings(TypeId::Utf8, {"a", std::nullopt}));
  ColumnPtr out = gather(s->view(), empty_idx->view());
  EXPECT_EQ(out->size(), 0);
  EXPECT_EQ(read_strings(out).size(), size_t(0));
  ColumnPtr none = on_test_device(host_column<double>(TypeId::Float64, {}));
  EXPECT_EQ(gather(none->view(), empty_idx->view())->size(), 0);
  EXPECT_THROW_CODE(gather(none->view(), index_column({0})->view()), ErrorCode::InvalidArgument);
}

TEST(gather, index_dtypes_bounds_and_nulls) {
  ColumnPtr c = on_test_device(host_column<int32_t>(TypeId::Int32, {10, 20, 30}));
  ColumnPtr i32 = on_test_device(host_column<int32_t>(TypeId::Int32, {2, 0, 2}));
  EXPECT_EQ(read_values<int32_t>(gather(c->view(), i32->view())), (std::vector<std::optional<int32_t>>{30, 10, 30}));
  ColumnPtr u8 = on_test_device(host_column<uint8_t>(TypeId::UInt8, {1}));
  EXPECT_EQ(read_values<int32_t>(gather(c->view(), u8->view())), (std::vector<std::optional<int32_t>>{20}));
  EXPECT_THROW_CODE(gather(c->view(), index_column({3})->view()), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(gather(c->view(), index_column({-1})->view()), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(gather(c->view(), index_column({0, INT64_MIN})->view()), ErrorCode::InvalidArgument);
  ColumnPtr huge = on_test_device(host_column<uint64_t>(TypeId::UInt64, {UINT64_MAX}));
  EXPECT_THROW_CODE(gather(c->view(), huge->view()), ErrorCode::InvalidArgument);
  ColumnPtr fl = on_test_device(host_column<double>(TypeId::Float64, {0.0}));
  EXPECT_THROW_CODE(gather(c->view(), fl->view()), ErrorCode::InvalidArgument);
  ColumnPtr with_null = on_test_device(host_column<int64_t>(TypeId::Int64, {0, 1}, {true, false}));
  EXPECT_THROW_CODE(gather(c->view(), with_null->view()), ErrorCode::InvalidArgument);
}

TEST(concat, fixed_width_and_strings_with_validity_at_odd_offsets) {
  for (int64_t a : {0, 1, 7, 33, 1000}) {
    for (int64_t b : {0, 3, 64, 65}) {
      SCOPED_TRACE("a=" + std::to_string(a) + " b=" + std::to_string(b));
      std::vector<int64_t> va(static_cast<size_t>(a + 3)), vb(static_cast<size_t>(b));
      for (int64_t i = 0; i < a + 3; ++i) va[size_t(i)] = i * 7 - 100;
      for (int64_t i = 0; i < b; ++i) vb[size_t(i)] = INT64_MIN + i;
      std::vector<bool> fa = make_flags(Pattern::Random, a + 3, 3);
      ColumnPtr ca = on_test_device(host_column(TypeId::TimestampMs, va, fa))->slice(3, a);
      ColumnPtr cb = on_test_device(host_column(TypeId::TimestampMs, vb));  // no bitmap
      ColumnPtr out = concat({ca->view(), cb->view(), ca->view()});
      auto want = sub(masked(va, fa), 3, a);
      auto wb = masked(vb, {});
      want.insert(want.end(), wb.begin(), wb.end());
      auto again = sub(masked(va, fa), 3, a);
      want.insert(want.end(), again.begin(), again.end());
      EXPECT_EQ(read_values<int64_t>(out), want);

      auto sa = some_strings(a + 2, 5), sb = some_strings(b, 6);
      for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
        ColumnPtr xa = on_test_device(host_strings(t, sa))->slice(2, a);
        ColumnPtr xb = on_test_device(host_strings(t, sb));
        auto ws = sub(sa, 2, a);
        ws.insert(ws.end(), sb.begin(), sb.end());
        EXPECT_EQ(read_strings(concat({xa->view(), xb->view()})), ws);
      }
    }
  }
}

TEST(concat, rejects_mixed_dtypes) {
  ColumnPtr a = on_test_device(host_column<int32_t>(TypeId::Int32, {1}));
  ColumnPtr b = on_test_device(host_column<int64_t>(TypeId::Int64, {1}));
  EXPECT_THROW_CODE(concat({a->view(), b->view()}), ErrorCode::Dtype);
  EXPECT_THROW_CODE(concat({}), ErrorCode::InvalidArgument);
}

TEST(sample, deterministic_in_range_and_distinct_without_replacement) {
  for (int64_t rows : {1, 10, 1000, 100003}) {
    for (int64_t n : {int64_t(0), int64_t(1), rows / 2, rows}) {
      SCOPED_TRACE("rows=" + std::to_string(rows) + " n=" + std::to_string(n));
      auto a = sample_indices(rows, n, false, 42);
      EXPECT_EQ(a, sample_indices(rows, n, false, 42));
      EXPECT_EQ(int64_t(a.size()), n);
      std::set<int64_t> uniq(a.begin(), a.end());
      EXPECT_EQ(int64_t(uniq.size()), n);
      EXPECT_TRUE(std::all_of(a.begin(), a.end(), [&](int64_t v) { return v >= 0 && v < rows; }));
      auto r = sample_indices(rows, n * 2, true, 7);
      EXPECT_EQ(int64_t(r.size()), n * 2);
      EXPECT_TRUE(std::all_of(r.begin(), r.end(), [&](int64_t v) { return v >= 0 && v < rows; }));
    }
  }
  // The sparse and dense shuffles are one algorithm: a prefix of a full shuffle.
  auto full = sample_indices(1000, 1000, false, 3);
  auto few = sample_indices(1000, 5, false, 3);
  EXPECT_EQ(few, HostVector<int64_t>(full.begin(), full.begin() + 5));
  EXPECT_NE(sample_indices(1000, 5, false, 4), few);
  // splitmix64's published first output for seed 0.
  SplitMix64 rng{0};
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFull);
  EXPECT_THROW_CODE(sample_indices(3, 4, false, 1), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(sample_indices(0, 1, true, 1), ErrorCode::InvalidArgument);
}
