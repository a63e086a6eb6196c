// ops/regex: the parser and Pike VM against hand-checked matches (Rust regex semantics), typed
// errors with positions, the pathological pattern, and the column functions on the test device
// (CUDA under the simulator).
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ops/regex/regex_ops.hpp"
#include "ops/regex/regex_row.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::regex;
using namespace gpudf::testing;

namespace {

/// Every match as "[b,e)" plus its groups "g1=b:e", by the Pike VM alone or with the
/// backtracker taking rows under `budget` (instructions x (length + 1)).
std::string spans_by(const Regex& rx, const std::string& s, int64_t budget) {
  const int32_t k = 2 * (rx.groups + 1);
  // Zeroed as fresh vectors would be, but reused from call to call: a fresh 0.5 MB vector per
  // call made the random-pattern test spend minutes mapping and unmapping memory.
  static std::vector<int64_t> scratch, bt;
  scratch.assign(size_t(pike_scratch_bytes(rx.view().num_insts, k) / 8 + 1), 0);
  bt.assign(size_t(backtrack_scratch_bytes(budget) / 8 + 1), 0);
  PikeVM vm(rx.view(), k, scratch.data());
  if (budget > 0) vm.use_backtracker(bt.data(), budget);
  std::string out;
  rx_for_each(vm, s.data(), int64_t(s.size()), -1, [&](int64_t b, int64_t e) {
    out += "[" + std::to_string(b) + "," + std::to_string(e) + ")";
    for (int32_t g = 1; g <= rx.groups; ++g)
      out += " g" + std::to_string(g) + "=" + std::to_string(vm.slots()[2 * g]) + ":" + std::to_string(vm.slots()[2 * g + 1]);
  });
  return out;
}

/// spans_by with the VM; every hand-checked case also requires the backtracker to agree.
std::string spans(const std::string& pattern, const std::string& s) {
  Regex rx = compile_regex(pattern);
  const std::string vm = spans_by(rx, s, 0);
  const std::string bt = spans_by(rx, s, 1 << 22);
  return vm == bt ? vm : "the backtracker gives " + bt + " where the VM gives " + vm;
}

std::string error_of(const std::string& pattern) {
  try {
    compile_regex(pattern);
  } catch (const Error& e) {
    return std::string(error_code_name(e.code())) + " " + e.what();
  }
  return "no error";
}

}  // namespace

TEST(regex, literals_classes_and_alternation) {
  EXPECT_EQ(spans("abc", "xxabcabc"), std::string("[2,5)[5,8)"));
  EXPECT_EQ(spans("a|ab", "ab"), std::string("[0,1)"));  // leftmost-first, not longest
  EXPECT_EQ(spans("ab|a", "ab"), std::string("[0,2)"));
  EXPECT_EQ(spans("[a-c]+", "xabcdcba"), std::string("[1,4)[5,8)"));
  EXPECT_EQ(spans("[^a-c]", "abz"), std::string("[2,3)"));
  EXPECT_EQ(spans("[]a]", "]a"), std::string("[0,1)[1,2)"));
  EXPECT_EQ(spans("[a-]", "-a"), std::string("[0,1)[1,2)"));
  EXPECT_EQ(spans("\\d+", "a12\xd9\xa3x"), std::string("[1,5)"));  // \d is Unicode: ARABIC-INDIC THREE
  EXPECT_EQ(spans("\\w+", "h\xc3\xa9llo wor_ld"), std::string("[0,6)[7,13)"));
  EXPECT_EQ(spans("\\s", "a\tb\xe2\x80\x83" "c"), std::string("[1,2)[3,6)"));   // EM SPACE
  EXPECT_EQ(spans("[[:digit:]x]+", "a1x2"), std::string("[1,4)"));
  EXPECT_EQ(spans("\\x41\\x{1F600}\\u00e9", "A\xf0\x9f\x98\x80\xc3\xa9"), std::string("[0,7)"));
  EXPECT_EQ(spans("a\\.b", "axb a.b"), std::string("[4,7)"));
}

TEST(regex, unicode_classes) {
  EXPECT_EQ(spans("\\p{Greek}+", "abc \xce\xb1\xce\xb2\xce\xb3"), std::string("[4,10)"));
  EXPECT_EQ(spans("\\p{Lu}", "aB\xc3\x89"), std::string("[1,2)[2,4)"));  // É
  EXPECT_EQ(spans("\\pN+", "x\xe2\x85\xa0" "3"), std::string("[1,5)"));    // ROMAN NUMERAL ONE is N
  EXPECT_EQ(spans("\\P{L}", "a1"), std::string("[1,2)"));
  EXPECT_EQ(spans("\\p{Han}", "x\xe4\xb8\xad"), std::string("[1,4)"));
  EXPECT_EQ(spans("[\\p{Cyrillic}\\d]+", "\xd0\xb4" "1a"), std::string("[0,3)"));
  EXPECT_EQ(spans("\\p{^Ll}", "aB"), std::string("[1,2)"));
  EXPECT_EQ(spans("\\p{sc=Latin}", "\xce\xb1z"), std::string("[2,3)"));
}

TEST(regex, quantifiers_greedy_and_lazy) {
  EXPECT_EQ(spans("a+?", "aaa"), std::string("[0,1)[1,2)[2,3)"));
  EXPECT_EQ(spans("a{2}", "aaaaa"), std::string("[0,2)[2,4)"));
  EXPECT_EQ(spans("a{2,}", "a aa aaaa"), std::string("[2,4)[5,9)"));
  EXPECT_EQ(spans("a{1,2}", "aaa"), std::string("[0,2)[2,3)"));
  EXPECT_EQ(spans("a{1,2}?", "aa"), std::string("[0,1)[1,2)"));
  EXPECT_EQ(spans("<.*>", "<a><b>"), std::string("[0,6)"));
  EXPECT_EQ(spans("<.*?>", "<a><b>"), std::string("[0,3)[3,6)"));
  EXPECT_EQ(spans("(?U)a+", "aa"), std::string("[0,1)[1,2)"));
  // Empty matches: none right where the previous match ended (Rust's regex).
  EXPECT_EQ(spans("a*", "baaa"), std::string("[0,0)[1,4)"));
  EXPECT_EQ(spans("", "ab"), std::string("[0,0)[1,1)[2,2)"));
  EXPECT_EQ(spans("x*", "\xc3\xa9"), std::string("[0,0)[2,2)"));  // never inside a code point
}

TEST(regex, anchors_and_boundaries) {
  EXPECT_EQ(spans("^a", "aa"), std::string("[0,1)"));
  EXPECT_EQ(spans("a$", "aa"), std::string("[1,2)"));
  EXPECT_EQ(spans("(?m)^x$", "a\nx\nx"), std::string("[2,3)[4,5)"));
  EXPECT_EQ(spans("^x$", "a\nx"), std::string(""));
  EXPECT_EQ(spans("\\Aa|b\\z", "ab ab"), std::string("[0,1)[4,5)"));
  EXPECT_EQ(spans("\\bfoo\\b", "foo foobar foo"), std::string("[0,3)[11,14)"));
  EXPECT_EQ(spans("\\Boo\\B", "foo xoox"), std::string("[5,7)"));
  EXPECT_EQ(spans("\\b\\w", "\xc3\xa9t\xc3\xa9 x"), std::string("[0,2)[6,7)"));  // é is a word character
  EXPECT_EQ(spans(".", "\n"), std::string(""));
  EXPECT_EQ(spans("(?s).", "\n"), std::string("[0,1)"));
}

TEST(regex, groups_and_flags) {
  EXPECT_EQ(spans("(a+)(b)?", "aab a"), std::string("[0,3) g1=0:2 g2=2:3[4,5) g1=4:5 g2=-1:-1"));
  EXPECT_EQ(spans("(?:ab)+(c)", "ababc"), std::string("[0,5) g1=4:5"));
  EXPECT_EQ(spans("(?P<y>\\d{4})-(?<m>\\d\\d)", "on 2024-05"), std::string("[3,10) g1=3:7 g2=8:10"));
  EXPECT_EQ(spans("(a|ab)(c|bcd)", "abcd"), std::string("[0,4) g1=0:1 g2=1:4"));
  EXPECT_EQ(spans("(a*)+", "b"), std::string("[0,0) g1=0:0[1,1) g1=1:1"));
  EXPECT_EQ(spans("(?i)stra\xc3\x9f" "e", "STRA\xe1\xba\x9e" "E"), std::string("[0,8)"));  // ß ~ ẞ (simple folding)
  EXPECT_EQ(spans("(?i)k", "Kk\xe2\x84\xaa"), std::string("[0,1)[1,2)[2,5)"));               // KELVIN SIGN
  EXPECT_EQ(spans("(?i)[^k]", "K\xe2\x84\xaa" "a"), std::string("[4,5)"));
  EXPECT_EQ(spans("a(?i:B)c", "aBc abc aBC"), std::string("[0,3)[4,7)"));
  EXPECT_EQ(spans("a(?i)b|c", "aB C"), std::string("[0,2)[3,4)"));  // the flag reaches the next alternative
  EXPECT_EQ(spans("(?i)a(?-i)b", "AB Ab"), std::string("[3,5)"));
  EXPECT_EQ(spans("(?i)\\p{Lu}", "a"), std::string("[0,1)"));
}

TEST(regex, invalid_patterns_name_the_position) {
  EXPECT_EQ(error_of("(a"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 0: unclosed group"));
  EXPECT_EQ(error_of("ab)"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 2: unmatched ')'"));
  EXPECT_EQ(error_of("[a"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 0: unclosed character class"));
  EXPECT_EQ(error_of("\xc3\xa9*+"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 2: repetition of a repetition"));
  EXPECT_EQ(error_of("*a"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 0: repetition operator missing expression"));
  EXPECT_EQ(error_of("a\\q"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 1: unrecognized escape '\\q'"));
  EXPECT_EQ(error_of("a{3,1}"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 1: invalid repetition range (min > max)"));
  EXPECT_EQ(error_of("\\p{Klingon}"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 2: unknown Unicode class 'Klingon'"));
  EXPECT_EQ(error_of("[z-a]"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 1: invalid class range (start > end)"));
  EXPECT_EQ(error_of("(a)\\1"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 3: backreferences are not supported"));
  EXPECT_EQ(error_of("(?<n>a)(?<n>b)"), std::string("ERR_INVALID_ARGUMENT invalid regex at position 10: duplicate group name 'n'"));
  EXPECT_THROW_CODE(compile_regex("(((a{1000}){1000}){1000})"), ErrorCode::InvalidArgument);
}

TEST(regex, pathological_pattern_is_linear) {
  // A backtracking matcher takes exponential time here; the Pike VM is one pass.
  const std::string many(100000, 'a');
  EXPECT_EQ(spans("(a*)*b", many), std::string(""));
  EXPECT_EQ(spans("(a|aa)*c", many), std::string(""));
  EXPECT_EQ(spans("(?:a*)*$", many), std::string("[0,100000)"));
}

TEST(regex, backtracker_matches_the_vm_on_random_patterns) {
  // Patterns from a small grammar (classes, alternation, greedy and lazy repeats, groups,
  // anchors, boundaries) over strings of a few letters, so that most patterns match somewhere
  // and the two matchers' priorities are tested, not just "no match".
  uint32_t state = 12345;
  auto next = [&](uint32_t m) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state % m;
  };
  const char* atoms[] = {"a", "b", "[ab]", "[^a]", ".", "\\d", "\\w", "x?", "(a|ab)", "(?:b|)", "\\b", "^", "$", "(a*)", "(b+?)"};
  const char* reps[] = {"", "", "*", "+", "?", "*?", "+?", "{1,2}", "{2}"};
  int32_t checked = 0;
  for (int t = 0; t < 600; ++t) {
    std::string pat;
    const uint32_t parts = 1 + next(4);
    for (uint32_t p = 0; p < parts; ++p) {
      std::string atom = atoms[next(15)];
      if (next(4) == 0) atom = "(" + atom + std::string(atoms[next(15)]) + ")";
      pat += atom + reps[next(9)];
      if (next(6) == 0) pat += "|";
    }
    Regex rx;
    try {
      rx = compile_regex(pat);
    } catch (const Error&) {
      continue;  // e.g. a repeat of an assertion
    }
    for (int r = 0; r < 8; ++r) {
      std::string s;
      const uint32_t len = next(12);
      for (uint32_t c = 0; c < len; ++c) s += "ab1 x\n"[next(6)];
      EXPECT_EQ(spans_by(rx, s, 1 << 22), spans_by(rx, s, 0));
      ++checked;
    }
  }
  EXPECT_TRUE(checked > 3000);
}

TEST(regex, literal_fast_paths) {
  Regex lit = compile_regex("a.b", true);
  EXPECT_TRUE(lit.literal);
  Regex plain = compile_regex("h\xc3\xa9llo");
  EXPECT_TRUE(plain.literal);
  EXPECT_EQ(plain.prefix, std::string("h\xc3\xa9llo"));
  Regex pre = compile_regex("abc\\d+");
  EXPECT_FALSE(pre.literal);
  EXPECT_EQ(pre.prefix, std::string("abc"));
  EXPECT_EQ(spans("abc\\d+", "abcx abc12 abc3"), std::string("[5,10)[11,15)"));
  EXPECT_TRUE(compile_regex("^ab").anchored);
  EXPECT_FALSE(compile_regex("(?m)^ab").anchored);
}

namespace {

using Strings = std::vector<std::optional<std::string>>;

ColumnPtr run_call(const ColumnPtr& col, RegexFn fn, const std::string& pattern, int32_t group = 0,
                   const std::string& value = "", int64_t limit = -1, bool literal = false) {
  Regex rx = compile_regex(pattern, literal);
  Template t = compile_template(value, rx, literal);
  return regex_apply(col, RegexCall{fn, &rx, group, &t, limit});
}

}  // namespace

TEST(regex, column_functions_on_the_device) {
  for (TypeId type : {TypeId::Utf8, TypeId::LargeUtf8}) {
    Strings in, want_extract, want_replace;
    std::vector<std::optional<uint32_t>> want_count, want_find;
    std::vector<std::optional<bool>> want_contains;
    for (int i = 0; i < 150; ++i) {
      if (i % 11 == 4) {
        in.push_back(std::nullopt);
        want_contains.push_back(std::nullopt);
        want_count.push_back(std::nullopt);
        want_find.push_back(std::nullopt);
        want_extract.push_back(std::nullopt);
        want_replace.push_back(std::nullopt);
        continue;
      }
      const std::string num = std::to_string(i);
      if (i % 3 == 0) {
        in.push_back("\xc3\xa9t\xc3\xa9 " + num + "-" + num);  // "été N-N"
        want_contains.push_back(true);
        want_count.push_back(2);
        want_find.push_back(4);
        want_extract.push_back(num);
        want_replace.push_back("\xc3\xa9t\xc3\xa9 <" + num + ">-<" + num + ">");
      } else {
        in.push_back("no digits " + std::string(size_t(i % 5), 'x'));
        want_contains.push_back(false);
        want_count.push_back(0);
        want_find.push_back(std::nullopt);
        want_extract.push_back(std::nullopt);
        want_replace.push_back(in.back());
      }
    }
    ColumnPtr col = on_test_device(host_strings(type, in));
    EXPECT_TRUE(read_values<bool>(run_call(col, RegexFn::Contains, "\\d")) == want_contains);
    EXPECT_TRUE(read_values<uint32_t>(run_call(col, RegexFn::Count, "[0-9]+")) == want_count);
    EXPECT_TRUE(read_values<uint32_t>(run_call(col, RegexFn::Find, "\\d")) == want_find);
    EXPECT_TRUE(read_strings(run_call(col, RegexFn::Extract, "(\\d+)-", 1)) == want_extract);
    EXPECT_TRUE(read_strings(run_call(col, RegexFn::Replace, "(?P<n>\\d+)", 0, "<${n}>")) == want_replace);
    // A slice whose offset is not a multiple of 8.
    ColumnPtr sliced = col->slice(13, 101);
    Strings part(want_replace.begin() + 13, want_replace.begin() + 114);
    EXPECT_TRUE(read_strings(run_call(sliced, RegexFn::Replace, "(\\d+)", 0, "<$1>")) == part);
    EXPECT_TRUE(read_strings(run_call(on_test_device(host_strings(type, {})), RegexFn::Replace, "a", 0, "b")).empty());
  }
}

TEST(regex, replace_templates_and_limits) {
  ColumnPtr col = on_test_device(host_strings(TypeId::Utf8, {std::string("a1b22c333"), std::string("$x"), std::string("")}));
  EXPECT_TRUE(read_strings(run_call(col, RegexFn::Replace, "\\d+", 0, "#", 1)) ==
              Strings({std::string("a#b22c333"), std::string("$x"), std::string("")}));
  EXPECT_TRUE(read_strings(run_call(col, RegexFn::Replace, "(\\d)(\\d*)", 0, "[$2|$1|$$|$9|${1}x]", 2)) ==
              Strings({std::string("a[|1|$||1x]b[2|2|$||2x]c333"), std::string("$x"), std::string("")}));
  // $1x names a group "1x", which does not exist: nothing is written (as Rust's regex).
  EXPECT_TRUE(read_strings(run_call(col, RegexFn::Replace, "(\\d)", 0, "$1x", -1)) ==
              Strings({std::string("abc"), std::string("$x"), std::string("")}));
  EXPECT_TRUE(read_strings(run_call(col, RegexFn::Replace, "$x", 0, "$1", -1, true)) ==
              Strings({std::string("a1b22c333"), std::string("$1"), std::string("")}));
  EXPECT_TRUE(read_strings(run_call(col, RegexFn::Replace, "", 0, "-", -1)) ==
              Strings({std::string("-a-1-b-2-2-c-3-3-3-"), std::string("-$-x-"), std::string("-")}));
}

TEST(regex, large_programs_on_the_device) {
  // About 1,500 instructions: the CUDA scratch per thread grows with the program.
  const std::string pattern = "x(?:[a-c]{1,500})y";
  Regex rx = compile_regex(pattern);
  EXPECT_TRUE(rx.insts.size() > 1000);
  Strings in;
  std::vector<std::optional<uint32_t>> want;
  for (int i = 0; i < 300; ++i) {
    const int len = (i * 37) % 620;
    in.push_back("x" + std::string(size_t(len), "abc"[i % 3]) + "y");
    want.push_back(len >= 1 && len <= 500 ? 1u : 0u);
  }
  ColumnPtr col = on_test_device(host_strings(TypeId::Utf8, in));
  EXPECT_TRUE(read_values<uint32_t>(run_call(col, RegexFn::Count, pattern)) == want);
}
