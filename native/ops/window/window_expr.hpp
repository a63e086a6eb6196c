// Window functions inside expressions. The compiler (ops/expr/compile.cpp) materialises the
// operands of a sequence node (cumSum, shift, rank, ...) and hands them here; the result becomes
// an input column of the program, as the case map's does. An `over` node is evaluated here as a
// whole: its partition keys grouped, its rows sorted by (partition, orderBy) when the inner
// expression is order-dependent, the inner expression run over those rows with the partitions
// as segments (aggregations per partition, broadcast back), and the result put back in row order.
#pragma once

#include <string>
#include <vector>

#include "ops/expr/expr.hpp"

namespace gpudf::window {

/// True for the sequence ops evaluate_node takes (cumSum ... isUnique).
bool is_window_op(const std::string& op);

/// The sequence node `s` over its materialised operands (operand 0 the values; shift: operand 1
/// the fill, of the values' dtype, when given), segmented by `segments` (nullptr: one segment).
ColumnPtr evaluate_node(const expr::NodeSpec& s, const std::vector<ColumnPtr>& operands, const ColumnPtr& segments,
                        Device& device);

/// True for the rolling window ops (rollingSum ... rollingQuantileBy; ops/window/rolling_expr.cpp).
bool is_rolling_op(const std::string& op);

/// A rolling node over its materialised operands (values; by for the *By ops), per segment.
ColumnPtr evaluate_rolling(const expr::NodeSpec& s, const std::vector<ColumnPtr>& operands, const ColumnPtr& segments,
                           Device& device);

/// `c` cast to `t` on its device (c itself when of that dtype).
ColumnPtr cast_column(const ColumnPtr& c, TypeId t, Device& device);

/// specs[at] is an `over` node: its value for every row of `frame`.
ColumnPtr evaluate_over(const std::vector<expr::NodeSpec>& specs, int32_t at, const expr::Frame& frame, Device& device);

/// 1 for the nodes the root reaches without passing through an `over` node's operands (the nodes
/// a program compiles; the rest belong to some `over` only).
std::vector<uint8_t> outside_over(const std::vector<expr::NodeSpec>& specs);

/// The nodes reachable from `root`, renumbered, `root` last.
std::vector<expr::NodeSpec> subtree_of(const std::vector<expr::NodeSpec>& specs, int32_t root);

}  // namespace gpudf::window
