// Ast -> Pike VM program (Thompson's construction), the literal prefix and pure-literal
// analysis, and replacement templates.
#include <algorithm>
#include <cctype>
#include <string>

#include "core/error.hpp"
#include "ops/expr/unicode_case.hpp"
#include "ops/regex/ast.hpp"

namespace gpudf::regex {
namespace {

void append_utf8(std::string& out, uint32_t cp) {
  char buf[4];
  out.append(buf, size_t(expr::utf8_encode(cp, buf)));
}

class Emitter {
 public:
  explicit Emitter(Regex& rx) : rx_(rx) {}

  int32_t pc() const { return int32_t(rx_.insts.size()); }

  int32_t inst(RxOp op, int32_t x = 0, int32_t y = 0) {
    GPUDF_EXPECTS(rx_.insts.size() < size_t(kMaxInsts), InvalidArgument,
                  "invalid regex: the pattern compiles to more than " + std::to_string(kMaxInsts) +
                      " instructions (too large)");
    rx_.insts.push_back(Inst{op, x, y});
    return pc() - 1;
  }

  int32_t set_inst(const CharSet& s) {
    if (s.r.size() == 1 && s.r[0].first == s.r[0].second) return inst(RxOp::Char, int32_t(s.r[0].first));
    // The class's ASCII members as a 128-bit map (two pairs' worth of words) just before its
    // ranges, so the matchers test ASCII code points with one load (rx_class_has).
    uint32_t ascii[4] = {0, 0, 0, 0};
    for (const auto& x : s.r)
      for (uint32_t c = x.first; c <= x.second && c < 0x80; ++c) ascii[c >> 5] |= 1u << (c & 31);
    for (uint32_t w : ascii) rx_.ranges.push_back(w);
    const int32_t begin = int32_t(rx_.ranges.size() / 2);
    for (const auto& x : s.r) {
      rx_.ranges.push_back(x.first);
      rx_.ranges.push_back(x.second);
    }
    return inst(RxOp::Class, begin, int32_t(s.r.size()));
  }

  void emit(const Ast& a) {
    switch (a.kind) {
      case Ast::Kind::Empty: return;
      case Ast::Kind::Char:
        if (a.fold) set_inst(fold_orbit(a.cp));
        else inst(RxOp::Char, int32_t(a.cp));
        return;
      case Ast::Kind::Class:
        // An empty set matches nothing: a class no code point is in.
        set_inst(a.set);
        return;
      case Ast::Kind::Any: inst(a.dotnl ? RxOp::AnyNL : RxOp::Any); return;
      case Ast::Kind::Assert: inst(RxOp::Assert, int32_t(a.assertion)); return;
      case Ast::Kind::Concat:
        for (const Ast& k : a.kids) emit(k);
        return;
      case Ast::Kind::Group:
        if (a.group >= 0) inst(RxOp::Save, 2 * a.group);
        emit(a.kids[0]);
        if (a.group >= 0) inst(RxOp::Save, 2 * a.group + 1);
        return;
      case Ast::Kind::Alt: {
        // split L1, next; L1: e1; jmp end; next: split L2, ... ; last: en
        std::vector<int32_t> jumps;
        for (size_t k = 0; k < a.kids.size(); ++k) {
          if (k + 1 < a.kids.size()) {
            const int32_t sp = inst(RxOp::Split);
            rx_.insts[size_t(sp)].x = pc();
            emit(a.kids[k]);
            jumps.push_back(inst(RxOp::Jmp));
            rx_.insts[size_t(sp)].y = pc();
          } else {
            emit(a.kids[k]);
          }
        }
        for (int32_t j : jumps) rx_.insts[size_t(j)].x = pc();
        return;
      }
      case Ast::Kind::Repeat: repeat(a); return;
    }
  }

 private:
  Regex& rx_;

  /// split toward `body` first when greedy, toward `out` first when lazy.
  void set_split(int32_t sp, int32_t body, int32_t out, bool greedy) {
    rx_.insts[size_t(sp)].x = greedy ? body : out;
    rx_.insts[size_t(sp)].y = greedy ? out : body;
  }

  void repeat(const Ast& a) {
    const Ast& e = a.kids[0];
    for (int32_t k = 0; k + (a.max < 0 && a.min > 0 ? 1 : 0) < a.min; ++k) emit(e);
    if (a.max < 0) {
      if (a.min > 0) {
        // e+: L: e; split L, out
        const int32_t top = pc();
        emit(e);
        const int32_t sp = inst(RxOp::Split);
        set_split(sp, top, pc(), a.greedy);
      } else {
        // e*: L: split body, out; body: e; jmp L
        const int32_t sp = inst(RxOp::Split);
        emit(e);
        inst(RxOp::Jmp, sp);
        set_split(sp, sp + 1, pc(), a.greedy);
      }
      return;
    }
    // (max - min) optional copies, each skipping to the end.
    std::vector<int32_t> splits;
    for (int32_t k = a.min; k < a.max; ++k) {
      splits.push_back(inst(RxOp::Split));
      emit(e);
    }
    for (int32_t sp : splits) set_split(sp, sp + 1, pc(), a.greedy);
  }
};

/// True when every match of `a` starts at the beginning of the text.
bool anchored_at_start(const Ast& a) {
  if (a.kind == Ast::Kind::Assert) return a.assertion == RxAssert::BeginText;
  if (a.kind == Ast::Kind::Concat) return !a.kids.empty() && anchored_at_start(a.kids[0]);
  if (a.kind == Ast::Kind::Group) return anchored_at_start(a.kids[0]);
  if (a.kind == Ast::Kind::Alt) {
    for (const Ast& k : a.kids)
      if (!anchored_at_start(k)) return false;
    return true;
  }
  return false;
}

/// The bytes straight-line code from the start reads first; whether they are the whole program.
void literal_prefix(Regex& rx) {
  size_t k = 0;
  std::string bytes;
  while (k < rx.insts.size() && rx.insts[k].op == RxOp::Save && rx.insts[k].x == 0) ++k;
  while (k < rx.insts.size() && rx.insts[k].op == RxOp::Char) append_utf8(bytes, uint32_t(rx.insts[k++].x));
  rx.prefix = bytes;
  rx.literal = rx.groups == 0 && k + 2 == rx.insts.size() && rx.insts[k].op == RxOp::Save && rx.insts[k].x == 1;
}

/// The bytes a match can start with (the lead bytes of the code points the first reading
/// instructions take; assertions are passed through, which can only widen the set), unless
/// a match can be empty.
void first_bytes(Regex& rx) {
  uint32_t bits[8] = {};
  auto set = [&](uint32_t lo, uint32_t hi) {
    for (uint32_t b = lo; b <= hi; ++b) bits[b >> 5] |= 1u << (b & 31);
  };
  auto leads = [&](uint32_t lo, uint32_t hi) {
    if (hi >= kInvalidUnit) {
      set(0x80, 0xFF);  // a stray byte reads as the invalid unit
      hi = 0x10FFFF;
    }
    const struct { uint32_t first, last, shift, tag; } kLen[] = {
        {0, 0x7F, 0, 0}, {0x80, 0x7FF, 6, 0xC0}, {0x800, 0xFFFF, 12, 0xE0}, {0x10000, 0x10FFFF, 18, 0xF0}};
    for (const auto& L : kLen) {
      const uint32_t a = std::max(lo, L.first), b = std::min(hi, L.last);
      if (a <= b) set(L.tag | (a >> L.shift), L.tag | (b >> L.shift));
    }
  };
  std::vector<char> seen(rx.insts.size(), 0);
  std::vector<int32_t> todo{0};
  while (!todo.empty()) {
    const int32_t pc = todo.back();
    todo.pop_back();
    if (seen[size_t(pc)]) continue;
    seen[size_t(pc)] = 1;
    const Inst& in = rx.insts[size_t(pc)];
    switch (in.op) {
      case RxOp::Char: leads(uint32_t(in.x), uint32_t(in.x)); break;
      case RxOp::Class:
        for (int32_t k = 0; k < in.y; ++k) leads(rx.ranges[size_t(2 * (in.x + k))], rx.ranges[size_t(2 * (in.x + k) + 1)]);
        break;
      case RxOp::Any:
      case RxOp::AnyNL: leads(0, kInvalidUnit); break;
      case RxOp::Match: return;  // an empty match: every position is a start
      case RxOp::Split: todo.push_back(in.y); todo.push_back(in.x); break;
      case RxOp::Jmp: todo.push_back(in.x); break;
      case RxOp::Save:
      case RxOp::Assert: todo.push_back(pc + 1); break;
    }
  }
  rx.can_skip = true;
  for (int k = 0; k < 8; ++k) rx.first_bytes[k] = bits[k];
}

/// The mirror image of `a` without captures: it matches the reversed texts `a` matches.
Ast reversed(const Ast& a) {
  Ast r = a;
  for (Ast& k : r.kids) k = reversed(k);
  if (r.kind == Ast::Kind::Concat) std::reverse(r.kids.begin(), r.kids.end());
  if (r.kind == Ast::Kind::Group) r.group = -1;
  return r;
}

/// The leftmost-start DFA, for unanchored patterns that have no assertions and cannot match
/// empty (build_start_dfa); not for a pure literal (memchr finds it).
void start_dfa(Regex& rx, const Ast& root) {
  if (rx.literal || rx.anchored || !rx.can_skip) return;
  for (const Inst& in : rx.insts)
    if (in.op == RxOp::Assert) return;
  Regex rev;
  Emitter em(rev);
  em.emit(reversed(root));
  em.inst(RxOp::Match);
  build_start_dfa(rx, rev);
}

}  // namespace

int32_t Regex::group_index(const std::string& name) const {
  for (size_t k = 1; k < group_names.size(); ++k)
    if (group_names[k] == name) return int32_t(k);
  return -1;
}

Regex compile_regex(const std::string& pattern, bool literal) {
  Regex rx;
  Parsed parsed;
  if (literal) {
    // Each code point a Char: the pure-literal path takes it.
    Ast seq;
    seq.kind = Ast::Kind::Concat;
    for (size_t k = 0; k < pattern.size();) {
      int32_t len;
      bool valid;
      const uint32_t cp = expr::utf8_decode(pattern.data(), int64_t(pattern.size()), int64_t(k), &len, &valid);
      Ast ch;
      ch.kind = Ast::Kind::Char;
      ch.cp = cp;
      seq.kids.push_back(ch);
      k += size_t(len);
    }
    parsed.root = std::move(seq);
    parsed.names = {""};
  } else {
    parsed = parse_regex(pattern);
  }
  rx.groups = parsed.groups;
  rx.group_names = parsed.names;
  // \w's ranges first, for \b.
  CharSet word = perl_class('w');
  rx.word_begin = 0;
  rx.word_count = int32_t(word.r.size());
  for (const auto& x : word.r) {
    rx.ranges.push_back(x.first);
    rx.ranges.push_back(x.second);
  }
  Emitter em(rx);
  em.inst(RxOp::Save, 0);
  em.emit(parsed.root);
  em.inst(RxOp::Save, 1);
  em.inst(RxOp::Match);
  rx.anchored = anchored_at_start(parsed.root);
  literal_prefix(rx);
  first_bytes(rx);
  if (literal) rx.literal = true;
  build_dfa(rx);
  start_dfa(rx, parsed.root);
  return rx;
}

Template compile_template(const std::string& r, const Regex& rx, bool literal) {
  Template t;
  t.text = r;
  auto text = [&](size_t b, size_t e) {
    if (e > b) t.pieces.push_back(TemplatePiece{-1, int32_t(b), int32_t(e - b)});
  };
  if (literal) {
    text(0, r.size());
    return t;
  }
  size_t lit = 0, k = 0;
  while (k < r.size()) {
    if (r[k] != '$' || k + 1 >= r.size()) {
      ++k;
      continue;
    }
    if (r[k + 1] == '$') {
      text(lit, k + 1);  // one '$'
      k += 2;
      lit = k;
      continue;
    }
    std::string name;
    size_t end;
    if (r[k + 1] == '{') {
      const size_t close = r.find('}', k + 2);
      if (close == std::string::npos) {
        ++k;
        continue;  // no closing brace: literal '$'
      }
      name = r.substr(k + 2, close - k - 2);
      end = close + 1;
    } else {
      end = k + 1;
      while (end < r.size() && (std::isalnum(static_cast<unsigned char>(r[end])) || r[end] == '_')) ++end;
      name = r.substr(k + 1, end - k - 1);
    }
    if (name.empty()) {
      ++k;
      continue;
    }
    text(lit, k);
    int32_t g = -2;  // -2: a group that does not exist (nothing is written)
    bool digits = true;
    for (char c : name) digits = digits && c >= '0' && c <= '9';
    if (digits) {
      if (name.size() < 10) {
        const long v = std::stol(name);
        if (v <= rx.groups) g = int32_t(v);
      }
    } else {
      const int32_t at = rx.group_index(name);
      if (at >= 0) g = at;
    }
    if (g >= 0) {
      t.pieces.push_back(TemplatePiece{g, 0, 0});
      t.max_group = std::max(t.max_group, g);
    }
    k = end;
    lit = k;
  }
  text(lit, r.size());
  return t;
}

}  // namespace gpudf::regex
