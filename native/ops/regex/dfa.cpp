// The DFAs by subset construction over a Pike VM program. A DFA state is the set of program
// threads live at a position (reading instructions, Match, and $ / (?m)$ assertions still
// waiting for the next unit) plus whether the position is the start of the text and of a line
// (for ^ and (?m)^). Leftmost-first priorities do not matter for "is there a match" or "does a
// match start here", so sets suffice. Unanchored search: every step also restarts the program
// at the new position.
//  - Match detection (build_dfa): any set holding Match collapses into one absorbing match state.
//  - Leftmost start (build_start_dfa, over the reversed pattern): Match is a flag of the state
//    and the walk goes on; the program has no assertions there.
#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "core/error.hpp"
#include "ops/regex/dfa.hpp"
#include "ops/regex/pike.hpp"

namespace gpudf::regex {
namespace {

constexpr uint32_t kDomainEnd = 0x110001u;      // code points and kBadUnit
constexpr int64_t kWorkBudget = int64_t(4) << 24;  // closure steps before giving up
enum : uint8_t { kAtText = 1, kAtLine = 2 };

struct Builder {
  const Regex& rx;
  bool starts;  // leftmost-start mode (see the top of the file)
  RegexView v;
  int32_t n;
  std::vector<int32_t> mark;  // mark[pc] == gen: visited in this closure
  int32_t gen = 0;
  std::vector<int32_t> stack;
  int64_t work = 0;

  Builder(const Regex& r, bool s) : rx(r), starts(s), v(r.view()), n(int32_t(r.insts.size())), mark(size_t(n), 0) {}

  bool reads(int32_t pc, uint32_t cp) const {
    const Inst& in = rx.insts[size_t(pc)];
    switch (in.op) {
      case RxOp::Char: return cp == uint32_t(in.x);
      case RxOp::Class: return rx_in_ranges(v.ranges, in.x, in.y, cp);
      case RxOp::Any: return cp != '\n';
      case RxOp::AnyNL: return true;
      default: return false;
    }
  }

  /// The closure of `seeds` at a position with `flags`; `known`: the next unit is known (then
  /// `at_end` / `next_nl` decide $ and (?m)$, else they wait in the set). Returns whether Match
  /// is reached; in detection mode the closure stops there (the caller makes it the match
  /// state), else it goes on. `out` is sorted.
  bool closure(const std::vector<int32_t>& seeds, uint8_t flags, bool known, bool at_end, bool next_nl,
               std::vector<int32_t>& out) {
    out.clear();
    ++gen;
    bool matched = false;
    stack.assign(seeds.rbegin(), seeds.rend());
    while (!stack.empty()) {
      int32_t pc = stack.back();
      stack.pop_back();
      for (;;) {
        ++work;
        if (mark[size_t(pc)] == gen) break;
        mark[size_t(pc)] = gen;
        const Inst& in = rx.insts[size_t(pc)];
        if (in.op == RxOp::Match) {
          matched = true;
          if (!starts) return true;
          break;
        }
        if (in.op == RxOp::Jmp) {
          pc = in.x;
          continue;
        }
        if (in.op == RxOp::Split) {
          stack.push_back(in.y);
          pc = in.x;
          continue;
        }
        if (in.op == RxOp::Save) {
          ++pc;
          continue;
        }
        if (in.op == RxOp::Assert) {
          bool pass = false;
          switch (RxAssert(in.x)) {
            case RxAssert::BeginText: pass = flags & kAtText; break;
            case RxAssert::BeginLine: pass = flags & kAtLine; break;
            case RxAssert::EndText:
              if (!known) out.push_back(pc);
              pass = known && at_end;
              break;
            case RxAssert::EndLine:
              if (!known) out.push_back(pc);
              pass = known && (at_end || next_nl);
              break;
            default: break;  // \b, \B: build_dfa refuses them
          }
          if (!pass) break;
          ++pc;
          continue;
        }
        out.push_back(pc);
        break;
      }
    }
    std::sort(out.begin(), out.end());
    return matched;
  }
};

template <typename T>
void put(std::vector<uint8_t>& blob, const std::vector<T>& xs) {
  const size_t at = blob.size();
  blob.resize(at + xs.size() * sizeof(T));
  if (!xs.empty()) std::memcpy(blob.data() + at, xs.data(), xs.size() * sizeof(T));
  blob.resize((blob.size() + 3) / 4 * 4, 0);
}

/// The DFA of program `rx` (see the top of the file) as a blob in `words` and its layout in
/// `L`; false when it would be over the limits.
bool build_blob(const Regex& rx, bool starts, std::vector<uint32_t>& words, DfaView& L) {
  if (rx.insts.size() > 4096) return false;
  Builder B(rx, starts);
  // The position flags only the assertions that read them keep (fewer states otherwise).
  uint8_t used = 0;
  for (const Inst& in : rx.insts)
    if (in.op == RxOp::Assert) used |= RxAssert(in.x) == RxAssert::BeginText ? kAtText : RxAssert(in.x) == RxAssert::BeginLine ? kAtLine : 0;
  // Input classes: cut the domain where any reading instruction's answer may change, then merge
  // the segments every instruction answers alike ('\n' stays apart, for (?m)^ and (?m)$).
  std::vector<uint32_t> cuts = {0, '\n', '\n' + 1, 0x80, 0x110000u, kDomainEnd};
  std::vector<int32_t> readers;
  for (int32_t pc = 0; pc < B.n; ++pc) {
    const Inst& in = rx.insts[size_t(pc)];
    if (in.op == RxOp::Char) {
      cuts.push_back(uint32_t(in.x));
      cuts.push_back(uint32_t(in.x) + 1);
    } else if (in.op == RxOp::Class) {
      for (int32_t k = 0; k < in.y; ++k) {
        cuts.push_back(rx.ranges[size_t(2 * (in.x + k))]);
        cuts.push_back(rx.ranges[size_t(2 * (in.x + k) + 1)] + 1);
      }
    }
    if (in.op <= RxOp::AnyNL) readers.push_back(pc);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  while (!cuts.empty() && cuts.back() > kDomainEnd) cuts.pop_back();
  const size_t nseg = cuts.size() - 1;  // segment s: [cuts[s], cuts[s + 1])
  if (int64_t(nseg) * int64_t(readers.size() + 1) > kWorkBudget) return false;
  std::map<std::vector<bool>, int32_t> class_of;
  std::vector<uint8_t> seg_class(nseg);
  std::vector<uint32_t> rep;  // a code point of each class
  for (size_t s = 0; s < nseg; ++s) {
    std::vector<bool> sig(readers.size() + 1);
    const uint32_t cp = cuts[s];
    sig[0] = cp == '\n';
    for (size_t r = 0; r < readers.size(); ++r) sig[r + 1] = B.reads(readers[r], cp);
    auto it = class_of.find(sig);
    if (it == class_of.end()) {
      if (class_of.size() >= 255) return false;
      it = class_of.emplace(sig, int32_t(rep.size())).first;
      rep.push_back(cp);
    }
    seg_class[s] = uint8_t(it->second);
  }
  const int32_t classes = int32_t(rep.size());
  std::vector<uint8_t> ascii(128);
  for (uint32_t c = 0; c < 128; ++c)
    ascii[c] = seg_class[size_t(std::upper_bound(cuts.begin(), cuts.end(), c) - cuts.begin() - 1)];
  // States 0 and 1: match and dead (both absorbing; dfa_matches relies on these ids).
  struct State {
    uint8_t flags;
    std::vector<int32_t> set;
  };
  std::vector<State> states = {{0, {}}, {0, {}}};
  std::map<std::pair<uint8_t, std::vector<int32_t>>, int32_t> ids;
  std::vector<uint8_t> sflags = {kDfaMatch | kDfaEnd, kDfaDead};
  auto intern = [&](uint8_t flags, std::vector<int32_t>& set, bool matched) -> int32_t {
    if (matched && !starts) return 0;
    if (set.empty() && rx.anchored) return 1;  // unanchored: the next restart may still match
    // In leftmost-start mode a state with Match differs from the same set without it.
    auto key = std::make_pair(uint8_t(flags | (matched ? 0x80 : 0)), set);
    auto it = ids.find(key);
    if (it != ids.end()) return it->second;
    const int32_t id = int32_t(states.size());
    ids.emplace(std::move(key), id);
    states.push_back(State{flags, set});
    sflags.push_back(matched ? kDfaMatch : 0);
    return id;
  };
  std::vector<int32_t> set, expanded, seeds;
  const bool m0 = B.closure({0}, kAtText | kAtLine, false, false, false, set);
  const int32_t start = intern(uint8_t((kAtText | kAtLine) & used), set, m0);
  std::vector<uint16_t> trans(size_t(2) * classes);
  for (int32_t c = 0; c < classes; ++c) trans[size_t(c)] = 0, trans[size_t(classes + c)] = 1;
  for (size_t id = 2; id < states.size(); ++id) {
    if (states.size() > size_t(kDfaMaxStates) || B.work > kWorkBudget) return false;
    const uint8_t flags = states[id].flags;
    const std::vector<int32_t> members = states[id].set;
    if (!starts && B.closure(members, flags, true, true, false, expanded)) sflags[id] |= kDfaEnd;
    // The waiting assertions resolved for a next unit that is '\n' and one that is not (in
    // leftmost-start mode there are none, and Match is a flag, not a member).
    std::vector<int32_t> exp_nl, exp_other;
    const bool open_nl = starts || !B.closure(members, flags, true, false, true, exp_nl);
    const bool open_other = starts || !B.closure(members, flags, true, false, false, exp_other);
    if (starts) exp_nl = exp_other = members;
    trans.resize((id + 1) * size_t(classes));
    for (int32_t c = 0; c < classes; ++c) {
      const uint32_t cp = rep[size_t(c)];
      const bool nl = cp == '\n';
      int32_t next;
      if (!(nl ? open_nl : open_other)) {
        next = 0;  // a match ends right here
      } else {
        seeds.clear();
        for (int32_t pc : nl ? exp_nl : exp_other)
          if (B.reads(pc, cp)) seeds.push_back(pc + 1);
        if (!rx.anchored) seeds.push_back(0);
        const uint8_t nf = uint8_t((nl ? kAtLine : 0) & used);
        const bool m = B.closure(seeds, nf, false, false, false, set);
        next = intern(nf, set, m);
      }
      trans[id * size_t(classes) + size_t(c)] = uint16_t(next);
    }
  }
  if (states.size() > size_t(kDfaMaxStates) || B.work > kWorkBudget) return false;
  // The blob: segment starts, ascii classes, segment classes, state flags, transitions.
  std::vector<uint8_t> blob;
  std::vector<uint32_t> seg_starts(cuts.begin(), cuts.end() - 1);
  put(blob, seg_starts);
  L = DfaView{};
  L.classes = classes;
  L.states = int32_t(states.size());
  L.start = start;
  L.segs = int32_t(nseg);
  // Without ^ / (?m)^ every restart-only position is the start state again, so the walk may
  // skip the units no match starts with (the program's first_bytes, when it has them).
  L.skip = !starts && rx.can_skip && used == 0 && !rx.anchored;
  for (int k = 0; k < 8; ++k) L.first[k] = rx.first_bytes[k];
  L.ascii_at = int32_t(blob.size());
  put(blob, ascii);
  L.seg_class_at = int32_t(blob.size());
  put(blob, seg_class);
  L.flags_at = int32_t(blob.size());
  put(blob, sflags);
  L.trans_at = int32_t(blob.size());
  put(blob, trans);
  words.assign(blob.size() / 4, 0);
  std::memcpy(words.data(), blob.data(), blob.size());
  return true;
}

}  // namespace

void build_dfa(Regex& rx) {
  rx.dfa.clear();
  rx.has_dfa = rx.has_rdfa = false;
  if (rx.literal) return;
  for (const Inst& in : rx.insts)
    if (in.op == RxOp::Assert && (RxAssert(in.x) == RxAssert::WordBoundary || RxAssert(in.x) == RxAssert::NotWordBoundary))
      return;
  rx.has_dfa = build_blob(rx, false, rx.dfa, rx.dfa_layout);
}

void build_start_dfa(Regex& rx, const Regex& reversed) {
  for (const Inst& in : reversed.insts) GPUDF_EXPECTS(in.op != RxOp::Assert, Internal, "build_start_dfa: a program with assertions");
  std::vector<uint32_t> words;
  DfaView L;
  if (!build_blob(reversed, true, words, L)) return;
  rx.rdfa_at = int32_t(rx.dfa.size());
  rx.dfa.insert(rx.dfa.end(), words.begin(), words.end());
  rx.rdfa_layout = L;
  rx.has_rdfa = true;
}

}  // namespace gpudf::regex
