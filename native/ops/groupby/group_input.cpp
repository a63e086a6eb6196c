#include "ops/groupby/group_input.hpp"

#include <string>

#include "core/error.hpp"
#include "ops/expr/expr.hpp"
#include "ops/filter/filter.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {
namespace {

/// when(mask, ids, -1): the ids of the rows the mask leaves out (false or null) made -1.
ColumnPtr masked_ids(const ColumnPtr& ids, const ColumnPtr& mask) {
  std::vector<expr::NodeSpec> e(4);
  e[0].op = "col";
  e[0].name = "mask";
  e[1].op = "col";
  e[1].name = "ids";
  e[2].op = "lit";
  e[2].value.kind = expr::LiteralSpec::Kind::BigInt;
  e[2].value.bigint = -1;
  e[2].dtype = int32_t(ids->type());
  e[3].op = "when";
  e[3].args = {0, 1, 2};
  expr::Frame f;
  f.names = {"mask", "ids"};
  f.columns = {mask, ids};
  f.rows = ids->size();
  return expr::evaluate(e, f, ids->device());
}

}  // namespace

ChosenRows choose_rows(RowChoice choice, const ColumnPtr& values, const ColumnPtr& ids, const std::vector<ColumnPtr>& extra,
                       const std::vector<bool>& descending, const std::vector<bool>& nulls_last) {
  GPUDF_EXPECTS(values != nullptr, InvalidArgument, "choose_rows needs values");
  const int64_t rows = values->size();
  GPUDF_EXPECTS(!ids || ids->size() == rows, InvalidArgument, "choose_rows: the group ids differ in length from the values");
  GPUDF_EXPECTS(!ids || ids->type() == TypeId::Int32 || ids->type() == TypeId::Int64, InvalidArgument,
                "choose_rows: group ids must be int32 or int64");
  const char* what = choice == RowChoice::Filter ? "filter: the predicate" : "sortBy: a key";
  for (const ColumnPtr& e : extra)
    GPUDF_EXPECTS(e != nullptr && e->size() == rows, InvalidArgument,
                  std::string(what) + " has " + std::to_string(e ? e->size() : 0) + " rows, the values " + std::to_string(rows));
  if (choice == RowChoice::Filter) {
    GPUDF_EXPECTS(extra.size() == 1, InvalidArgument, "filter takes one predicate");
    GPUDF_EXPECTS(extra[0]->type() == TypeId::Bool, Dtype,
                  "filter needs a bool predicate, got " + std::string(type_name(extra[0]->type())));
    if (ids) return {values, masked_ids(ids, extra[0])};
    return {filter({values}, extra[0]).front(), nullptr};
  }
  GPUDF_EXPECTS(!extra.empty() && descending.size() == extra.size() && nulls_last.size() == extra.size(), InvalidArgument,
                "sortBy needs keys and one descending / nullsLast flag per key");
  std::vector<SortKey> keys;
  for (size_t k = 0; k < extra.size(); ++k) keys.push_back(SortKey{extra[k]->view(), descending[k], nulls_last[k]});
  const ColumnPtr order = sorted_order(keys);
  std::vector<ColumnView> views{values->view()};
  if (ids) views.push_back(ids->view());
  std::vector<ColumnPtr> out = gather(views, order->view(), rows);
  return {out[0], ids ? out[1] : nullptr};
}

}  // namespace gpudf
