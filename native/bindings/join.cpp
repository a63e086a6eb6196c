// Joins: key promotion, gather maps, then one gather per output column. Options arrive fully
// resolved from src/ops/join.ts (how and order as the enum indices of ops/join/join.hpp).
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/gather/gather.hpp"
#include "ops/join/join.hpp"

namespace gpudf::js {
namespace {

/// join(leftKeys, rightKeys, leftColumns, rightColumns, leftRows, rightRows, how, nullsEqual,
///      order, coalesceKeys) -> { keys, left, right }: the coalesced (promoted) keys when asked,
/// and the gathered left and right columns (null where the map says "no row").
Napi::Value Join(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> lk = arg_columns(info, 0, "leftKeys");
    std::vector<ColumnPtr> rk = arg_columns(info, 1, "rightKeys");
    std::vector<ColumnPtr> lc = arg_columns(info, 2, "leftColumns");
    std::vector<ColumnPtr> rc = arg_columns(info, 3, "rightColumns");
    int64_t left_rows = arg_int64(info, 4, "leftRows");
    int64_t right_rows = arg_int64(info, 5, "rightRows");
    int64_t how = arg_int64(info, 6, "how");
    bool nulls_equal = arg_bool(info, 7, "nullsEqual");
    int64_t order = arg_int64(info, 8, "order");
    bool coalesce = arg_bool(info, 9, "coalesceKeys");
    GPUDF_EXPECTS(how >= 0 && how <= int64_t(JoinHow::Cross), InvalidArgument, "join: bad how");
    GPUDF_EXPECTS(order >= 0 && order <= int64_t(JoinOrder::RightLeft), InvalidArgument, "join: bad order");
    for (const ColumnPtr& c : lk) GPUDF_EXPECTS(c->size() == left_rows, InvalidArgument, "join: left lengths differ");
    for (const ColumnPtr& c : lc) GPUDF_EXPECTS(c->size() == left_rows, InvalidArgument, "join: left lengths differ");
    for (const ColumnPtr& c : rk) GPUDF_EXPECTS(c->size() == right_rows, InvalidArgument, "join: right lengths differ");
    for (const ColumnPtr& c : rc) GPUDF_EXPECTS(c->size() == right_rows, InvalidArgument, "join: right lengths differ");

    const JoinHow h = static_cast<JoinHow>(how);
    JoinMaps maps;
    if (h == JoinHow::Cross) {
      maps = cross_maps(active_device(info.Env()), left_rows, right_rows);
    } else {
      promote_join_keys(lk, rk);
      maps = join_maps(views_of(lk), views_of(rk), h, nulls_equal, static_cast<JoinOrder>(order));
    }
    std::vector<ColumnPtr> keys, left, right;
    if (coalesce && h != JoinHow::Cross && maps.right)
      for (size_t k = 0; k < lk.size(); ++k) keys.push_back(coalesce_keys(lk[k]->view(), rk[k]->view(), maps));
    for (const ColumnPtr& c : lc) left.push_back(gather_or_null(c->view(), maps.left->view(), maps.left_has_missing));
    if (maps.right)
      for (const ColumnPtr& c : rc) right.push_back(gather_or_null(c->view(), maps.right->view(), maps.right_has_missing));
    Napi::Object out = Napi::Object::New(info.Env());
    out.Set("keys", wrap_columns(info.Env(), std::move(keys)));
    out.Set("left", wrap_columns(info.Env(), std::move(left)));
    out.Set("right", wrap_columns(info.Env(), std::move(right)));
    return out;
  });
}

}  // namespace

void init_join(Napi::Env env, Napi::Object exports) {
  exports.Set("join", Napi::Function::New(env, Join, "join"));
}

}  // namespace gpudf::js
