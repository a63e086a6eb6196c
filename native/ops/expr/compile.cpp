// Compiling a serialised expression tree into a typed Program: names resolved, dtypes decided
// (typing.cpp), casts inserted so arithmetic sees operands of one dtype, misuse rejected. This
// file holds the driver, node emission, errors and the dispatch by op name; the node families
// are compiled in compile_values.cpp, compile_strings.cpp and compile_temporal.cpp.
#include <charconv>

#include "core/error.hpp"
#include "ops/expr/compiler.hpp"
#include "ops/nulls/fill.hpp"
#include "ops/regex/regex_node.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::expr {
namespace detail {

Program Compiler::run(const std::vector<NodeSpec>& specs) {
  GPUDF_EXPECTS(!specs.empty(), InvalidArgument, "empty expression");
  GPUDF_EXPECTS(specs.size() <= size_t(kMaxNodes), InvalidArgument,
                "expression has more than " + std::to_string(kMaxNodes) + " nodes");
  vals_.reserve(specs.size());
  specs_ = &specs;
  // Nodes only an `over` reads are evaluated by it (ops/window/over.cpp), not compiled here.
  const std::vector<uint8_t> live = window::outside_over(specs);
  for (size_t j = 0; j < specs.size(); ++j) {
    cur_ = int32_t(j);
    vals_.push_back(live[j] ? compile(specs[j]) : Val{});
  }
  emit_value(vals_.back());
  if (vals_.back().node != int32_t(prog_.nodes.size()) - 1) add(Op::Cast, vals_.back().type, {vals_.back().node});
  GPUDF_EXPECTS(prog_.nodes.size() <= size_t(kMaxNodes), InvalidArgument,
                "expression compiles to more than " + std::to_string(kMaxNodes) + " nodes");
  prog_.rows = frame_.rows;
  return std::move(prog_);
}

ColumnPtr Compiler::materialised(int32_t node) {
  Program sub;
  sub.nodes.assign(prog_.nodes.begin(), prog_.nodes.begin() + node + 1);
  sub.inputs = prog_.inputs;
  sub.consts = prog_.consts;
  sub.const_types = prog_.const_types;
  sub.text = prog_.text;
  sub.rows = frame_.rows;
  return expr::run(sub, device_);
}

Val Compiler::input_column(const ColumnPtr& c) {
  prog_.inputs.push_back(c);
  return node_val(add(Op::Column, c->type(), {}, int64_t(prog_.inputs.size()) - 1));
}

Val Compiler::window_node(const NodeSpec& s) {
  Val a = arg(s, 0);
  emit_value(a);
  std::vector<ColumnPtr> operands{materialised(a.node)};
  for (size_t k = 1; k < s.args.size(); ++k) {
    Val v = arg(s, k);
    int32_t node = -1;
    if (v.literal && v.node < 0 && v.weak != Weak::None) {
      auto t = v.weak == Weak::Null ? std::optional<TypeId>(a.type) : adapt_weak(v.value, v.weak, a.type, false);
      if (!t) bad_pair(s.op, a, a.type, v, default_type(v.value));
      node = as(v, *t);
    } else {
      emit_value(v);
      node = v.node;
    }
    operands.push_back(materialised(node));
  }
  return input_column(window::evaluate_node(s, operands, frame_.segments, device_));
}

int32_t Compiler::add(Op op, TypeId type, std::initializer_list<int32_t> args, int64_t p0, int64_t p1) {
  Node n{op, type, {-1, -1, -1}, p0, p1};
  int k = 0;
  for (int32_t a : args) n.arg[k++] = a;
  prog_.nodes.push_back(n);
  return int32_t(prog_.nodes.size()) - 1;
}

int64_t Compiler::add_const(const LiteralSpec& v, TypeId t) {
  prog_.consts.push_back(literal_slot(v, t, prog_.text));
  prog_.const_types.push_back(t);
  return int64_t(prog_.consts.size()) - 1;
}

int32_t Compiler::emit_literal(const LiteralSpec& v, TypeId t) {
  const bool null = v.kind == LiteralSpec::Kind::Null;
  return add(Op::Literal, t, {}, add_const(v, t), null ? 1 : 0);
}

int32_t Compiler::as(Val& v, TypeId t) {
  if (v.literal && v.node < 0) {
    if (v.weak != Weak::None || t == v.type) {
      GPUDF_EXPECTS(v.weak != Weak::Int || !is_integer_type(t) || literal_fits(v.value, t), Dtype,
                    "literal does not fit " + std::string(type_name(t)));
      return emit_literal(v.value, t);
    }
    emit_value(v);
  }
  if (v.type == t) return v.node;
  return add(Op::Cast, t, {v.node});
}

void Compiler::emit_value(Val& v) {
  if (!v.literal || v.node >= 0) return;
  TypeId t = v.weak == Weak::None ? v.type : default_type(v.value);
  v.node = emit_literal(v.value, t);
  v.type = t;
}

const Val& Compiler::arg(const NodeSpec& s, size_t k) {
  GPUDF_EXPECTS(k < s.args.size(), InvalidArgument, "'" + s.op + "' is missing an operand");
  int32_t i = s.args[k];
  GPUDF_EXPECTS(i >= 0 && size_t(i) < vals_.size(), InvalidArgument, "malformed expression");
  return vals_[size_t(i)];
}

void Compiler::bad(const std::string& op, TypeId t) {
  GPUDF_FAIL(Dtype, "'" + op + "' is not supported for dtype " + std::string(type_name(t)));
}

void Compiler::bad2(const std::string& op, TypeId a, TypeId b) {
  GPUDF_FAIL(Dtype, "'" + op + "' is not supported between " + std::string(type_name(a)) + " and " +
                        std::string(type_name(b)));
}

std::string Compiler::operand(const Val& v, TypeId t) {
  const std::string type(type_name(t));
  if (!v.literal || v.node >= 0) return type;
  const std::string given = v.weak == Weak::None ? " (" + type + ")" : "";
  const LiteralSpec& x = v.value;
  switch (x.kind) {
    case LiteralSpec::Kind::Number: {
      char buf[40];
      auto r = std::to_chars(buf, buf + sizeof buf, x.number);
      return "the number " + std::string(buf, r.ptr) + given;
    }
    case LiteralSpec::Kind::BigInt:
      return "the bigint " + (x.big_unsigned ? std::to_string(uint64_t(x.bigint)) : std::to_string(x.bigint)) + given;
    case LiteralSpec::Kind::String:
      return "the string \"" + (x.text.size() > 40 ? x.text.substr(0, 40) + "..." : x.text) + "\"";
    case LiteralSpec::Kind::Bool: return std::string("the boolean ") + (x.boolean ? "true" : "false");
    case LiteralSpec::Kind::Date: return "a Date" + given;
    case LiteralSpec::Kind::Null: return "null";
  }
  return type;
}

void Compiler::bad_pair(const std::string& op, const Val& a, TypeId ta, const Val& b, TypeId tb) {
  std::string msg = "'" + op + "' is not supported between " + operand(a, ta) + " and " + operand(b, tb);
  if ((is_temporal_type(ta) && is_string(tb)) || (is_string(ta) && is_temporal_type(tb))) {
    msg += "; to compare a date or time with text, pass a Date (new Date(\"2024-01-01\")) or read the "
           "column as a date (readCSV's tryParseDates or dtypes)";
  }
  GPUDF_FAIL(Dtype, msg);
}

std::pair<TypeId, TypeId> Compiler::pair_types(const std::string& op, Val& a, Val& b, bool compare) {
  if (a.weak != Weak::None && b.weak != Weak::None) {
    if (a.weak == Weak::Null && b.weak == Weak::Null) return {TypeId::Float64, TypeId::Float64};
    if (a.weak == Weak::Null) emit_value(b);
    else emit_value(a);
  }
  TypeId ta = a.type, tb = b.type;
  if (a.weak != Weak::None && b.weak == Weak::None) {
    auto t = adapt_weak(a.value, a.weak, b.type, compare);
    if (!t) bad_pair(op, a, default_type(a.value), b, b.type);
    ta = *t;
  } else if (b.weak != Weak::None && a.weak == Weak::None) {
    auto t = adapt_weak(b.value, b.weak, a.type, compare);
    if (!t) bad_pair(op, a, a.type, b, default_type(b.value));
    tb = *t;
  }
  return {ta, tb};
}

Val Compiler::node_val(int32_t node) {
  Val v;
  v.node = node;
  v.type = prog_.nodes[size_t(node)].type;
  return v;
}

Val Compiler::strict_guard(const NodeSpec& s) {
  Val g = arg(s, 1);
  emit_value(g);
  GPUDF_EXPECTS(materialised(g.node)->null_count() == 0, InvalidArgument,
                "replaceStrict: a value has no mapping (pass a default)");
  return arg(s, 0);
}

Val Compiler::neighbour_filled(const NodeSpec& s) {
  Val a = arg(s, 0);
  emit_value(a);
  ColumnPtr operand = materialised(a.node);
  ColumnPtr filled;
  if (s.op == "interpolate") {
    filled = interpolate(operand);
  } else {
    GPUDF_EXPECTS(s.params.size() == 1, InvalidArgument, "'" + s.op + "' needs a limit");
    filled = fill_directional(operand, s.op == "backwardFill", s.params[0]);
  }
  return input_column(std::move(filled));
}

Val Compiler::column(const NodeSpec& s) {
  size_t i = 0;
  while (i < frame_.names.size() && frame_.names[i] != s.name) ++i;
  GPUDF_EXPECTS(i < frame_.names.size(), ColumnNotFound, "column \"" + s.name + "\" not found");
  auto it = input_of_column_.find(i);
  if (it == input_of_column_.end()) {
    const ColumnPtr& c = frame_.columns[i];
    GPUDF_EXPECTS(&c->device() == &device_ && c->size() == frame_.rows, InvalidArgument,
                  "column \"" + s.name + "\" does not match the frame");
    prog_.inputs.push_back(c);
    it = input_of_column_.emplace(i, int32_t(prog_.inputs.size()) - 1).first;
  }
  return node_val(add(Op::Column, frame_.columns[i]->type(), {}, it->second));
}

Val Compiler::literal(const NodeSpec& s) {
  Val v;
  v.literal = true;
  v.value = s.value;
  if (s.dtype >= 0) {
    GPUDF_EXPECTS(is_valid_type_id(s.dtype), InvalidArgument, "unknown dtype id");
    v.type = TypeId(s.dtype);
    v.weak = Weak::None;
    literal_slot(s.value, v.type, prog_.text);  // validates now; the text grows harmlessly
  } else {
    v.weak = weak_kind(s.value);
    v.type = default_type(s.value);
  }
  return v;
}

Val Compiler::compile(const NodeSpec& s) {
  const std::string& o = s.op;
  if (o == "col") return column(s);
  if (o == "lit") return literal(s);
  if (o == "alias") return arg(s, 0);
  if (o == "add") return arithmetic(s, Op::Add);
  if (o == "sub") return arithmetic(s, Op::Sub);
  if (o == "mul") return arithmetic(s, Op::Mul);
  if (o == "div") return arithmetic(s, Op::Div);
  if (o == "floorDiv") return arithmetic(s, Op::FloorDiv);
  if (o == "mod") return arithmetic(s, Op::Mod);
  if (o == "pow") return arithmetic(s, Op::Pow);
  if (o == "eq") return compare(s, Op::Eq);
  if (o == "neq") return compare(s, Op::Neq);
  if (o == "lt") return compare(s, Op::Lt);
  if (o == "lte") return compare(s, Op::Lte);
  if (o == "gt") return compare(s, Op::Gt);
  if (o == "gte") return compare(s, Op::Gte);
  if (o == "and") return logic(s, Op::And);
  if (o == "or") return logic(s, Op::Or);
  if (o == "xor") return logic(s, Op::Xor);
  if (o == "not") return logic(s, Op::Not);
  if (o == "neg") return unary(s, Op::Neg, false);
  if (o == "abs") return unary(s, Op::Abs, false);
  if (o == "floor") return unary(s, Op::Floor, false);
  if (o == "ceil") return unary(s, Op::Ceil, false);
  if (o == "sqrt") return unary(s, Op::Sqrt, true);
  if (o == "exp") return unary(s, Op::Exp, true);
  if (o == "log") return unary(s, Op::Log, true);
  if (o == "round") {
    GPUDF_EXPECTS(s.params.size() == 1 && s.params[0] >= 0 && s.params[0] <= 308, InvalidArgument,
                  "round(decimals) needs an integer 0..308");
    return unary(s, Op::Round, false, s.params[0]);
  }
  if (o == "isNull" || o == "isNotNull") {
    Val a = arg(s, 0);
    return node_val(add(o == "isNull" ? Op::IsNull : Op::IsNotNull, TypeId::Bool, {as(a, a.type)}));
  }
  if (o == "isNaN") {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_numeric(a.type)) bad(o, a.type);
    return node_val(add(Op::IsNaN, TypeId::Bool, {a.node}));
  }
  if (o == "fillNull") return fill(s, false);
  if (o == "fillNaN") return fill(s, true);
  if (o == "isIn") return is_in(s);
  if (o == "cast") return cast(s);
  if (o == "when") return when(s);
  if (o == "str.len" || o == "str.lenBytes") {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_string(a.type)) bad(o, a.type);
    return node_val(add(o == "str.len" ? Op::StrLen : Op::StrLenBytes, TypeId::UInt32, {a.node}));
  }
  if (regex::is_regex_op(o)) return regex_fn(s);
  if (o == "str.startsWith") return string_pred(s, Op::StrStartsWith);
  if (o == "str.endsWith") return string_pred(s, Op::StrEndsWith);
  if (o == "str.like") return like(s);
  if (o == "str.ilike") return ilike(s);
  if (o == "forwardFill" || o == "backwardFill" || o == "interpolate") return neighbour_filled(s);
  if (o == "replaceStrict") return strict_guard(s);
  if (o == "str.toLowerCase") return case_mapped(s, CaseMode::Lower);
  if (o == "str.toUpperCase") return case_mapped(s, CaseMode::Upper);
  if (o == "str.toTitleCase") return case_mapped(s, CaseMode::Title);
  if (o == "str.slice") {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_string(a.type)) bad(o, a.type);
    GPUDF_EXPECTS(s.params.size() == 2, InvalidArgument, "str.slice needs start and length");
    return node_val(add(Op::StrSlice, a.type, {a.node}, s.params[0], s.params[1]));
  }
  GPUDF_EXPECTS(o != "str.splitExact" && o != "str.splitN" && o != "str.extractGroups", InvalidArgument,
                "'" + o + "' gives several columns: use it as a whole select / withColumns item of a frame");
  if (o == "str.strip" || o == "str.stripStart" || o == "str.stripEnd" || o == "str.stripPrefix" ||
      o == "str.stripSuffix" || o == "str.head" || o == "str.tail" || o == "str.splitPart")
    return narrowed(s);
  if (o == "str.padStart") return transformed(s, strings::Transform::PadStart);
  if (o == "str.padEnd") return transformed(s, strings::Transform::PadEnd);
  if (o == "str.zfill") return transformed(s, strings::Transform::ZFill);
  if (o == "str.reverse") return transformed(s, strings::Transform::Reverse);
  if (o == "str.strptime") return strptime(s);
  if (o == "concatStr" || o == "format") return concat_text(s);
  if (o == "dt.toString") return temporal_text(s);
  if (o == "dt.toLocal") return zoned(s, true);
  if (o == "dt.fromLocal") return zoned(s, false);
  if (o == "over") return input_column(window::evaluate_over(*specs_, cur_, frame_, device_));
  if (window::is_window_op(o)) return window_node(s);
  if (o == "dt.year") return temporal(s, Op::Year);
  if (o == "dt.month") return temporal(s, Op::Month);
  if (o == "dt.day") return temporal(s, Op::Day);
  if (o == "dt.hour") return temporal(s, Op::Hour);
  if (o == "dt.minute") return temporal(s, Op::Minute);
  if (o == "dt.second") return temporal(s, Op::Second);
  if (o == "dt.weekday") return temporal(s, Op::Weekday);
  if (o == "dt.quarter") return temporal(s, Op::Quarter);
  if (o == "dt.week") return temporal(s, Op::IsoWeek);
  if (o == "dt.isoYear") return temporal(s, Op::IsoYear);
  if (o == "dt.ordinalDay") return temporal(s, Op::OrdinalDay);
  if (o == "dt.millisecond") return temporal(s, Op::Millisecond);
  if (o == "dt.microsecond") return temporal(s, Op::Microsecond);
  if (o == "dt.nanosecond") return temporal(s, Op::Nanosecond);
  if (o == "dt.epoch") return temporal(s, Op::Epoch);
  if (o == "dt.monthStart") return temporal(s, Op::MonthStart);
  if (o == "dt.monthEnd") return temporal(s, Op::MonthEnd);
  if (o == "dt.truncate") return interval(s, Op::TruncateTo);
  if (o == "dt.round") return interval(s, Op::RoundTo);
  if (o == "dt.offsetBy") return interval(s, Op::OffsetBy);
  if (o == "dt.totalDays") return duration_total(s, 86400000000000LL);
  if (o == "dt.totalHours") return duration_total(s, 3600000000000LL);
  if (o == "dt.totalMinutes") return duration_total(s, 60000000000LL);
  if (o == "dt.totalSeconds") return duration_total(s, 1000000000LL);
  if (o == "dt.totalMilliseconds") return duration_total(s, 1000000LL);
  if (o == "dt.totalMicroseconds") return duration_total(s, 1000LL);
  if (o == "dt.totalNanoseconds") return duration_total(s, 1LL);
  GPUDF_FAIL(InvalidArgument, "unknown expression op '" + o + "'");
}

}  // namespace detail

Program compile(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device) {
  return detail::Compiler(frame, device).run(specs);
}

std::vector<Slot> Program::bound_consts(const char* text_base) const {
  std::vector<Slot> out = consts;
  for (size_t k = 0; k < out.size(); ++k)
    if (is_string(const_types[k])) out[k].s = text_base + consts[k].i;
  return out;
}

}  // namespace gpudf::expr
