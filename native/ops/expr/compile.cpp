// Compiling a serialised expression tree into a typed Program: names resolved, dtypes decided
// (typing.cpp), casts inserted so arithmetic sees operands of one dtype, misuse rejected.
#include <charconv>
#include <cmath>
#include <map>

#include "core/error.hpp"
#include "ops/expr/expr.hpp"
#include "ops/expr/numeric.hpp"
#include "ops/expr/typing.hpp"
#include "ops/nulls/fill.hpp"
#include "ops/regex/regex_node.hpp"
#include "ops/strings/strings.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::expr {
namespace {

/// A compiled operand: an emitted node, or a literal not emitted yet (its dtype may adapt).
struct Val {
  int32_t node = -1;
  TypeId type = TypeId::Float64;
  bool literal = false;
  Weak weak = Weak::None;
  LiteralSpec value;
};

class Compiler {
 public:
  Compiler(const Frame& frame, Device& device) : frame_(frame), device_(device) {}

  Program run(const std::vector<NodeSpec>& specs) {
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

 private:
  const Frame& frame_;
  Device& device_;
  Program prog_;
  std::vector<Val> vals_;
  std::map<size_t, int32_t> input_of_column_;
  const std::vector<NodeSpec>* specs_ = nullptr;
  int32_t cur_ = 0;

  /// The value of emitted node `node` as a column of the frame's rows (a program of the nodes
  /// so far, `node` its result): the operand of an op that is not per row (case mapping,
  /// parsing, padding, regex, windows) is materialised, and the result joins this program as an
  /// input column (input_column).
  ColumnPtr materialised(int32_t node) {
    Program sub;
    sub.nodes.assign(prog_.nodes.begin(), prog_.nodes.begin() + node + 1);
    sub.inputs = prog_.inputs;
    sub.consts = prog_.consts;
    sub.const_types = prog_.const_types;
    sub.text = prog_.text;
    sub.rows = frame_.rows;
    return expr::run(sub, device_);
  }

  Val input_column(const ColumnPtr& c) {
    prog_.inputs.push_back(c);
    return node_val(add(Op::Column, c->type(), {}, int64_t(prog_.inputs.size()) - 1));
  }

  /// A sequence op (cumSum, shift, rank, ...): operands materialised, the op run by
  /// ops/window, its result an input column. Weak literal operands take operand 0's dtype.
  Val window_node(const NodeSpec& s) {
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

  int32_t add(Op op, TypeId type, std::initializer_list<int32_t> args, int64_t p0 = 0, int64_t p1 = 0) {
    Node n{op, type, {-1, -1, -1}, p0, p1};
    int k = 0;
    for (int32_t a : args) n.arg[k++] = a;
    prog_.nodes.push_back(n);
    return int32_t(prog_.nodes.size()) - 1;
  }

  int64_t add_const(const LiteralSpec& v, TypeId t) {
    prog_.consts.push_back(literal_slot(v, t, prog_.text));
    prog_.const_types.push_back(t);
    return int64_t(prog_.consts.size()) - 1;
  }

  int32_t emit_literal(const LiteralSpec& v, TypeId t) {
    const bool null = v.kind == LiteralSpec::Kind::Null;
    return add(Op::Literal, t, {}, add_const(v, t), null ? 1 : 0);
  }

  /// The value as an emitted node of dtype `t` (weak literals converted, other nodes cast).
  int32_t as(Val& v, TypeId t) {
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

  /// Emits a literal at its own dtype (a weak one at its default).
  void emit_value(Val& v) {
    if (!v.literal || v.node >= 0) return;
    TypeId t = v.weak == Weak::None ? v.type : default_type(v.value);
    v.node = emit_literal(v.value, t);
    v.type = t;
  }

  const Val& arg(const NodeSpec& s, size_t k) {
    GPUDF_EXPECTS(k < s.args.size(), InvalidArgument, "'" + s.op + "' is missing an operand");
    int32_t i = s.args[k];
    GPUDF_EXPECTS(i >= 0 && size_t(i) < vals_.size(), InvalidArgument, "malformed expression");
    return vals_[size_t(i)];
  }

  [[noreturn]] static void bad(const std::string& op, TypeId t) {
    GPUDF_FAIL(Dtype, "'" + op + "' is not supported for dtype " + std::string(type_name(t)));
  }
  [[noreturn]] static void bad2(const std::string& op, TypeId a, TypeId b) {
    GPUDF_FAIL(Dtype, "'" + op + "' is not supported between " + std::string(type_name(a)) + " and " +
                          std::string(type_name(b)));
  }

  /// An operand as an error names it: a column's (or expression's) dtype, or the literal itself
  /// (`the number 5`), with its dtype when one was given.
  static std::string operand(const Val& v, TypeId t) {
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

  /// bad2 naming both operands as written; a date or time against text gets a hint.
  [[noreturn]] static void bad_pair(const std::string& op, const Val& a, TypeId ta, const Val& b, TypeId tb) {
    std::string msg = "'" + op + "' is not supported between " + operand(a, ta) + " and " + operand(b, tb);
    if ((is_temporal_type(ta) && is_string(tb)) || (is_string(ta) && is_temporal_type(tb))) {
      msg += "; to compare a date or time with text, pass a Date (new Date(\"2024-01-01\")) or read the "
             "column as a date (readCSV's tryParseDates or dtypes)";
    }
    GPUDF_FAIL(Dtype, msg);
  }

  /// The dtypes two operands take (weak literals adapt to the other side).
  std::pair<TypeId, TypeId> pair_types(const std::string& op, Val& a, Val& b, bool compare) {
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

  Val node_val(int32_t node) {
    Val v;
    v.node = node;
    v.type = prog_.nodes[size_t(node)].type;
    return v;
  }

  Val arithmetic(const NodeSpec& s, Op op) {
    Val a = arg(s, 0), b = arg(s, 1);
    auto [ta, tb] = pair_types(s.op, a, b, false);
    auto st = numeric_supertype(ta, tb);
    if (!st) bad_pair(s.op, a, ta, b, tb);
    TypeId t = *st;
    if (op == Op::Div && !is_float_type(t)) t = TypeId::Float64;
    if (op == Op::Pow && !is_float_type(t)) {
      // Integer power keeps the base's dtype; the exponent stays an integer.
      int32_t base = as(a, ta), e = as(b, tb);
      return node_val(add(Op::Pow, ta, {base, e}));
    }
    int32_t x = as(a, t), y = as(b, t);
    return node_val(add(op, t, {x, y}));
  }

  /// True for a Date literal (not emitted yet) that is exactly a value of temporal dtype t.
  static bool exact_temporal(const Val& v, TypeId t) {
    if (!v.literal || v.node >= 0 || v.value.kind != LiteralSpec::Kind::Date || !std::isfinite(v.value.number)) return false;
    bool ok = true;
    Slot ms{};
    ms.i = int64_t(v.value.number);
    const Slot x = cast_value(ms, TypeId::TimestampMs, t, ok);
    const Slot back = cast_value(x, t, TypeId::TimestampMs, ok);
    return ok && back.i == ms.i;
  }

  /// A string literal compared with a date or timestamp is read as ISO 8601 in that dtype,
  /// once, here (col("d").gt("2024-01-01")); text that is not such a value is ERR_DTYPE.
  void text_as_temporal(Val& lit, const Val& other) {
    if (!lit.literal || lit.node >= 0 || lit.value.kind != LiteralSpec::Kind::String) return;
    if ((other.literal && other.node < 0) || !is_temporal_type(other.type)) return;
    const TypeId t = other.type;
    const std::string& text = lit.value.text;
    int64_t v = 0;
    const bool ok = strings::parse_temporal(strings::iso_format(t != TypeId::Date32), text.data(), int64_t(text.size()), t, v);
    GPUDF_EXPECTS(ok, Dtype,
                  "the string \"" + text + "\" is not a " + std::string(type_name(t)) +
                      " in ISO 8601 (YYYY-MM-DD" + (t == TypeId::Date32 ? "" : "[ HH:MM[:SS[.f]]][Z|+hh:mm]") +
                      "); compare with a Date or parse the text with str.strptime");
    Slot x{};
    x.i = v;
    prog_.consts.push_back(x);
    prog_.const_types.push_back(t);
    lit.node = add(Op::Literal, t, {}, int64_t(prog_.consts.size()) - 1, 0);
    lit.type = t;
    lit.weak = Weak::None;
  }

  Val compare(const NodeSpec& s, Op op) {
    Val a = arg(s, 0), b = arg(s, 1);
    text_as_temporal(a, b);
    text_as_temporal(b, a);
    auto [ta, tb] = pair_types(s.op, a, b, true);
    TypeId ca = ta, cb = tb;
    if (is_temporal_type(ta) && is_temporal_type(tb)) {
      // A Date literal that is exactly a value of the other side's unit is compared in that
      // unit (the column is read as it is, not cast row by row); the result is the same.
      if (ta != tb && exact_temporal(b, ta)) return node_val(add(op, TypeId::Bool, {as(a, ta), emit_literal(b.value, ta)}));
      if (ta != tb && exact_temporal(a, tb)) return node_val(add(op, TypeId::Bool, {emit_literal(a.value, tb), as(b, tb)}));
      ca = cb = *value_supertype(ta, tb);
    } else {
      bool fine = (is_numeric(ta) && is_numeric(tb)) || (is_string(ta) && is_string(tb)) ||
                  (ta == TypeId::Bool && tb == TypeId::Bool);
      if (!fine) bad_pair(s.op, a, ta, b, tb);
    }
    int32_t x = as(a, ca), y = as(b, cb);
    return node_val(add(op, TypeId::Bool, {x, y}));
  }

  Val logic(const NodeSpec& s, Op op) {
    Val a = arg(s, 0);
    if (a.weak == Weak::Null) a.type = TypeId::Bool;
    if (a.type != TypeId::Bool) bad(s.op, a.type);
    int32_t x = as(a, TypeId::Bool);
    if (op == Op::Not) return node_val(add(op, TypeId::Bool, {x}));
    Val b = arg(s, 1);
    if (b.weak == Weak::Null) b.type = TypeId::Bool;
    if (b.type != TypeId::Bool) bad(s.op, b.type);
    return node_val(add(op, TypeId::Bool, {x, as(b, TypeId::Bool)}));
  }

  /// Unary numeric ops. to_float: integers become float64 (sqrt/exp/log).
  Val unary(const NodeSpec& s, Op op, bool to_float, int64_t p0 = 0) {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_numeric(a.type)) bad(s.op, a.type);
    if (op == Op::Neg && is_integer_type(a.type) && a.type >= TypeId::UInt8) bad(s.op, a.type);
    TypeId t = to_float && !is_float_type(a.type) ? TypeId::Float64 : a.type;
    return node_val(add(op, t, {as(a, t)}, p0));
  }

  /// The common dtype of value operands (fillNull, when); weak literals adapt.
  TypeId common(const std::string& op, std::vector<Val*> vs) {
    std::optional<TypeId> t;
    for (Val* v : vs) {
      if (v->weak != Weak::None) continue;
      if (!t) {
        t = v->type;
        continue;
      }
      auto st = value_supertype(*t, v->type);
      if (!st) bad2(op, *t, v->type);
      t = st;
    }
    for (Val* v : vs) {
      if (v->weak == Weak::None || v->weak == Weak::Null) continue;
      if (!t) {
        t = default_type(v->value);
        continue;
      }
      auto a = adapt_weak(v->value, v->weak, *t, false);
      if (!a) bad2(op, *t, default_type(v->value));
      t = a;
    }
    return t ? *t : TypeId::Float64;
  }

  Val string_pred(const NodeSpec& s, Op op) {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_string(a.type)) bad(s.op, a.type);
    GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a string");
    return node_val(add(op, TypeId::Bool, {a.node}, add_const(s.value, TypeId::Utf8)));
  }

  /// str.like: a pattern whose only wildcards are leading and/or trailing `%` runs as
  /// contains / startsWith / endsWith / equality on the literal between them (the same answer,
  /// fewer steps); any other pattern runs the LIKE matcher (text.hpp str_like).
  Val like(const NodeSpec& s) { return like_of(s, arg(s, 0)); }

  /// str.ilike: LIKE of the lowercased operand against the lowercased pattern (full Unicode
  /// mappings, unicode_case.hpp), as DuckDB's ILIKE.
  Val ilike(const NodeSpec& s) {
    GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a string");
    Val lowered = case_mapped(s, CaseMode::Lower);
    NodeSpec p = s;
    const std::string& t = s.value.text;
    p.value.text.assign(size_t(utf8_case_convert(t.data(), int64_t(t.size()), CaseMode::Lower, nullptr)), '\0');
    utf8_case_convert(t.data(), int64_t(t.size()), CaseMode::Lower, p.value.text.data());
    return like_of(p, lowered);
  }

  Val like_of(const NodeSpec& s, Val a) {
    emit_value(a);
    if (!is_string(a.type)) bad(s.op, a.type);
    GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a string");
    const std::string& p = s.value.text;
    size_t b = 0, e = p.size();
    while (b < e && p[b] == '%') ++b;
    while (e > b && p[e - 1] == '%') --e;
    if (p.find_first_of("%_", b) < e) return node_val(add(Op::StrLike, TypeId::Bool, {a.node}, add_const(s.value, TypeId::Utf8)));
    LiteralSpec core = s.value;
    core.text = p.substr(b, e - b);
    const bool lead = b > 0, trail = e < p.size();
    if (!lead && !trail) return node_val(add(Op::Eq, TypeId::Bool, {a.node, emit_literal(core, TypeId::Utf8)}));
    const Op op = lead && trail ? Op::StrContains : lead ? Op::StrEndsWith : Op::StrStartsWith;
    return node_val(add(op, TypeId::Bool, {a.node}, add_const(core, TypeId::Utf8)));
  }

  /// The string operand of `s`, emitted; ERR_DTYPE when it is not a string.
  Val string_arg(const NodeSpec& s) {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_string(a.type)) bad(s.op, a.type);
    return a;
  }

  /// lower/upper/title: the operand is materialised and case mapped.
  Val case_mapped(const NodeSpec& s, CaseMode mode) {
    return input_column(case_map(materialised(string_arg(s).node), mode));
  }

  /// strip / stripStart / stripEnd (value: the characters, or null for whitespace),
  /// stripPrefix / stripSuffix, head / tail: views into the operand, per row.
  Val narrowed(const NodeSpec& s) {
    const Val a = string_arg(s);
    const std::string& o = s.op;
    if (o == "str.head" || o == "str.tail") {
      GPUDF_EXPECTS(s.params.size() == 1, InvalidArgument, "'" + o + "' needs n");
      return node_val(add(o == "str.head" ? Op::StrHead : Op::StrTail, a.type, {a.node}, s.params[0]));
    }
    if (o == "str.stripPrefix" || o == "str.stripSuffix") {
      GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + o + "' expects a string");
      return node_val(add(o == "str.stripPrefix" ? Op::StrStripPrefix : Op::StrStripSuffix, a.type, {a.node},
                          add_const(s.value, TypeId::Utf8)));
    }
    const int64_t which = o == "str.stripStart" ? 1 : o == "str.stripEnd" ? 2 : 3;
    int64_t chars = -1;
    if (s.value.kind == LiteralSpec::Kind::String) chars = add_const(s.value, TypeId::Utf8);
    else GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null, InvalidArgument, "'" + o + "' expects a string of characters");
    return node_val(add(Op::StrStrip, a.type, {a.node}, chars, which));
  }

  /// padStart / padEnd (params: width; value: the fill), zfill (width), reverse.
  Val transformed(const NodeSpec& s, strings::Transform kind) {
    const Val a = string_arg(s);
    strings::TransformSpec t;
    t.kind = kind;
    if (kind != strings::Transform::Reverse) {
      GPUDF_EXPECTS(s.params.size() == 1 && s.params[0] >= 0, InvalidArgument, "'" + s.op + "' needs a width >= 0");
      t.width = s.params[0];
    }
    if (kind == strings::Transform::PadStart || kind == strings::Transform::PadEnd) {
      GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a fill character");
      t.fill = s.value.text;
    }
    return input_column(strings::transform(materialised(a.node), t));
  }

  /// str.strptime (dtype: date32 or a timestamp; value: the format, or null to infer it;
  /// params[0]: strict).
  Val strptime(const NodeSpec& s) {
    const Val a = string_arg(s);
    GPUDF_EXPECTS(is_valid_type_id(s.dtype), InvalidArgument, "'" + s.op + "' needs a dtype");
    std::string format;
    if (s.value.kind == LiteralSpec::Kind::String) format = s.value.text;
    else GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null, InvalidArgument, "'" + s.op + "' expects a format string");
    GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null || !format.empty(), InvalidArgument, "'" + s.op + "': the format is empty");
    const bool strict = s.params.empty() || s.params[0] != 0;
    return input_column(strings::parse_temporal(materialised(a.node), TypeId(s.dtype), format, strict, s.op));
  }

  /// dt.toString (value: the format, or null for ISO 8601).
  Val temporal_text(const NodeSpec& s) {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_temporal_type(a.type)) bad(s.op, a.type);
    std::string format;
    if (s.value.kind == LiteralSpec::Kind::String) format = s.value.text;
    else GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null, InvalidArgument, "'" + s.op + "' expects a format string");
    return input_column(strings::format_temporal(materialised(a.node), format));
  }

  /// The regex string functions (ops/regex/regex_node.hpp): the pattern compiled once, run over
  /// the materialised operand; a plain-text contains stays the fused substring search.
  Val regex_fn(const NodeSpec& s) {
    const Val a = string_arg(s);
    const regex::RegexNode r = regex::regex_node(s);
    if (r.invalid) return node_val(emit_literal(LiteralSpec{}, regex::regex_result_type(r.fn, a.type)));
    if (r.fn == regex::RegexFn::Contains && r.pure_literal()) {
      NodeSpec p = s;
      p.value.text = r.rx.prefix;
      return string_pred(p, Op::StrContains);
    }
    return input_column(regex::regex_apply(materialised(a.node), r.call()));
  }

  /// replaceStrict without a default: args [mapped values, guard]; the guard is null exactly
  /// where a non-null value has no mapping, so a null in it is an error.
  Val strict_guard(const NodeSpec& s) {
    Val g = arg(s, 1);
    emit_value(g);
    GPUDF_EXPECTS(materialised(g.node)->null_count() == 0, InvalidArgument,
                  "replaceStrict: a value has no mapping (pass a default)");
    return arg(s, 0);
  }

  /// forwardFill / backwardFill (params: limit, -1 none) / interpolate: the operand is
  /// materialised and filled from its neighbouring rows (ops/nulls/fill.hpp), then read back
  /// as an input column.
  Val neighbour_filled(const NodeSpec& s) {
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

  Val temporal(const NodeSpec& s, Op op) {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_temporal_type(a.type)) bad(s.op, a.type);
    if (a.type == TypeId::Date32 && (op == Op::Hour || op == Op::Minute || op == Op::Second)) bad(s.op, a.type);
    const bool sub_day = op == Op::Hour || op == Op::Minute || op == Op::Second || op == Op::Millisecond ||
                         op == Op::Microsecond || op == Op::Nanosecond;
    if (a.type == TypeId::Date32 && sub_day) bad(s.op, a.type);
    TypeId t = TypeId::Int8;
    if (op == Op::Year || op == Op::IsoYear || op == Op::Millisecond || op == Op::Microsecond || op == Op::Nanosecond)
      t = TypeId::Int32;
    if (op == Op::OrdinalDay) t = TypeId::Int16;
    if (op == Op::Epoch) {
      GPUDF_EXPECTS(s.params.size() == 1 && s.params[0] >= 0 && s.params[0] <= 4, InvalidArgument, "dt.epoch needs a unit");
      return node_val(add(op, TypeId::Int64, {a.node}, s.params[0]));
    }
    if (op == Op::MonthStart || op == Op::MonthEnd) return node_val(add(op, a.type, {a.node}));
    return node_val(add(op, t, {a.node}));
  }

  /// dt.truncate / dt.round / dt.offsetBy: params = [months, seconds, nanoseconds] of the
  /// interval (src/duration.ts parses "1mo2d"); the fixed part in the column's units.
  Val interval(const NodeSpec& s, Op op) {
    Val a = arg(s, 0);
    emit_value(a);
    if (!is_temporal_type(a.type)) bad(s.op, a.type);
    GPUDF_EXPECTS(s.params.size() == 3, InvalidArgument, "'" + s.op + "' needs an interval");
    const int64_t months = s.params[0], secs = s.params[1], nanos = s.params[2];
    const int64_t per_day = units_per_day(a.type);
    int64_t fixed = 0;
    if (a.type == TypeId::Date32) {
      GPUDF_EXPECTS(nanos == 0 && secs % 86400 == 0, InvalidArgument,
                    "'" + s.op + "': a date32 moves by whole days; cast to a timestamp for finer intervals");
      fixed = secs / 86400;
    } else {
      const int64_t per_sec = per_day / 86400, ns_per_unit = 1000000000 / per_sec;
      GPUDF_EXPECTS(nanos % ns_per_unit == 0, InvalidArgument,
                    "'" + s.op + "': the interval is finer than the column's unit (" + std::string(type_name(a.type)) + ")");
      GPUDF_EXPECTS(secs < INT64_MAX / per_sec && secs > INT64_MIN / per_sec, InvalidArgument, "'" + s.op + "': the interval is too long");
      fixed = secs * per_sec + nanos / ns_per_unit;
    }
    if (op == Op::OffsetBy) return node_val(add(op, a.type, {a.node}, months, fixed));
    GPUDF_EXPECTS((months > 0) != (fixed > 0) && months >= 0 && fixed >= 0, InvalidArgument,
                  "'" + s.op + "' needs a positive interval of either calendar months/years or fixed units (\"1mo\", \"15m\"), not both");
    return node_val(add(op, a.type, {a.node}, months, fixed));
  }

  Val column(const NodeSpec& s) {
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

  Val literal(const NodeSpec& s) {
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

  /// cast (dtype; params[0]: strict). Numbers, booleans and temporals to and from text go
  /// through ops/strings (materialised); strict: a value that becomes null is ERR_CAST.
  Val cast(const NodeSpec& s) {
    GPUDF_EXPECTS(is_valid_type_id(s.dtype), InvalidArgument, "cast needs a dtype");
    Val a = arg(s, 0);
    const TypeId to = TypeId(s.dtype);
    const bool strict = !s.params.empty() && s.params[0] != 0;
    if (a.weak == Weak::Null) return node_val(as(a, to));
    emit_value(a);
    const bool from_text = is_string(a.type) && !is_string(to), to_text = !is_string(a.type) && is_string(to);
    if (!from_text && !to_text) {
      if (!castable(a.type, to)) bad2("cast", a.type, to);
      if (!strict || a.type == to) return node_val(as(a, to));
      const ColumnPtr in = materialised(a.node);
      return lossless(in, input_column(materialised(as(a, to))), to);
    }
    const ColumnPtr in = materialised(a.node);
    if (to_text) {
      if (!is_temporal_type(a.type) && !is_numeric(a.type) && a.type != TypeId::Bool) bad2("cast", a.type, to);
      Val text = input_column(is_temporal_type(a.type) ? strings::format_temporal(in, "") : strings::format_number(in));
      return to == TypeId::Utf8 ? text : node_val(as(text, to));
    }
    if (is_temporal_type(to)) {
      Val v = input_column(strings::parse_temporal_iso(in, to, false, "cast"));
      return strict ? lossless(in, v, to) : v;
    }
    if (!is_numeric(to) && to != TypeId::Bool) bad2("cast", a.type, to);
    // Unsigned dtypes parse as uint64 (a '-' is never accepted, as Rust's parsers), signed as int64.
    const bool is_unsigned = to >= TypeId::UInt8 && to <= TypeId::UInt64;
    const TypeId parsed = is_float_type(to) || to == TypeId::Bool ? to : is_unsigned ? TypeId::UInt64 : TypeId::Int64;
    Val v = input_column(strings::parse_number(in, parsed));
    if (parsed != to) v = node_val(as(v, to));
    if (!strict) return v;
    return lossless(in, parsed == to ? v : input_column(materialised(v.node)), to);
  }

  /// Operand k of `s` as a string column (numbers, bool and temporals as their cast to text).
  ColumnPtr text_column(const NodeSpec& s, size_t k) {
    Val a = arg(s, k);
    if (a.weak == Weak::Null) a.type = TypeId::Utf8;
    emit_value(a);
    if (is_string(a.type)) return materialised(a.node);
    if (!is_temporal_type(a.type) && !is_numeric(a.type) && a.type != TypeId::Bool) bad(s.op, a.type);
    const ColumnPtr in = materialised(a.node);
    return is_temporal_type(a.type) ? strings::format_temporal(in, "") : strings::format_number(in);
  }

  /// concatStr (args: the values; value: the separator; params[0]: ignoreNulls) and format
  /// (args: the values; list: the literal pieces around them).
  Val concat_text(const NodeSpec& s) {
    const bool format = s.op == "format";
    GPUDF_EXPECTS(!s.args.empty(), InvalidArgument, "'" + s.op + "' needs at least one value");
    std::vector<ColumnPtr> cols;
    for (size_t k = 0; k < s.args.size(); ++k) cols.push_back(text_column(s, k));
    std::vector<std::string> lits;
    bool skip = false;
    if (format) {
      GPUDF_EXPECTS(s.list.size() == s.args.size() + 1, InvalidArgument, "'format' needs one '{}' per value");
      for (const LiteralSpec& l : s.list) lits.push_back(l.text);
    } else {
      GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'concatStr' expects a separator string");
      skip = !s.params.empty() && s.params[0] != 0;
      lits.assign(s.args.size() + 1, s.value.text);
      lits.front().clear();
      lits.back().clear();
    }
    return input_column(strings::concat_strings(cols, lits, skip, frame_.rows));
  }

  /// A strict conversion's check: ERR_CAST at the first row that was valid and became null.
  Val lossless(const ColumnPtr& in, Val out, TypeId to) {
    const ColumnPtr& result = prog_.inputs[size_t(prog_.nodes[size_t(out.node)].p0)];
    const int64_t row = strings::first_lost_row(in, result);
    GPUDF_EXPECTS(row < 0, Cast,
                  "strict cast from " + std::string(type_name(in->type())) + " to " + std::string(type_name(to)) +
                      ": row " + std::to_string(row) + " (" + (row < 0 ? "" : strings::value_text(in, row)) +
                      ") does not convert; cast without strict to make such values null");
    return out;
  }

  Val is_in(const NodeSpec& s) {
    Val a = arg(s, 0);
    emit_value(a);
    const int64_t first = int64_t(prog_.consts.size());
    for (const LiteralSpec& v : s.list) {
      if (v.kind == LiteralSpec::Kind::Null) continue;
      TypeId t = default_type(v);
      if (is_temporal_type(a.type) && v.kind == LiteralSpec::Kind::Date) {
        // A Date matches only when it converts exactly to the column's unit.
        bool ok = true;
        Slot ms{};
        ms.i = int64_t(v.number);
        Slot x = cast_value(ms, TypeId::TimestampMs, a.type, ok);
        Slot back = cast_value(x, a.type, TypeId::TimestampMs, ok);
        if (!ok || back.i != ms.i) continue;
        t = a.type;
        prog_.consts.push_back(x);
        prog_.const_types.push_back(t);
        continue;
      }
      bool fine = (is_numeric(a.type) && is_numeric(t)) || (is_string(a.type) && is_string(t)) ||
                  (a.type == TypeId::Bool && t == TypeId::Bool);
      if (!fine) bad2("isIn", a.type, t);
      add_const(v, t);
    }
    return node_val(add(Op::IsIn, TypeId::Bool, {a.node}, first, int64_t(prog_.consts.size()) - first));
  }

  Val when(const NodeSpec& s) {
    GPUDF_EXPECTS(s.args.size() >= 3 && s.args.size() % 2 == 1, InvalidArgument, "malformed when/then/otherwise");
    std::vector<Val> vs;
    std::vector<Val*> ptrs;
    for (size_t k = 1; k < s.args.size(); k += 2) vs.push_back(arg(s, k));
    vs.push_back(arg(s, s.args.size() - 1));
    for (Val& v : vs) ptrs.push_back(&v);
    TypeId t = common("when", ptrs);
    int32_t acc = as(vs.back(), t);
    for (size_t k = s.args.size() - 1; k >= 2; k -= 2) {
      Val c = arg(s, k - 2);
      if (c.weak == Weak::Null) c.type = TypeId::Bool;
      if (c.type != TypeId::Bool) bad("when", c.type);
      int32_t cond = as(c, TypeId::Bool);
      acc = add(Op::Select, t, {cond, as(vs[(k - 2) / 2], t), acc});
    }
    return node_val(acc);
  }

  Val fill(const NodeSpec& s, bool nan) {
    Val a = arg(s, 0), b = arg(s, 1);
    if (nan) {
      emit_value(a);
      if (!is_float_type(a.type)) {
        if (!is_numeric(a.type)) bad(s.op, a.type);
        return a;  // integers hold no NaN
      }
    }
    TypeId t = common(s.op, {&a, &b});
    if (nan && !is_float_type(t)) bad2(s.op, a.type, t);
    int32_t x = as(a, t), y = as(b, t);
    return node_val(add(nan ? Op::FillNaN : Op::FillNull, t, {x, y}));
  }

  Val compile(const NodeSpec& s) {
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
    if (o == "str.strip" || o == "str.stripStart" || o == "str.stripEnd" || o == "str.stripPrefix" ||
        o == "str.stripSuffix" || o == "str.head" || o == "str.tail")
      return narrowed(s);
    if (o == "str.padStart") return transformed(s, strings::Transform::PadStart);
    if (o == "str.padEnd") return transformed(s, strings::Transform::PadEnd);
    if (o == "str.zfill") return transformed(s, strings::Transform::ZFill);
    if (o == "str.reverse") return transformed(s, strings::Transform::Reverse);
    if (o == "str.strptime") return strptime(s);
    if (o == "concatStr" || o == "format") return concat_text(s);
    if (o == "dt.toString") return temporal_text(s);
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
    GPUDF_FAIL(InvalidArgument, "unknown expression op '" + o + "'");
  }
};

}  // namespace

Program compile(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device) {
  return Compiler(frame, device).run(specs);
}

std::vector<Slot> Program::bound_consts(const char* text_base) const {
  std::vector<Slot> out = consts;
  for (size_t k = 0; k < out.size(); ++k)
    if (is_string(const_types[k])) out[k].s = text_base + consts[k].i;
  return out;
}

}  // namespace gpudf::expr
