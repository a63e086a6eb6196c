// The regex string functions as expression nodes (str.contains / countMatches / find / extract /
// replace): the node's pattern and options (resolved by the TS layer into value, list and
// params) compiled once per expression, ready to run over the materialised operand.
#pragma once

#include <string>

#include "ops/expr/expr.hpp"
#include "ops/regex/regex_ops.hpp"

namespace gpudf::regex {

struct RegexNode {
  RegexFn fn = RegexFn::Contains;
  Regex rx;
  Template tmpl;
  int32_t group = 0;
  int64_t limit = -1;
  bool literal_option = false;  // the pattern was given with { literal: true }
  bool invalid = false;         // a bad pattern under { strict: false }: every row is null

  /// Whether the pattern is plain text (the literal substring search can run instead).
  bool pure_literal() const { return !invalid && rx.literal; }
  RegexCall call() const { return RegexCall{fn, &rx, group, &tmpl, limit}; }
};

/// Whether `op` is one of these nodes.
bool is_regex_op(const std::string& op);

/// Compiles the node; a bad pattern or option throws InvalidArgument.
RegexNode regex_node(const expr::NodeSpec& s);

}  // namespace gpudf::regex
