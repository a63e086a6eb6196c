// Filter predicates on the CPU: a program that is an AND / OR tree of column-vs-literal and
// column-vs-column comparisons, isIn over a column, null tests and bool columns (what most
// filters are: `a >= x & a < y & b == "s"`) is run as byte masks, one tight loop per term over
// a block ANDed into the result, instead of the interpreter's 16-byte slots per node and row. Null counts as false (a filter's rule), so the
// mask has no validity. The terms follow the interpreter's comparison rules exactly
// (compare_values: NaN equal to NaN and above every number; strings byte-wise).
#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "core/dispatch.hpp"
#include "core/thread_pool.hpp"
#include "ops/expr/eval_element.hpp"
#include "ops/expr/expr.hpp"

namespace gpudf::expr::detail {
namespace {

/// One term of the conjunction.
struct Term {
  enum class Kind { Compare, CompareColumns, IsIn, NotNull, IsNull, BoolColumn } kind;
  Op op = Op::Eq;
  int32_t input = -1;  // the column (ProgramView::inputs index)
  Slot lit{};          // Compare: the literal
  int32_t other = -1;  // CompareColumns: the right column; IsIn: the first constant
  int64_t count = 0;   // IsIn: how many constants
};

/// Terms ANDed, and groups of alternatives (each itself a Conj) ORed within a group.
struct Conj {
  std::vector<Term> terms;
  std::vector<std::vector<Conj>> any;
};

bool collect_term(const ProgramView& v, int32_t j, std::vector<Term>& out);

bool collect(const ProgramView& v, int32_t j, Conj& out) {
  const Node& nd = v.nodes[j];
  if (nd.op == Op::And) return collect(v, nd.arg[0], out) && collect(v, nd.arg[1], out);
  if (nd.op == Op::Or) {
    // A chain of ORs is one group of alternatives.
    std::vector<int32_t> alts, todo{j};
    while (!todo.empty()) {
      const int32_t k = todo.back();
      todo.pop_back();
      if (v.nodes[k].op == Op::Or) {
        todo.push_back(v.nodes[k].arg[1]);
        todo.push_back(v.nodes[k].arg[0]);
      } else {
        alts.push_back(k);
      }
    }
    std::vector<Conj> group(alts.size());
    for (size_t a = 0; a < alts.size(); ++a)
      if (!collect(v, alts[a], group[a])) return false;
    out.any.push_back(std::move(group));
    return true;
  }
  return collect_term(v, j, out.terms);
}

bool collect_term(const ProgramView& v, int32_t j, std::vector<Term>& out) {
  const Node& nd = v.nodes[j];
  if (nd.op == Op::Column && nd.type == TypeId::Bool) {
    out.push_back({Term::Kind::BoolColumn, Op::Eq, int32_t(nd.p0), {}});
    return true;
  }
  if ((nd.op == Op::IsNotNull || nd.op == Op::IsNull) && v.nodes[nd.arg[0]].op == Op::Column) {
    out.push_back({nd.op == Op::IsNull ? Term::Kind::IsNull : Term::Kind::NotNull, Op::Eq, int32_t(v.nodes[nd.arg[0]].p0), {}});
    return true;
  }
  if (nd.op == Op::IsIn && v.nodes[nd.arg[0]].op == Op::Column) {
    // Every constant in the column's own lane (int or string), so equality is lane equality.
    const Node& a = v.nodes[nd.arg[0]];
    const Lane la = lane_of(a.type);
    if (la != Lane::Int && la != Lane::String) return false;
    for (int64_t k = nd.p0; k < nd.p0 + nd.p1; ++k)
      if (lane_of(v.const_types[k]) != la) return false;
    out.push_back({Term::Kind::IsIn, Op::Eq, int32_t(a.p0), {}, int32_t(nd.p0), nd.p1});
    return true;
  }
  if (nd.op < Op::Eq || nd.op > Op::Gte) return false;
  const Node& a = v.nodes[nd.arg[0]];
  const Node& b = v.nodes[nd.arg[1]];
  const Lane la = lane_of(a.type);
  if (a.op != Op::Column || la != lane_of(b.type) || la == Lane::UInt64) return false;
  if (la == Lane::String && nd.op != Op::Eq && nd.op != Op::Neq) return false;
  if (b.op == Op::Column && a.type == b.type && la != Lane::String) {
    out.push_back({Term::Kind::CompareColumns, nd.op, int32_t(a.p0), {}, int32_t(b.p0), 0});
    return true;
  }
  if (b.op != Op::Literal || b.p1 != 0) return false;
  out.push_back({Term::Kind::Compare, nd.op, int32_t(a.p0), v.consts[b.p0]});
  return true;
}

/// Equal bytes, inline for short values (no memcmp call per row).
inline bool same_bytes(const char* a, const char* b, int64_t n) {
  if (n > 16) return std::memcmp(a, b, size_t(n)) == 0;
  bool eq = true;
  for (int64_t k = 0; k < n; ++k) eq &= a[k] == b[k];
  return eq;
}

template <Op O>
inline uint8_t holds3(int c) {
  return O == Op::Eq ? c == 0 : O == Op::Neq ? c != 0 : O == Op::Lt ? c < 0 : O == Op::Lte ? c <= 0 : O == Op::Gt ? c > 0 : c >= 0;
}

// The comparison loops are built twice, for AVX2 and for the x86-64 baseline, and the loader
// picks one by the CPU (an ifunc): with SSE2 alone GCC cannot vectorise a double (or int64)
// comparison into a byte mask, and these loops are most of a selective filter's time.
// Not under ThreadSanitizer: the loader runs ifunc resolvers before the TSan runtime starts, and
// an instrumented resolver then crashes the program at load.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__SANITIZE_THREAD__)
#define GPUDF_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GPUDF_SIMD_CLONES
#endif

/// m[r] &= L(x[r]) OP l over n values. For floating L, l is a number (not NaN): NaN values are
/// above every number (compare_values), so Gt/Gte are the negations of Lte/Lt, which IEEE makes
/// false for NaN, as it does Eq, Lt and Lte; Neq is true. For integers the same forms are exact.
/// __restrict: the mask is bytes, which may alias anything; without it nothing vectorises.
template <typename X, typename L, Op O>
GPUDF_SIMD_CLONES void and_compare(const X* __restrict x, uint8_t* __restrict m, int64_t n, L l) {
  for (int64_t r = 0; r < n; ++r) {
    const L y = L(x[r]);
    m[r] &= uint8_t(O == Op::Eq ? y == l : O == Op::Neq ? !(y == l) : O == Op::Lt ? y < l : O == Op::Lte ? y <= l : O == Op::Gt ? !(y <= l) : !(y < l));
  }
}

/// m[r] &= (column value at begin + r) OP lit, for a block (validity applied by the caller).
struct CompareMask {
  template <TypeId T, Op O>
  static void typed(const ColumnView& c, int64_t begin, int64_t count, const Slot& lit, uint8_t* m) {
    using S = storage_t<T>;
    if constexpr (is_string(T)) {
      using Off = typename S::offset_type;
      const Off* o = c.string_offsets<Off>() + begin;
      const char* d = reinterpret_cast<const char*>(c.data);
      for (int64_t r = 0; r < count; ++r) {
        if (!m[r]) continue;  // rows an earlier term rejected are not read
        const int64_t len = int64_t(o[r + 1] - o[r]);
        const bool eq = len == lit.n && same_bytes(d + o[r], lit.s, len);
        m[r] = uint8_t(O == Op::Eq ? eq : !eq);
      }
    } else if constexpr (std::is_floating_point_v<S>) {
      const S* x = c.values<S>() + begin;
      const double l = lit.f;
      if (l != l) {  // a NaN literal: only NaN equals it, every number is below it
        for (int64_t r = 0; r < count; ++r) m[r] &= holds3<O>(cmp_f64(double(x[r]), l));
        return;
      }
      and_compare<S, double, O>(x, m, count, l);
    } else if constexpr (T == TypeId::UInt64) {
      GPUDF_FAIL(Internal, "mask comparison on the uint64 lane");
    } else {
      const S* x = c.values<S>() + begin;
      const int64_t l = lit.i;
      // A literal in the column's own range compares in the column's width (narrow lanes).
      if (l >= int64_t(std::numeric_limits<S>::min()) && l <= int64_t(std::numeric_limits<S>::max()))
        and_compare<S, S, O>(x, m, count, S(l));
      else
        and_compare<S, int64_t, O>(x, m, count, l);
    }
  }
  template <TypeId T>
  void operator()(Op op, const ColumnView& c, int64_t begin, int64_t count, const Slot& lit, uint8_t* m) const {
    switch (op) {
      case Op::Eq: typed<T, Op::Eq>(c, begin, count, lit, m); break;
      case Op::Neq: typed<T, Op::Neq>(c, begin, count, lit, m); break;
      case Op::Lt: typed<T, Op::Lt>(c, begin, count, lit, m); break;
      case Op::Lte: typed<T, Op::Lte>(c, begin, count, lit, m); break;
      case Op::Gt: typed<T, Op::Gt>(c, begin, count, lit, m); break;
      default: typed<T, Op::Gte>(c, begin, count, lit, m); break;
    }
  }
};

/// m[r] &= a OP b for two columns of one fixed-width dtype (compare_values' order).
struct CompareColumnsMask {
  template <TypeId T, Op O>
  static void typed(const ColumnView& a, const ColumnView& b, int64_t begin, int64_t count, uint8_t* m) {
    using S = storage_t<T>;
    if constexpr (is_string(T) || T == TypeId::UInt64) {
      GPUDF_FAIL(Internal, "mask comparison of two columns on this lane");
    } else {
      const S* x = a.values<S>() + begin;
      const S* y = b.values<S>() + begin;
      if constexpr (std::is_floating_point_v<S>) {
        for (int64_t r = 0; r < count; ++r) m[r] &= holds3<O>(cmp_f64(double(x[r]), double(y[r])));
      } else {
        for (int64_t r = 0; r < count; ++r) {
          const int64_t p = int64_t(x[r]), q = int64_t(y[r]);
          m[r] &= uint8_t(O == Op::Eq ? p == q : O == Op::Neq ? p != q : O == Op::Lt ? p < q : O == Op::Lte ? p <= q : O == Op::Gt ? p > q : p >= q);
        }
      }
    }
  }
  template <TypeId T>
  void operator()(Op op, const ColumnView& a, const ColumnView& b, int64_t begin, int64_t count, uint8_t* m) const {
    switch (op) {
      case Op::Eq: typed<T, Op::Eq>(a, b, begin, count, m); break;
      case Op::Neq: typed<T, Op::Neq>(a, b, begin, count, m); break;
      case Op::Lt: typed<T, Op::Lt>(a, b, begin, count, m); break;
      case Op::Lte: typed<T, Op::Lte>(a, b, begin, count, m); break;
      case Op::Gt: typed<T, Op::Gt>(a, b, begin, count, m); break;
      default: typed<T, Op::Gte>(a, b, begin, count, m); break;
    }
  }
};

template <typename Off>
void is_in_strings(const ColumnView& c, const Slot* consts, int64_t count_consts, int64_t begin, int64_t count, uint8_t* m) {
  const Off* o = c.string_offsets<Off>() + begin;
  const char* d = reinterpret_cast<const char*>(c.data);
  for (int64_t r = 0; r < count; ++r) {
    if (!m[r]) continue;  // rows an earlier term rejected are not read
    const int64_t len = int64_t(o[r + 1] - o[r]);
    bool found = false;
    for (int64_t k = 0; k < count_consts && !found; ++k) found = consts[k].n == len && same_bytes(consts[k].s, d + o[r], len);
    m[r] = found;
  }
}

/// m[r] &= the value is one of the constants (the column's lane: int or string).
void is_in_mask(const ColumnView& c, const Slot* consts, int64_t count_consts, int64_t begin, int64_t count, uint8_t* m) {
  if (c.type == TypeId::Utf8) return is_in_strings<int32_t>(c, consts, count_consts, begin, count, m);
  if (c.type == TypeId::LargeUtf8) return is_in_strings<int64_t>(c, consts, count_consts, begin, count, m);
  for (int64_t r = 0; r < count; ++r) {
    if (!m[r]) continue;
    bool ok;
    const int64_t x = read_input(c, begin + r, ok).i;
    bool found = false;
    for (int64_t k = 0; k < count_consts && !found; ++k) found = consts[k].i == x;
    m[r] = found;
  }
}

/// m[r] &= valid(begin + r) (want_valid) or its negation.
void and_validity(const ColumnView& c, int64_t begin, int64_t count, bool want_valid, uint8_t* m) {
  if (c.validity == nullptr) {
    if (!want_valid) std::memset(m, 0, size_t(count));
    return;
  }
  for (int64_t r = 0; r < count; ++r) m[r] &= uint8_t(bit_is_set(c.validity, c.offset + begin + r) == want_valid);
}


/// m[0, count) &= the conjunction over block rows [begin, begin + count).
void apply(const Conj& c, const ProgramView& view, int64_t begin, int64_t count, uint8_t* m) {
  for (const Term& t : c.terms) {
    const ColumnView& col = view.inputs[t.input];
    switch (t.kind) {
      case Term::Kind::Compare:
        type_dispatch(col.type, CompareMask{}, t.op, col, begin, count, t.lit, m);
        and_validity(col, begin, count, true, m);
        break;
      case Term::Kind::CompareColumns: {
        const ColumnView& d = view.inputs[t.other];
        type_dispatch(col.type, CompareColumnsMask{}, t.op, col, d, begin, count, m);
        and_validity(col, begin, count, true, m);
        and_validity(d, begin, count, true, m);
        break;
      }
      case Term::Kind::IsIn:
        and_validity(col, begin, count, true, m);
        is_in_mask(col, view.consts + t.other, t.count, begin, count, m);
        break;
      case Term::Kind::BoolColumn: {
        const uint8_t* x = col.values<uint8_t>() + begin;
        for (int64_t r = 0; r < count; ++r) m[r] &= uint8_t(x[r] != 0);
        and_validity(col, begin, count, true, m);
        break;
      }
      case Term::Kind::NotNull: and_validity(col, begin, count, true, m); break;
      case Term::Kind::IsNull: and_validity(col, begin, count, false, m); break;
    }
  }
  // A filter keeps a row where an OR is true: where any alternative is (null OR true is true).
  // Each alternative starts from the rows still kept, so its string terms skip the others.
  for (const std::vector<Conj>& group : c.any) {
    std::vector<uint8_t> either(static_cast<size_t>(count), 0);
    std::vector<uint8_t> alt(static_cast<size_t>(count));
    for (const Conj& a : group) {
      std::memcpy(alt.data(), m, size_t(count));
      apply(a, view, begin, count, alt.data());
      for (int64_t r = 0; r < count; ++r) either[size_t(r)] |= alt[size_t(r)];
    }
    std::memcpy(m, either.data(), size_t(count));
  }
}

/// String terms after the fixed-width ones, at every level: they skip rejected rows.
void order_terms(Conj& c, const ProgramView& view) {
  std::stable_partition(c.terms.begin(), c.terms.end(), [&](const Term& t) {
    return !((t.kind == Term::Kind::Compare || t.kind == Term::Kind::IsIn) && is_string(view.inputs[t.input].type));
  });
  for (auto& group : c.any)
    for (Conj& a : group) order_terms(a, view);
}

}  // namespace

bool conjunction_mask_cpu(const Program& p, const ProgramView& view, Column& out) {
  Conj top;
  if (p.result_type() != TypeId::Bool || !collect(view, view.num_nodes - 1, top)) return false;
  order_terms(top, view);
  uint8_t* mask = out.data()->data();
  constexpr int64_t kBlock = 1 << 14;
  const int64_t rows = p.rows;
  cpu_pool().parallel_for((rows + kBlock - 1) / kBlock, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t begin = b * kBlock, count = std::min(kBlock, rows - begin);
      uint8_t* m = mask + begin;
      std::memset(m, 1, size_t(count));
      apply(top, view, begin, count, m);
    }
  });
  return true;
}

}  // namespace gpudf::expr::detail
