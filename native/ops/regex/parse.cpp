// The regex parser: Rust regex / RE2 syntax to an Ast. Recursive descent over the pattern's
// bytes; flags ((?i) (?m) (?s) (?U), scoped or to the end of the group) are applied while
// parsing, so the Ast holds no flags: a case-insensitive literal is folded, `.` knows whether
// it takes '\n', and `^`/`$` are already text or line anchors.
#include <string>

#include "core/error.hpp"
#include "ops/expr/unicode_case.hpp"
#include "ops/regex/ast.hpp"

namespace gpudf::regex {
namespace {

struct Flags {
  bool i = false, m = false, s = false, U = false;
};

class Parser {
 public:
  explicit Parser(const std::string& p) : p_(p) {}

  Parsed run() {
    Parsed out;
    names_.push_back("");
    out.root = alternation(Flags{});
    if (at_ < p_.size()) fail("unmatched ')'");
    out.groups = groups_;
    out.names = names_;
    return out;
  }

 private:
  const std::string& p_;
  size_t at_ = 0;
  int32_t groups_ = 0;
  std::vector<std::string> names_;
  int depth_ = 0;

  [[noreturn]] void fail(const std::string& what, size_t at = std::string::npos) const {
    if (at == std::string::npos) at = at_;
    int64_t chars = 0;
    for (size_t k = 0; k < at && k < p_.size(); ++k) chars += (static_cast<unsigned char>(p_[k]) & 0xC0) != 0x80;
    GPUDF_FAIL(InvalidArgument, "invalid regex at position " + std::to_string(chars) + ": " + what);
  }

  bool more() const { return at_ < p_.size(); }
  char peek() const { return p_[at_]; }
  bool eat(char c) {
    if (more() && p_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  /// The next code point of the pattern (UTF-8; it came from a JS string, so valid).
  uint32_t next_cp() {
    int32_t len;
    bool valid;
    const uint32_t cp = expr::utf8_decode(p_.data(), int64_t(p_.size()), int64_t(at_), &len, &valid);
    at_ += size_t(len);
    return cp;
  }

  static Ast char_node(uint32_t cp, const Flags& f) {
    Ast a;
    a.kind = Ast::Kind::Char;
    a.cp = cp;
    a.fold = f.i;
    return a;
  }
  static Ast class_node(CharSet set, const Flags& f, bool negated) {
    if (f.i) set.case_fold();
    if (negated) set.negate();
    else set.normalize();
    Ast a;
    a.kind = Ast::Kind::Class;
    a.set = std::move(set);
    return a;
  }
  static Ast assert_node(RxAssert k) {
    Ast a;
    a.kind = Ast::Kind::Assert;
    a.assertion = k;
    return a;
  }

  Ast alternation(Flags flags) {
    Ast alt;
    alt.kind = Ast::Kind::Alt;
    for (;;) {
      alt.kids.push_back(concat(flags));
      if (!eat('|')) break;
    }
    if (alt.kids.size() == 1) return std::move(alt.kids[0]);
    return alt;
  }

  /// A sequence up to '|' or ')'; `flags` changes for the rest of the group at a bare (?flags).
  Ast concat(Flags& flags) {
    Ast seq;
    seq.kind = Ast::Kind::Concat;
    while (more() && peek() != '|' && peek() != ')') {
      const size_t start = at_;
      const char c = peek();
      if (c == '*' || c == '+' || c == '?' || (c == '{' && counted_ahead())) fail("repetition operator missing expression");
      if (c == '(' && at_ + 1 < p_.size() && p_[at_ + 1] == '?' && flag_group_ahead()) {
        at_ += 2;
        Flags f = flags;
        if (set_flags(f)) {
          flags = f;  // (?flags): to the end of the enclosing group
          continue;
        }
        ++at_;  // ':' -- (?flags:...) applies inside only
        seq.kids.push_back(group_body(f, -1, start));
        repeat(seq.kids, flags, start);
        continue;
      }
      seq.kids.push_back(atom(flags));
      repeat(seq.kids, flags, start);
    }
    if (seq.kids.size() == 1) return std::move(seq.kids[0]);
    if (seq.kids.empty()) return Ast{};
    return seq;
  }

  /// After "(?": flag letters then ')' or ':'.
  bool flag_group_ahead() const {
    size_t k = at_ + 2;
    while (k < p_.size() && (p_[k] == 'i' || p_[k] == 'm' || p_[k] == 's' || p_[k] == 'U' || p_[k] == 'u' ||
                             p_[k] == 'x' || p_[k] == '-'))
      ++k;
    return k < p_.size() && k > at_ + 2 && (p_[k] == ')' || p_[k] == ':');
  }

  /// Reads flags after "(?" into f. Returns true when it ended with ')' (a bare flag group);
  /// false at ':' (scoped), leaving at_ there.
  bool set_flags(Flags& f) {
    bool neg = false, any = false;
    const size_t start = at_;
    for (;;) {
      if (!more()) fail("unclosed flag group", start);
      const char c = p_[at_];
      if (c == ')' || c == ':') {
        if (neg && !any) fail("flag negation without a flag");
        if (c == ')') {
          ++at_;
          return true;
        }
        return false;
      }
      ++at_;
      if (c == '-') {
        if (neg) fail("repeated flag negation", at_ - 1);
        neg = true;
        any = false;
        continue;
      }
      any = true;
      switch (c) {
        case 'i': f.i = !neg; break;
        case 'm': f.m = !neg; break;
        case 's': f.s = !neg; break;
        case 'U': f.U = !neg; break;
        case 'u':
          if (neg) fail("(?-u) (byte-oriented matching) is not supported", at_ - 1);
          break;
        default: fail(std::string("unsupported flag '") + c + "'", at_ - 1);
      }
    }
  }

  bool counted_ahead() const {
    size_t k = at_ + 1;
    const size_t d0 = k;
    while (k < p_.size() && p_[k] >= '0' && p_[k] <= '9') ++k;
    return k > d0 && k < p_.size() && (p_[k] == '}' || p_[k] == ',');
  }

  int32_t number() {
    const size_t start = at_;
    int64_t v = 0;
    while (more() && peek() >= '0' && peek() <= '9') {
      v = v * 10 + (peek() - '0');
      if (v > 1000) fail("repetition count above 1000", start);
      ++at_;
    }
    if (at_ == start) fail("expected a repetition count");
    return int32_t(v);
  }

  /// Applies the quantifiers that follow the last atom in `kids`.
  void repeat(std::vector<Ast>& kids, const Flags& flags, size_t) {
    bool quantified = false;
    while (more()) {
      const char c = peek();
      int32_t lo, hi;
      const size_t qstart = at_;
      if (c == '*') lo = 0, hi = -1, ++at_;
      else if (c == '+') lo = 1, hi = -1, ++at_;
      else if (c == '?') lo = 0, hi = 1, ++at_;
      else if (c == '{' && counted_ahead()) {
        ++at_;
        lo = number();
        hi = lo;
        if (eat(',')) hi = more() && peek() == '}' ? -1 : number();
        if (!eat('}')) fail("unclosed counted repetition", qstart);
        if (hi >= 0 && hi < lo) fail("invalid repetition range (min > max)", qstart);
      } else {
        break;
      }
      if (quantified) fail("repetition of a repetition", qstart);
      quantified = true;
      bool greedy = !eat('?');
      if (flags.U) greedy = !greedy;
      Ast r;
      r.kind = Ast::Kind::Repeat;
      r.min = lo;
      r.max = hi;
      r.greedy = greedy;
      r.kids.push_back(std::move(kids.back()));
      kids.back() = std::move(r);
    }
  }

  Ast group_body(const Flags& flags, int32_t group, size_t open) {
    if (++depth_ > 250) fail("nesting too deep", open);
    Ast inner = alternation(flags);
    if (!eat(')')) fail("unclosed group", open);
    --depth_;
    Ast g;
    g.kind = Ast::Kind::Group;
    g.group = group;
    g.kids.push_back(std::move(inner));
    return g;
  }

  Ast group(const Flags& flags) {
    const size_t open = at_;
    ++at_;  // '('
    if (!eat('?')) {
      const int32_t index = ++groups_;
      names_.push_back("");
      return group_body(flags, index, open);
    }
    if (eat(':')) return group_body(flags, -1, open);
    if (eat('P')) {
      if (!eat('<')) fail("expected '<' after (?P", at_);
    } else if (!eat('<')) {
      fail("unknown group syntax", open);
    }
    const size_t name_at = at_;
    std::string name;
    while (more() && peek() != '>') {
      const char c = peek();
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (name.size() && c >= '0' && c <= '9') ||
                      (name.size() && (c == '.' || c == '[' || c == ']'));
      if (!ok) fail("invalid character in a group name", at_);
      name += c;
      ++at_;
    }
    if (!eat('>')) fail("unclosed group name", name_at);
    if (name.empty()) fail("empty group name", name_at);
    for (const std::string& n : names_)
      if (n == name) fail("duplicate group name '" + name + "'", name_at);
    const int32_t index = ++groups_;
    names_.push_back(name);
    return group_body(flags, index, open);
  }

  Ast atom(const Flags& flags) {
    const char c = peek();
    switch (c) {
      case '(': return group(flags);
      case '[': return class_node_parse(flags);
      case '.': {
        ++at_;
        Ast a;
        a.kind = Ast::Kind::Any;
        a.dotnl = flags.s;
        return a;
      }
      case '^': ++at_; return assert_node(flags.m ? RxAssert::BeginLine : RxAssert::BeginText);
      case '$': ++at_; return assert_node(flags.m ? RxAssert::EndLine : RxAssert::EndText);
      case '\\': return escape(flags);
      default: return char_node(next_cp(), flags);
    }
  }

  uint32_t hex_digits(size_t min_len, size_t max_len, bool braced) {
    const size_t start = at_;
    uint32_t v = 0;
    size_t n = 0;
    while (more() && n < max_len && std::isxdigit(static_cast<unsigned char>(peek()))) {
      const char h = peek();
      v = v * 16 + uint32_t(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      if (v > 0x10FFFF) fail("code point above U+10FFFF", start);
      ++at_;
      ++n;
    }
    if (n < min_len || (braced && n == 0)) fail("invalid hexadecimal escape", start);
    if (v >= 0xD800 && v <= 0xDFFF) fail("surrogate code point in an escape", start);
    return v;
  }

  uint32_t hex_escape(char kind) {
    if (eat('{')) {
      const uint32_t v = hex_digits(1, 8, true);
      if (!eat('}')) fail("unclosed hexadecimal escape");
      return v;
    }
    return hex_digits(kind == 'x' ? 2 : kind == 'u' ? 4 : 8, kind == 'x' ? 2 : kind == 'u' ? 4 : 8, false);
  }

  /// \p{...} / \pL after the 'p' or 'P'.
  CharSet property(bool& negated) {
    const size_t start = at_;
    std::string name;
    if (eat('{')) {
      if (eat('^')) negated = !negated;
      while (more() && peek() != '}') name += p_[at_++];
      if (!eat('}')) fail("unclosed Unicode class", start);
    } else {
      if (!more()) fail("incomplete Unicode class", start);
      name = std::string(1, p_[at_++]);
    }
    CharSet s;
    if (!unicode_class(name, s)) fail("unknown Unicode class '" + name + "'", start);
    return s;
  }

  /// An escape that stands for a set (\d \w \s \p and negations), for classes and atoms;
  /// returns false (at_ unchanged) when the escape is not one.
  bool set_escape(CharSet& out, bool& negated) {
    const char c = p_[at_ + 1];
    negated = false;
    switch (c) {
      case 'd': case 'w': case 's': at_ += 2; out = perl_class(c); return true;
      case 'D': case 'W': case 'S': at_ += 2; out = perl_class(char(c | 0x20)); negated = true; return true;
      case 'p': case 'P': at_ += 2; negated = c == 'P'; out = property(negated); return true;
      default: return false;
    }
  }

  /// A single-character escape (after the backslash is checked to exist).
  uint32_t char_escape() {
    const size_t start = at_;
    ++at_;
    if (!more()) fail("trailing backslash", start);
    const char c = p_[at_++];
    switch (c) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'f': return '\f';
      case 'v': return '\v';
      case 'a': return 0x07;
      case 'x': case 'u': case 'U': return hex_escape(c);
      default: break;
    }
    if ((c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E) ||
        c == ' ')
      return uint32_t(c);
    fail(std::string("unrecognized escape '\\") + c + "'", start);
  }

  Ast escape(const Flags& flags) {
    const size_t start = at_;
    if (at_ + 1 >= p_.size()) fail("trailing backslash", start);
    CharSet set;
    bool negated;
    if (set_escape(set, negated)) return class_node(std::move(set), flags, negated);
    switch (p_[at_ + 1]) {
      case 'A': at_ += 2; return assert_node(RxAssert::BeginText);
      case 'z': at_ += 2; return assert_node(RxAssert::EndText);
      case 'b': at_ += 2; return assert_node(RxAssert::WordBoundary);
      case 'B': at_ += 2; return assert_node(RxAssert::NotWordBoundary);
      default: break;
    }
    if (p_[at_ + 1] >= '0' && p_[at_ + 1] <= '9') fail("backreferences are not supported", start);
    return char_node(char_escape(), flags);
  }

  /// One code point of a class: a literal or a single-character escape.
  uint32_t class_char() {
    if (peek() == '\\') return char_escape();
    return next_cp();
  }

  bool posix_class(CharSet& out) {
    static const struct { const char* name; const char* ranges; } kPosix[] = {
        {"alnum", "09AZaz"}, {"alpha", "AZaz"}, {"ascii", "\x01\x7f"}, {"blank", "\t\t  "}, {"cntrl", "\x01\x1f\x7f\x7f"},
        {"digit", "09"}, {"graph", "!~"}, {"lower", "az"}, {"print", " ~"}, {"punct", "!/:@[`{~"},
        {"space", "\t\r  "}, {"upper", "AZ"}, {"word", "09AZ__az"}, {"xdigit", "09AFaf"}};
    const size_t close = p_.find(":]", at_ + 2);
    if (close == std::string::npos) return false;
    std::string name = p_.substr(at_ + 2, close - at_ - 2);
    bool neg = !name.empty() && name[0] == '^';
    if (neg) name = name.substr(1);
    for (const auto& pc : kPosix) {
      if (name != pc.name) continue;
      CharSet s;
      for (const char* r = pc.ranges; *r; r += 2) s.add(uint32_t(uint8_t(r[0])), uint32_t(uint8_t(r[1])));
      if (name == "ascii" || name == "cntrl") s.add(0, 0);
      if (neg) s.negate();
      out.add(s);
      at_ = close + 2;
      return true;
    }
    return false;
  }

  /// The items of a bracketed class up to its ']' (nested classes union in).
  CharSet class_items(const Flags& flags, size_t open) {
    CharSet set;
    bool first = true;
    for (;;) {
      if (!more()) fail("unclosed character class", open);
      const char c = peek();
      if (c == ']' && !first) {
        ++at_;
        return set;
      }
      first = false;
      if (c == '[') {
        if (at_ + 1 < p_.size() && p_[at_ + 1] == ':' && posix_class(set)) continue;
        Ast nested = class_node_parse(flags);
        set.add(nested.set);
        continue;
      }
      if ((c == '&' || c == '-' || c == '~') && at_ + 1 < p_.size() && p_[at_ + 1] == c)
        fail("class set operations (&&, --, ~~) are not supported");
      if (c == '\\' && at_ + 1 < p_.size()) {
        CharSet s;
        bool negated;
        if (set_escape(s, negated)) {
          if (negated) s.negate();
          set.add(s);
          continue;
        }
      }
      const size_t item = at_;
      const uint32_t lo = class_char();
      if (more() && peek() == '-' && at_ + 1 < p_.size() && p_[at_ + 1] != ']') {
        ++at_;
        if (peek() == '[') fail("invalid range end", at_);
        const uint32_t hi = class_char();
        if (hi < lo) fail("invalid class range (start > end)", item);
        set.add(lo, hi);
      } else {
        set.add(lo, lo);
      }
    }
  }

  Ast class_node_parse(const Flags& flags) {
    const size_t open = at_;
    ++at_;  // '['
    const bool negated = eat('^');
    CharSet set = class_items(flags, open);
    // Nested classes were folded already; folding again is harmless.
    return class_node(std::move(set), flags, negated);
  }
};

}  // namespace

Parsed parse_regex(const std::string& pattern) { return Parser(pattern).run(); }

}  // namespace gpudf::regex
