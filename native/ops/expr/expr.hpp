// Expressions: a serialised expression tree (from the TS Expr) is compiled once per call into a
// typed Program (compile.cpp: dtype resolution, promotion, validation) and run fused over the
// data: CPU in cache-sized batches over cpu_pool() (eval_cpu.cpp), CUDA as one kernel (expr.cu).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "ops/expr/program.hpp"
#include "ops/expr/unicode_case.hpp"

namespace gpudf::expr {

/// A JS value as the bindings hand it over.
struct LiteralSpec {
  enum class Kind { Null, Number, BigInt, String, Bool, Date } kind = Kind::Null;
  double number = 0;       // Number; Date: milliseconds since the epoch
  int64_t bigint = 0;      // BigInt (two's-complement bits when big_unsigned)
  bool big_unsigned = false;  // a BigInt above INT64_MAX (stored in `bigint` as uint64 bits)
  bool boolean = false;
  std::string text;
};

/// One node of the serialised tree. `op` is the TS method name ("add", "col", "lit", "when",
/// "str.len", "dt.year", ...); args index earlier nodes of the same list.
struct NodeSpec {
  std::string op;
  std::vector<int32_t> args;
  std::string name;                  // col: the column name
  LiteralSpec value;                 // lit / fillNull / str patterns
  int32_t dtype = -1;                // lit(value, dtype) / cast(dtype): a TypeId, -1 when absent
  std::vector<int64_t> params;       // round: decimals; str.slice: start, length (-1: to end)
  std::vector<LiteralSpec> list;     // isIn
  // "agg" nodes (whole-frame or per-group aggregations; resolved before compile, see
  // native/exec/expr_eval.hpp): the kind (src/expr.ts AggKind) and its options.
  std::string agg_kind;
  int64_t ddof = 1;
  double q = 0.5;
  std::string sep;            // strJoin: the separator
  bool ignore_nulls = true;   // strJoin: nulls skipped (else a null makes the result null)
};

/// The frame an expression runs over.
struct Frame {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
  int64_t rows = 0;  // height; literal-only expressions produce this many rows
  /// Window segments (an `over`'s partitions, ops/window/window_expr.hpp): int32 ids, one per
  /// row, equal ids contiguous when an order-dependent op runs; nullptr: the frame is one segment.
  ColumnPtr segments;
};

/// Compiles the tree whose root is the last spec. Throws ERR_COLUMN_NOT_FOUND for unknown
/// names, ERR_DTYPE for operands of the wrong dtype, ERR_INVALID_ARGUMENT for malformed specs.
Program compile(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device);

/// Runs a program on `device` (where its inputs live) and returns the result column.
ColumnPtr run(const Program& program, Device& device);

/// compile + run.
ColumnPtr evaluate(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device);

/// A filter's mask: the bool result, where null may come back as false (filters treat null as
/// false). On the CPU an AND of column-vs-literal comparisons, null tests and bool columns runs
/// as byte masks (predicate_cpu.cpp); anything else runs as evaluate() does.
ColumnPtr evaluate_predicate(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device);

/// A string column case mapped by the full Unicode mappings (unicode_case.hpp).
ColumnPtr case_map(const ColumnPtr& strings, CaseMode mode);

namespace detail {
/// Fixed-width results: fills `out` (allocated with a validity bitmap) from the program.
void run_fixed_cpu(const Program& p, const ProgramView& view, Column& out);
/// String results: one (pointer, length) view per row plus validity bytes.
void run_views_cpu(const Program& p, const ProgramView& view, Slot* views, uint8_t* valid);
ColumnPtr case_map_cpu(const ColumnPtr& strings, CaseMode mode);
/// Fills `out` (bool, no validity, p.rows rows) when the program is such a conjunction.
bool conjunction_mask_cpu(const Program& p, const ProgramView& view, Column& out);
#ifdef GPUDF_WITH_CUDA
ColumnPtr run_cuda(const Program& p);
ColumnPtr case_map_cuda(const ColumnPtr& strings, CaseMode mode);
#endif
}  // namespace detail

}  // namespace gpudf::expr
