// Node params, as src/expr_namespaces.ts sends them (value: the pattern):
//   str.contains      params [literal, strict]
//   str.countMatches  params [literal]
//   str.find          params [literal, strict]
//   str.extract       params [group]
//   str.replace       params [literal, n (-1: all)], list [replacement]
#include "ops/regex/regex_node.hpp"

#include "core/error.hpp"

namespace gpudf::regex {

bool is_regex_op(const std::string& op) {
  return op == "str.contains" || op == "str.countMatches" || op == "str.find" || op == "str.extract" ||
         op == "str.replace";
}

RegexNode regex_node(const expr::NodeSpec& s) {
  using Kind = expr::LiteralSpec::Kind;
  GPUDF_EXPECTS(s.value.kind == Kind::String, InvalidArgument, "'" + s.op + "' expects a string pattern");
  auto param = [&](size_t k, int64_t dflt) { return k < s.params.size() ? s.params[k] : dflt; };
  RegexNode r;
  bool strict = true;
  if (s.op == "str.contains" || s.op == "str.find") {
    r.fn = s.op == "str.contains" ? RegexFn::Contains : RegexFn::Find;
    r.literal_option = param(0, 0) != 0;
    strict = param(1, 1) != 0;
  } else if (s.op == "str.countMatches") {
    r.fn = RegexFn::Count;
    r.literal_option = param(0, 0) != 0;
  } else if (s.op == "str.extract") {
    r.fn = RegexFn::Extract;
    r.group = int32_t(param(0, 1));
    GPUDF_EXPECTS(param(0, 1) >= 0 && param(0, 1) < (1 << 20), InvalidArgument, "str.extract: group index must be >= 0");
  } else {
    r.fn = RegexFn::Replace;
    r.literal_option = param(0, 0) != 0;
    r.limit = param(1, -1);
    GPUDF_EXPECTS(s.list.size() == 1 && s.list[0].kind == Kind::String, InvalidArgument,
                  "str.replace expects a string replacement");
  }
  try {
    r.rx = compile_regex(s.value.text, r.literal_option);
  } catch (const Error& e) {
    if (strict || e.code() != ErrorCode::InvalidArgument) throw;
    r.invalid = true;
    return r;
  }
  if (r.fn == RegexFn::Extract)
    GPUDF_EXPECTS(r.group <= r.rx.groups, InvalidArgument,
                  "str.extract: group " + std::to_string(r.group) + " does not exist (the pattern has " +
                      std::to_string(r.rx.groups) + " capture group" + (r.rx.groups == 1 ? "" : "s") + ")");
  if (r.fn == RegexFn::Replace) r.tmpl = compile_template(s.list[0].text, r.rx, r.literal_option);
  return r;
}

}  // namespace gpudf::regex
