// ops/reduce: every reduction against naive references computed here, over dtypes, validity
// patterns, edge lengths and sliced input; dtype rejection; NaN / inf / int64 rules; value
// counts; and (on a cuda test device) bit-identical results to the cpu backend.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "ops/reduce/reduce.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

using K = ReduceKind;

ColumnPtr run(const ColumnPtr& c, K kind, ReduceOptions o = {}) {
  ColumnPtr r = reduce(c->view(), kind, o);
  EXPECT_EQ(r->size(), 1);
  EXPECT_EQ(&r->device(), &c->device());
  return r;
}

template <typename U>
std::optional<U> one(const ColumnPtr& r) {
  return read_values<U>(r)[0];
}

/// Rows [offset, offset + n) of a host column built from `values`/`valid`, on the test device.
template <typename T>
ColumnPtr sliced(TypeId type, const std::vector<T>& values, const std::vector<bool>& valid, int64_t offset) {
  ColumnPtr c = on_test_device(host_column<T>(type, values, valid));
  return c->slice(offset, int64_t(values.size()) - offset);
}

bool same_double(std::optional<double> got, std::optional<double> want, double rel = 1e-9) {
  if (got.has_value() != want.has_value()) return false;
  if (!got) return true;
  if (std::isnan(*want)) return std::isnan(*got);
  if (std::isinf(*want)) return *got == *want;
  return std::fabs(*got - *want) <= rel * std::max(1.0, std::fabs(*want));
}
void check_near(std::optional<double> got, std::optional<double> want, double rel, const char* file, int line) {
  if (!same_double(got, want, rel)) record_failure(file, line, "got " + show(got) + ", want " + show(want));
}
#define EXPECT_NEAR_OPT(got, want) check_near((got), (want), 1e-9, __FILE__, __LINE__)

/// Naive references over the valid values (as double, which is exact for the ints used here).
struct Ref {
  std::vector<double> vals;     // valid values in row order
  std::vector<int64_t> rows;    // their row indices
  std::optional<double> mean() const {
    if (vals.empty()) return std::nullopt;
    long double s = 0;
    for (double x : vals) s += x;
    return double(s / vals.size());
  }
  std::optional<double> var(int64_t ddof) const {
    if (int64_t(vals.size()) <= ddof) return std::nullopt;
    double m = *mean();
    long double s = 0;
    for (double x : vals) s += (long double)(x - m) * (x - m);
    return double(s / (int64_t(vals.size()) - ddof));
  }
  std::optional<double> quantile(double q) const {
    if (vals.empty()) return std::nullopt;
    std::vector<double> s = vals;
    std::sort(s.begin(), s.end(), [](double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; });
    double idx = q * double(s.size() - 1);
    auto lo = size_t(std::floor(idx)), hi = size_t(std::ceil(idx));
    if (lo == hi || s[lo] == s[hi]) return s[lo];
    return s[lo] + (s[hi] - s[lo]) * (idx - double(lo));
  }
  /// First index of the min (or max) valid non-NaN value; else the first NaN; -1 when none.
  int64_t arg(bool want_max) const {
    int64_t best = -1;
    for (size_t i = 0; i < vals.size(); ++i) {
      if (std::isnan(vals[i])) continue;
      if (best < 0 || (want_max ? vals[i] > vals[size_t(best)] : vals[i] < vals[size_t(best)])) best = int64_t(i);
    }
    if (best < 0 && !vals.empty()) best = 0;
    return best < 0 ? -1 : rows[size_t(best)];
  }
  int64_t distinct() const {
    std::set<double> s;
    bool nan = false;
    for (double x : vals) std::isnan(x) ? void(nan = true) : void(s.insert(x == 0 ? 0.0 : x));
    return int64_t(s.size()) + nan;
  }
};

template <typename T>
void check_numeric(TypeId type, Rng& rng, int64_t len, int64_t offset, Pattern p) {
  std::vector<T> values(size_t(len + offset));
  for (auto& x : values) {
    if constexpr (std::is_floating_point_v<T>) x = T(double(int64_t(rng.next() % 2001) - 1000) / 8);
    else if constexpr (std::is_same_v<T, uint8_t>) x = T(rng.next() % (type == TypeId::Bool ? 2 : 256));
    else x = T(int64_t(rng.next() % 2001) - (std::is_signed_v<T> ? 1000 : 0));
  }
  std::vector<bool> valid = make_flags(p, len + offset, uint64_t(len) * 7 + offset);
  ColumnPtr c = sliced<T>(type, values, valid, offset);
  Ref ref;
  uint64_t wrap = 0;
  for (int64_t i = 0; i < len; ++i) {
    if (!valid[size_t(i + offset)]) continue;
    T x = values[size_t(i + offset)];
    ref.vals.push_back(double(x));
    ref.rows.push_back(i);
    wrap += uint64_t(int64_t(x));
  }
  const auto nvalid = int64_t(ref.vals.size());
  SCOPED_TRACE(std::string(type_name(type)) + " " + pattern_name(p) + " len=" + std::to_string(len) +
               " offset=" + std::to_string(offset));
  EXPECT_EQ(one<int64_t>(run(c, K::Count)), std::optional<int64_t>(nvalid));
  EXPECT_EQ(one<int64_t>(run(c, K::NullCount)), std::optional<int64_t>(len - nvalid));
  EXPECT_EQ(one<int64_t>(run(c, K::NUnique)), std::optional<int64_t>(ref.distinct()));
  if constexpr (std::is_floating_point_v<T>) {
    long double s = 0;
    for (double x : ref.vals) s += x;
    check_near(double(one<T>(run(c, K::Sum)).value()), double(s), sizeof(T) == 4 ? 1e-6 : 1e-9, __FILE__, __LINE__);
  } else {
    EXPECT_EQ(one<uint64_t>(run(c, K::Sum)), std::optional<uint64_t>(wrap));
  }
  EXPECT_NEAR_OPT(one<double>(run(c, K::Mean)), ref.mean());
  if (type == TypeId::Bool) return;
  EXPECT_NEAR_OPT(one<double>(run(c, K::Var)), ref.var(1));
  EXPECT_NEAR_OPT(one<double>(run(c, K::Var, {0, 0.5})), ref.var(0));
  auto sd = ref.var(1);
  EXPECT_NEAR_OPT(one<double>(run(c, K::Std)), sd ? std::optional<double>(std::sqrt(*sd)) : std::nullopt);
  EXPECT_NEAR_OPT(one<double>(run(c, K::Median)), ref.quantile(0.5));
  for (double q : {0.0, 0.1, 0.25, 0.75, 1.0})
    EXPECT_NEAR_OPT(one<double>(run(c, K::Quantile, {1, q})), ref.quantile(q));
  for (bool mx : {false, true}) {
    int64_t want = ref.arg(mx);
    auto got_arg = one<int64_t>(run(c, mx ? K::ArgMax : K::ArgMin));
    EXPECT_EQ(got_arg, want < 0 ? std::nullopt : std::optional<int64_t>(want));
    auto got = one<T>(run(c, mx ? K::Max : K::Min));
    EXPECT_EQ(got, want < 0 ? std::nullopt : std::optional<T>(values[size_t(want + offset)]));
  }
  auto first = one<T>(run(c, K::First));
  auto last = one<T>(run(c, K::Last));
  EXPECT_EQ(first, len && valid[size_t(offset)] ? std::optional<T>(values[size_t(offset)]) : std::nullopt);
  EXPECT_EQ(last, len && valid[size_t(offset + len - 1)] ? std::optional<T>(values.back()) : std::nullopt);
}

}  // namespace

TEST(reduce, numeric_kinds_match_references_over_dtypes_patterns_lengths_offsets) {
  Rng rng(42);
  for (int64_t len : {0, 1, 31, 32, 33, 64, 65, 100003}) {
    for (int64_t offset : {0, 3}) {
      for (Pattern p : {Pattern::AllValid, Pattern::AllNull, Pattern::Random, Pattern::FirstNull, Pattern::LastNull}) {
        if (len == 100003 && p != Pattern::Random) continue;
        check_numeric<double>(TypeId::Float64, rng, len, offset, p);
        check_numeric<float>(TypeId::Float32, rng, len, offset, p);
        check_numeric<int32_t>(TypeId::Int32, rng, len, offset, p);
        check_numeric<int64_t>(TypeId::Int64, rng, len, offset, p);
        check_numeric<uint8_t>(TypeId::UInt8, rng, len, offset, p);
        check_numeric<int16_t>(TypeId::Int16, rng, len, offset, p);
        check_numeric<uint64_t>(TypeId::UInt64, rng, len, offset, p);
        check_numeric<uint8_t>(TypeId::Bool, rng, len, offset, p);
      }
    }
  }
}

TEST(reduce, result_dtypes_and_dtype_rejections) {
  EXPECT_EQ(reduce_result_type(TypeId::Int8, K::Sum), TypeId::Int64);
  EXPECT_EQ(reduce_result_type(TypeId::UInt16, K::Sum), TypeId::UInt64);
  EXPECT_EQ(reduce_result_type(TypeId::Bool, K::Sum), TypeId::Int64);
  EXPECT_EQ(reduce_result_type(TypeId::Float32, K::Sum), TypeId::Float32);
  EXPECT_EQ(reduce_result_type(TypeId::Bool, K::Mean), TypeId::Float64);
  EXPECT_EQ(reduce_result_type(TypeId::Int32, K::Median), TypeId::Float64);
  EXPECT_EQ(reduce_result_type(TypeId::Utf8, K::Max), TypeId::Utf8);
  EXPECT_EQ(reduce_result_type(TypeId::Date32, K::Min), TypeId::Date32);
  EXPECT_EQ(reduce_result_type(TypeId::Utf8, K::ArgMax), TypeId::Int64);
  EXPECT_EQ(reduce_result_type(TypeId::Bool, K::Any), TypeId::Bool);
  for (TypeId t : {TypeId::Utf8, TypeId::Date32, TypeId::TimestampMs})
    for (K k : {K::Sum, K::Mean, K::Std, K::Var, K::Median, K::Quantile, K::Any, K::All})
      EXPECT_THROW_CODE(reduce_result_type(t, k), ErrorCode::Dtype);
  EXPECT_THROW_CODE(reduce_result_type(TypeId::Int32, K::Any), ErrorCode::Dtype);
  EXPECT_THROW_CODE(reduce_result_type(TypeId::Bool, K::Std), ErrorCode::Dtype);
  ColumnPtr s = on_test_device(host_strings(TypeId::Utf8, {"a"}));
  EXPECT_THROW_CODE(reduce(s->view(), K::Mean), ErrorCode::Dtype);
  ColumnPtr d = on_test_device(host_column<double>(TypeId::Float64, {1, 2}));
  EXPECT_THROW_CODE(reduce(d->view(), K::Quantile, {1, 1.5}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(reduce(d->view(), K::Quantile, {1, -0.1}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(reduce(d->view(), K::Quantile, {1, kNaN}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(reduce(d->view(), K::Std, {-1, 0.5}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(reduce(d->view(), static_cast<K>(99)), ErrorCode::InvalidArgument);
}

TEST(reduce, nan_and_infinity_rules) {
  auto col = [](std::vector<double> v) { return on_test_device(host_column<double>(TypeId::Float64, v)); };
  auto d = [](const ColumnPtr& r) { return one<double>(r); };
  EXPECT_EQ(d(run(col({1, kNaN}), K::Max)), std::optional<double>(1));   // NaN ignored (Polars)
  EXPECT_EQ(d(run(col({kNaN, 1}), K::Min)), std::optional<double>(1));
  EXPECT_TRUE(std::isnan(*d(run(col({kNaN, kNaN}), K::Max))));
  EXPECT_EQ(one<int64_t>(run(col({kNaN, kNaN}), K::ArgMax)), std::optional<int64_t>(0));
  EXPECT_EQ(one<int64_t>(run(col({kNaN, -kInf}), K::ArgMax)), std::optional<int64_t>(1));
  EXPECT_EQ(d(run(col({-kInf, kNaN}), K::Max)), std::optional<double>(-kInf));
  EXPECT_TRUE(std::isnan(*d(run(col({1, kNaN}), K::Sum))));
  EXPECT_TRUE(std::isnan(*d(run(col({1, kNaN}), K::Mean))));
  EXPECT_TRUE(std::isnan(*d(run(col({kInf, -kInf}), K::Sum))));
  EXPECT_EQ(d(run(col({kInf, 1}), K::Sum)), std::optional<double>(kInf));
  EXPECT_EQ(d(run(col({1, kNaN, 3}), K::Median)), std::optional<double>(3));  // NaN sorts last
  EXPECT_TRUE(std::isnan(*d(run(col({1, 2, kNaN}), K::Quantile, {1, 0.75}))));
  EXPECT_EQ(d(run(col({kInf, kInf}), K::Median)), std::optional<double>(kInf));
  EXPECT_EQ(one<int64_t>(run(col({kNaN, -kNaN, 0.0, -0.0, 1}), K::NUnique)), std::optional<int64_t>(3));
  // Ties keep the first row: min of [0, -0] is 0, max of [-0, 0] is -0 (as Polars).
  EXPECT_EQ(bits_of(*d(run(col({0.0, -0.0}), K::Min))), bits_of(0.0));
  EXPECT_EQ(bits_of(*d(run(col({-0.0, 0.0}), K::Max))), bits_of(-0.0));
}

TEST(reduce, int64_extremes_wrap_and_unsigned_sums) {
  const int64_t mx = std::numeric_limits<int64_t>::max(), mn = std::numeric_limits<int64_t>::min();
  auto i64 = [](std::vector<int64_t> v) { return on_test_device(host_column<int64_t>(TypeId::Int64, v)); };
  EXPECT_EQ(one<int64_t>(run(i64({mx, 1}), K::Sum)), std::optional<int64_t>(mn));
  EXPECT_EQ(one<int64_t>(run(i64({mn, -1}), K::Sum)), std::optional<int64_t>(mx));
  EXPECT_EQ(one<int64_t>(run(i64({mx, mn, 5}), K::Max)), std::optional<int64_t>(mx));
  EXPECT_EQ(one<int64_t>(run(i64({mx, mn, 5}), K::Min)), std::optional<int64_t>(mn));
  EXPECT_EQ(one<int64_t>(run(i64({mx, mn, mn}), K::ArgMin)), std::optional<int64_t>(1));
  EXPECT_EQ(one<int64_t>(run(i64({mx, mn, 0}), K::NUnique)), std::optional<int64_t>(3));
  auto u64 = on_test_device(host_column<uint64_t>(TypeId::UInt64, {~uint64_t(0), 2}));
  EXPECT_EQ(one<uint64_t>(run(u64, K::Sum)), std::optional<uint64_t>(1));
  EXPECT_EQ(one<uint64_t>(run(u64, K::Max)), std::optional<uint64_t>(~uint64_t(0)));
  auto i8 = on_test_device(host_column<int8_t>(TypeId::Int8, {100, 100, -128}));
  EXPECT_EQ(one<int64_t>(run(i8, K::Sum)), std::optional<int64_t>(72));  // accumulated in int64
  EXPECT_EQ(one<double>(run(i8, K::Median)), std::optional<double>(100));
}

TEST(reduce, empty_and_all_null_results) {
  for (bool all_null : {false, true}) {
    ColumnPtr c = all_null ? on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2}, {false, false}))
                           : on_test_device(host_column<int32_t>(TypeId::Int32, {}));
    EXPECT_EQ(one<int64_t>(run(c, K::Sum)), std::optional<int64_t>(0));
    for (K k : {K::Mean, K::Std, K::Var, K::Median, K::Quantile})
      EXPECT_EQ(one<double>(run(c, k)), std::nullopt);
    for (K k : {K::Min, K::Max, K::First, K::Last}) EXPECT_EQ(one<int32_t>(run(c, k)), std::nullopt);
    for (K k : {K::ArgMin, K::ArgMax}) EXPECT_EQ(one<int64_t>(run(c, k)), std::nullopt);
    EXPECT_EQ(one<int64_t>(run(c, K::Count)), std::optional<int64_t>(0));
    EXPECT_EQ(one<int64_t>(run(c, K::NUnique)), std::optional<int64_t>(0));
  }
  ColumnPtr one_value = on_test_device(host_column<double>(TypeId::Float64, {4}));
  EXPECT_EQ(one<double>(run(one_value, K::Var)), std::nullopt);            // ddof 1: needs 2 values
  EXPECT_EQ(one<double>(run(one_value, K::Var, {0, 0.5})), std::optional<double>(0));
  EXPECT_EQ(one<double>(run(one_value, K::Std, {2, 0.5})), std::nullopt);
}

TEST(reduce, bool_any_all_kleene_ignoring_nulls) {
  auto b = [](std::vector<uint8_t> v, std::vector<bool> valid) {
    return on_test_device(host_column<uint8_t>(TypeId::Bool, v, valid));
  };
  EXPECT_EQ(one<uint8_t>(run(b({0, 0}, {false, true}), K::Any)), std::optional<uint8_t>(0));
  EXPECT_EQ(one<uint8_t>(run(b({0, 1}, {false, true}), K::All)), std::optional<uint8_t>(1));
  EXPECT_EQ(one<uint8_t>(run(b({0, 1}, {true, true}), K::All)), std::optional<uint8_t>(0));
  EXPECT_EQ(one<uint8_t>(run(b({}, {}), K::All)), std::optional<uint8_t>(1));
  EXPECT_EQ(one<uint8_t>(run(b({}, {}), K::Any)), std::optional<uint8_t>(0));
  EXPECT_EQ(one<uint8_t>(run(b({0, 0}, {false, false}), K::All)), std::optional<uint8_t>(1));
  EXPECT_EQ(one<uint8_t>(run(b({1, 0, 1}, {}), K::Min)), std::optional<uint8_t>(0));
  EXPECT_EQ(one<int64_t>(run(b({1, 0, 1}, {}), K::Sum)), std::optional<int64_t>(2));
}

TEST(reduce, strings_min_max_first_last_nunique) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    ColumnPtr c = on_test_device(
        host_strings(t, {"skip", "b", std::nullopt, "é", "a", "", "ab", "a", std::nullopt}))->slice(1, 8);
    EXPECT_EQ(read_strings(run(c, K::Min))[0], std::optional<std::string>(""));
    EXPECT_EQ(read_strings(run(c, K::Max))[0], std::optional<std::string>("é"));  // bytes 0xC3 > 'b'
    EXPECT_EQ(one<int64_t>(run(c, K::ArgMax)), std::optional<int64_t>(2));
    EXPECT_EQ(one<int64_t>(run(c, K::ArgMin)), std::optional<int64_t>(4));
    EXPECT_EQ(read_strings(run(c, K::First))[0], std::optional<std::string>("b"));
    EXPECT_EQ(read_strings(run(c, K::Last))[0], std::nullopt);
    EXPECT_EQ(one<int64_t>(run(c, K::NUnique)), std::optional<int64_t>(5));
    EXPECT_EQ(one<int64_t>(run(c, K::Count)), std::optional<int64_t>(6));
  }
}

TEST(reduce, float_sums_are_deterministic_and_match_cpu_bit_for_bit) {
  Rng rng(9);
  std::vector<double> v(300001);
  for (auto& x : v) x = double(int64_t(rng.next() % 2000001) - 1000000) * 1.37e-3 + 1e-9 * double(rng.next() % 1000);
  ColumnPtr host = host_column<double>(TypeId::Float64, v);
  ColumnPtr dev = on_test_device(host)->slice(5, 300001 - 5);
  ColumnPtr hsl = host->slice(5, 300001 - 5);
  for (K k : {K::Sum, K::Mean, K::Std, K::Var, K::Median}) {
    auto a = one<double>(run(dev, k));
    for (int rep = 0; rep < 3; ++rep) EXPECT_EQ(bits_of(*one<double>(run(dev, k))), bits_of(*a));
    EXPECT_EQ(bits_of(*one<double>(reduce(hsl->view(), k))), bits_of(*a));  // cpu == test device
  }
}

TEST(reduce, value_counts_order_and_nulls) {
  ColumnPtr c = on_test_device(
      host_column<double>(TypeId::Float64, {3, 1, 0, 1, 3, 0, 2, -0.0, kNaN, kNaN},
                          {true, true, false, true, true, false, true, true, true, true}));
  Table t = value_counts(c->view(), true);
  // counts: 3->2, 1->2, null->2, NaN->2, 2->1, 0.0->1. Sorted: count desc, value asc, null last.
  auto vals = read_values<double>(t.column(0));
  auto counts = read_values<int64_t>(t.column(1));
  ASSERT_EQ(vals.size(), size_t(6));
  EXPECT_EQ(vals[0], std::optional<double>(1));
  EXPECT_EQ(vals[1], std::optional<double>(3));
  EXPECT_TRUE(std::isnan(*vals[2]));
  EXPECT_EQ(vals[3], std::nullopt);
  EXPECT_EQ(bits_of(*vals[4]), bits_of(0.0));
  EXPECT_EQ(vals[5], std::optional<double>(2));
  EXPECT_EQ(counts, (std::vector<std::optional<int64_t>>{2, 2, 2, 2, 1, 1}));
  Table u = value_counts(c->view(), false);
  EXPECT_EQ(read_values<int64_t>(u.column(1)), (std::vector<std::optional<int64_t>>{1, 2, 1, 2, 2, 2}));
  ColumnPtr s = on_test_device(host_strings(TypeId::Utf8, {"b", "a", std::nullopt, "b", "ü", "a"}));
  Table st = value_counts(s->view(), true);
  EXPECT_EQ(read_strings(st.column(0)),
            (std::vector<std::optional<std::string>>{"a", "b", "ü", std::nullopt}));
  EXPECT_EQ(read_values<int64_t>(st.column(1)), (std::vector<std::optional<int64_t>>{2, 2, 1, 1}));
  ColumnPtr empty = on_test_device(host_column<int32_t>(TypeId::Int32, {}));
  Table et = value_counts(empty->view(), true);
  EXPECT_EQ(et.num_rows(), 0);
  EXPECT_EQ(et.column(0)->type(), TypeId::Int32);
}

TEST(reduce, value_counts_large_matches_map_reference) {
  Rng rng(3);
  const int64_t n = 100003;
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = int32_t(rng.next() % 1000) - 500;
  std::vector<bool> valid = make_flags(Pattern::Random, n, 4);
  ColumnPtr c = on_test_device(host_column<int32_t>(TypeId::Int32, v, valid))->slice(3, n - 3);
  std::map<int32_t, int64_t> ref;
  for (int64_t i = 3; i < n; ++i)
    if (valid[size_t(i)]) ++ref[v[size_t(i)]];
  Table t = value_counts(c->view(), true);
  auto vals = read_values<int32_t>(t.column(0));
  auto counts = read_values<int64_t>(t.column(1));
  int64_t total = 0;
  for (size_t i = 0; i < vals.size(); ++i) {
    total += *counts[i];
    if (vals[i]) EXPECT_EQ(ref[*vals[i]], *counts[i]);
    if (i) EXPECT_TRUE(*counts[i - 1] >= *counts[i]);
  }
  EXPECT_EQ(total, n - 3);
  EXPECT_EQ(int64_t(vals.size()), int64_t(ref.size()) + 1);
}
