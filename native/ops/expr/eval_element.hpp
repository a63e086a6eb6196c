// The interpreter's step: one node for one row. The CPU backend calls it in a loop over a
// batch for each node (node-major); the CUDA kernel calls it for each node of one row
// (row-major). `Acc` gives the operands: slot(k) / valid(k) of node k for the current row.
#pragma once

#include <cmath>

#include "core/hd.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/expr/program.hpp"
#include "ops/expr/text.hpp"

namespace gpudf::expr {

/// Reads row `row` of an input column into a slot (lane conversion included).
GPUDF_HD inline Slot read_input(const ColumnView& c, int64_t row, bool& ok) {
  Slot s;
  s.n = 0;
  ok = c.is_valid(row);
  const int64_t r = c.offset + row;
  switch (c.type) {
    case TypeId::Bool:
    case TypeId::UInt8: s.i = reinterpret_cast<const uint8_t*>(c.data)[r]; break;
    case TypeId::Int8: s.i = reinterpret_cast<const int8_t*>(c.data)[r]; break;
    case TypeId::Int16: s.i = reinterpret_cast<const int16_t*>(c.data)[r]; break;
    case TypeId::UInt16: s.i = reinterpret_cast<const uint16_t*>(c.data)[r]; break;
    case TypeId::Int32:
    case TypeId::Date32: s.i = reinterpret_cast<const int32_t*>(c.data)[r]; break;
    case TypeId::UInt32: s.i = reinterpret_cast<const uint32_t*>(c.data)[r]; break;
    case TypeId::Float32: s.f = reinterpret_cast<const float*>(c.data)[r]; break;
    case TypeId::Float64: s.f = reinterpret_cast<const double*>(c.data)[r]; break;
    case TypeId::Utf8: {
      const int32_t* o = reinterpret_cast<const int32_t*>(c.offsets) + r;
      s.s = reinterpret_cast<const char*>(c.data) + o[0];
      s.n = o[1] - o[0];
      break;
    }
    case TypeId::LargeUtf8: {
      const int64_t* o = reinterpret_cast<const int64_t*>(c.offsets) + r;
      s.s = reinterpret_cast<const char*>(c.data) + o[0];
      s.n = o[1] - o[0];
      break;
    }
    default: s.i = reinterpret_cast<const int64_t*>(c.data)[r]; break;  // 64-bit ints, timestamps
  }
  return s;
}

template <typename Acc>
GPUDF_HD inline void eval_node(const ProgramView& p, const Node& nd, int64_t row, const Acc& acc,
                               Slot& out, bool& ok) {
  const TypeId t = nd.type;
  out.n = 0;
  out.i = 0;
  // Every op but the null-aware ones below is null when any operand is.
  ok = true;
  for (int k = 0; k < 3; ++k)
    if (nd.arg[k] >= 0 && !acc.valid(nd.arg[k])) ok = false;
  const Slot a = nd.arg[0] >= 0 ? acc.slot(nd.arg[0]) : out;
  const Slot b = nd.arg[1] >= 0 ? acc.slot(nd.arg[1]) : out;
  const TypeId ta = nd.arg[0] >= 0 ? p.nodes[nd.arg[0]].type : t;
  const TypeId tb = nd.arg[1] >= 0 ? p.nodes[nd.arg[1]].type : t;
  const bool flt = lane_of(t) == Lane::Float;
  switch (nd.op) {
    case Op::Column: out = read_input(p.inputs[nd.p0], row, ok); return;
    case Op::Literal:
      out = p.consts[nd.p0];
      ok = nd.p1 == 0;  // p1 = 1: a null literal
      return;
    case Op::Cast:
      if (ok) out = cast_value(a, ta, t, ok);
      return;
    case Op::Add:
      if (flt) out.f = round_float(t, a.f + b.f);
      else out.i = int_add(t, a.i, b.i);
      return;
    case Op::Sub:
      if (flt) out.f = round_float(t, a.f - b.f);
      else out.i = int_sub(t, a.i, b.i);
      return;
    case Op::Mul:
      if (flt) out.f = round_float(t, a.f * b.f);
      else out.i = int_mul(t, a.i, b.i);
      return;
    case Op::Div: out.f = round_float(t, a.f / b.f); return;
    case Op::FloorDiv:
      if (flt) out.f = round_float(t, floor(a.f / b.f));
      else if (ok) out.i = int_floor_div(t, a.i, b.i, ok);
      return;
    case Op::Mod:
      if (flt) out.f = round_float(t, float_mod(a.f, b.f));
      else if (ok) out.i = int_mod(t, a.i, b.i, ok);
      return;
    case Op::Pow:
      if (flt) out.f = round_float(t, pow(a.f, b.f));
      else if (ok) out.i = int_pow(t, a.i, b.i, tb == TypeId::UInt64, ok);
      return;
    case Op::Neg:
      if (flt) out.f = -a.f;
      else out.i = int_sub(t, 0, a.i);
      return;
    case Op::Abs:
      if (flt) out.f = fabs(a.f);
      else out.i = (t != TypeId::UInt64 && a.i < 0) ? int_sub(t, 0, a.i) : a.i;
      return;
    case Op::Round:
      if (flt) out.f = round_float(t, round_decimals(a.f, nd.p0));
      else out = a;
      return;
    case Op::Floor:
      if (flt) out.f = floor(a.f);
      else out = a;
      return;
    case Op::Ceil:
      if (flt) out.f = ceil(a.f);
      else out = a;
      return;
    case Op::Sqrt: out.f = round_float(t, sqrt(a.f)); return;
    case Op::Exp: out.f = round_float(t, exp(a.f)); return;
    case Op::Log: out.f = round_float(t, log(a.f)); return;
    case Op::Eq:
    case Op::Neq:
    case Op::Lt:
    case Op::Lte:
    case Op::Gt:
    case Op::Gte: {
      if (!ok) return;
      int c = compare_values(a, lane_of(ta), b, lane_of(tb));
      bool r = nd.op == Op::Eq ? c == 0 : nd.op == Op::Neq ? c != 0 : nd.op == Op::Lt ? c < 0
             : nd.op == Op::Lte ? c <= 0 : nd.op == Op::Gt ? c > 0 : c >= 0;
      out.i = r;
      return;
    }
    case Op::And:
    case Op::Or: {
      // Kleene: a dominating value (false for and, true for or) wins over null.
      const bool va = acc.valid(nd.arg[0]), vb = acc.valid(nd.arg[1]);
      const int64_t dom = nd.op == Op::And ? 0 : 1;
      if ((va && a.i == dom) || (vb && b.i == dom)) {
        ok = true;
        out.i = dom;
      } else {
        ok = va && vb;
        out.i = 1 - dom;
      }
      return;
    }
    case Op::Xor: out.i = (a.i != 0) != (b.i != 0); return;
    case Op::Not: out.i = a.i == 0; return;
    case Op::IsNull:
    case Op::IsNotNull:
      out.i = acc.valid(nd.arg[0]) == (nd.op == Op::IsNotNull);
      ok = true;
      return;
    case Op::IsNaN: out.i = lane_of(ta) == Lane::Float && a.f != a.f; return;
    case Op::FillNull:
      ok = acc.valid(nd.arg[0]) || acc.valid(nd.arg[1]);
      out = acc.valid(nd.arg[0]) ? a : b;
      return;
    case Op::FillNaN: {
      const bool nan = acc.valid(nd.arg[0]) && a.f != a.f;
      ok = nan ? acc.valid(nd.arg[1]) : acc.valid(nd.arg[0]);
      out = nan ? b : a;
      return;
    }
    case Op::IsIn: {
      if (!ok) return;
      const Lane la = lane_of(ta);
      bool found = false;
      for (int64_t k = nd.p0; k < nd.p0 + nd.p1 && !found; ++k)
        found = compare_values(a, la, p.consts[k], lane_of(p.const_types[k])) == 0;
      out.i = found;
      return;
    }
    case Op::Select: {
      const bool take = acc.valid(nd.arg[0]) && a.i != 0;
      const int pick = take ? nd.arg[1] : nd.arg[2];
      ok = acc.valid(pick);
      out = acc.slot(pick);
      return;
    }
    case Op::StrLen: out.i = utf8_length(a.s, a.n); return;
    case Op::StrLenBytes: out.i = a.n; return;
    case Op::StrContains: out.i = str_contains(a, p.consts[nd.p0]); return;
    case Op::StrStartsWith: out.i = str_starts_with(a, p.consts[nd.p0]); return;
    case Op::StrEndsWith: out.i = str_ends_with(a, p.consts[nd.p0]); return;
    case Op::StrLike: out.i = str_like(a, p.consts[nd.p0]); return;
    case Op::StrSlice: out = utf8_slice(a, nd.p0, nd.p1); return;
    case Op::StrStrip: out = str_strip(a, nd.p0 < 0 ? nullptr : &p.consts[nd.p0], (nd.p1 & 1) != 0, (nd.p1 & 2) != 0); return;
    case Op::StrStripPrefix: out = str_starts_with(a, p.consts[nd.p0]) ? utf8_slice_bytes(a, p.consts[nd.p0].n, a.n) : a; return;
    case Op::StrStripSuffix: out = str_ends_with(a, p.consts[nd.p0]) ? utf8_slice_bytes(a, 0, a.n - p.consts[nd.p0].n) : a; return;
    case Op::StrHead: out = str_head(a, nd.p0); return;
    case Op::StrTail: out = str_tail(a, nd.p0); return;
    case Op::StrSplitPart:
      if (ok) ok = str_split_part(a, p.consts[nd.p0], nd.p1 >> 2, (nd.p1 & 1) != 0, (nd.p1 & 2) != 0, out);
      return;
    case Op::Year:
    case Op::Month:
    case Op::Day:
    case Op::Hour:
    case Op::Minute:
    case Op::Second:
    case Op::Weekday:
    case Op::Quarter:
    case Op::IsoWeek:
    case Op::IsoYear:
    case Op::OrdinalDay:
    case Op::Millisecond:
    case Op::Microsecond:
    case Op::Nanosecond: out.i = temporal_field(nd.op, ta, a.i); return;
    // Skipped on nulls: a null slot's bits are arbitrary and the calendar math assumes a range.
    case Op::Epoch:
      if (ok) out.i = temporal_epoch(ta, a.i, nd.p0, ok);
      return;
    case Op::MonthStart:
    case Op::MonthEnd:
      if (ok) out.i = temporal_month_edge(ta, a.i, nd.op == Op::MonthEnd);
      return;
    case Op::TruncateTo:
      if (ok) out.i = temporal_truncate(ta, a.i, nd.p0, nd.p1);
      return;
    case Op::RoundTo:
      if (ok) out.i = temporal_round(ta, a.i, nd.p0, nd.p1);
      return;
    case Op::OffsetBy:
      if (ok) out.i = temporal_offset(ta, a.i, nd.p0, nd.p1, ok);
      return;
    case Op::ScaleTicks:
      if (!ok) return;
      if (a.i > INT64_MAX / nd.p0 || a.i < INT64_MIN / nd.p0) {
        ok = false;
        return;
      }
      out.i = a.i * nd.p0 / nd.p1;
      return;
  }
}

}  // namespace gpudf::expr
