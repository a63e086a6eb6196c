// Sorting and distinct rows: argSort, sortTable, unique. Options arrive fully resolved from TS.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/distinct/distinct.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf::js {
namespace {

/// keys, descending[], nullsLast[] at arguments first, first + 1, first + 2.
std::vector<SortKey> sort_keys(const Napi::CallbackInfo& info, size_t first,
                               std::vector<ColumnPtr>& holder) {
  holder = arg_columns(info, first, "keys");
  std::vector<bool> desc = arg_bools(info, first + 1, "descending", holder.size());
  std::vector<bool> nulls_last = arg_bools(info, first + 2, "nullsLast", holder.size());
  std::vector<SortKey> keys;
  for (size_t k = 0; k < holder.size(); ++k) keys.push_back(SortKey{holder[k]->view(), desc[k], nulls_last[k]});
  return keys;
}

/// argSort(keys, descending, nullsLast) -> int64 row indices.
Napi::Value ArgSort(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> holder;
    return ColumnHandle::Wrap(info.Env(), sorted_order(sort_keys(info, 0, holder)));
  });
}

/// gatherAll(columns, indices) without re-checking indices that came from the core.
std::vector<ColumnPtr> gather_all(const std::vector<ColumnPtr>& columns, const ColumnPtr& order) {
  std::vector<ColumnPtr> out;
  for (const ColumnPtr& c : columns) out.push_back(detail::gather_unchecked(c->view(), order->view()));
  return out;
}

/// sortTable(columns, keys, descending, nullsLast) -> the columns in sorted row order.
Napi::Value SortTable(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> columns = arg_columns(info, 0, "columns");
    std::vector<ColumnPtr> holder;
    std::vector<SortKey> keys = sort_keys(info, 1, holder);
    for (const ColumnPtr& c : columns)
      GPUDF_EXPECTS(c->size() == keys.front().column.size, InvalidArgument, "columns and keys differ in length");
    return wrap_columns(info.Env(), gather_all(columns, sorted_order(keys)));
  });
}

/// unique(columns, keys, keep, maintainOrder) -> the kept rows of every column.
Napi::Value Unique(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> columns = arg_columns(info, 0, "columns");
    std::vector<ColumnPtr> keys = arg_columns(info, 1, "keys");
    int64_t keep = arg_int64(info, 2, "keep");
    GPUDF_EXPECTS(keep >= 0 && keep <= 3, InvalidArgument, "keep must be 0..3");
    bool maintain = arg_bool(info, 3, "maintainOrder");
    for (const ColumnPtr& c : columns)
      GPUDF_EXPECTS(!keys.empty() && c->size() == keys.front()->size(), InvalidArgument,
                    "columns and keys differ in length");
    ColumnPtr rows = distinct_indices(views_of(keys), static_cast<Keep>(keep), maintain);
    return wrap_columns(info.Env(), gather_all(columns, rows));
  });
}

}  // namespace

void init_sort(Napi::Env env, Napi::Object exports) {
  exports.Set("argSort", Napi::Function::New(env, ArgSort, "argSort"));
  exports.Set("sortTable", Napi::Function::New(env, SortTable, "sortTable"));
  exports.Set("unique", Napi::Function::New(env, Unique, "unique"));
}

}  // namespace gpudf::js
