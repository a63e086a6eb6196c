// ops/groupby: group_rows against a std::map of canonical key tuples (nulls, NaN, -0.0, utf8,
// multi-key, sliced input, drop_nulls, maintain_order, few and many groups); every grouped
// aggregation against the ungrouped reduce() of each group's rows (same dtypes and null rules);
// corr/cov and head/tail rows against naive references; argument errors.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/group_table.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/reduce/reduce.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

/// The canonical text of row i of a host column under the key rules (null, NaN, -0.0 == 0.0).
std::string key_text(const ColumnView& v, int64_t i) {
  if (!v.is_valid(i)) return "N;";
  if (is_string(v.type)) {
    int64_t b = offset_width(v.type) == 4 ? v.string_offsets<int32_t>()[i] : v.string_offsets<int64_t>()[i];
    int64_t e = offset_width(v.type) == 4 ? v.string_offsets<int32_t>()[i + 1] : v.string_offsets<int64_t>()[i + 1];
    return "S" + std::to_string(e - b) + ":" + std::string(reinterpret_cast<const char*>(v.data) + b, size_t(e - b));
  }
  double d = 0;
  if (v.type == TypeId::Float64) d = v.values<double>()[i];
  else if (v.type == TypeId::Float32) d = v.values<float>()[i];
  else {
    uint64_t bits = 0;
    std::memcpy(&bits, v.data + (v.offset + i) * value_width(v.type), size_t(value_width(v.type)));
    return "I" + std::to_string(bits) + ";";
  }
  if (std::isnan(d)) return "NaN;";
  if (d == 0) d = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "F%a;", d);
  return buf;
}

std::vector<int64_t> ids_of(const ColumnPtr& ids) {
  ColumnPtr h = to_host(ids);
  std::vector<int64_t> out(size_t(h->size()));
  for (int64_t i = 0; i < h->size(); ++i)
    out[size_t(i)] = h->type() == TypeId::Int32 ? h->view().values<int32_t>()[i] : h->view().values<int64_t>()[i];
  return out;
}

/// Checks group_rows against a map of key tuples.
void check_grouping(const std::vector<ColumnPtr>& keys, bool drop_nulls, bool maintain_order) {
  std::vector<ColumnView> views;
  std::vector<ColumnPtr> host;
  for (const ColumnPtr& k : keys) {
    views.push_back(k->view());
    host.push_back(to_host(k));
  }
  const int64_t n = keys[0]->size();
  SCOPED_TRACE("rows=" + std::to_string(n) + " keys=" + std::to_string(keys.size()) + " dropNulls=" +
               std::to_string(drop_nulls) + " maintainOrder=" + std::to_string(maintain_order));
  GroupIds g = group_rows(views, drop_nulls, maintain_order);
  EXPECT_EQ(g.ids->type(), TypeId::Int32);
  EXPECT_EQ(g.ids->size(), n);
  EXPECT_EQ(g.first_rows->size(), g.count);
  std::vector<int64_t> ids = ids_of(g.ids);
  std::vector<int64_t> first = ids_of(g.first_rows);
  std::map<std::string, int64_t> ref;  // key tuple -> id
  std::vector<int64_t> ref_first;
  for (int64_t i = 0; i < n; ++i) {
    std::string t;
    bool any_null = false;
    for (const ColumnPtr& h : host) {
      t += key_text(h->view(), i);
      any_null |= !h->view().is_valid(i);
    }
    if (drop_nulls && any_null) {
      EXPECT_EQ(ids[size_t(i)], int64_t(-1));
      continue;
    }
    auto [it, fresh] = ref.try_emplace(t, ids[size_t(i)]);
    if (fresh) {
      ref_first.push_back(i);
      if (ids[size_t(i)] < 0 || ids[size_t(i)] >= g.count) {
        ADD_FAILURE("id out of range at row " + std::to_string(i));
        return;
      }
      EXPECT_EQ(first[size_t(ids[size_t(i)])], i);
      if (maintain_order) EXPECT_EQ(ids[size_t(i)], int64_t(ref_first.size()) - 1);
    } else if (it->second != ids[size_t(i)]) {
      ADD_FAILURE("row " + std::to_string(i) + " has id " + std::to_string(ids[size_t(i)]) + ", its key's id is " +
                  std::to_string(it->second));
      return;
    }
  }
  EXPECT_EQ(g.count, int64_t(ref.size()));
}

ColumnPtr int_keys(int64_t n, int64_t distinct, Pattern p, uint64_t seed, int64_t offset = 0) {
  Rng rng(seed);
  std::vector<int32_t> v(size_t(n + offset));
  for (auto& x : v) x = int32_t(rng.next() % uint64_t(distinct)) - int32_t(distinct / 2);
  return on_test_device(host_column<int32_t>(TypeId::Int32, v, make_flags(p, n + offset, seed)))->slice(offset, n);
}

ColumnPtr float_keys(int64_t n, uint64_t seed) {
  Rng rng(seed);
  const double pool[] = {0.0, -0.0, kNaN, -kNaN, 1.5, -2.25, std::numeric_limits<double>::infinity()};
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = pool[rng.next() % 7];
  return on_test_device(host_column<double>(TypeId::Float64, v, make_flags(Pattern::Random, n, seed)));
}

ColumnPtr string_keys(int64_t n, int64_t distinct, uint64_t seed, TypeId type = TypeId::Utf8) {
  Rng rng(seed);
  std::vector<std::optional<std::string>> v(static_cast<size_t>(n));
  for (auto& s : v) {
    uint64_t r = rng.next() % uint64_t(distinct + 1);
    if (r == uint64_t(distinct)) continue;  // null
    s = r % 3 == 0 ? "é" + std::to_string(r) : r % 3 == 1 ? "id" + std::to_string(r) : std::string(r % 17, 'x');
  }
  return on_test_device(host_strings(type, v));
}

/// group_rows over key columns given as owners (kept alive for the call).
GroupIds group(const std::vector<ColumnPtr>& keys, bool drop_nulls, bool maintain_order) {
  std::vector<ColumnView> views;
  for (const ColumnPtr& k : keys) views.push_back(k->view());
  return group_rows(views, drop_nulls, maintain_order);
}

TEST(groupby, rows_single_keys) {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(33), int64_t(1000), int64_t(100003)})
    for (Pattern p : {Pattern::AllValid, Pattern::AllNull, Pattern::Random})
      for (bool drop : {false, true})
        for (bool order : {false, true}) {
          check_grouping({int_keys(n, 50, p, uint64_t(n) + 1)}, drop, order);
          check_grouping({int_keys(n, n / 2 + 1, p, uint64_t(n) + 2, 3)}, drop, order);  // many, sliced
        }
}

TEST(groupby, rows_float_string_and_multi_keys) {
  for (int64_t n : {int64_t(1), int64_t(65), int64_t(5000), int64_t(150000)})
    for (bool drop : {false, true})
      for (bool order : {false, true}) {
        check_grouping({float_keys(n, 3)}, drop, order);
        check_grouping({string_keys(n, 40, 4)}, drop, order);
        check_grouping({string_keys(n, n, 5, TypeId::LargeUtf8)}, drop, order);
        check_grouping({string_keys(n, 7, 6), int_keys(n, 5, Pattern::Random, 7), float_keys(n, 8)}, drop, order);
        check_grouping({int_keys(n, n, Pattern::AllValid, 9), int_keys(n, 3, Pattern::AllValid, 10)}, drop, order);
      }
}

TEST(groupby, rows_short_multi_keys) {
  // Multi-column keys of short strings (sliced, nulls, empty), narrow ints and floats with
  // -0.0 / NaN, few and nearly all distinct.
  auto short_strings = [](int64_t n, int64_t distinct, int64_t max_len, uint64_t seed) {
    Rng rng(seed);
    std::vector<std::optional<std::string>> v(static_cast<size_t>(n + 5));
    for (auto& s : v) {
      const uint64_t r = rng.next() % uint64_t(distinct + 1);
      if (r == uint64_t(distinct)) continue;  // null
      s = std::to_string(r).substr(0, size_t(max_len));
      if (r % 3 == 0) s = std::string(size_t(r % uint64_t(max_len + 1)), 'a');
    }
    return on_test_device(host_strings(TypeId::Utf8, v))->slice(5, n);
  };
  for (int64_t n : {int64_t(1), int64_t(1000), int64_t(300007)})
    for (bool drop : {false, true}) {
      auto f32 = [&](uint64_t seed) {
        Rng rng(seed);
        const float pool[] = {0.0f, -0.0f, float(kNaN), -float(kNaN), 1.5f};
        std::vector<float> v(static_cast<size_t>(n));
        for (auto& x : v) x = pool[rng.next() % 5];
        return on_test_device(host_column<float>(TypeId::Float32, v, make_flags(Pattern::Random, n, seed)));
      };
      check_grouping({short_strings(n, 50, 6, 41), f32(42), int_keys(n, 3, Pattern::Random, 43)}, drop, false);
      check_grouping({short_strings(n, n, 7, 44), int_keys(n, n, Pattern::Random, 45)}, drop, true);
      check_grouping({int_keys(n, 7, Pattern::Random, 46), short_strings(n, 9, 4, 47), short_strings(n, 9, 3, 48)}, drop, false);
      check_grouping({short_strings(n, 99, 8, 49), int_keys(n, 5, Pattern::Random, 50), int_keys(n, 5, Pattern::Random, 51)}, drop, false);
    }
}

TEST(groupby, row_hashes_equal_row_hash) {
  // The column-at-a-time hashes of the grouping tables give row_hash's value for every row.
  const int64_t n = 1003;
  const std::vector<ColumnPtr> cols = {string_keys(n, 40, 61), int_keys(n, 9, Pattern::Random, 62, 3), float_keys(n, 63),
                                       string_keys(n, 7, 64, TypeId::LargeUtf8),
                                       on_test_device(host_column<uint8_t>(TypeId::Bool, std::vector<uint8_t>(size_t(n), 1)))};
  std::vector<ColumnPtr> host;
  std::vector<ColumnView> views;
  for (const ColumnPtr& c : cols) {
    host.push_back(to_host(c));
    views.push_back(host.back()->view());
  }
  for (int32_t keys = 1; keys <= int32_t(views.size()); ++keys) {
    std::vector<uint64_t> got(size_t(n - 5));
    gpudf::detail::group_table::row_hashes(views.data(), keys, 5, n - 5, got.data());
    for (int64_t i = 5; i < n; ++i)
      if (got[size_t(i - 5)] != row_hash(views.data(), keys, i))
        return ADD_FAILURE("row " + std::to_string(i) + " over " + std::to_string(keys) + " keys");
  }
}

TEST(groupby, rows_long_strings_many_rows) {
  // Strings longer than a table slot keeps inline (sharing their first 16 bytes), over enough
  // rows for several per-thread ranges and the probe that hands nearly unique keys to the
  // partitioned path; and fixed-width keys with ~1/3 and ~all rows distinct.
  const int64_t n = 300007;
  for (int64_t distinct : {int64_t(700), n}) {
    Rng rng{uint64_t(distinct)};
    std::vector<std::optional<std::string>> v(static_cast<size_t>(n));
    for (auto& s : v) {
      const uint64_t r = rng.next() % uint64_t(distinct);
      if (r % 97 == 5) continue;  // null
      s = (r % 2 ? "shared-prefix-16b" : "shared-prefix-16") + std::to_string(r);
    }
    for (bool order : {false, true}) {
      check_grouping({on_test_device(host_strings(TypeId::Utf8, v))}, false, order);
      check_grouping({int_keys(n, distinct == n ? 4 * n : 100000, Pattern::Random, 9)}, true, order);
      check_grouping({on_test_device(host_strings(TypeId::Utf8, v)), int_keys(n, 3, Pattern::Random, 10)}, order, order);
      // Integers too far apart for direct indexing (hashed), few or nearly all distinct.
      std::vector<int64_t> wide(static_cast<size_t>(n));
      for (auto& x : wide) x = int64_t(rng.next() % uint64_t(distinct == n ? n : 500)) * 1000003 - (int64_t(1) << 40);
      check_grouping({on_test_device(host_column<int64_t>(TypeId::Int64, wide, make_flags(Pattern::Random, n, 12)))}, order, order);
    }
  }
}

TEST(groupby, rows_integer_extremes) {
  // Keys at both ends of their type: the value span must not wrap around.
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  for (bool order : {false, true}) {
    check_grouping({on_test_device(host_column<int64_t>(TypeId::Int64, {hi, lo, hi, 0, lo}))}, false, order);
    check_grouping({on_test_device(host_column<int8_t>(TypeId::Int8, {127, -128, 0, 127, -128}, {true, true, false, true, true}))},
                   order, order);
    check_grouping({on_test_device(host_column<uint64_t>(TypeId::UInt64, {~uint64_t(0), 0, 1, ~uint64_t(0)}))}, false, order);
  }
}

TEST(groupby, rows_errors) {
  EXPECT_THROW_CODE(group_rows({}, false, false), ErrorCode::InvalidArgument);
  ColumnPtr a = int_keys(10, 3, Pattern::AllValid, 1), b = int_keys(11, 3, Pattern::AllValid, 1);
  EXPECT_THROW_CODE(group_rows({a->view(), b->view()}, false, false), ErrorCode::InvalidArgument);
  GroupIds g = group_rows({a->view()}, false, false);
  EXPECT_THROW_CODE(group_aggregate(b->view(), g.ids->view(), g.count, ReduceKind::Sum), ErrorCode::InvalidArgument);
  ColumnPtr fids = float_keys(10, 2);
  EXPECT_THROW_CODE(group_aggregate(a->view(), fids->view(), 1, ReduceKind::Sum), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_aggregate(a->view(), g.ids->view(), 11, ReduceKind::Sum), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_aggregate(a->view(), g.ids->view(), g.count, ReduceKind(99)), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_aggregate(a->view(), g.ids->view(), g.count, ReduceKind::Any), ErrorCode::Dtype);
  EXPECT_THROW_CODE(group_aggregate(a->view(), g.ids->view(), g.count, ReduceKind::Quantile, {1, 1.5}),
                    ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_head_rows(g.ids->view(), g.count, -1, false), ErrorCode::InvalidArgument);
  // Ids outside [0, count) (not from group_rows) are ignored, never a crash.
  EXPECT_EQ(group_head_rows(g.ids->view(), 0, 2, false)->size(), int64_t(0));
  EXPECT_EQ(group_aggregate(a->view(), a->view(), 0, ReduceKind::Sum)->size(), int64_t(0));
  EXPECT_EQ(read_values<int64_t>(group_aggregate(a->view(), a->view(), 1, ReduceKind::Len))[0].has_value(), true);
  ColumnPtr s = string_keys(10, 3, 1);
  EXPECT_THROW_CODE(group_corr(s->view(), a->view(), g.ids->view(), g.count, false, 1), ErrorCode::Dtype);
}

/// Row g of `got` against the one-row `want`: same dtype, validity and value (floats within
/// `rel`, NaN equal to NaN).
void expect_row(const ColumnPtr& got, int64_t g, const ColumnPtr& want, double rel, double abs_tol,
                const std::string& what) {
  ColumnPtr gh = to_host(got), wh = to_host(want);
  ColumnView a = gh->view(), b = wh->view();
  if (a.type != b.type) return ADD_FAILURE(what + ": dtype " + std::string(type_name(a.type)));
  if (a.is_valid(g) != b.is_valid(0)) return ADD_FAILURE(what + ": validity differs at group " + std::to_string(g));
  if (!b.is_valid(0)) return;
  if (is_string(a.type)) {
    if (key_text(a, g) != key_text(b, 0)) ADD_FAILURE(what + ": string differs at group " + std::to_string(g));
    return;
  }
  if (a.type == TypeId::Float64 || a.type == TypeId::Float32) {
    double x = a.type == TypeId::Float64 ? a.values<double>()[g] : a.values<float>()[g];
    double y = b.type == TypeId::Float64 ? b.values<double>()[0] : b.values<float>()[0];
    bool ok = (std::isnan(x) && std::isnan(y)) || x == y || std::fabs(x - y) <= rel * std::max(1.0, std::fabs(y)) + abs_tol;
    if (!ok) ADD_FAILURE(what + ": group " + std::to_string(g) + " got " + std::to_string(x) + ", want " + std::to_string(y));
    return;
  }
  const auto w = size_t(value_width(a.type));
  if (std::memcmp(a.data + (a.offset + g) * int64_t(w), b.data + b.offset * int64_t(w), w) != 0)
    ADD_FAILURE(what + ": value differs at group " + std::to_string(g));
}

constexpr ReduceKind kAllKinds[] = {
    ReduceKind::Sum,    ReduceKind::Mean,   ReduceKind::Min,      ReduceKind::Max,   ReduceKind::Count,
    ReduceKind::NullCount, ReduceKind::NUnique, ReduceKind::Std, ReduceKind::Var, ReduceKind::Median,
    ReduceKind::Quantile, ReduceKind::Any, ReduceKind::All,      ReduceKind::First, ReduceKind::Last,
    ReduceKind::ArgMin, ReduceKind::ArgMax, ReduceKind::Product, ReduceKind::Len};

bool accepted(TypeId t, ReduceKind k) {
  try {
    reduce_result_type(t, k);
    return true;
  } catch (const Error&) {
    return false;
  }
}

/// Every accepted kind of `values` grouped by `ids` against reduce() of each group's rows.
/// abs_tol: int64 extremes make double sums cancel; their order changes the rounding.
void check_kinds(const ColumnPtr& values, const GroupIds& g, double abs_tol = 0) {
  std::vector<int64_t> ids = ids_of(g.ids);
  std::vector<std::vector<int64_t>> rows(size_t(g.count));
  for (int64_t i = 0; i < int64_t(ids.size()); ++i)
    if (ids[size_t(i)] >= 0) rows[size_t(ids[size_t(i)])].push_back(i);
  // The reference: each group's rows reduced alone on the CPU backend (on --device cuda this
  // checks the device's grouped kernels against the host's reductions, and costs no launches).
  const ColumnPtr host_values = to_host(values);
  std::vector<ColumnPtr> parts;
  for (const auto& r : rows) {
    ColumnPtr idx = host_column<int64_t>(TypeId::Int64, r);
    parts.push_back(gather(host_values->view(), idx->view()));
  }
  const bool float_in = values->type() == TypeId::Float32 || values->type() == TypeId::Float64;
  for (ReduceKind k : kAllKinds) {
    if (!accepted(values->type(), k)) {
      EXPECT_THROW_CODE(group_aggregate(values->view(), g.ids->view(), g.count, k), ErrorCode::Dtype);
      continue;
    }
    for (ReduceOptions o : {ReduceOptions{1, 0.5}, ReduceOptions{0, 0.3}}) {
      if (o.ddof == 0 && k != ReduceKind::Std && k != ReduceKind::Var && k != ReduceKind::Quantile) continue;
      ColumnPtr got = group_aggregate(values->view(), g.ids->view(), g.count, k, o);
      EXPECT_EQ(got->size(), g.count);
      EXPECT_EQ(&got->device(), &values->device());
      // Float sums fold in another order than the tiled reduction: compare within rounding.
      double rel = values->type() == TypeId::Float32 && (k == ReduceKind::Sum || k == ReduceKind::Product) ? 1e-4
                   : float_in || k == ReduceKind::Std || k == ReduceKind::Var ? 1e-9 : 0;
      const ColumnPtr got_host = to_host(got);  // once: expect_row reads one row of it per group
      for (int64_t grp = 0; grp < g.count; ++grp)
        expect_row(got_host, grp, reduce(parts[size_t(grp)]->view(), k, o), rel, abs_tol,
                   std::string(type_name(values->type())) + " kind " + std::to_string(int(k)));
    }
  }
}

template <typename T>
ColumnPtr random_values(TypeId type, int64_t n, Pattern p, uint64_t seed, int64_t offset) {
  Rng rng(seed);
  std::vector<T> v(size_t(n + offset));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      uint64_t r = rng.next() % 50;
      x = r == 0 ? T(kNaN) : r == 1 ? T(-0.0) : T(double(int64_t(rng.next() % 2001) - 1000) / 8);
    } else if (type == TypeId::Bool) {
      x = T(rng.next() % 2);
    } else if constexpr (sizeof(T) == 8) {
      uint64_t r = rng.next() % 20;
      x = r == 0 ? std::numeric_limits<T>::max() : r == 1 ? std::numeric_limits<T>::min() : T(rng.next() % 7);
    } else {
      x = T(rng.next() % 100);
    }
  }
  return on_test_device(host_column<T>(type, v, make_flags(p, n + offset, seed)))->slice(offset, n);
}

void check_all_dtypes(const GroupIds& g, int64_t n, Pattern p, uint64_t seed) {
  SCOPED_TRACE(std::string("values ") + pattern_name(p) + " groups=" + std::to_string(g.count));
  check_kinds(random_values<uint8_t>(TypeId::Bool, n, p, seed, 3), g);
  check_kinds(random_values<int8_t>(TypeId::Int8, n, p, seed + 1, 3), g);
  check_kinds(random_values<int32_t>(TypeId::Int32, n, p, seed + 2, 0), g);
  check_kinds(random_values<int64_t>(TypeId::Int64, n, p, seed + 3, 3), g, 1e4);
  check_kinds(random_values<uint64_t>(TypeId::UInt64, n, p, seed + 4, 3), g, 1e4);
  check_kinds(random_values<float>(TypeId::Float32, n, p, seed + 5, 3), g);
  check_kinds(random_values<double>(TypeId::Float64, n, p, seed + 6, 3), g);
  check_kinds(random_values<int32_t>(TypeId::Date32, n, p, seed + 7, 3), g);
  check_kinds(random_values<int64_t>(TypeId::TimestampMs, n, p, seed + 8, 3), g);
  check_kinds(string_keys(n, 9, seed + 9)->slice(0, n), g);
}

TEST(groupby, aggregate_every_kind_few_groups) {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(33), int64_t(700)})
    for (Pattern p : {Pattern::AllValid, Pattern::AllNull, Pattern::Random})
      for (bool drop : {false, true}) {
        GroupIds g = group({int_keys(n, 6, Pattern::Random, uint64_t(n) + 11)}, drop, false);
        check_all_dtypes(g, n, p, uint64_t(n) * 3 + 1);
      }
}

TEST(groupby, aggregate_many_groups_and_blocks) {
  // > kFewGroups groups (segments) over several blocks of rows; and few groups over many rows.
  const int64_t n = 100003;
  GroupIds many = group({int_keys(n, 20000, Pattern::Random, 21)}, true, true);
  EXPECT_TRUE(many.count > 4096);
  check_kinds(random_values<double>(TypeId::Float64, n, Pattern::Random, 22, 3), many);
  check_kinds(random_values<int64_t>(TypeId::Int64, n, Pattern::Random, 23, 0), many, 1e4);
  check_kinds(string_keys(n, 30, 24), many);
  GroupIds few = group({string_keys(n, 30, 25)}, false, false);
  check_kinds(random_values<float>(TypeId::Float32, n, Pattern::Random, 26, 3), few);
  check_kinds(random_values<int32_t>(TypeId::Int32, n, Pattern::Random, 27, 3), few);
}

/// a and b hold the same values bit for bit (validity, and the bytes of every valid value).
void expect_identical(const ColumnPtr& a, const ColumnPtr& b, const std::string& what) {
  ColumnPtr ah = to_host(a), bh = to_host(b);
  ColumnView x = ah->view(), y = bh->view();
  if (x.type != y.type || x.size != y.size) return ADD_FAILURE(what + ": dtype or length differs");
  for (int64_t i = 0; i < x.size; ++i) {
    if (x.is_valid(i) != y.is_valid(i)) return ADD_FAILURE(what + ": validity differs at " + std::to_string(i));
    if (!x.is_valid(i)) continue;
    if (is_string(x.type)) {
      if (key_text(x, i) != key_text(y, i)) return ADD_FAILURE(what + ": string differs at " + std::to_string(i));
      continue;
    }
    const int64_t w = value_width(x.type);
    if (std::memcmp(x.data + (x.offset + i) * w, y.data + (y.offset + i) * w, size_t(w)) != 0)
      return ADD_FAILURE(what + ": value differs at " + std::to_string(i));
  }
}

TEST(groupby, float_folds_are_identical_on_every_backend) {
  // Both backends fold in the fixed shape of fold_shape.hpp: with few groups (row chunks and
  // their partials) and with many (each group's rows in row order), float sums, means, std and
  // products come out bit for bit the same on the test device as on the CPU.
  for (int64_t distinct : {int64_t(7), int64_t(300), int64_t(40000)}) {
    const int64_t n = 200003;
    GroupIds g = group({int_keys(n, distinct, Pattern::Random, uint64_t(distinct))}, true, true);
    SCOPED_TRACE("groups=" + std::to_string(g.count));
    const ColumnPtr host_ids = to_host(g.ids);
    // Values whose sums round at every step (thirds across six decades), some nulls.
    Rng rng(uint64_t(41 + distinct));
    std::vector<double> d(static_cast<size_t>(n));
    std::vector<float> f(static_cast<size_t>(n));
    std::vector<bool> valid(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      d[size_t(i)] = double(int64_t(rng.next() % 2000001) - 1000000) / 3.0 * std::pow(10.0, double(rng.next() % 6) - 3);
      f[size_t(i)] = float(d[size_t(i)]);
      valid[size_t(i)] = rng.next() % 11 != 0;
    }
    for (const ColumnPtr& v : {on_test_device(host_column<double>(TypeId::Float64, d, valid)),
                               on_test_device(host_column<float>(TypeId::Float32, f, valid))}) {
      const ColumnPtr host_v = to_host(v);
      for (ReduceKind k : {ReduceKind::Sum, ReduceKind::Mean, ReduceKind::Std, ReduceKind::Product}) {
        expect_identical(group_aggregate(v->view(), g.ids->view(), g.count, k),
                         group_aggregate(host_v->view(), host_ids->view(), g.count, k),
                         std::string(type_name(v->type())) + " kind " + std::to_string(int(k)));
      }
    }
  }
}

TEST(groupby, atomic_folds_on_both_sides_of_the_shared_memory_bound) {
  // On CUDA the folds that are exact in any order (counts, integer sums and products, first /
  // last, min / max, argMin / argMax) run as atomics: pre-aggregated per block in shared memory
  // up to 4096 words (2048 groups of rows + valid counts, 4096 of one word), straight into
  // global memory beyond. Group counts on both sides of each bound, ids built directly (some
  // -1, some groups without rows), each against its groups reduced alone on the host.
  const int64_t n = 40000;
  for (int64_t count : {int64_t(1), int64_t(2048), int64_t(2049), int64_t(4096), int64_t(4097), int64_t(30000)}) {
    SCOPED_TRACE("groups=" + std::to_string(count));
    Rng rng(uint64_t(count) * 7 + 3);
    std::vector<int32_t> ids(static_cast<size_t>(n));
    for (auto& id : ids) id = rng.next() % 29 == 0 ? -1 : int32_t(rng.next() % uint64_t(count));
    GroupIds g;
    g.ids = on_test_device(host_column<int32_t>(TypeId::Int32, ids));
    g.count = count;
    check_kinds(random_values<int32_t>(TypeId::Int32, n, Pattern::Random, uint64_t(count) + 1, 3), g);
    check_kinds(random_values<int64_t>(TypeId::Int64, n, Pattern::Random, uint64_t(count) + 2, 0), g, 1e4);
    check_kinds(random_values<double>(TypeId::Float64, n, Pattern::Random, uint64_t(count) + 3, 3), g);
    check_kinds(string_keys(n, 50, uint64_t(count) + 4), g);
  }
}

TEST(groupby, aggregate_many_equals_one_at_a_time) {
  // Every kind over several columns in one call (the one-fold kinds share a pass over the rows
  // when groups are few) gives exactly what group_aggregate gives for each alone.
  for (int64_t n : {int64_t(0), int64_t(5), int64_t(100003)})
    for (int64_t distinct : {int64_t(30), n / 3 + 1}) {
      GroupIds g = group({int_keys(n, distinct, Pattern::Random, uint64_t(n + distinct))}, true, false);
      SCOPED_TRACE("rows=" + std::to_string(n) + " groups=" + std::to_string(g.count));
      const std::vector<ColumnPtr> cols = {random_values<double>(TypeId::Float64, n, Pattern::Random, 31, 3),
                                           random_values<int32_t>(TypeId::Int32, n, Pattern::AllValid, 32, 0),
                                           random_values<float>(TypeId::Float32, n, Pattern::Random, 33, 3),
                                           random_values<int64_t>(TypeId::Int64, n, Pattern::Random, 34, 3),
                                           string_keys(n, 9, 35)};
      std::vector<ColumnView> values;
      std::vector<ReduceKind> kinds;
      std::vector<ReduceOptions> options;
      for (const ColumnPtr& c : cols)
        for (ReduceKind k : kAllKinds)
          if (accepted(c->type(), k)) {
            values.push_back(c->view());
            kinds.push_back(k);
            options.push_back({k == ReduceKind::Std ? 0 : 1, 0.3});
          }
      const std::vector<ColumnPtr> got = group_aggregate_many(values, g.ids->view(), g.count, kinds, options);
      ASSERT_EQ(got.size(), values.size());
      for (size_t i = 0; i < values.size(); ++i)
        expect_identical(got[i], group_aggregate(values[i], g.ids->view(), g.count, kinds[i], options[i]),
                         std::string(type_name(values[i].type)) + " kind " + std::to_string(int(kinds[i])));
    }
  ColumnPtr a = int_keys(10, 3, Pattern::AllValid, 1), s = string_keys(10, 3, 2), b = int_keys(11, 3, Pattern::AllValid, 1);
  GroupIds g = group({a}, false, false);
  EXPECT_EQ(group_aggregate_many({}, g.ids->view(), g.count, {}, {}).size(), size_t(0));
  EXPECT_THROW_CODE(group_aggregate_many({a->view()}, g.ids->view(), g.count, {}, {}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(group_aggregate_many({a->view(), s->view()}, g.ids->view(), g.count, {ReduceKind::Sum, ReduceKind::Sum},
                                         {{}, {}}),
                    ErrorCode::Dtype);
  EXPECT_THROW_CODE(group_aggregate_many({a->view(), b->view()}, g.ids->view(), g.count, {ReduceKind::Sum, ReduceKind::Sum},
                                         {{}, {}}),
                    ErrorCode::InvalidArgument);
}

TEST(groupby, aggregate_all_null_group) {
  // Group 1's values are all null: mean/min/std null, sum 0, count 0, len = rows.
  std::vector<int32_t> k = {0, 1, 0, 1, 2};
  GroupIds g = group_rows({on_test_device(host_column<int32_t>(TypeId::Int32, k))->view()}, false, true);
  ColumnPtr v = on_test_device(host_column<double>(TypeId::Float64, {1, 2, 3, 4, 5}, {true, false, true, false, true}));
  auto sum = read_values<double>(group_aggregate(v->view(), g.ids->view(), g.count, ReduceKind::Sum));
  EXPECT_EQ(sum, (std::vector<std::optional<double>>{4.0, 0.0, 5.0}));
  auto mean = read_values<double>(group_aggregate(v->view(), g.ids->view(), g.count, ReduceKind::Mean));
  EXPECT_EQ(mean, (std::vector<std::optional<double>>{2.0, std::nullopt, 5.0}));
  auto len = read_values<int64_t>(group_aggregate(v->view(), g.ids->view(), g.count, ReduceKind::Len));
  EXPECT_EQ(len, (std::vector<std::optional<int64_t>>{2, 2, 1}));
  auto cnt = read_values<int64_t>(group_aggregate(v->view(), g.ids->view(), g.count, ReduceKind::Count));
  EXPECT_EQ(cnt, (std::vector<std::optional<int64_t>>{2, 0, 1}));
  auto last = read_values<double>(group_aggregate(v->view(), g.ids->view(), g.count, ReduceKind::Last));
  EXPECT_EQ(last, (std::vector<std::optional<double>>{3.0, std::nullopt, 5.0}));
  auto am = read_values<int64_t>(group_aggregate(v->view(), g.ids->view(), g.count, ReduceKind::ArgMax));
  EXPECT_EQ(am, (std::vector<std::optional<int64_t>>{1, std::nullopt, 0}));
  EXPECT_EQ(read_values<int64_t>(group_sizes(g.ids->view(), g.count)), len);
  EXPECT_EQ(read_values<int64_t>(group_last_rows(g.ids->view(), g.count)),
            (std::vector<std::optional<int64_t>>{2, 3, 4}));
}

TEST(groupby, corr_and_cov) {
  for (int64_t n : {int64_t(0), int64_t(5), int64_t(1000), int64_t(100003)}) {
    ColumnPtr key = int_keys(n, n > 50000 ? 9000 : 7, Pattern::Random, 31);
    GroupIds g = group_rows({key->view()}, false, false);
    ColumnPtr a = random_values<double>(TypeId::Float64, n, Pattern::Random, 32, 3);
    ColumnPtr b = random_values<int32_t>(TypeId::Int32, n, Pattern::Random, 33, 0);
    std::vector<int64_t> ids = ids_of(g.ids);
    auto av = read_values<double>(a);
    auto bv = read_values<int32_t>(b);
    for (bool cov : {false, true}) {
      auto got = read_values<double>(group_corr(a->view(), b->view(), g.ids->view(), g.count, cov, 1));
      for (int64_t grp = 0; grp < g.count; ++grp) {
        std::vector<double> xs, ys;
        for (int64_t i = 0; i < n; ++i)
          if (ids[size_t(i)] == grp && av[size_t(i)] && bv[size_t(i)]) xs.push_back(*av[size_t(i)]), ys.push_back(*bv[size_t(i)]);
        std::optional<double> want;
        const double m = double(xs.size());
        if (cov ? m > 1 : m >= 2) {
          double ma = 0, mb = 0;
          for (size_t j = 0; j < xs.size(); ++j) ma += xs[j], mb += ys[j];
          ma /= m, mb /= m;
          double ab = 0, aa = 0, bb = 0;
          for (size_t j = 0; j < xs.size(); ++j)
            ab += (xs[j] - ma) * (ys[j] - mb), aa += (xs[j] - ma) * (xs[j] - ma), bb += (ys[j] - mb) * (ys[j] - mb);
          want = cov ? ab / (m - 1) : ab / std::sqrt(aa * bb);
        }
        const auto& x = got[size_t(grp)];
        bool ok = x.has_value() == want.has_value() &&
                  (!x || (std::isnan(*x) && std::isnan(*want)) || std::fabs(*x - *want) <= 1e-9 * std::max(1.0, std::fabs(*want)));
        if (!ok) ADD_FAILURE("corr/cov group " + std::to_string(grp) + " got " + show(x) + " want " + show(want));
      }
    }
  }
}

TEST(groupby, head_and_tail_rows) {
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(64), int64_t(100003)})
    for (int64_t take : {int64_t(0), int64_t(1), int64_t(2), int64_t(1000)})
      for (bool from_end : {false, true}) {
        GroupIds g = group({int_keys(n, n > 50000 ? 30000 : 9, Pattern::Random, 41)}, true, false);
        std::vector<int64_t> ids = ids_of(g.ids);
        std::vector<std::vector<int64_t>> rows(size_t(g.count));
        for (int64_t i = 0; i < n; ++i)
          if (ids[size_t(i)] >= 0) rows[size_t(ids[size_t(i)])].push_back(i);
        std::vector<std::optional<int64_t>> want;
        for (const auto& r : rows) {
          const auto k = std::min<size_t>(size_t(take), r.size());
          for (size_t j = 0; j < k; ++j) want.push_back(from_end ? r[r.size() - k + j] : r[j]);
        }
        EXPECT_EQ(read_values<int64_t>(group_head_rows(g.ids->view(), g.count, take, from_end)), want);
      }
}

TEST(groupby, ungrouped_product_and_len) {
  ColumnPtr i = on_test_device(host_column<int32_t>(TypeId::Int32, {2, -3, 5, 7}, {true, true, false, true}));
  EXPECT_EQ(read_values<int64_t>(reduce(i->view(), ReduceKind::Product))[0], std::optional<int64_t>(-42));
  EXPECT_EQ(read_values<int64_t>(reduce(i->view(), ReduceKind::Len))[0], std::optional<int64_t>(4));
  ColumnPtr f = on_test_device(host_column<float>(TypeId::Float32, {1.5f, 2.0f}));
  EXPECT_EQ(read_values<float>(reduce(f->view(), ReduceKind::Product))[0], std::optional<float>(3.0f));
  ColumnPtr e = on_test_device(host_column<double>(TypeId::Float64, {}));
  EXPECT_EQ(read_values<double>(reduce(e->view(), ReduceKind::Product))[0], std::optional<double>(1.0));
  ColumnPtr big = on_test_device(host_column<int64_t>(TypeId::Int64, {INT64_MAX, 2}));
  EXPECT_EQ(read_values<int64_t>(reduce(big->view(), ReduceKind::Product))[0], std::optional<int64_t>(-2));
  ColumnPtr s = string_keys(3, 2, 1);
  EXPECT_THROW_CODE(reduce(s->view(), ReduceKind::Product), ErrorCode::Dtype);
  EXPECT_EQ(read_values<int64_t>(reduce(s->view(), ReduceKind::Len))[0], std::optional<int64_t>(3));
}

}  // namespace
