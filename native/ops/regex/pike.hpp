// The Pike VM: simulates the program's NFA over a row's code points, every live thread in
// step, with leftmost-first priorities (the first alternative / the greedy choice wins, as in
// Rust's regex and RE2). Each step adds a thread at most once per instruction (stamped sets), so
// a search costs O(row length * program length) whatever the pattern. No recursion and no
// allocation: the caller hands in scratch memory of pike_scratch_bytes() (CPU: one buffer per
// worker; CUDA: a slice of a global buffer per thread), so the same code runs in the kernels.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/hd.hpp"
#include "ops/expr/unicode_case.hpp"
#include "ops/regex/dfa.hpp"
#include "ops/regex/regex.hpp"

namespace gpudf::regex {

inline constexpr uint32_t kNoChar = 0xFFFFFFFFu;  // before the start / past the end
inline constexpr uint32_t kBadUnit = 0x110000u;   // a byte that is not valid UTF-8

/// The code point at s[pos] (pos < n) and its length; an invalid byte is kBadUnit of length 1
/// (the project's one UTF-8 decoder, unicode_case.hpp).
GPUDF_HD inline uint32_t rx_decode(const char* s, int64_t n, int64_t pos, int32_t* len) {
  bool valid;
  const uint32_t cp = expr::utf8_decode(s, n, pos, len, &valid);
  return valid ? cp : kBadUnit;
}

/// The code point that ends at s[pos] (kNoChar at 0).
GPUDF_HD inline uint32_t rx_decode_before(const char* s, int64_t n, int64_t pos) {
  if (pos <= 0) return kNoChar;
  int32_t len;
  bool valid;
  const uint32_t cp = utf8_decode_before(s, n, pos, &len, &valid);
  return valid ? cp : kBadUnit;
}

/// The first offset >= from where the m bytes of p occur, or -1.
GPUDF_HD inline int64_t rx_find_bytes(const char* s, int64_t n, int64_t from, const char* p, int32_t m) {
  if (m == 0) return from <= n ? from : -1;
  const char first = p[0];
  for (int64_t i = from; i + m <= n;) {
#if defined(__CUDA_ARCH__)
    if (s[i] != first) {
      ++i;
      continue;
    }
#else
    const void* hit = std::memchr(s + i, first, size_t(n - m + 1 - i));
    if (!hit) return -1;
    i = static_cast<const char*>(hit) - s;
#endif
    int32_t k = 1;
    while (k < m && s[i + k] == p[k]) ++k;
    if (k == m) return i;
    ++i;
  }
  return -1;
}

GPUDF_HD inline bool rx_in_ranges(const uint32_t* r, int32_t begin, int32_t count, uint32_t cp) {
  int32_t lo = 0, hi = count;  // first pair whose last >= cp
  while (lo < hi) {
    const int32_t mid = (lo + hi) >> 1;
    if (r[2 * (begin + mid) + 1] < cp) lo = mid + 1;
    else hi = mid;
  }
  return lo < count && r[2 * (begin + lo)] <= cp;
}

/// Whether cp is in the class of instruction {Class, x, y}: ASCII through the class's bitmap
/// (the four words before its ranges, compile.cpp), the rest by binary search.
GPUDF_HD inline bool rx_class_has(const uint32_t* r, int32_t x, int32_t y, uint32_t cp) {
  if (cp < 0x80) return (r[2 * (x - 2) + (cp >> 5)] >> (cp & 31)) & 1u;
  return rx_in_ranges(r, x, y, cp);
}

GPUDF_HD inline bool rx_is_word(const RegexView& rx, uint32_t cp) {
  if (cp == kNoChar || cp == kBadUnit) return false;
  if (cp < 0x80) return (cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') || cp == '_';
  return rx_in_ranges(rx.ranges, rx.word_begin, rx.word_count, cp);
}

/// One entry of the backtracker's stack: explore (pc, pos), or (pc < 0) restore slot -pc-1 to pos.
struct BacktrackEntry {
  int32_t pc;
  int32_t pos;
};

/// The memory the backtracker needs to handle rows where instructions x (row length + 1) is at
/// most `budget` (visited bits, and a stack that holds at most one entry per visit plus one
/// start per position).
GPUDF_HD inline int64_t backtrack_scratch_bytes(int64_t budget) {
  return (budget + 63) / 64 * 8 + 2 * (budget + 2) * int64_t(sizeof(BacktrackEntry));
}

struct PikeEntry {
  int32_t pc;    // >= 0: explore pc; < 0: restore slot -pc-1 to `value`
  int32_t pad;
  int64_t value;
};

/// The memory one search needs for a program of n instructions tracking k slots.
GPUDF_HD inline int64_t pike_scratch_bytes(int32_t n, int32_t k) {
  return 2 * (8 * int64_t(n) + 8 * int64_t(n) * k) + 16 * (int64_t(n) + 1) + 16 * int64_t(k) + 16;
}

class PikeVM {
 public:
  /// k: how many capture slots to track (0: only whether there is a match; 2: its bounds).
  GPUDF_HD PikeVM(const RegexView& rx, int32_t k, void* scratch) : rx_(rx), k_(k) {
    const int32_t n = rx.num_insts;
    int64_t* base = static_cast<int64_t*>(scratch);
    for (int l = 0; l < 2; ++l) {
      list_[l].slots = base;
      base += int64_t(n) * k;
      list_[l].stamp = reinterpret_cast<int32_t*>(base);
      list_[l].dense = list_[l].stamp + n;
      list_[l].size = 0;
      list_[l].gen = 1;
      for (int32_t j = 0; j < n; ++j) list_[l].stamp[j] = 0;
      base += n;
    }
    stack_ = reinterpret_cast<PikeEntry*>(base);
    base += 2 * (int64_t(n) + 1);
    cur_ = base;
    base += k;
    out_ = base;
  }

  /// Lets search() answer rows with instructions x (length + 1) <= budget by a bounded
  /// backtracker over `scratch` (backtrack_scratch_bytes(budget)) instead of the VM: the same
  /// leftmost-first match and slots, found depth-first with every (instruction, position)
  /// visited at most once, so still linear, but without stepping every thread at every
  /// character. For short rows that is several times faster.
  GPUDF_HD void use_backtracker(void* scratch, int64_t budget) {
    bt_budget_ = budget;
    bt_visited_ = static_cast<uint64_t*>(scratch);
    bt_stack_ = reinterpret_cast<BacktrackEntry*>(bt_visited_ + (budget + 63) / 64);
  }

  /// The slots of the last match found (out_[0], out_[1]: its bounds; -1 for a group that
  /// did not take part).
  GPUDF_HD const int64_t* slots() const { return out_; }

  /// The leftmost-first match starting at or after `from` in s[0, n).
  GPUDF_HD bool search(const char* s, int64_t n, int64_t from) {
    if (rx_.literal) {
      const int64_t at = rx_find_bytes(s, n, from, rx_.prefix, rx_.prefix_len);
      if (at < 0) return false;
      if (k_ >= 2) out_[0] = at, out_[1] = at + rx_.prefix_len;
      return true;
    }
    if (from == 0 && k_ > 0 && rx_.rdfa.base) {
      // The leftmost-start DFA says where the first match starts (if anywhere): the matcher
      // runs from there, where its first attempt succeeds, instead of trying every position.
      from = dfa_leftmost_start(rx_.rdfa, s, n);
      if (from < 0) return false;
    } else if (from == 0 && rx_.dfa.base) {
      // The DFA answers whether there is a match at all; the VM runs only for its bounds.
      if (!dfa_matches(rx_.dfa, s, n)) return false;
      if (k_ == 0) return true;
    }
    if (rx_.anchored && from > 0) return false;
    if (bt_budget_ > 0 && int64_t(rx_.num_insts) * (n - from + 1) <= bt_budget_) return backtrack(s, n, from);
    List* clist = &list_[0];
    List* nlist = &list_[1];
    clear(*clist);
    bool matched = false;
    int64_t pos = from;
    uint32_t prev = rx_decode_before(s, n, pos);
    int32_t len = 0;
    uint32_t cp = pos < n ? rx_decode(s, n, pos, &len) : kNoChar;
    for (;;) {
      if (!matched && clist->size == 0) {
        if (rx_.anchored && pos > 0) break;
        if (rx_.prefix_len > 0) {
          const int64_t at = rx_find_bytes(s, n, pos, rx_.prefix, rx_.prefix_len);
          if (at < 0) break;
          if (at != pos) {
            pos = at;
            prev = rx_decode_before(s, n, pos);
            cp = rx_decode(s, n, pos, &len);
          }
        }
        if (rx_.can_skip) {
          // Nothing live: on to the next character a match can start with.
          const int64_t was = pos;
          while (pos < n && !starts(s[pos])) pos += uint8_t(s[pos]) < 0x80 ? 1 : (rx_decode(s, n, pos, &len), len);
          if (pos >= n) break;
          if (pos != was) {
            prev = rx_decode_before(s, n, pos);
            cp = rx_decode(s, n, pos, &len);
          }
        }
      }
      if (!matched && (!rx_.anchored || pos == 0) && (!rx_.can_skip || (pos < n && starts(s[pos])))) {
        for (int32_t j = 0; j < k_; ++j) cur_[j] = -1;
        add(*clist, 0, s, n, pos, prev, cp);
      }
      if (clist->size == 0 && (matched || pos >= n)) break;
      const int64_t next = pos + len;
      int32_t next_len = 0;
      const uint32_t next_cp = next < n ? rx_decode(s, n, next, &next_len) : kNoChar;
      clear(*nlist);
      for (int32_t t = 0; t < clist->size; ++t) {
        const int32_t pc = clist->dense[t];
        const Inst in = rx_.insts[pc];
        bool step = false;
        switch (in.op) {
          case RxOp::Match:
            for (int32_t j = 0; j < k_; ++j) out_[j] = clist->slots[int64_t(pc) * k_ + j];
            if (k_ == 0) return true;
            matched = true;
            t = clist->size;  // lower-priority threads are cut
            break;
          case RxOp::Char: step = cp == uint32_t(in.x); break;
          case RxOp::Class: step = cp != kNoChar && rx_class_has(rx_.ranges, in.x, in.y, cp); break;
          case RxOp::Any: step = cp != kNoChar && cp != '\n'; break;
          case RxOp::AnyNL: step = cp != kNoChar; break;
          default: break;
        }
        if (step) {
          for (int32_t j = 0; j < k_; ++j) cur_[j] = clist->slots[int64_t(pc) * k_ + j];
          add(*nlist, pc + 1, s, n, next, cp, next_cp);
        }
      }
      if (pos >= n) break;
      List* tmp = clist;
      clist = nlist;
      nlist = tmp;
      prev = cp;
      pos = next;
      cp = next_cp;
      len = next_len;
    }
    return matched;
  }

 private:
  struct List {
    int64_t* slots;
    int32_t* stamp;  // stamp[pc] == gen: pc is in the list (visited this step)
    int32_t* dense;  // the reading instructions and Match, in priority order
    int32_t size;
    int32_t gen;
  };
  RegexView rx_;
  int32_t k_;
  List list_[2];
  PikeEntry* stack_;
  int64_t* cur_;
  int64_t* out_;
  int64_t bt_budget_ = 0;
  uint64_t* bt_visited_ = nullptr;
  BacktrackEntry* bt_stack_ = nullptr;

  /// search() by depth-first backtracking (see use_backtracker). A state (pc, pos) that was
  /// visited cannot lead to a match when reached again: its first visit either matched (and the
  /// search returned) or failed, and captures never decide success. So one visited set serves
  /// every start position, and each start is tried in order, the first match being leftmost.
  GPUDF_HD bool backtrack(const char* s, int64_t n, int64_t from) {
    const int64_t width = n - from + 1;
    const int64_t words = (int64_t(rx_.num_insts) * width + 63) / 64;
    for (int64_t w = 0; w < words; ++w) bt_visited_[w] = 0;
    int32_t len = 0;
    for (int64_t p = from; p <= n;) {
      if (rx_.anchored && p > 0) return false;
      if (rx_.prefix_len > 0) {
        const int64_t at = rx_find_bytes(s, n, p, rx_.prefix, rx_.prefix_len);
        if (at < 0) return false;
        p = at;
      } else if (rx_.can_skip) {
        while (p < n && !starts(s[p])) p += uint8_t(s[p]) < 0x80 ? 1 : (rx_decode(s, n, p, &len), len);
        if (p >= n) return false;
      }
      if (backtrack_at(s, n, from, width, p)) return true;
      if (p >= n) return false;
      rx_decode(s, n, p, &len);
      p += len;
    }
    return false;
  }

  GPUDF_HD bool backtrack_at(const char* s, int64_t n, int64_t from, int64_t width, int64_t start) {
    for (int32_t j = 0; j < k_; ++j) cur_[j] = -1;
    int64_t sp = 0;
    bt_stack_[sp++] = BacktrackEntry{0, int32_t(start)};
    while (sp > 0) {
      const BacktrackEntry e = bt_stack_[--sp];
      if (e.pc < 0) {
        cur_[-e.pc - 1] = e.pos;
        continue;
      }
      int32_t pc = e.pc;
      int64_t pos = e.pos;
      for (;;) {
        const int64_t bit = int64_t(pc) * width + (pos - from);
        uint64_t& word = bt_visited_[bit >> 6];
        const uint64_t mask = uint64_t(1) << (bit & 63);
        if (word & mask) break;
        word |= mask;
        const Inst in = rx_.insts[pc];
        if (in.op <= RxOp::AnyNL) {
          if (pos >= n) break;
          int32_t len;
          const uint32_t cp = rx_decode(s, n, pos, &len);
          const bool ok = in.op == RxOp::Char    ? cp == uint32_t(in.x)
                          : in.op == RxOp::Class ? rx_class_has(rx_.ranges, in.x, in.y, cp)
                          : in.op == RxOp::Any   ? cp != '\n'
                                                 : true;
          if (!ok) break;
          ++pc;
          pos += len;
          continue;
        }
        if (in.op == RxOp::Split) {
          bt_stack_[sp++] = BacktrackEntry{in.y, int32_t(pos)};
          pc = in.x;
          continue;
        }
        if (in.op == RxOp::Jmp) {
          pc = in.x;
          continue;
        }
        if (in.op == RxOp::Save) {
          if (in.x < k_) {
            bt_stack_[sp++] = BacktrackEntry{-in.x - 1, int32_t(cur_[in.x])};
            cur_[in.x] = pos;
          }
          ++pc;
          continue;
        }
        if (in.op == RxOp::Assert) {
          int32_t len;
          const uint32_t cp = pos < n ? rx_decode(s, n, pos, &len) : kNoChar;
          if (!holds(RxAssert(in.x), s, n, pos, rx_decode_before(s, n, pos), cp)) break;
          ++pc;
          continue;
        }
        // Match
        for (int32_t j = 0; j < k_; ++j) out_[j] = cur_[j];
        return true;
      }
    }
    return false;
  }

  GPUDF_HD void clear(List& l) const {
    l.size = 0;
    if (++l.gen == 0x7FFFFFFF) {
      for (int32_t j = 0; j < rx_.num_insts; ++j) l.stamp[j] = 0;
      l.gen = 1;
    }
  }

  GPUDF_HD bool starts(char c) const {
    const uint8_t b = uint8_t(c);
    return (rx_.first_bytes[b >> 5] >> (b & 31)) & 1u;
  }

  GPUDF_HD bool holds(RxAssert a, const char* s, int64_t n, int64_t pos, uint32_t prev, uint32_t cp) const {
    switch (a) {
      case RxAssert::BeginText: return pos == 0;
      case RxAssert::EndText: return pos == n;
      case RxAssert::BeginLine: return pos == 0 || s[pos - 1] == '\n';
      case RxAssert::EndLine: return pos == n || s[pos] == '\n';
      case RxAssert::WordBoundary: return rx_is_word(rx_, prev) != rx_is_word(rx_, cp);
      case RxAssert::NotWordBoundary: return rx_is_word(rx_, prev) == rx_is_word(rx_, cp);
    }
    return false;
  }

  /// Adds pc0 and everything it reaches without reading (the epsilon closure) at `pos`, in
  /// priority order; cur_ holds the thread's slots and is restored on the way out.
  GPUDF_HD void add(List& l, int32_t pc0, const char* s, int64_t n, int64_t pos, uint32_t prev, uint32_t cp) {
    const RxOp op0 = rx_.insts[pc0].op;
    if (op0 <= RxOp::AnyNL || op0 == RxOp::Match) {
      // A reading instruction (the common case): no closure to follow.
      if (l.stamp[pc0] == l.gen) return;
      l.stamp[pc0] = l.gen;
      l.dense[l.size++] = pc0;
      for (int32_t j = 0; j < k_; ++j) l.slots[int64_t(pc0) * k_ + j] = cur_[j];
      return;
    }
    int32_t sp = 0;
    stack_[sp++] = PikeEntry{pc0, 0, 0};
    while (sp > 0) {
      const PikeEntry e = stack_[--sp];
      if (e.pc < 0) {
        cur_[-e.pc - 1] = e.value;
        continue;
      }
      int32_t pc = e.pc;
      for (;;) {
        if (l.stamp[pc] == l.gen) break;
        l.stamp[pc] = l.gen;
        const Inst in = rx_.insts[pc];
        if (in.op == RxOp::Jmp) {
          pc = in.x;
          continue;
        }
        if (in.op == RxOp::Split) {
          stack_[sp++] = PikeEntry{in.y, 0, 0};
          pc = in.x;
          continue;
        }
        if (in.op == RxOp::Save) {
          if (in.x < k_) {
            stack_[sp++] = PikeEntry{-in.x - 1, 0, cur_[in.x]};
            cur_[in.x] = pos;
          }
          ++pc;
          continue;
        }
        if (in.op == RxOp::Assert) {
          if (!holds(RxAssert(in.x), s, n, pos, prev, cp)) break;
          ++pc;
          continue;
        }
        l.dense[l.size++] = pc;
        for (int32_t j = 0; j < k_; ++j) l.slots[int64_t(pc) * k_ + j] = cur_[j];
        break;
      }
    }
  }
};

}  // namespace gpudf::regex
