// ops/expr case mapping: the shared per-character rules (unicode_case.hpp) against values from
// the Unicode Character Database, and case_map on the test device (CUDA under the simulator).
#include <optional>
#include <string>
#include <vector>

#include "ops/expr/expr.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::expr;
using namespace gpudf::testing;

namespace {

std::string convert(const std::string& s, CaseMode mode) {
  const int64_t n = utf8_case_convert(s.data(), int64_t(s.size()), mode, nullptr);
  std::string out(size_t(n), '\0');
  EXPECT_EQ(utf8_case_convert(s.data(), int64_t(s.size()), mode, out.data()), n);
  return out;
}

}  // namespace

TEST(case_map, full_mappings_change_lengths) {
  EXPECT_EQ(convert("stra\xc3\x9f" "e", CaseMode::Upper), std::string("STRASSE"));           // ß -> SS
  EXPECT_EQ(convert("\xce\xb4\xce\xad\xce\xbb\xcf\x84\xce\xb1", CaseMode::Upper),           // δέλτα
            std::string("\xce\x94\xce\x88\xce\x9b\xce\xa4\xce\x91"));                       // ΔΈΛΤΑ
  EXPECT_EQ(convert("\xef\xac\x81", CaseMode::Upper), std::string("FI"));                   // ﬁ ligature
  EXPECT_EQ(convert("\xc4\xb0", CaseMode::Lower), std::string("i\xcc\x87"));                 // İ -> i + dot above
  EXPECT_EQ(convert("\xe2\x84\xaa", CaseMode::Lower), std::string("k"));                    // Kelvin sign, 3 -> 1 byte
  EXPECT_EQ(convert("\xc8\xba", CaseMode::Lower), std::string("\xe2\xb1\xa5"));              // Ⱥ -> ⱥ, 2 -> 3 bytes
  EXPECT_EQ(convert("\xf0\x90\x90\x80", CaseMode::Lower), std::string("\xf0\x90\x90\xa8"));  // Deseret
  EXPECT_EQ(convert("", CaseMode::Upper), std::string(""));
}

TEST(case_map, final_sigma) {
  const std::string S = "\xce\xa3", A = "\xce\x91";  // Σ, Α
  EXPECT_EQ(convert(S + A + S, CaseMode::Lower), std::string("\xcf\x83\xce\xb1\xcf\x82"));  // σας
  EXPECT_EQ(convert(S, CaseMode::Lower), std::string("\xcf\x83"));                          // alone: σ
  EXPECT_EQ(convert(A + S + " x", CaseMode::Lower), std::string("\xce\xb1\xcf\x82 x"));     // word end
  EXPECT_EQ(convert(A + S + A, CaseMode::Lower), std::string("\xce\xb1\xcf\x83\xce\xb1"));  // inside a word
  EXPECT_EQ(convert(A + S + "'", CaseMode::Lower), std::string("\xce\xb1\xcf\x82'"));       // ignorable after
}

TEST(case_map, title_case_words) {
  EXPECT_EQ(convert("you talkin' to me?", CaseMode::Title), std::string("You Talkin' To Me?"));
  EXPECT_EQ(convert("'e.t. phone HOME'", CaseMode::Title), std::string("'E.T. Phone Home'"));
  EXPECT_EQ(convert("to infinity,and BEYOND!", CaseMode::Title), std::string("To Infinity,And Beyond!"));
  EXPECT_EQ(convert("\xc7\x86" "abc 9lives", CaseMode::Title), std::string("\xc7\x85" "abc 9lives"));  // ǆ -> ǅ
  EXPECT_EQ(convert("\xc3\x9f" "x", CaseMode::Title), std::string("Ssx"));  // ß titlecases to "Ss"
}

TEST(case_map, invalid_utf8_passes_through) {
  EXPECT_EQ(convert("a\xff" "b\xc3", CaseMode::Upper), std::string("A\xff" "B\xc3"));
  EXPECT_EQ(convert("\xe2\x82", CaseMode::Lower), std::string("\xe2\x82"));
}

TEST(case_map, columns_on_the_device) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    std::vector<std::optional<std::string>> in;
    std::vector<std::optional<std::string>> want;
    for (int i = 0; i < 70; ++i) {
      if (i % 7 == 3) {
        in.push_back(std::nullopt);
        want.push_back(std::nullopt);
      } else if (i % 2) {
        in.push_back("stra\xc3\x9f" "e " + std::to_string(i));
        want.push_back("STRASSE " + std::to_string(i));
      } else {
        in.push_back("abc" + std::to_string(i));
        want.push_back("ABC" + std::to_string(i));
      }
    }
    ColumnPtr col = on_test_device(host_strings(t, in));
    EXPECT_TRUE(read_strings(case_map(col, CaseMode::Upper)) == want);
    // A slice whose offset is not a multiple of 8.
    ColumnPtr sliced = col->slice(13, 33);
    std::vector<std::optional<std::string>> part(want.begin() + 13, want.begin() + 46);
    EXPECT_TRUE(read_strings(case_map(sliced, CaseMode::Upper)) == part);
    EXPECT_TRUE(read_strings(case_map(on_test_device(host_strings(t, {})), CaseMode::Lower)).empty());
  }
}
