// The regex engine: a pattern in the syntax of Rust's regex crate (and RE2) is parsed and
// compiled once, on the host (parse.cpp, compile.cpp), into a flat program of POD instructions
// for a Pike VM (pike.hpp: a Thompson NFA simulation with capture slots). Matching is linear in
// the input whatever the pattern: `(a*)*b` over 1e5 'a's is 1e5 steps of at most a program's
// worth of threads. The same GPUDF_HD matcher runs in the CPU loops and in the CUDA kernels.
//
// Text is UTF-8; the program steps over code points (a byte that is not valid UTF-8 is one unit
// that only `.`-like classes and negated classes match). Offsets are byte offsets in the row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/hd.hpp"

namespace gpudf::regex {

enum class RxOp : uint8_t {
  Char,    // x: the code point
  Class,   // ranges [x, x + y) of the program's range table (pairs of first, last)
  Any,     // any code point but '\n'
  AnyNL,   // any code point
  Split,   // threads to x (preferred) and y
  Jmp,     // to x
  Save,    // capture slot x takes the position
  Assert,  // x: an RxAssert
  Match,
};

enum class RxAssert : int32_t { BeginText, EndText, BeginLine, EndLine, WordBoundary, NotWordBoundary };

struct Inst {
  RxOp op;
  int32_t x;
  int32_t y;
};

/// The match-detection DFA (dfa.cpp builds it, dfa.hpp walks it): one flat blob of 32-bit
/// words so it uploads like the program. Its input units are the program's (code points; an
/// invalid byte is one unit), mapped to equivalence classes: `ascii` for code points < 0x80,
/// else a binary search over the sorted segment starts. States are rows of `classes` 16-bit
/// next states; `flags` says which are absorbing (a match seen, or no thread left) and which
/// match at the end of the text.
struct DfaView {
  const uint32_t* base = nullptr;  // null: no DFA, the Pike VM decides
  int32_t classes = 0, states = 0, start = 0, segs = 0;
  int32_t ascii_at = 0, seg_class_at = 0, flags_at = 0, trans_at = 0;  // byte offsets into base
  bool skip = false;      // in `start`, a unit whose first byte is not in `first` leads back to it
  uint32_t first[8] = {};  // the program's first_bytes
};

/// A compiled program as the matcher reads it: plain pointers, so it can live on a device.
struct RegexView {
  const Inst* insts = nullptr;
  int32_t num_insts = 0;
  const uint32_t* ranges = nullptr;  // flattened [first, last] pairs, each class's sorted
  int32_t word_begin = 0, word_count = 0;  // the pairs of \w (for \b), in `ranges`
  int32_t num_slots = 2;             // 2 * (capture groups + 1)
  bool anchored = false;             // every match starts at offset 0 (\A or ^ without (?m))
  bool literal = false;              // the pattern is the bytes `prefix` and nothing else
  const char* prefix = nullptr;      // bytes every match starts with (may be empty)
  int32_t prefix_len = 0;
  bool can_skip = false;             // no empty match: a match starts at a byte in first_bytes
  uint32_t first_bytes[8] = {};      // bit b: a match may start with byte b
  DfaView dfa;                       // whether a search from 0 finds anything, when base is set
  DfaView rdfa;                      // where the leftmost match starts, when base is set
};

/// The host side of a compiled pattern: owns what a RegexView points to.
struct Regex {
  std::vector<Inst> insts;
  std::vector<uint32_t> ranges;
  std::string prefix;
  int32_t word_begin = 0, word_count = 0;
  int32_t groups = 0;                     // capture groups, not counting the whole match
  std::vector<std::string> group_names;   // [groups + 1]; "" for unnamed
  bool anchored = false;
  bool literal = false;
  bool can_skip = false;
  uint32_t first_bytes[8] = {};
  std::vector<uint32_t> dfa;  // the DFAs' blobs, one after the other (empty: none, see build_dfa)
  bool has_dfa = false;       // the match-detection DFA, at word 0
  DfaView dfa_layout;         // its layout (base unset)
  bool has_rdfa = false;      // the leftmost-start DFA (build_start_dfa), at word rdfa_at
  int32_t rdfa_at = 0;
  DfaView rdfa_layout;

  RegexView view() const { return view_at(insts.data(), ranges.data(), prefix.data(), dfa.empty() ? nullptr : dfa.data()); }
  /// The view over copies of insts / ranges / prefix / dfa that live elsewhere (a device).
  RegexView view_at(const Inst* i, const uint32_t* r, const char* p, const uint32_t* d) const {
    RegexView v;
    v.insts = i;
    v.num_insts = int32_t(insts.size());
    v.ranges = r;
    v.word_begin = word_begin;
    v.word_count = word_count;
    v.num_slots = 2 * (groups + 1);
    v.anchored = anchored;
    v.literal = literal;
    v.prefix = p;
    v.prefix_len = int32_t(prefix.size());
    v.can_skip = can_skip;
    for (int k = 0; k < 8; ++k) v.first_bytes[k] = first_bytes[k];
    if (has_dfa && d) {
      v.dfa = dfa_layout;
      v.dfa.base = d;
    }
    if (has_rdfa && d) {
      v.rdfa = rdfa_layout;
      v.rdfa.base = d + rdfa_at;
    }
    return v;
  }
  /// The index of the group called `name`, or -1.
  int32_t group_index(const std::string& name) const;
};

/// The most instructions a program may have (the matcher's memory per row grows with it).
inline constexpr int32_t kMaxInsts = 1 << 16;

/// Compiles `pattern`; `literal`: the pattern is a plain string to find, not a regex. A bad
/// pattern throws ErrorCode::InvalidArgument naming the (0-based, in characters) position.
Regex compile_regex(const std::string& pattern, bool literal = false);

/// The most DFA states build_dfa makes before it gives up (the Pike VM then does all the work).
inline constexpr int32_t kDfaMaxStates = 512;

/// Builds rx.dfa for match detection by subset construction over the program, or leaves it
/// empty: for a pure literal (memchr is faster), a pattern with \b or \B, more than
/// kDfaMaxStates states, more than 255 input classes, or too much construction work.
void build_dfa(Regex& rx);

/// Appends to rx.dfa the leftmost-start DFA: the DFA of `reversed` (the pattern's mirror image,
/// without captures) walked from the end of a row to its start, restarting at every position,
/// with a flag on every state where a match of the mirror image ends, i.e. where a match of the
/// pattern starts. The walk's last such position is where the leftmost match starts; the
/// matcher then runs from there only. Built for unanchored patterns without assertions that
/// cannot match empty (compile_regex checks), and not when over the limits of build_dfa.
void build_start_dfa(Regex& rx, const Regex& reversed);

/// A replacement template (`$1`, `${1}`, `$name`, `${name}`, `$$`) resolved against a regex:
/// pieces of literal text and group references. A reference to a group that does not exist
/// is replaced by nothing (as Rust's regex).
struct TemplatePiece {
  int32_t group;   // -1: the text [begin, begin + len) of the template's text
  int32_t begin;
  int32_t len;
};
struct Template {
  std::string text;
  std::vector<TemplatePiece> pieces;
  int32_t max_group = -1;  // the highest group referenced
};
Template compile_template(const std::string& replacement, const Regex& rx, bool literal);

}  // namespace gpudf::regex
