// ops/sort and ops/distinct on the test device. Expected orders come from std::stable_sort with a
// comparator written here from the documented rules (not from the code under test).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "ops/distinct/distinct.hpp"
#include "ops/sort/sort.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

/// A key column plus a reference three-way comparison of its rows' values (both non-null).
struct RefKey {
  ColumnPtr column;  // on the test device, possibly sliced
  std::vector<bool> valid;
  std::function<int(int64_t, int64_t)> cmp;
  bool descending = false;
  bool nulls_last = true;
};

template <typename T>
int three_way(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);  // NaN above everything, NaNs equal
  }
  return a < b ? -1 : (b < a ? 1 : 0);  // -0.0 == 0.0 here
}

/// A key over `values[offset, offset + len)` with a random validity pattern.
template <typename T>
RefKey fixed_key(TypeId t, const std::vector<T>& values, int64_t offset, Pattern p, uint64_t seed) {
  const int64_t len = int64_t(values.size()) - offset;
  std::vector<bool> valid = make_flags(p, int64_t(values.size()), seed);
  RefKey k;
  k.column = on_test_device(host_column(t, values, valid))->slice(offset, len);
  k.valid = sub(valid, offset, len);
  std::vector<T> vals = sub(values, offset, len);
  k.cmp = [vals](int64_t a, int64_t b) { return three_way(vals[size_t(a)], vals[size_t(b)]); };
  return k;
}

RefKey string_key(TypeId t, const std::vector<std::optional<std::string>>& values, int64_t offset) {
  const int64_t len = int64_t(values.size()) - offset;
  RefKey k;
  k.column = on_test_device(host_strings(t, values))->slice(offset, len);
  auto vals = sub(values, offset, len);
  for (const auto& v : vals) k.valid.push_back(v.has_value());
  k.cmp = [vals](int64_t a, int64_t b) {
    int c = vals[size_t(a)]->compare(*vals[size_t(b)]);  // char_traits<char>: unsigned bytes
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  };
  return k;
}

std::vector<int64_t> reference_order(const std::vector<RefKey>& keys, int64_t n) {
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t(0));
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    for (const RefKey& k : keys) {
      bool va = k.valid[size_t(a)], vb = k.valid[size_t(b)];
      if (!va || !vb) {
        if (va == vb) continue;
        return k.nulls_last ? va : vb;
      }
      int c = k.cmp(a, b);
      if (c != 0) return k.descending ? c > 0 : c < 0;
    }
    return false;
  });
  return perm;
}

std::vector<int64_t> run_sort(const std::vector<RefKey>& keys) {
  std::vector<SortKey> sk;
  for (const RefKey& k : keys) sk.push_back(SortKey{k.column->view(), k.descending, k.nulls_last});
  ColumnPtr order = sorted_order(sk);
  std::vector<int64_t> out;
  for (const auto& v : read_values<int64_t>(order)) out.push_back(v.value_or(-1));
  return out;
}

template <typename T>
std::vector<T> random_values(int64_t n, uint64_t seed, const std::vector<T>& specials, uint64_t modulo) {
  Rng rng(seed);
  std::vector<T> out;
  for (int64_t i = 0; i < n; ++i) {
    if (i % 11 < int64_t(specials.size())) out.push_back(specials[size_t(i % 11)]);
    else out.push_back(static_cast<T>(modulo ? int64_t(rng.next() % modulo) - int64_t(modulo / 2) : int64_t(rng.next())));
  }
  return out;
}

}  // namespace

TEST(sort, every_fixed_width_dtype_both_directions_nulls_first_and_last) {
  for (int64_t len : {0, 1, 31, 32, 33, 64, 65, 1000, 100003}) {
    for (int64_t offset : {0, 3}) {
      const int64_t rows = len + offset;
      Pattern p = len % 2 ? Pattern::Random : Pattern::AllValid;
      std::vector<RefKey> cases = {
          fixed_key(TypeId::Int64, random_values<int64_t>(rows, 1, {INT64_MIN, INT64_MAX, 0, -1}, 0), offset, p, 2),
          fixed_key(TypeId::UInt64, random_values<uint64_t>(rows, 3, {UINT64_MAX, 0, uint64_t(1) << 63}, 0), offset, p, 4),
          fixed_key(TypeId::Int32, random_values<int32_t>(rows, 5, {INT32_MIN, INT32_MAX}, 100), offset, p, 6),
          fixed_key(TypeId::Int16, random_values<int16_t>(rows, 7, {INT16_MIN, INT16_MAX}, 50), offset, p, 8),
          fixed_key(TypeId::Int8, random_values<int8_t>(rows, 9, {INT8_MIN, INT8_MAX}, 20), offset, p, 10),
          fixed_key(TypeId::UInt8, random_values<uint8_t>(rows, 11, {255, 0}, 20), offset, p, 12),
          fixed_key(TypeId::Bool, random_values<uint8_t>(rows, 13, {1, 0}, 2), offset, p, 14),
          fixed_key(TypeId::Float64, random_values<double>(rows, 15, {kNaN, kInf, -kInf, -0.0, 0.0, -kNaN, 1e308, -5e-324}, 1000), offset, p, 16),
          fixed_key(TypeId::Float32, random_values<float>(rows, 17, {float(kNaN), float(kInf), -float(kInf), -0.0f, 0.0f}, 1000), offset, p, 18),
          fixed_key(TypeId::Date32, random_values<int32_t>(rows, 19, {INT32_MIN, -1, 0}, 3000), offset, p, 20),
          fixed_key(TypeId::TimestampNs, random_values<int64_t>(rows, 21, {INT64_MIN, INT64_MAX}, 0), offset, p, 22),
      };
      for (RefKey& k : cases) {
        for (bool desc : {false, true}) {
          for (bool nl : {true, false}) {
            SCOPED_TRACE(std::string(type_name(k.column->type())) + " len=" + std::to_string(len) +
                         " offset=" + std::to_string(offset) + " desc=" + std::to_string(desc) +
                         " nullsLast=" + std::to_string(nl));
            k.descending = desc;
            k.nulls_last = nl;
            EXPECT_EQ(run_sort({k}), reference_order({k}, len));
          }
        }
      }
    }
  }
}

TEST(sort, strings_non_ascii_empty_and_prefixes) {
  const std::vector<std::string> pool = {"", "a", "ab", "abc", "b", "B", "é", "e\xcc\x81", "日本", "日", "🦀", "~", "a\x7f"};
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    for (int64_t len : {0, 1, 33, 65, 5000, 100003}) {
      Rng rng(uint64_t(len) + 1);
      std::vector<std::optional<std::string>> vals;
      for (int64_t i = 0; i < len + 2; ++i) {
        if (rng.coin(15)) vals.push_back(std::nullopt);
        else vals.push_back(pool[rng.next() % pool.size()] + (len > 100 ? std::to_string(rng.next() % 50) : ""));
      }
      RefKey k = string_key(t, vals, 2);
      for (bool desc : {false, true}) {
        for (bool nl : {true, false}) {
          SCOPED_TRACE(std::string(type_name(t)) + " len=" + std::to_string(len) + " desc=" + std::to_string(desc));
          k.descending = desc;
          k.nulls_last = nl;
          EXPECT_EQ(run_sort({k}), reference_order({k}, len));
        }
      }
    }
  }
}

TEST(sort, multi_key_stability_with_duplicates_and_mixed_directions) {
  for (int64_t len : {1, 32, 65, 100003}) {
    SCOPED_TRACE("len=" + std::to_string(len));
    std::vector<std::optional<std::string>> s;
    Rng rng(4);
    for (int64_t i = 0; i < len; ++i) {
      if (rng.coin(10)) s.push_back(std::nullopt);
      else s.push_back(std::string(1, char('a' + rng.next() % 4)));
    }
    RefKey k1 = string_key(TypeId::Utf8, s, 0);
    RefKey k2 = fixed_key(TypeId::Float64, random_values<double>(len, 8, {kNaN, -0.0, 0.0}, 3), 0, Pattern::Random, 9);
    RefKey k3 = fixed_key(TypeId::Int32, random_values<int32_t>(len, 10, {}, 4), 0, Pattern::Random, 11);
    k1.descending = true;
    k2.nulls_last = false;
    EXPECT_EQ(run_sort({k1, k2, k3}), reference_order({k1, k2, k3}, len));
    k1.nulls_last = false;
    k3.descending = true;
    EXPECT_EQ(run_sort({k3, k1}), reference_order({k3, k1}, len));
    // All-equal keys: the identity (stability).
    RefKey same = fixed_key(TypeId::Int64, std::vector<int64_t>(size_t(len), 7), 0, Pattern::AllValid, 1);
    same.descending = true;
    std::vector<int64_t> identity(static_cast<size_t>(len));
    std::iota(identity.begin(), identity.end(), int64_t(0));
    EXPECT_EQ(run_sort({same}), identity);
  }
}

TEST(sort, all_null_key_keeps_order_and_bad_keys_throw) {
  RefKey k = fixed_key(TypeId::Float64, std::vector<double>(40, 1.0), 0, Pattern::AllNull, 1);
  std::vector<int64_t> identity(40);
  std::iota(identity.begin(), identity.end(), int64_t(0));
  EXPECT_EQ(run_sort({k}), identity);
  EXPECT_THROW_CODE(sorted_order({}), ErrorCode::InvalidArgument);
  ColumnPtr a = on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2}));
  ColumnPtr b = on_test_device(host_column<int32_t>(TypeId::Int32, {1}));
  EXPECT_THROW_CODE(sorted_order({SortKey{a->view()}, SortKey{b->view()}}), ErrorCode::InvalidArgument);
}

TEST(distinct, keep_rules_against_a_quadratic_reference) {
  for (int64_t len : {0, 1, 33, 300}) {
    RefKey f = fixed_key(TypeId::Float64, random_values<double>(len + 1, 2, {kNaN, -kNaN, -0.0, 0.0}, 4), 1, Pattern::Random, 3);
    std::vector<std::optional<std::string>> s;
    Rng rng(5);
    for (int64_t i = 0; i < len; ++i) s.push_back(rng.coin(20) ? std::nullopt : std::optional<std::string>(rng.coin() ? "x" : "ü"));
    RefKey g = string_key(TypeId::LargeUtf8, s, 0);
    auto same = [&](int64_t a, int64_t b) {
      for (const RefKey* k : {&f, &g}) {
        bool va = k->valid[size_t(a)], vb = k->valid[size_t(b)];
        if (va != vb || (va && k->cmp(a, b) != 0)) return false;
      }
      return true;
    };
    for (Keep keep : {Keep::First, Keep::Last, Keep::Any, Keep::None}) {
      SCOPED_TRACE("len=" + std::to_string(len) + " keep=" + std::to_string(int(keep)));
      std::vector<int64_t> want;
      for (int64_t i = 0; i < len; ++i) {
        int64_t before = 0, after = 0;
        for (int64_t j = 0; j < len; ++j)
          if (same(i, j)) (j < i ? before : after) += (j != i);
        bool kept = keep == Keep::Last ? after == 0 : keep == Keep::None ? before + after == 0 : before == 0;
        if (kept) want.push_back(i);
      }
      std::vector<int64_t> got;
      for (const auto& v : read_values<int64_t>(distinct_indices({f.column->view(), g.column->view()}, keep, true)))
        got.push_back(v.value_or(-1));
      EXPECT_EQ(got, want);
      // Without maintain_order: the same rows, in key order.
      std::vector<int64_t> unordered;
      for (const auto& v : read_values<int64_t>(distinct_indices({f.column->view(), g.column->view()}, keep, false)))
        unordered.push_back(v.value_or(-1));
      std::sort(unordered.begin(), unordered.end());
      EXPECT_EQ(unordered, want);
    }
  }
}
