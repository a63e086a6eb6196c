// ops/regex: the match-detection and leftmost-start DFAs against the Pike VM alone (the same
// answers on random strings for many patterns, anchors, (?m), UTF-8 and invalid bytes), the
// patterns that keep the VM (\b, \B, too many states, literals), and the column functions with
// and without the DFAs on the test device (CUDA under the simulator).
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ops/regex/regex_ops.hpp"
#include "ops/regex/regex_row.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::regex;
using namespace gpudf::testing;

namespace {

using Strings = std::vector<std::optional<std::string>>;

bool has_dfa(const std::string& pattern, bool literal = false) {
  return compile_regex(pattern, literal).view().dfa.base != nullptr;
}

bool has_start_dfa(const std::string& pattern) { return compile_regex(pattern).view().rdfa.base != nullptr; }

Regex without_dfa(const Regex& rx) {
  Regex copy = rx;
  copy.dfa.clear();
  return copy;
}

const std::vector<std::string> kRegexPatterns = {
    "a", "ab|cd", "a.*b", "^a", "^ab|b$", "a$", "^$", "(?m)^a", "(?m)b$", "(?m)^$", "(?m)^a$", "(?s)a.b", "a.b",
    "[^a]", "[^a\\n]b", "\\d+-\\d", "\xc3\xa9", "[\xc3\xa0-\xc3\xbf]x", "\\w", "\\W\\w", "\\s", "\\S+$", "a*", "",
    "x?y+", "(a|b)*c", "[ab]{2,4}x", "(?i)AB", "\\Aa", "a\\z", "(?m)$\\n", "a(?m:$)", "^(a|)b", "[^\\x00-\\x7f]",
    ".", "(?s).", "(?m)^\\S", "[[:alpha:]]+1", "\\p{L}\\d", "(?m)$^", "[0-9]{3}-[0-9]{4}", "special.*requests",
    "^[ab]+$", "(?m)^[ab]+$", "b(?:\\n|$)", "^.*$", "(?m)^.*$", "[^b]*c$", "\\d{2}$|^x", "a(?:b|$)c?",
    "(\\d+)-(\\d+)", "(a|ab)(c|bcd)?", "x*?y|a+?", "(?i)(special)|b.", "[^a]+?\\d", "(?s)a.+?b", "(\\w+)\\s(\\w+)",
    "\xc3\xa9+|\\p{Greek}", "[\\x{80}-\\x{10ffff}]+", "a{2,3}?b?", "(?:ab|a)(?:bc|c)+", "\\S+\\s*x"};

std::string random_string(std::mt19937& gen) {
  static const char* units[] = {"a", "b", "c", "x", "y", "1", "2", "-", " ", "\n", "\xc3\xa9", "\xff",
                                "\xe2\x80\x83", "_", "\xc3", "A", "B", "special", "requests"};
  const int len = int(gen() % 13);
  std::string s;
  for (int k = 0; k < len; ++k) s += units[gen() % (sizeof(units) / sizeof(units[0]))];
  return s;
}

ColumnPtr apply(const ColumnPtr& col, const Regex& rx, RegexFn fn, int32_t group, const Template* t) {
  return regex_apply(col, RegexCall{fn, &rx, group, t, -1});
}

}  // namespace

TEST(regex_dfa, which_patterns_get_a_dfa) {
  EXPECT_TRUE(has_dfa("special.*requests"));
  EXPECT_TRUE(has_dfa("[0-9]{3}-[0-9]{4}"));
  EXPECT_TRUE(has_dfa("\\w+@\\w+"));  // Unicode classes merge into a few input classes
  EXPECT_TRUE(has_dfa("(?m)^ab$"));
  EXPECT_TRUE(has_dfa("^abc"));
  EXPECT_FALSE(has_dfa("\\bfoo"));
  EXPECT_FALSE(has_dfa("foo\\B"));
  EXPECT_FALSE(has_dfa("abc", true));  // a pure literal keeps memchr
  EXPECT_FALSE(has_dfa("[ab]*a[ab]{12}"));  // 2^13 states: over the cap
  EXPECT_TRUE(has_dfa("[ab]*a[ab]{6}"));    // 2^7 states: under it
}

TEST(regex_dfa, agrees_with_the_pike_vm) {
  std::mt19937 gen(20261202);
  std::vector<std::string> inputs = {"", "\n", "a\n", "\na", "ab\n\n", "\xff", "\xc3"};
  for (int i = 0; i < 3000; ++i) inputs.push_back(random_string(gen));
  for (const std::string& p : kRegexPatterns) {
    const Regex rx = compile_regex(p);
    const Regex vm_only = without_dfa(rx);
    if (!rx.literal) EXPECT_TRUE(rx.view().dfa.base != nullptr);
    if (rx.literal) continue;  // a pure literal never takes the DFA
    EXPECT_TRUE(vm_only.view().dfa.base == nullptr);
    std::vector<int64_t> scratch(size_t(pike_scratch_bytes(vm_only.view().num_insts, 0) / 8 + 1));
    PikeVM vm(vm_only.view(), 0, scratch.data());
    int mismatches = 0;
    for (const std::string& s : inputs) {
      const bool want = vm.search(s.data(), int64_t(s.size()), 0);
      const bool got = dfa_matches(rx.view().dfa, s.data(), int64_t(s.size()));
      if (want != got && ++mismatches <= 3) std::fprintf(stderr, "  pattern /%s/ on \"%s\": vm %d dfa %d\n", p.c_str(), s.c_str(), want, got);
    }
    EXPECT_EQ(mismatches, 0);
  }
}

TEST(regex_dfa, which_patterns_get_a_leftmost_start_dfa) {
  EXPECT_TRUE(has_start_dfa("(\\d+):(\\d+)"));
  EXPECT_TRUE(has_start_dfa("(?i)x[ab]+?y|z"));
  EXPECT_TRUE(has_start_dfa("\\p{L}+\\d"));
  EXPECT_FALSE(has_start_dfa("^a"));     // anchored: the match starts at 0 or nowhere
  EXPECT_FALSE(has_start_dfa("a$"));     // assertions keep the matcher's own search
  EXPECT_FALSE(has_start_dfa("\\ba"));
  EXPECT_FALSE(has_start_dfa("a*"));     // matches empty: a match starts at 0
  EXPECT_FALSE(compile_regex("abc", true).view().rdfa.base);  // a pure literal keeps memchr
  EXPECT_FALSE(has_start_dfa("[ab]*a[ab]{12}b"));  // over the state cap
  // The blob holds both DFAs; dropping it drops both.
  const Regex rx = compile_regex("(\\d+):(\\d+)");
  EXPECT_TRUE(rx.view().dfa.base != nullptr);
  EXPECT_TRUE(without_dfa(rx).view().rdfa.base == nullptr);
}

TEST(regex_dfa, leftmost_start_agrees_with_the_pike_vm) {
  // dfa_leftmost_start against the first match's start by the VM alone, then whole searches
  // (every match and its groups, from the VM and from the backtracker) with and without it.
  std::mt19937 gen(20261207);
  std::vector<std::string> inputs = {"", "\n", "a\n", "\xff", "\xc3", "\xc3\xc3\xa9", "\xe2\x80", "a\x80\x80\x80\x80" "b"};
  for (int i = 0; i < 3000; ++i) inputs.push_back(random_string(gen));
  int32_t with_start = 0;
  for (const std::string& p : kRegexPatterns) {
    const Regex rx = compile_regex(p);
    if (!rx.view().rdfa.base) continue;
    ++with_start;
    const Regex vm_only = without_dfa(rx);
    const int32_t k = 2 * (rx.groups + 1);
    std::vector<int64_t> scratch(size_t(pike_scratch_bytes(rx.view().num_insts, k) / 8 + 1));
    std::vector<int64_t> scratch2(scratch.size()), bt(size_t(backtrack_scratch_bytes(1 << 16) / 8 + 1)), bt2(bt.size());
    PikeVM plain(vm_only.view(), k, scratch.data());
    int mismatches = 0;
    for (const std::string& s : inputs) {
      const int64_t n = int64_t(s.size());
      const int64_t want = plain.search(s.data(), n, 0) ? plain.slots()[0] : -1;
      const int64_t got = dfa_leftmost_start(rx.view().rdfa, s.data(), n);
      if (want != got && ++mismatches <= 3) std::fprintf(stderr, "  pattern /%s/ on \"%s\": vm %lld dfa %lld\n", p.c_str(), s.c_str(), (long long)want, (long long)got);
      for (bool backtrack : {false, true}) {
        PikeVM a(rx.view(), k, scratch.data()), b(vm_only.view(), k, scratch2.data());
        if (backtrack) a.use_backtracker(bt.data(), 1 << 16), b.use_backtracker(bt2.data(), 1 << 16);
        std::vector<int64_t> sa, sb;
        rx_for_each(a, s.data(), n, -1, [&](int64_t, int64_t) { sa.insert(sa.end(), a.slots(), a.slots() + k); });
        rx_for_each(b, s.data(), n, -1, [&](int64_t, int64_t) { sb.insert(sb.end(), b.slots(), b.slots() + k); });
        if (sa != sb && ++mismatches <= 3) std::fprintf(stderr, "  pattern /%s/ on \"%s\": matches differ\n", p.c_str(), s.c_str());
      }
    }
    EXPECT_EQ(mismatches, 0);
  }
  EXPECT_TRUE(with_start >= 20);
}

TEST(regex_dfa, column_functions_with_and_without_the_dfa) {
  std::mt19937 gen(7);
  for (TypeId type : {TypeId::Utf8, TypeId::LargeUtf8}) {
    Strings in;
    for (int i = 0; i < 700; ++i) {
      if (i % 13 == 5) in.push_back(std::nullopt);
      else in.push_back(random_string(gen));
    }
    ColumnPtr col = on_test_device(host_strings(type, in));
    ColumnPtr sliced = col->slice(13, 600);
    for (const std::string& p : {std::string("(a|b)+c"), std::string("\\d-?\\d"), std::string("^[ab]+$"), std::string("(?m)^\\S+$"),
                                 std::string("\\bab"), std::string("[ab]*a[ab]{12}"), std::string("(x)?y$")}) {
      const Regex rx = compile_regex(p);
      const Regex vm_only = without_dfa(rx);
      const Template t = compile_template("<$0>", rx, false);
      for (const ColumnPtr& c : {col, sliced}) {
        EXPECT_TRUE(read_values<bool>(apply(c, rx, RegexFn::Contains, 0, nullptr)) ==
                    read_values<bool>(apply(c, vm_only, RegexFn::Contains, 0, nullptr)));
        EXPECT_TRUE(read_values<uint32_t>(apply(c, rx, RegexFn::Count, 0, nullptr)) ==
                    read_values<uint32_t>(apply(c, vm_only, RegexFn::Count, 0, nullptr)));
        EXPECT_TRUE(read_values<uint32_t>(apply(c, rx, RegexFn::Find, 0, nullptr)) ==
                    read_values<uint32_t>(apply(c, vm_only, RegexFn::Find, 0, nullptr)));
        EXPECT_TRUE(read_strings(apply(c, rx, RegexFn::Extract, 0, nullptr)) ==
                    read_strings(apply(c, vm_only, RegexFn::Extract, 0, nullptr)));
        EXPECT_TRUE(read_strings(apply(c, rx, RegexFn::Replace, 0, &t)) == read_strings(apply(c, vm_only, RegexFn::Replace, 0, &t)));
      }
    }
  }
}
