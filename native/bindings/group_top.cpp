// groupBy top rows: groupTopRows(groups, count, by, n, largest) -> int64 rows, each group's best
// n rows (ops/groupby/group_top.hpp). Arguments arrive resolved from TS.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/groupby/group_top.hpp"

namespace gpudf::js {
namespace {

Napi::Value GroupTopRows(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& groups = ColumnHandle::From(info[0]);
    const int64_t count = arg_int64(info, 1, "count");
    const ColumnPtr& by = ColumnHandle::From(info[2]);
    const int64_t n = arg_int64(info, 3, "n");
    const bool largest = arg_bool(info, 4, "largest");
    return ColumnHandle::Wrap(env, group_top_rows(groups->view(), count, by->view(), n, largest));
  });
}

}  // namespace

void init_group_top(Napi::Env env, Napi::Object exports) {
  exports.Set("groupTopRows", Napi::Function::New(env, GroupTopRows, "groupTopRows"));
}

}  // namespace gpudf::js
