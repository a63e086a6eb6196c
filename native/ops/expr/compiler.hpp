// The expression compiler's internal interface (not for use outside ops/expr): Compiler turns a
// serialised tree into a typed Program. Its members are defined by node family across
// compile.cpp, compile_values.cpp, compile_strings.cpp and compile_temporal.cpp.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ops/expr/expr.hpp"
#include "ops/expr/typing.hpp"
#include "ops/strings/strings.hpp"

namespace gpudf::expr::detail {

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

  Program run(const std::vector<NodeSpec>& specs);

 private:
  const Frame& frame_;
  Device& device_;
  Program prog_;
  std::vector<Val> vals_;
  std::map<size_t, int32_t> input_of_column_;
  const std::vector<NodeSpec>* specs_ = nullptr;
  int32_t cur_ = 0;

  // compile.cpp: the driver, emitting nodes and constants, errors, columns and literals, and
  // the ops that materialise an operand and run another family over it (windows, fills,
  // replaceStrict).
  /// The value of emitted node `node` as a column of the frame's rows (a program of the nodes
  /// so far, `node` its result): the operand of an op that is not per row (case mapping,
  /// parsing, padding, regex, windows) is materialised, and the result joins this program as an
  /// input column (input_column).
  ColumnPtr materialised(int32_t node);
  Val input_column(const ColumnPtr& c);
  /// A sequence op (cumSum, shift, rank, ...): operands materialised, the op run by
  /// ops/window, its result an input column. Weak literal operands take operand 0's dtype.
  Val window_node(const NodeSpec& s);
  int32_t add(Op op, TypeId type, std::initializer_list<int32_t> args, int64_t p0 = 0, int64_t p1 = 0);
  int64_t add_const(const LiteralSpec& v, TypeId t);
  int32_t emit_literal(const LiteralSpec& v, TypeId t);
  /// The value as an emitted node of dtype `t` (weak literals converted, other nodes cast).
  int32_t as(Val& v, TypeId t);
  /// Emits a literal at its own dtype (a weak one at its default).
  void emit_value(Val& v);
  const Val& arg(const NodeSpec& s, size_t k);
  [[noreturn]] static void bad(const std::string& op, TypeId t);
  [[noreturn]] static void bad2(const std::string& op, TypeId a, TypeId b);
  /// An operand as an error names it: a column's (or expression's) dtype, or the literal itself
  /// (`the number 5`), with its dtype when one was given.
  static std::string operand(const Val& v, TypeId t);
  /// bad2 naming both operands as written; a date or time against text gets a hint.
  [[noreturn]] static void bad_pair(const std::string& op, const Val& a, TypeId ta, const Val& b, TypeId tb);
  /// The dtypes two operands take (weak literals adapt to the other side).
  std::pair<TypeId, TypeId> pair_types(const std::string& op, Val& a, Val& b, bool compare);
  Val node_val(int32_t node);
  /// replaceStrict without a default: args [mapped values, guard]; the guard is null exactly
  /// where a non-null value has no mapping, so a null in it is an error.
  Val strict_guard(const NodeSpec& s);
  /// forwardFill / backwardFill (params: limit, -1 none) / interpolate: the operand is
  /// materialised and filled from its neighbouring rows (ops/nulls/fill.hpp), then read back
  /// as an input column.
  Val neighbour_filled(const NodeSpec& s);
  Val column(const NodeSpec& s);
  Val literal(const NodeSpec& s);
  Val compile(const NodeSpec& s);

  // compile_values.cpp: arithmetic, comparisons, logic, unary math, value choices (when, fillNull,
  // isIn) and casts.
  Val arithmetic(const NodeSpec& s, Op op);

  // compile_duration.cpp: arithmetic where an operand is a date, timestamp or duration, and
  // the dt.total* parts of durations.
  /// True when a or b (emitted or typed) is a date, timestamp or duration: the arithmetic
  /// then follows the calendar rules of temporal_arithmetic, not numeric promotion.
  static bool temporal_operands(const Val& a, const Val& b);
  Val temporal_arithmetic(const NodeSpec& s, Op op, Val a, Val b);
  /// dt.totalDays ... dt.totalNanoseconds: a duration as a whole count of `unit_ns`
  /// nanoseconds (int64, truncated toward zero; null where a finer count overflows).
  Val duration_total(const NodeSpec& s, int64_t unit_ns);
  /// True for a Date literal (not emitted yet) that is exactly a value of temporal dtype t.
  static bool exact_temporal(const Val& v, TypeId t);
  /// A string literal compared with a date or timestamp is read as ISO 8601 in that dtype,
  /// once, here (col("d").gt("2024-01-01")); text that is not such a value is ERR_DTYPE.
  void text_as_temporal(Val& lit, const Val& other);
  Val compare(const NodeSpec& s, Op op);
  Val logic(const NodeSpec& s, Op op);
  /// Unary numeric ops. to_float: integers become float64 (sqrt/exp/log).
  Val unary(const NodeSpec& s, Op op, bool to_float, int64_t p0 = 0);
  /// The common dtype of value operands (fillNull, when); weak literals adapt.
  TypeId common(const std::string& op, std::vector<Val*> vs);
  /// cast (dtype; params[0]: strict). Numbers, booleans and temporals to and from text go
  /// through ops/strings (materialised); strict: a value that becomes null is ERR_CAST.
  Val cast(const NodeSpec& s);
  /// A strict conversion's check: ERR_CAST at the first row that was valid and became null.
  Val lossless(const ColumnPtr& in, Val out, TypeId to);
  Val is_in(const NodeSpec& s);
  Val when(const NodeSpec& s);
  Val fill(const NodeSpec& s, bool nan);

  // compile_strings.cpp: string predicates, LIKE, case mapping, views, transforms, parsing, regex
  // and concatenation.
  Val string_pred(const NodeSpec& s, Op op);
  /// str.like: a pattern whose only wildcards are leading and/or trailing `%` runs as
  /// contains / startsWith / endsWith / equality on the literal between them (the same answer,
  /// fewer steps); any other pattern runs the LIKE matcher (text.hpp str_like).
  Val like(const NodeSpec& s);
  /// str.ilike: LIKE of the lowercased operand against the lowercased pattern (full Unicode
  /// mappings, unicode_case.hpp), as DuckDB's ILIKE.
  Val ilike(const NodeSpec& s);
  Val like_of(const NodeSpec& s, Val a);
  /// The string operand of `s`, emitted; ERR_DTYPE when it is not a string.
  Val string_arg(const NodeSpec& s);
  /// lower/upper/title: the operand is materialised and case mapped.
  Val case_mapped(const NodeSpec& s, CaseMode mode);
  /// strip / stripStart / stripEnd (value: the characters, or null for whitespace),
  /// stripPrefix / stripSuffix, head / tail: views into the operand, per row.
  Val narrowed(const NodeSpec& s);
  /// padStart / padEnd (params: width; value: the fill), zfill (width), reverse.
  Val transformed(const NodeSpec& s, strings::Transform kind);
  /// str.strptime (dtype: date32 or a timestamp; value: the format, or null to infer it;
  /// params[0]: strict).
  Val strptime(const NodeSpec& s);
  /// The regex string functions (ops/regex/regex_node.hpp): the pattern compiled once, run over
  /// the materialised operand; a plain-text contains stays the fused substring search.
  Val regex_fn(const NodeSpec& s);
  /// Numbers, bool, dates, timestamps and durations have a text form (cast to utf8).
  static bool has_text_form(TypeId t);
  /// A column of such a dtype as utf8: numbers as shortest round-trip text, temporals as ISO 8601.
  static ColumnPtr as_text(const ColumnPtr& in);
  /// Operand k of `s` as a string column (numbers, bool and temporals as their cast to text).
  ColumnPtr text_column(const NodeSpec& s, size_t k);
  /// concatStr (args: the values; value: the separator; params[0]: ignoreNulls) and format
  /// (args: the values; list: the literal pieces around them).
  Val concat_text(const NodeSpec& s);

  // compile_temporal.cpp: date and time parts, intervals and formatting.
  /// dt.toString (value: the format, or null for ISO 8601).
  Val temporal_text(const NodeSpec& s);
  Val temporal(const NodeSpec& s, Op op);
  /// dt.toLocal (value: the IANA zone name) and dt.fromLocal (value: the zone; params =
  /// [ambiguous, nonExistent] codes, ops/timezone/timezone.hpp): a timestamp's UTC instant as
  /// the zone's wall-clock time and back, same dtype.
  Val zoned(const NodeSpec& s, bool to_local);
  /// dt.truncate / dt.round / dt.offsetBy: params = [months, seconds, nanoseconds] of the
  /// interval (src/duration.ts parses "1mo2d"); the fixed part in the column's units.
  Val interval(const NodeSpec& s, Op op);
};

}  // namespace gpudf::expr::detail
