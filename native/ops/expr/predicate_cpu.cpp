// Filter predicates on the CPU: a program that is an AND of column-vs-literal and
// column-vs-column comparisons, isIn over a column, null tests and bool columns (what most filters are: `a >= x & a < y & b == "s"`) is run as
// byte masks, one tight loop per term over a block ANDed into the result, instead of the
// interpreter's 16-byte slots per node and row. Null counts as false (a filter's rule), so the
// mask has no validity. The terms follow the interpreter's comparison rules exactly
// (compare_values: NaN equal to NaN and above every number; strings byte-wise).
#include <algorithm>
#include <cstring>
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

bool collect(const ProgramView& v, int32_t j, std::vector<Term>& out) {
  const Node& nd = v.nodes[j];
  if (nd.op == Op::And) return collect(v, nd.arg[0], out) && collect(v, nd.arg[1], out);
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

template <Op O>
inline uint8_t holds3(int c) {
  return O == Op::Eq ? c == 0 : O == Op::Neq ? c != 0 : O == Op::Lt ? c < 0 : O == Op::Lte ? c <= 0 : O == Op::Gt ? c > 0 : c >= 0;
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
        const int64_t len = int64_t(o[r + 1] - o[r]);
        bool eq = len == lit.n;
        if (eq && len <= 16) {  // short values: inline bytes, no memcmp call per row
          for (int64_t b = 0; b < len; ++b) eq &= d[o[r] + b] == lit.s[b];
        } else if (eq) {
          eq = std::memcmp(d + o[r], lit.s, size_t(len)) == 0;
        }
        m[r] &= uint8_t(O == Op::Eq ? eq : !eq);
      }
    } else if constexpr (std::is_floating_point_v<S>) {
      const S* x = c.values<S>() + begin;
      const double l = lit.f;
      for (int64_t r = 0; r < count; ++r) m[r] &= holds3<O>(cmp_f64(double(x[r]), l));
    } else if constexpr (T == TypeId::UInt64) {
      GPUDF_FAIL(Internal, "mask comparison on the uint64 lane");
    } else {
      const S* x = c.values<S>() + begin;
      const int64_t l = lit.i;
      for (int64_t r = 0; r < count; ++r) {
        const int64_t y = int64_t(x[r]);
        m[r] &= uint8_t(O == Op::Eq ? y == l : O == Op::Neq ? y != l : O == Op::Lt ? y < l : O == Op::Lte ? y <= l : O == Op::Gt ? y > l : y >= l);
      }
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

/// m[r] &= the value is one of the constants (the column's lane: int or string).
void is_in_mask(const ColumnView& c, const Slot* consts, int64_t count_consts, int64_t begin, int64_t count, uint8_t* m) {
  for (int64_t r = 0; r < count; ++r) {
    if (!m[r]) continue;
    bool ok;
    const Slot x = read_input(c, begin + r, ok);
    bool found = false;
    if (is_string(c.type)) {
      for (int64_t k = 0; k < count_consts && !found; ++k)
        found = consts[k].n == x.n && (x.n == 0 || std::memcmp(consts[k].s, x.s, size_t(x.n)) == 0);
    } else {
      for (int64_t k = 0; k < count_consts && !found; ++k) found = consts[k].i == x.i;
    }
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

}  // namespace

bool conjunction_mask_cpu(const Program& p, const ProgramView& view, Column& out) {
  std::vector<Term> terms;
  if (p.result_type() != TypeId::Bool || !collect(view, view.num_nodes - 1, terms)) return false;
  uint8_t* mask = out.data()->data();
  constexpr int64_t kBlock = 1 << 14;
  const int64_t rows = p.rows;
  cpu_pool().parallel_for((rows + kBlock - 1) / kBlock, 1, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t begin = b * kBlock, count = std::min(kBlock, rows - begin);
      uint8_t* m = mask + begin;
      std::memset(m, 1, size_t(count));
      for (const Term& t : terms) {
        const ColumnView& c = view.inputs[t.input];
        switch (t.kind) {
          case Term::Kind::Compare:
            type_dispatch(c.type, CompareMask{}, t.op, c, begin, count, t.lit, m);
            and_validity(c, begin, count, true, m);
            break;
          case Term::Kind::CompareColumns: {
            const ColumnView& d = view.inputs[t.other];
            type_dispatch(c.type, CompareColumnsMask{}, t.op, c, d, begin, count, m);
            and_validity(c, begin, count, true, m);
            and_validity(d, begin, count, true, m);
            break;
          }
          case Term::Kind::IsIn:
            and_validity(c, begin, count, true, m);
            is_in_mask(c, view.consts + t.other, t.count, begin, count, m);
            break;
          case Term::Kind::BoolColumn: {
            const uint8_t* x = c.values<uint8_t>() + begin;
            for (int64_t r = 0; r < count; ++r) m[r] &= uint8_t(x[r] != 0);
            and_validity(c, begin, count, true, m);
            break;
          }
          case Term::Kind::NotNull: and_validity(c, begin, count, true, m); break;
          case Term::Kind::IsNull: and_validity(c, begin, count, false, m); break;
        }
      }
    }
  });
  return true;
}

}  // namespace gpudf::expr::detail
