// The expression compiler (compiler.hpp) for string nodes: per-row predicates, views and LIKE
// fused into the program; case mapping, padding, parsing, regex and concatenation run over the
// materialised operand and join the program as input columns.
#include "core/error.hpp"
#include "ops/expr/compiler.hpp"
#include "ops/regex/regex_node.hpp"

namespace gpudf::expr {
namespace detail {

Val Compiler::string_pred(const NodeSpec& s, Op op) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_string(a.type)) bad(s.op, a.type);
  GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a string");
  return node_val(add(op, TypeId::Bool, {a.node}, add_const(s.value, TypeId::Utf8)));
}

Val Compiler::like(const NodeSpec& s) { return like_of(s, arg(s, 0)); }

Val Compiler::ilike(const NodeSpec& s) {
  GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String, InvalidArgument, "'" + s.op + "' expects a string");
  Val lowered = case_mapped(s, CaseMode::Lower);
  NodeSpec p = s;
  const std::string& t = s.value.text;
  p.value.text.assign(size_t(utf8_case_convert(t.data(), int64_t(t.size()), CaseMode::Lower, nullptr)), '\0');
  utf8_case_convert(t.data(), int64_t(t.size()), CaseMode::Lower, p.value.text.data());
  return like_of(p, lowered);
}

Val Compiler::like_of(const NodeSpec& s, Val a) {
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

Val Compiler::string_arg(const NodeSpec& s) {
  Val a = arg(s, 0);
  emit_value(a);
  if (!is_string(a.type)) bad(s.op, a.type);
  return a;
}

Val Compiler::case_mapped(const NodeSpec& s, CaseMode mode) {
  return input_column(case_map(materialised(string_arg(s).node), mode));
}

Val Compiler::narrowed(const NodeSpec& s) {
  const Val a = string_arg(s);
  const std::string& o = s.op;
  if (o == "str.head" || o == "str.tail") {
    GPUDF_EXPECTS(s.params.size() == 1, InvalidArgument, "'" + o + "' needs n");
    return node_val(add(o == "str.head" ? Op::StrHead : Op::StrTail, a.type, {a.node}, s.params[0]));
  }
  if (o == "str.splitPart") {
    GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::String && !s.value.text.empty(), InvalidArgument,
                  "'" + o + "' expects a separator that is not empty");
    GPUDF_EXPECTS(s.params.size() == 2 && s.params[0] >= 0 && s.params[1] >= 0 && s.params[1] <= 3, InvalidArgument,
                  "'" + o + "' needs a field index >= 0 and a mode");
    return node_val(add(Op::StrSplitPart, a.type, {a.node}, add_const(s.value, TypeId::Utf8), s.params[0] * 4 + s.params[1]));
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

Val Compiler::transformed(const NodeSpec& s, strings::Transform kind) {
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

Val Compiler::strptime(const NodeSpec& s) {
  const Val a = string_arg(s);
  GPUDF_EXPECTS(is_valid_type_id(s.dtype), InvalidArgument, "'" + s.op + "' needs a dtype");
  std::string format;
  if (s.value.kind == LiteralSpec::Kind::String) format = s.value.text;
  else GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null, InvalidArgument, "'" + s.op + "' expects a format string");
  GPUDF_EXPECTS(s.value.kind == LiteralSpec::Kind::Null || !format.empty(), InvalidArgument, "'" + s.op + "': the format is empty");
  const bool strict = s.params.empty() || s.params[0] != 0;
  return input_column(strings::parse_temporal(materialised(a.node), TypeId(s.dtype), format, strict, s.op));
}

Val Compiler::regex_fn(const NodeSpec& s) {
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

ColumnPtr Compiler::text_column(const NodeSpec& s, size_t k) {
  Val a = arg(s, k);
  if (a.weak == Weak::Null) a.type = TypeId::Utf8;
  emit_value(a);
  if (is_string(a.type)) return materialised(a.node);
  if (!has_text_form(a.type)) bad(s.op, a.type);
  return as_text(materialised(a.node));
}

bool Compiler::has_text_form(TypeId t) {
  return is_temporal_type(t) || is_duration(t) || is_numeric(t) || t == TypeId::Bool;
}

ColumnPtr Compiler::as_text(const ColumnPtr& in) {
  const TypeId t = in->type();
  return is_temporal_type(t) || is_duration(t) ? strings::format_temporal(in, "") : strings::format_number(in);
}

Val Compiler::concat_text(const NodeSpec& s) {
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

}  // namespace detail

}  // namespace gpudf::expr
