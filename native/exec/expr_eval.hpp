// Expressions inside the query engine: evaluating a serialised expression over a Relation
// (aggregations over all rows first, then the rest as one fused program, exactly as the eager
// select does), typing one against a schema without data, and small structural queries.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "exec/plan.hpp"
#include "exec/relation.hpp"
#include "ops/groupby/group_input.hpp"

namespace gpudf::exec {

/// The column an expression only passes through (col, possibly under aliases).
std::optional<std::string> plain_column(const ExprSpec& e);

/// True when the expression reads whole columns (a col outside any aggregation); otherwise
/// its result is one row (literals and aggregations).
bool reads_columns(const ExprSpec& e);

/// The nodes reachable from `root`, renumbered, `root` last.
ExprSpec subtree(const ExprSpec& e, int32_t root);

/// The expression over `rel`: aggregation nodes are computed over all rows and replaced by
/// their value; the result has `rows` rows (the height, or 1 for a one-row result). A plain
/// column is its cell. When every column the rest reads shares one dense row map (most of a
/// base, in order: a filter's selection), the program runs over the base rows and the result
/// keeps that map, so the inputs are never gathered (late materialisation of a dense filter).
/// `predicate`: a filter's mask is wanted (null may come back as false: expr::evaluate_predicate).
CellPtr evaluate_cell(const ExprSpec& e, const Relation& rel, int64_t rows, bool predicate = false);

/// evaluate_cell's values (gathered when the cell has a map).
ColumnPtr evaluate(const ExprSpec& e, const Relation& rel, int64_t rows);

/// The column `e` over `rel`'s rows, shared when `e` only reads a column.
ColumnPtr evaluate_column(const ExprSpec& e, const Relation& rel);

/// The map every column `e` reads shares when it is dense and the columns are its base's
/// length (nullptr otherwise, or when `e` reads no column).
RowMapPtr shared_dense_map(const ExprSpec& e, const Relation& rel);

/// The result dtype of `e` over columns `names` of dtypes `types` (aggregations typed as
/// reduce() types them). Throws the errors compile() throws: ERR_COLUMN_NOT_FOUND, ERR_DTYPE.
TypeId expr_type(const ExprSpec& e, const std::vector<std::string>& names, const std::vector<TypeId>& types);

/// The result dtype of aggregation `kind` over an input of dtype `input` (len: int64; corr,
/// cov: float64 over numeric inputs).
TypeId agg_type(const std::string& kind, const std::vector<TypeId>& inputs);

/// A reduce() kind by its src/expr.ts name; ERR_INVALID_ARGUMENT for other names.
ReduceKind reduce_kind(const std::string& name);

/// An aggregation input that chooses its rows (`v.filter(p)`, `v.sortBy(keys)`): the value's,
/// the predicate's or keys' subtrees and the sort flags.
struct ChosenInput {
  RowChoice choice = RowChoice::Filter;
  ExprSpec value;
  std::vector<ExprSpec> extra;
  std::vector<bool> descending, nulls_last;
};

/// The chosen input rooted at node `at` of `e`; nullopt when that node is not a filter / sortBy.
std::optional<ChosenInput> chosen_input(const ExprSpec& e, int32_t at);

/// The input's values (and `ids`, the group ids, when grouped; columns of `rel`'s height)
/// through the choice, its predicate or keys evaluated over `rel` (ops/groupby/group_input.hpp).
ChosenRows choose_over(const ChosenInput& c, const Relation& rel, const ColumnPtr& ids);

/// The value of a one-row column as a literal node of its exact dtype.
expr::NodeSpec literal_node(const ColumnPtr& one);

}  // namespace gpudf::exec
