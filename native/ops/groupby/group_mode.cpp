// The mode of each group, composed of groupby's own steps so that it runs wherever they run (CPU
// pool or CUDA kernels): the rows grouped again by (group, value), each pair counted, the largest
// count of each group found, and the smallest value among the pairs that reach it.
#include <string>

#include "core/error.hpp"
#include "ops/expr/expr.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"

namespace gpudf {

namespace {

expr::NodeSpec column_node(const char* name) {
  expr::NodeSpec n;
  n.op = "col";
  n.name = name;
  return n;
}

/// when(count == most, group).otherwise(-1): the pair's group where it is one of its group's modes.
std::vector<expr::NodeSpec> modal_group_program(TypeId id_type) {
  std::vector<expr::NodeSpec> specs{column_node("count"), column_node("most"), {}, column_node("group"), {}, {}};
  specs[2].op = "eq";
  specs[2].args = {0, 1};
  specs[4].op = "lit";
  specs[4].value.kind = expr::LiteralSpec::Kind::Number;
  specs[4].value.number = -1;
  specs[4].dtype = int32_t(id_type);
  specs[5].op = "when";
  specs[5].args = {2, 3, 4};
  return specs;
}

}  // namespace

ColumnPtr group_mode(const ColumnView& values, const ColumnView& ids, int64_t count) {
  detail::check_group_ids(ids, ids.size, count);
  GPUDF_EXPECTS(values.size == ids.size, InvalidArgument, "mode: the values and the group ids differ in length");
  GPUDF_EXPECTS(values.device == ids.device, InvalidArgument, "mode: the values and the group ids are on different devices");
  reduce_result_type(values.type, ReduceKind::Min);  // ERR_DTYPE for a dtype without an order
  Device& dev = *values.device;
  if (values.size == 0) return group_aggregate(values, ids, count, ReduceKind::Min);
  // Null is a value here (as in value counts); ids of -1 form pairs of their own, ignored below.
  const GroupIds pairs = group_rows({ids, values}, false, false);
  const ColumnPtr pair_count = group_aggregate(pairs.ids->view(), pairs.ids->view(), pairs.count, ReduceKind::Len);
  const ColumnPtr pair_group = gather(ids, pairs.first_rows->view());
  const ColumnPtr pair_value = gather(values, pairs.first_rows->view());
  const ColumnPtr most = group_aggregate(pair_count->view(), pair_group->view(), count, ReduceKind::Max);
  expr::Frame f;
  f.names = {"count", "most", "group"};
  f.columns = {pair_count, gather_or_null(most->view(), pair_group->view(), true), pair_group};
  f.rows = pairs.count;
  const ColumnPtr modal = expr::evaluate(modal_group_program(ids.type), f, dev);
  // min skips nulls, so a null mode is the answer only where no value ties with it (null last).
  return group_aggregate(pair_value->view(), modal->view(), count, ReduceKind::Min);
}

}  // namespace gpudf
