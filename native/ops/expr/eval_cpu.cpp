// The CPU backend of the expression interpreter: rows are cut into blocks of a few thousand,
// blocks run in parallel over cpu_pool(), and within a block every node fills a block-sized
// scratch vector (node-major), so no full-length intermediate column is ever built.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/expr/eval_element.hpp"
#include "ops/expr/expr.hpp"

namespace gpudf::expr::detail {
namespace {

struct BatchAcc {
  const Slot* slots;
  const uint8_t* valids;
  int64_t stride;
  int64_t r;
  Slot slot(int32_t k) const { return slots[k * stride + r]; }
  bool valid(int32_t k) const { return valids[k * stride + r] != 0; }
};

/// Rows per block: a multiple of 64 (blocks never share a validity byte) sized so one block's
/// scratch (17 bytes per node per row) stays around 256 KiB.
int64_t block_rows(int32_t nodes) {
  int64_t rows = (int64_t(1) << 18) / (int64_t(nodes) * int64_t(sizeof(Slot) + 1));
  return std::clamp<int64_t>(rows / 64 * 64, 64, 4096);
}

/// One validity byte per row of a block: 1 where the column's value is present.
void load_validity(const ColumnView& c, int64_t begin, int64_t count, uint8_t* ok) {
  if (count <= 0) return;
  if (c.validity == nullptr) {
    std::memset(ok, 1, size_t(count));
  } else {
    for (int64_t r = 0; r < count; ++r) ok[r] = bit_is_set(c.validity, c.offset + begin + r);
  }
}

/// CPU fast path for Column nodes: one dispatch per block instead of one per row; the same
/// lane conversion as read_input (eval_element.hpp).
struct LoadBlock {
  template <TypeId T>
  void operator()(const ColumnView& c, int64_t begin, int64_t count, Slot* out, uint8_t* ok) const {
    using S = storage_t<T>;
    if constexpr (is_string(T)) {
      using O = typename S::offset_type;
      const O* o = c.string_offsets<O>() + begin;
      const char* d = reinterpret_cast<const char*>(c.data);
      for (int64_t r = 0; r < count; ++r) {
        out[r].s = d + o[r];
        out[r].n = int64_t(o[r + 1] - o[r]);
      }
    } else {
      const S* v = c.values<S>() + begin;
      for (int64_t r = 0; r < count; ++r) {
        if constexpr (std::is_floating_point_v<S>) out[r].f = double(v[r]);
        else out[r].i = int64_t(v[r]);
        out[r].n = 0;
      }
    }
    load_validity(c, begin, count, ok);
  }
};

/// Comparison over a block with the op fixed at compile time (no per-row op switch); the same
/// rule as eval_node: null when either operand is, else compare_values.
template <Op O>
void compare_block(const Slot* a, const uint8_t* va, Lane la, const Slot* b, const uint8_t* vb, Lane lb,
                   int64_t count, Slot* out, uint8_t* ok) {
  for (int64_t r = 0; r < count; ++r) {
    const bool v = va[r] && vb[r];
    int64_t res = 0;
    if (v) {
      const int c = compare_values(a[r], la, b[r], lb);
      res = O == Op::Eq ? c == 0 : O == Op::Neq ? c != 0 : O == Op::Lt ? c < 0 : O == Op::Lte ? c <= 0 : O == Op::Gt ? c > 0 : c >= 0;
    }
    out[r].i = res;
    out[r].n = 0;
    ok[r] = v;
  }
}

/// Which nodes a block fuses: a comparison of a column with a non-null literal of the same
/// integer lane (any op) or string lane (eq / neq) reads the column straight from its buffers;
/// its Column and Literal operands are then skipped when nothing else reads them.
struct Fusion {
  std::vector<uint8_t> fused, skip;
};

bool fusable_compare(const ProgramView& view, const Node& nd) {
  if (nd.op < Op::Eq || nd.op > Op::Gte) return false;
  const Node& a = view.nodes[nd.arg[0]];
  const Node& b = view.nodes[nd.arg[1]];
  if (a.op != Op::Column || b.op != Op::Literal || b.p1 != 0) return false;
  const Lane la = lane_of(a.type), lb = lane_of(b.type);
  if (la != lb) return false;
  return la == Lane::Int || la == Lane::Float || (la == Lane::String && (nd.op == Op::Eq || nd.op == Op::Neq));
}

Fusion plan_fusion(const ProgramView& view) {
  const int32_t nn = view.num_nodes;
  Fusion f{std::vector<uint8_t>(size_t(nn), 0), std::vector<uint8_t>(size_t(nn), 0)};
  std::vector<int32_t> uses(size_t(nn), 0), fused_uses(size_t(nn), 0);
  for (int32_t j = 0; j < nn; ++j) {
    const Node& nd = view.nodes[j];
    f.fused[size_t(j)] = fusable_compare(view, nd);
    for (int32_t k : nd.arg) {
      if (k < 0) continue;
      ++uses[size_t(k)];
      fused_uses[size_t(k)] += f.fused[size_t(j)];
    }
  }
  for (int32_t k = 0; k + 1 < nn; ++k) {
    const Op op = view.nodes[k].op;
    f.skip[size_t(k)] = (op == Op::Column || op == Op::Literal) && uses[size_t(k)] > 0 &&
                        uses[size_t(k)] == fused_uses[size_t(k)];
  }
  return f;
}

template <Op O>
inline bool holds(int64_t x, int64_t lit) {
  return O == Op::Eq ? x == lit : O == Op::Neq ? x != lit : O == Op::Lt ? x < lit
       : O == Op::Lte ? x <= lit : O == Op::Gt ? x > lit : x >= lit;
}

/// A fused column-vs-literal comparison over one block (rules as compare_block: null when the
/// column value is null, result 0 there).
struct CompareColumnLiteral {
  template <TypeId T, Op O>
  static void typed(const ColumnView& c, int64_t begin, int64_t count, const Slot& lit, Slot* out,
                    uint8_t* ok) {
    using S = storage_t<T>;
    if constexpr (is_string(T)) {
      using Off = typename S::offset_type;
      const Off* o = c.string_offsets<Off>() + begin;
      const char* d = reinterpret_cast<const char*>(c.data);
      for (int64_t r = 0; r < count; ++r) {
        const int64_t len = int64_t(o[r + 1] - o[r]);
        bool eq = len == lit.n;
        if (eq && len <= 16) {  // short keys: inline bytes, no memcmp call per row
          for (int64_t b = 0; b < len; ++b) eq &= d[o[r] + b] == lit.s[b];
        } else if (eq) {
          eq = std::memcmp(d + o[r], lit.s, size_t(len)) == 0;
        }
        out[r].i = O == Op::Eq ? eq : !eq;
        out[r].n = 0;
      }
    } else if constexpr (std::is_floating_point_v<S>) {
      // cmp_f64's order (NaN equal to NaN and above every number), as compare_values.
      const S* v = c.values<S>() + begin;
      const double l = lit.f;
      for (int64_t r = 0; r < count; ++r) {
        out[r].i = holds<O>(int64_t(cmp_f64(double(v[r]), l)), 0);
        out[r].n = 0;
      }
    } else {
      const S* v = c.values<S>() + begin;
      const int64_t l = lit.i;
      for (int64_t r = 0; r < count; ++r) {
        out[r].i = holds<O>(int64_t(v[r]), l);
        out[r].n = 0;
      }
    }
    load_validity(c, begin, count, ok);
    if (c.validity != nullptr)
      for (int64_t r = 0; r < count; ++r) out[r].i &= ok[r];
  }
  template <TypeId T>
  void operator()(Op op, const ColumnView& c, int64_t begin, int64_t count, const Slot& lit, Slot* out,
                  uint8_t* ok) const {
    if constexpr (T == TypeId::UInt64) {
      GPUDF_FAIL(Internal, "fused comparison on the uint64 lane");
    } else {
      switch (op) {
        case Op::Eq: typed<T, Op::Eq>(c, begin, count, lit, out, ok); break;
        case Op::Neq: typed<T, Op::Neq>(c, begin, count, lit, out, ok); break;
        case Op::Lt: typed<T, Op::Lt>(c, begin, count, lit, out, ok); break;
        case Op::Lte: typed<T, Op::Lte>(c, begin, count, lit, out, ok); break;
        case Op::Gt: typed<T, Op::Gt>(c, begin, count, lit, out, ok); break;
        default: typed<T, Op::Gte>(c, begin, count, lit, out, ok); break;
      }
    }
  }
};

/// a OP b over a block, one op and one dtype for the whole loop (eval_node's rules: null when
/// either operand is; floats rounded to float32 for float32 nodes; integers wrap to the dtype).
template <Op O>
void arith_typed(TypeId t, const Slot* a, const uint8_t* va, const Slot* b, const uint8_t* vb, int64_t count, Slot* out,
                 uint8_t* ok) {
  if (lane_of(t) == Lane::Float) {
    const bool f32 = t == TypeId::Float32;
    for (int64_t r = 0; r < count; ++r) {
      const double x = a[r].f, y = b[r].f;
      double v = O == Op::Add ? x + y : O == Op::Sub ? x - y : O == Op::Mul ? x * y : x / y;
      out[r].f = f32 ? double(float(v)) : v;
      out[r].n = 0;
    }
  } else {
    for (int64_t r = 0; r < count; ++r) {
      out[r].i = O == Op::Add ? int_add(t, a[r].i, b[r].i) : O == Op::Sub ? int_sub(t, a[r].i, b[r].i) : int_mul(t, a[r].i, b[r].i);
      out[r].n = 0;
    }
  }
  for (int64_t r = 0; r < count; ++r) ok[r] = va[r] & vb[r];
}

void arith_block(Op op, TypeId t, const Slot* a, const uint8_t* va, const Slot* b, const uint8_t* vb, int64_t count,
                 Slot* out, uint8_t* ok) {
  switch (op) {
    case Op::Add: arith_typed<Op::Add>(t, a, va, b, vb, count, out, ok); break;
    case Op::Sub: arith_typed<Op::Sub>(t, a, va, b, vb, count, out, ok); break;
    case Op::Mul: arith_typed<Op::Mul>(t, a, va, b, vb, count, out, ok); break;
    default: arith_typed<Op::Div>(t, a, va, b, vb, count, out, ok); break;
  }
}

/// A LIKE pattern of literal runs and `%` (no `_`): its runs, and whether the value must start
/// / end with the first / last one. Matching each run at its leftmost place after the previous
/// one is exact for such patterns, so the CPU searches each run (find_run) where str_like walks byte by byte.
struct LikeRuns {
  bool simple = false;
  bool open_start = false, open_end = false;
  std::vector<std::pair<const char*, int64_t>> runs;
};

LikeRuns like_runs(const Slot& p) {
  LikeRuns r;
  for (int64_t k = 0; k < p.n; ++k)
    if (p.s[k] == '_') return r;
  r.simple = true;
  r.open_start = p.n > 0 && p.s[0] == '%';
  r.open_end = p.n > 0 && p.s[p.n - 1] == '%';
  for (int64_t k = 0; k < p.n;) {
    if (p.s[k] == '%') {
      ++k;
      continue;
    }
    int64_t e = k;
    while (e < p.n && p.s[e] != '%') ++e;
    r.runs.push_back({p.s + k, e - k});
    k = e;
  }
  return r;
}

/// The first place of needle[0, m) in hay[0, n), or nullptr: memchr on the first byte, then
/// memcmp (for the short values and patterns of string columns, cheaper per call than memmem).
const char* find_run(const char* hay, int64_t n, const char* needle, int64_t m) {
  if (m == 0) return hay;
  const char* end = hay + n - m + 1;
  for (const char* at = hay; at < end;) {
    at = static_cast<const char*>(std::memchr(at, needle[0], size_t(end - at)));
    if (at == nullptr) return nullptr;
    if (std::memcmp(at + 1, needle + 1, size_t(m - 1)) == 0) return at;
    ++at;
  }
  return nullptr;
}

bool like_match(const LikeRuns& r, const char* v, int64_t n) {
  if (r.runs.empty()) return r.open_start || n == 0;  // "%"... matches all; "" only ""
  size_t first = 0, last = r.runs.size();
  int64_t pos = 0, end = n;
  if (!r.open_start) {
    const auto& [s, len] = r.runs[0];
    if (len > n || std::memcmp(v, s, size_t(len)) != 0) return false;
    pos = len;
    first = 1;
  }
  if (!r.open_end && last > first) {
    const auto& [s, len] = r.runs[last - 1];
    if (len > end - pos || std::memcmp(v + end - len, s, size_t(len)) != 0) return false;
    end -= len;
    --last;
  } else if (!r.open_end && last == first) {
    return pos == end;  // the whole value was the one run
  }
  for (size_t k = first; k < last; ++k) {
    const auto& [s, len] = r.runs[k];
    const char* at = end - pos >= len ? find_run(v + pos, end - pos, s, len) : nullptr;
    if (at == nullptr) return false;
    pos = at - v + len;
  }
  return true;
}

/// CPU block fast paths for the nodes a typical predicate is made of (literals, comparisons,
/// Kleene and/or); false when the node takes the general per-row step.
bool fast_block(const ProgramView& view, const Node& nd, Slot* slots, uint8_t* valids, int64_t block,
                int64_t count, Slot* out, uint8_t* ok) {
  auto operand = [&](int k) { return slots + int64_t(nd.arg[k]) * block; };
  auto valid = [&](int k) { return valids + int64_t(nd.arg[k]) * block; };
  switch (nd.op) {
    case Op::Literal: {
      const Slot c = view.consts[nd.p0];
      std::fill(out, out + count, c);
      std::memset(ok, nd.p1 == 0, size_t(count));
      return true;
    }
    case Op::Eq: case Op::Neq: case Op::Lt: case Op::Lte: case Op::Gt: case Op::Gte: {
      const Lane la = lane_of(view.nodes[nd.arg[0]].type);
      const Lane lb = lane_of(view.nodes[nd.arg[1]].type);
      const Slot* a = operand(0);
      const Slot* b = operand(1);
      switch (nd.op) {
        case Op::Eq: compare_block<Op::Eq>(a, valid(0), la, b, valid(1), lb, count, out, ok); break;
        case Op::Neq: compare_block<Op::Neq>(a, valid(0), la, b, valid(1), lb, count, out, ok); break;
        case Op::Lt: compare_block<Op::Lt>(a, valid(0), la, b, valid(1), lb, count, out, ok); break;
        case Op::Lte: compare_block<Op::Lte>(a, valid(0), la, b, valid(1), lb, count, out, ok); break;
        case Op::Gt: compare_block<Op::Gt>(a, valid(0), la, b, valid(1), lb, count, out, ok); break;
        default: compare_block<Op::Gte>(a, valid(0), la, b, valid(1), lb, count, out, ok); break;
      }
      return true;
    }
    case Op::And:
    case Op::Or: {
      // Kleene: a dominating value (false for and, true for or) wins over null.
      const int64_t dom = nd.op == Op::And ? 0 : 1;
      const Slot* a = operand(0);
      const Slot* b = operand(1);
      const uint8_t* va = valid(0);
      const uint8_t* vb = valid(1);
      // Bitwise, not short-circuit: with mixed values the branches mispredict.
      for (int64_t r = 0; r < count; ++r) {
        const int64_t wins = (int64_t(va[r] != 0) & int64_t(a[r].i == dom)) | (int64_t(vb[r] != 0) & int64_t(b[r].i == dom));
        out[r].i = wins ^ (1 - dom);
        out[r].n = 0;
        ok[r] = uint8_t(wins | (int64_t(va[r] != 0) & int64_t(vb[r] != 0)));
      }
      return true;
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: {
      const Lane lane = lane_of(nd.type);
      if (lane == Lane::String || lane == Lane::UInt64 || (nd.op == Op::Div && lane != Lane::Float)) return false;
      arith_block(nd.op, nd.type, operand(0), valid(0), operand(1), valid(1), count, out, ok);
      return true;
    }
    case Op::StrContains:
    case Op::StrLike: {
      // Runs searched with memchr + memcmp instead of the byte-by-byte GPUDF_HD matchers.
      const Slot& pat = view.consts[nd.p0];
      LikeRuns r;
      if (nd.op == Op::StrLike) {
        r = like_runs(pat);
        if (!r.simple) return false;
      } else {
        r.simple = r.open_start = r.open_end = true;
        if (pat.n > 0) r.runs.push_back({pat.s, pat.n});
      }
      const Slot* a = operand(0);
      const uint8_t* va = valid(0);
      for (int64_t row = 0; row < count; ++row) {
        out[row].i = va[row] ? like_match(r, a[row].s, a[row].n) : 0;
        out[row].n = 0;
        ok[row] = va[row];
      }
      return true;
    }
    case Op::Not: {
      const Slot* a = operand(0);
      const uint8_t* va = valid(0);
      for (int64_t r = 0; r < count; ++r) {
        out[r].i = a[r].i == 0;
        out[r].n = 0;
        ok[r] = va[r];
      }
      return true;
    }
    case Op::IsNull:
    case Op::IsNotNull: {
      const uint8_t* va = valid(0);
      const uint8_t want = nd.op == Op::IsNotNull;
      for (int64_t r = 0; r < count; ++r) {
        out[r].i = (va[r] != 0) == want;
        out[r].n = 0;
        ok[r] = 1;
      }
      return true;
    }
    default:
      return false;
  }
}

/// Runs the program over blocks; `sink(begin, count, slots, valids)` consumes the root node's
/// scratch of each block.
template <typename Sink>
void run_blocks(const ProgramView& view, int64_t rows, Sink&& sink) {
  const int32_t nn = view.num_nodes;
  const int64_t block = block_rows(nn);
  const int64_t blocks = (rows + block - 1) / block;
  const Fusion fusion = plan_fusion(view);
  cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
    std::vector<Slot> slots(size_t(nn * block));
    std::vector<uint8_t> valids(size_t(nn * block));
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t begin = b * block;
      const int64_t count = std::min(block, rows - begin);
      for (int32_t j = 0; j < nn; ++j) {
        const Node& nd = view.nodes[j];
        Slot* out = slots.data() + j * block;
        uint8_t* ok_out = valids.data() + j * block;
        if (fusion.skip[size_t(j)]) continue;
        if (fusion.fused[size_t(j)]) {
          const ColumnView& c = view.inputs[view.nodes[nd.arg[0]].p0];
          const Slot& lit = view.consts[view.nodes[nd.arg[1]].p0];
          type_dispatch(c.type, CompareColumnLiteral{}, nd.op, c, begin, count, lit, out, ok_out);
          continue;
        }
        if (nd.op == Op::Column) {
          const ColumnView& c = view.inputs[nd.p0];
          type_dispatch(c.type, LoadBlock{}, c, begin, count, out, ok_out);
          continue;
        }
        if (fast_block(view, nd, slots.data(), valids.data(), block, count, out, ok_out)) continue;
        BatchAcc acc{slots.data(), valids.data(), block, 0};
        for (int64_t r = 0; r < count; ++r) {
          acc.r = r;
          bool ok;
          eval_node(view, nd, begin + r, acc, out[r], ok);
          ok_out[r] = ok;
        }
      }
      sink(begin, count, slots.data() + (nn - 1) * block, valids.data() + (nn - 1) * block);
    }
  });
}

struct StoreValues {
  template <TypeId T>
  void operator()(const Slot* in, const uint8_t* ok, int64_t count, uint8_t* data, int64_t begin) const {
    if constexpr (is_string(T)) {
      GPUDF_FAIL(Internal, "string results are not stored by value");
    } else {
      using S = storage_t<T>;
      S* out = reinterpret_cast<S*>(data) + begin;
      for (int64_t r = 0; r < count; ++r) {
        if constexpr (std::is_floating_point_v<S>) out[r] = ok[r] ? S(in[r].f) : S(0);
        else out[r] = ok[r] ? S(in[r].i) : S(0);
      }
    }
  }
};

}  // namespace

void run_fixed_cpu(const Program& p, const ProgramView& view, Column& out) {
  uint8_t* data = out.data()->data();
  uint8_t* bits = out.validity()->data();
  run_blocks(view, p.rows, [&](int64_t begin, int64_t count, const Slot* s, const uint8_t* ok) {
    type_dispatch(out.type(), StoreValues{}, s, ok, count, data, begin);
    for (int64_t r = 0; r < count; ++r)
      if (ok[r]) set_bit(bits, begin + r);
  });
}

void run_views_cpu(const Program& p, const ProgramView& view, Slot* views, uint8_t* valid) {
  run_blocks(view, p.rows, [&](int64_t begin, int64_t count, const Slot* s, const uint8_t* ok) {
    std::memcpy(views + begin, s, size_t(count) * sizeof(Slot));
    std::memcpy(valid + begin, ok, size_t(count));
  });
}

}  // namespace gpudf::expr::detail
