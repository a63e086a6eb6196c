// The physical plan the query engine executes: a flat list of operator nodes, inputs before the
// nodes that read them, the root last. src/lazy/ builds and optimises the logical plan in
// TypeScript and lowers it to this form once per collect(); native/bindings/exec.cpp converts
// the JS objects into these structs, so the executor itself never sees N-API.
//
// Every name a node refers to is resolved against its input's output names; TypeScript has
// already checked them, but the executor checks again (a bad plan is ERR_INVALID_ARGUMENT,
// never a crash).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "io/csv_reader.hpp"
#include "ops/distinct/distinct.hpp"
#include "ops/expr/expr.hpp"
#include "ops/join/join.hpp"
#include "ops/reduce/reduce.hpp"

namespace gpudf::exec {

/// A serialised expression: its nodes, children first, the root last (src/expr.ts).
using ExprSpec = std::vector<expr::NodeSpec>;

struct NamedExpr {
  std::string name;
  ExprSpec expr;
};

enum class NodeKind : int32_t {
  Scan,        // an in-memory frame's columns
  CsvScan,     // a CSV file read natively (projection and dtypes pushed into the reader)
  Filter,      // rows where the predicate is true
  Project,     // exactly `exprs`, in order (select, withColumns, drop, rename, fillNull)
  Aggregate,   // groupBy().agg(): key columns, then the outputs
  Join,        // every JoinHow
  Sort,        // stable, by key expressions; `limit` >= 0 keeps the first rows only
  Slice,       // rows [offset, offset + length); a negative offset counts from the end
  TopK,        // the n best rows by `by` (per group when there are keys)
  GroupSlice,  // groupBy().head / tail: the first / last n rows of each group
  Unique,      // distinct rows by `subset`
  Union,       // vertical concatenation of inputs with one schema
};

/// One aggregation of an Aggregate node: `kind` over input expressions (by index into
/// AggregateSpec::inputs). corr / cov take two inputs, len none, the rest one.
struct AggSlot {
  std::string kind;  // "sum", "mean", ..., "len", "corr", "cov" (src/expr.ts AggKind)
  ReduceOptions options;
  std::vector<int32_t> inputs;
};

struct AggregateSpec {
  std::vector<NamedExpr> keys;
  std::vector<ExprSpec> inputs;   // distinct aggregation inputs
  std::vector<AggSlot> slots;     // distinct aggregations; outputs read slot i as "__gpudf_agg_i"
  std::vector<NamedExpr> outputs; // over the slots only
  bool maintain_order = false;
  bool sort = false;
  bool drop_nulls = false;
};

/// One output column of a join: a column of one side (by name in that side's output), or the
/// coalesced key of key pair `key`.
struct JoinOutput {
  enum class From : int32_t { Left = 0, Right = 1, Key = 2 } from = From::Left;
  std::string column;  // Left / Right: the input column's name
  int32_t key = -1;    // Key: the key pair
  std::string name;    // the output name
};

struct JoinSpec {
  std::vector<std::string> left_on, right_on;
  JoinHow how = JoinHow::Inner;
  bool nulls_equal = false;
  JoinOrder order = JoinOrder::None;
  std::vector<JoinOutput> outputs;
  /// A semi join placed by the optimizer only to shrink its left side (semiJoinReduction): > 0
  /// runs it only when the left side has at least this many times the right side's rows, and
  /// otherwise passes the left side through unchanged (every row kept is still correct there).
  int64_t reducer_ratio = 0;
};

struct SortSpec {
  std::vector<ExprSpec> keys;
  std::vector<bool> descending, nulls_last;
  int64_t limit = -1;
};

struct TopKSpec {
  std::vector<NamedExpr> keys;  // groupBy keys (none: the whole frame is one group)
  ExprSpec by;
  int64_t n = 0;
  bool largest = true;
  bool maintain_order = false, sort = false, drop_nulls = false;  // the grouping's options
};

struct GroupSliceSpec {
  std::vector<NamedExpr> keys;
  int64_t n = 0;
  bool from_end = false;
  bool maintain_order = false, sort = false, drop_nulls = false;
};

struct UniqueSpec {
  std::vector<std::string> subset;  // empty: every column
  Keep keep = Keep::Any;
  bool maintain_order = false;
};

struct PlanNode {
  NodeKind kind = NodeKind::Scan;
  std::vector<int32_t> inputs;  // earlier nodes
  std::string label;            // how profile() names the operator
  // Scan: frame index into the executor's frames; the columns kept and their output names.
  int32_t frame = -1;
  std::vector<int32_t> columns;
  std::vector<std::string> names;
  // CsvScan: the file and the reader's options (columns and dtypes already in them).
  std::string path;
  csv::CsvOptions csv;
  // Filter
  ExprSpec predicate;
  // Project: outputs; `broadcast_height`: literal-only outputs take the input's height (as
  // withColumns) instead of one row unless a column is read (as select).
  std::vector<NamedExpr> exprs;
  bool broadcast_height = false;
  /// Project: every output's value at a row reads only that row, and the height is the input's
  /// (no aggregation, window op or fill from neighbours; some output reads a column or
  /// broadcast_height), so the projection of a slice is the slice of the projection. Filter:
  /// the predicate at a row reads only that row, so the filter of a slice is the slice of the
  /// filter. Aggregate: its keys and inputs at a row read only that row. Sort, TopK: the keys /
  /// `by` at a row read only that row. (A sink evaluates them per morsel only when so.)
  bool row_wise = false;
  /// Aggregate, Sort, TopK, Unique: may end a morsel pipeline with the stages below it
  /// (pipeline.hpp).
  bool pipeline = false;
  AggregateSpec aggregate;
  JoinSpec join;
  SortSpec sort;
  int64_t offset = 0, length = -1;  // Slice (length -1: to the end)
  TopKSpec top_k;
  GroupSliceSpec group_slice;
  UniqueSpec unique;
};

/// An in-memory input frame: names and columns.
struct Frame {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
  int64_t rows = 0;
};

struct Plan {
  std::vector<PlanNode> nodes;  // root last
  std::vector<Frame> frames;
};

}  // namespace gpudf::exec
