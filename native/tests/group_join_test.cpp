// group_join_strings (str.join per group) on the test device (CUDA under the simulator) against
// a host reference: random strings with nulls in random groups (some empty, rows with id -1),
// int32 and int64 ids, both string dtypes, sliced input, separators of 0..3 bytes, and nulls
// skipped or making their group null.
#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ops/groupby/groupby.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

using Strings = std::vector<std::optional<std::string>>;

Strings reference(const Strings& values, const std::vector<int64_t>& ids, int64_t count, const std::string& sep,
                  bool ignore_nulls) {
  Strings out(size_t(count), std::optional<std::string>(std::string{}));
  std::vector<bool> any(size_t(count), false);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t g = ids[i];
    if (g < 0 || !out[size_t(g)]) continue;
    if (!values[i]) {
      if (!ignore_nulls) out[size_t(g)] = std::nullopt;
      continue;
    }
    if (any[size_t(g)]) *out[size_t(g)] += sep;
    *out[size_t(g)] += *values[i];
    any[size_t(g)] = true;
  }
  return out;
}

}  // namespace

TEST(group_join, joins_each_groups_strings_in_row_order) {
  std::mt19937 gen(20261207);
  const char* units[] = {"a", "b", "\xc3\xa9", "xyz", "", "\xf0\x9f\xa6\x80"};
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(7), int64_t(1000), int64_t(5003)}) {
    const int64_t count = n == 0 ? 3 : 1 + int64_t(gen() % uint32_t(std::max<int64_t>(1, n / 3)));
    Strings values;
    std::vector<int64_t> ids;
    for (int64_t i = 0; i < n; ++i) {
      if (gen() % 9 == 0) {
        values.push_back(std::nullopt);
      } else {
        std::string s;
        for (uint32_t k = gen() % 4; k > 0; --k) s += units[gen() % 6];
        values.push_back(s);
      }
      ids.push_back(gen() % 11 == 0 ? -1 : int64_t(gen() % uint32_t(count)));  // some groups stay empty
    }
    for (TypeId type : {TypeId::Utf8, TypeId::LargeUtf8}) {
      for (TypeId id_type : {TypeId::Int32, TypeId::Int64}) {
        const ColumnPtr col = on_test_device(host_strings(type, values));
        ColumnPtr idc;
        if (id_type == TypeId::Int32) idc = on_test_device(host_column<int32_t>(id_type, std::vector<int32_t>(ids.begin(), ids.end())));
        else idc = on_test_device(host_column<int64_t>(id_type, ids));
        for (const std::string& sep : {std::string(), std::string(","), std::string("\xc3\xa9-")}) {
          for (bool ignore : {true, false}) {
            const ColumnPtr got = group_join_strings(col->view(), idc->view(), count, sep, ignore);
            EXPECT_TRUE(got->type() == type);
            EXPECT_TRUE(read_strings(got) == reference(values, ids, count, sep, ignore));
          }
        }
        if (n > 10) {
          // A slice of both: offsets into the strings, the validity and the ids.
          const int64_t off = 3, len = n - 7;
          const Strings vs(values.begin() + off, values.begin() + off + len);
          const std::vector<int64_t> is(ids.begin() + off, ids.begin() + off + len);
          const ColumnPtr got = group_join_strings(col->slice(off, len)->view(), idc->slice(off, len)->view(), count, "|", false);
          EXPECT_TRUE(read_strings(got) == reference(vs, is, count, "|", false));
        }
      }
    }
  }
}

TEST(group_join, refuses_what_is_not_strings) {
  const ColumnPtr ints = on_test_device(host_column<int32_t>(TypeId::Int32, {1, 2}));
  const ColumnPtr ids = on_test_device(host_column<int32_t>(TypeId::Int32, {0, 0}));
  EXPECT_THROW_CODE(group_join_strings(ints->view(), ids->view(), 1, ",", true), ErrorCode::Dtype);
  const ColumnPtr s = on_test_device(host_strings(TypeId::Utf8, {std::string("a")}));
  EXPECT_THROW_CODE(group_join_strings(s->view(), ids->view(), 1, ",", true), ErrorCode::InvalidArgument);  // lengths differ
}
