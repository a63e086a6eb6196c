// ops/hash/row_hash.hpp: equal keys hash equally under the key rules, different keys compare
// unequal, across two column sets. Host columns: these are the GPUDF_HD functions the CPU tables
// and the CUDA kernels share.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ops/hash/row_hash.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

TEST(row_hash, floats_follow_the_key_rules) {
  double nan1 = std::numeric_limits<double>::quiet_NaN();
  double nan2 = -std::numeric_limits<double>::quiet_NaN();
  auto c = host_column<double>(TypeId::Float64, {0.0, -0.0, nan1, nan2, 1.5, 2.5, 7.0},
                               {true, true, true, true, true, true, false});
  ColumnView v = c->view();
  EXPECT_EQ(key_hash(v, 0), key_hash(v, 1));
  EXPECT_TRUE(key_equal(v, 0, v, 1));
  EXPECT_EQ(key_hash(v, 2), key_hash(v, 3));
  EXPECT_TRUE(key_equal(v, 2, v, 3));
  EXPECT_FALSE(key_equal(v, 4, v, 5));
  EXPECT_NE(key_hash(v, 4), key_hash(v, 5));
  EXPECT_FALSE(key_equal(v, 6, v, 0));  // null vs 0.0
  EXPECT_EQ(key_hash(v, 6), kNullHash);
}

TEST(row_hash, strings_across_two_columns_and_a_slice) {
  auto a = host_strings(TypeId::Utf8, {std::string("héllo"), std::string(""), std::nullopt,
                                       std::string("abcdefghij")});
  auto b = host_strings(TypeId::Utf8, {std::string("x"), std::string("abcdefghij"),
                                       std::string("héllo"), std::nullopt, std::string("")});
  auto bs = b->slice(1, 4);  // rows: abcdefghij, héllo, null, ""
  ColumnView va = a->view(), vb = bs->view();
  EXPECT_TRUE(key_equal(va, 0, vb, 1));
  EXPECT_EQ(key_hash(va, 0), key_hash(vb, 1));
  EXPECT_TRUE(key_equal(va, 3, vb, 0));
  EXPECT_EQ(key_hash(va, 3), key_hash(vb, 0));
  EXPECT_TRUE(key_equal(va, 1, vb, 3));  // "" == ""
  EXPECT_TRUE(key_equal(va, 2, vb, 2));  // null == null here
  EXPECT_FALSE(key_equal(va, 1, vb, 2)); // "" != null
  EXPECT_FALSE(key_equal(va, 0, vb, 0));
}

TEST(row_hash, multi_key_rows_and_null_detection) {
  auto k1 = host_column<int64_t>(TypeId::Int64, {1, 1, 2, 1}, {true, true, true, false});
  auto k2 = host_strings(TypeId::Utf8, {std::string("a"), std::string("a"), std::string("a"),
                                        std::string("a")});
  ColumnView keys[2] = {k1->view(), k2->view()};
  EXPECT_TRUE(rows_equal(keys, 0, keys, 1, 2));
  EXPECT_EQ(row_hash(keys, 2, 0), row_hash(keys, 2, 1));
  EXPECT_FALSE(rows_equal(keys, 0, keys, 2, 2));
  EXPECT_FALSE(rows_equal(keys, 0, keys, 3, 2));
  EXPECT_FALSE(any_key_null(keys, 2, 0));
  EXPECT_TRUE(any_key_null(keys, 2, 3));
  // Distinct small integers spread over the low bits (a table indexes by them).
  auto ints = host_column<int32_t>(TypeId::Int32, {0, 1, 2, 3, 4, 5, 6, 7});
  ColumnView iv = ints->view();
  uint64_t seen = 0;
  for (int64_t i = 0; i < 8; ++i) seen |= uint64_t(1) << (key_hash(iv, i) & 63);
  EXPECT_TRUE(__builtin_popcountll(seen) >= 5);
}
