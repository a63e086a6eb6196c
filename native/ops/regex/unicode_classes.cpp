// Code point sets: normalisation, complement, simple case folding, and the named Unicode classes
// of the generated tables (scripts/gen-regex-tables.py -> regex_tables.inc).
#include <algorithm>
#include <cctype>

#include "ops/regex/ast.hpp"

namespace gpudf::regex {
namespace {

struct NamedClass {
  const char* name;
  int32_t begin;  // first [first, last] pair in kRegexRanges
  int32_t count;
};

#include "ops/regex/regex_tables.inc"

constexpr int32_t kFoldPairs = int32_t(sizeof(kRegexFoldOrbits) / sizeof(kRegexFoldOrbits[0]) / 2);

/// Loose matching of property names (UAX #44 LM3): case, spaces, '_' and '-' ignored.
std::string loose(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '_' && c != '-') out += char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

CharSet table_class(const NamedClass& c) {
  CharSet s;
  for (int32_t k = 0; k < c.count; ++k) s.add(kRegexRanges[2 * (c.begin + k)], kRegexRanges[2 * (c.begin + k) + 1]);
  return s;
}

/// The first fold pair whose code point is >= cp.
int32_t fold_lower_bound(uint32_t cp) {
  int32_t lo = 0, hi = kFoldPairs;
  while (lo < hi) {
    const int32_t mid = (lo + hi) / 2;
    if (kRegexFoldOrbits[2 * mid] < cp) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace

void CharSet::normalize() {
  std::sort(r.begin(), r.end());
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& x : r) {
    if (!out.empty() && x.first <= out.back().second + 1) out.back().second = std::max(out.back().second, x.second);
    else out.push_back(x);
  }
  r = std::move(out);
}

void CharSet::negate() {
  normalize();
  std::vector<std::pair<uint32_t, uint32_t>> out;
  uint32_t next = 0;
  for (const auto& x : r) {
    if (x.first > next) out.emplace_back(next, x.first - 1);
    next = x.second + 1;
  }
  if (next <= kInvalidUnit) out.emplace_back(next, kInvalidUnit);
  r = std::move(out);
}

void CharSet::case_fold() {
  const size_t n = r.size();
  for (size_t k = 0; k < n; ++k) {
    const uint32_t lo = r[k].first, hi = r[k].second;
    for (int32_t j = fold_lower_bound(lo); j < kFoldPairs && kRegexFoldOrbits[2 * j] <= hi; ++j) {
      // Walk the orbit from this member; every member is added.
      uint32_t c = kRegexFoldOrbits[2 * j + 1];
      for (int guard = 0; guard < 8 && c != kRegexFoldOrbits[2 * j]; ++guard) {
        r.emplace_back(c, c);
        const int32_t at = fold_lower_bound(c);
        if (at >= kFoldPairs || kRegexFoldOrbits[2 * at] != c) break;
        c = kRegexFoldOrbits[2 * at + 1];
      }
    }
  }
  normalize();
}

CharSet fold_orbit(uint32_t cp) {
  CharSet s;
  s.add(cp, cp);
  s.case_fold();
  return s;
}

bool unicode_class(const std::string& name, CharSet& out) {
  std::string key = name;
  const size_t eq = key.find('=');
  if (eq != std::string::npos) {
    const std::string prop = loose(key.substr(0, eq));
    if (prop != "gc" && prop != "generalcategory" && prop != "sc" && prop != "script") return false;
    key = key.substr(eq + 1);
  }
  const std::string want = loose(key);
  if (want == "any") {
    out.add(0, 0x10FFFF);
    return true;
  }
  for (const NamedClass& c : kRegexClasses) {
    // The Perl classes are reached through \d \w \s only.
    const std::string cname = c.name;
    if (cname == "word" || cname == "digit" || cname == "space") continue;
    if (loose(cname) == want) {
      out.add(table_class(c));
      return true;
    }
  }
  return false;
}

CharSet perl_class(char which) {
  const char* name = which == 'd' ? "digit" : which == 'w' ? "word" : "space";
  for (const NamedClass& c : kRegexClasses)
    if (std::string(c.name) == name) return table_class(c);
  return {};
}

}  // namespace gpudf::regex
