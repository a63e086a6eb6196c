// The parsed form of a pattern (parse.cpp) that compile.cpp turns into a program, and the code
// point sets classes are made of (unicode_classes.cpp). Host only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ops/regex/regex.hpp"

namespace gpudf::regex {

/// One past the last code point; a byte that is not valid UTF-8 reads as this unit, which only
/// `.` and negated classes match.
inline constexpr uint32_t kInvalidUnit = 0x110000;

/// A set of code points: sorted, disjoint, non-adjacent [first, last] ranges.
struct CharSet {
  std::vector<std::pair<uint32_t, uint32_t>> r;
  void add(uint32_t lo, uint32_t hi) { r.emplace_back(lo, hi); }
  void add(const CharSet& o) { r.insert(r.end(), o.r.begin(), o.r.end()); }
  void normalize();
  void negate();      // complement in [0, kInvalidUnit]
  void case_fold();   // adds every code point that simple case folding makes equal to a member
};

/// The class a `\p{name}` names (general category, script, or alias); false when unknown.
bool unicode_class(const std::string& name, CharSet& out);
/// \d \w \s as Rust's regex has them (Unicode): 'd', 'w' or 's'.
CharSet perl_class(char which);
/// Every code point that simple case folding makes equal to `cp` (cp included).
CharSet fold_orbit(uint32_t cp);

struct Ast {
  enum class Kind { Empty, Char, Class, Any, Concat, Alt, Repeat, Group, Assert } kind = Kind::Empty;
  uint32_t cp = 0;
  bool fold = false;        // Char: case-insensitive
  CharSet set;              // Class: final (folded, negated)
  bool dotnl = false;       // Any: matches '\n' too
  std::vector<Ast> kids;    // Concat / Alt: the parts; Repeat / Group: one
  int32_t min = 0, max = -1;  // Repeat; max -1: unbounded
  bool greedy = true;
  int32_t group = -1;       // Group: capture index, -1 for (?:...)
  RxAssert assertion = RxAssert::BeginText;
};

struct Parsed {
  Ast root;
  int32_t groups = 0;
  std::vector<std::string> names;  // [groups + 1]
};

/// Parses `pattern`; throws InvalidArgument "invalid regex at position N: ...".
Parsed parse_regex(const std::string& pattern);

}  // namespace gpudf::regex
