// groupBy: groupRows(keys, dropNulls, maintainOrder) -> { groups, firstRows, count };
// groupAggregate(values, groups, count, kind, ddof, q); groupMode(values, groups, count); groupAggregateMany(values[], groups, count,
// kinds[], ddofs[], qs[]) -> columns (one pass for the one-fold kinds); groupCorr(a, b, groups, count, cov,
// ddof); groupHeadRows(groups, count, n, fromEnd). Options arrive resolved from TS.
#include <string>
#include <vector>

#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/groupby/group_input.hpp"
#include "ops/groupby/groupby.hpp"

namespace gpudf::js {
namespace {

int64_t arg_count(const Napi::CallbackInfo& info, size_t i) {
  const int64_t count = arg_int64(info, i, "count");
  GPUDF_EXPECTS(count >= 0, InvalidArgument, "count must be >= 0");
  return count;
}

Napi::Value GroupRows(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    std::vector<ColumnPtr> keys = arg_columns(info, 0, "keys");
    const bool drop_nulls = arg_bool(info, 1, "dropNulls");
    const bool maintain_order = arg_bool(info, 2, "maintainOrder");
    GroupIds g = group_rows(views_of(keys), drop_nulls, maintain_order);
    Napi::Object out = Napi::Object::New(env);
    out.Set("groups", ColumnHandle::Wrap(env, g.ids));
    out.Set("firstRows", ColumnHandle::Wrap(env, g.first_rows));
    out.Set("count", Napi::Number::New(env, double(g.count)));
    return out;
  });
}

/// chooseRows(sortBy, values, groups | null, extra[], descending[], nullsLast[]) -> [values, groups?]
Napi::Value ChooseRows(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const bool sort_by = arg_bool(info, 0, "sortBy");
    const ColumnPtr& values = ColumnHandle::From(info[1]);
    const ColumnPtr ids = info[2].IsNull() ? nullptr : ColumnHandle::From(info[2]);
    const std::vector<ColumnPtr> extra = arg_columns(info, 3, "extra");
    const size_t flags = sort_by ? extra.size() : 0;
    const std::vector<bool> descending = arg_bools(info, 4, "descending", flags);
    const std::vector<bool> nulls_last = arg_bools(info, 5, "nullsLast", flags);
    const ChosenRows r = choose_rows(sort_by ? RowChoice::SortBy : RowChoice::Filter, values, ids, extra, descending, nulls_last);
    Napi::Array out = Napi::Array::New(env);
    out.Set(uint32_t(0), ColumnHandle::Wrap(env, r.values));
    if (r.ids) out.Set(uint32_t(1), ColumnHandle::Wrap(env, r.ids));
    return out;
  });
}

/// groupMode(values, groups, count) -> the smallest most frequent value of each group.
Napi::Value GroupMode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& values = ColumnHandle::From(info[0]);
    const ColumnPtr& groups = ColumnHandle::From(info[1]);
    return ColumnHandle::Wrap(env, group_mode(values->view(), groups->view(), arg_count(info, 2)));
  });
}

/// groupJoin(values, groups | null, count, sep, ignoreNulls) -> str.join of each group (null
/// groups: the whole column as one group).
Napi::Value GroupJoin(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& values = ColumnHandle::From(info[0]);
    const std::string sep = arg_string(info, 3, "sep");
    GPUDF_EXPECTS(info[4].IsBoolean(), InvalidArgument, "ignoreNulls must be a boolean");
    const bool ignore = info[4].As<Napi::Boolean>().Value();
    if (info[1].IsNull()) return ColumnHandle::Wrap(env, join_strings(values->view(), sep, ignore));
    const ColumnPtr& groups = ColumnHandle::From(info[1]);
    return ColumnHandle::Wrap(env, group_join_strings(values->view(), groups->view(), arg_count(info, 2), sep, ignore));
  });
}

Napi::Value GroupAggregate(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& values = ColumnHandle::From(info[0]);
    const ColumnPtr& groups = ColumnHandle::From(info[1]);
    const int64_t count = arg_count(info, 2);
    const int64_t kind = arg_int64(info, 3, "kind");
    GPUDF_EXPECTS(kind >= 0 && kind < kNumReduceKinds, InvalidArgument, "unknown reduction kind");
    ReduceOptions options;
    options.ddof = arg_int64(info, 4, "ddof");
    GPUDF_EXPECTS(info[5].IsNumber(), InvalidArgument, "q must be a number");
    options.q = info[5].As<Napi::Number>().DoubleValue();
    return ColumnHandle::Wrap(
        env, group_aggregate(values->view(), groups->view(), count, static_cast<ReduceKind>(kind), options));
  });
}

/// A JS array of numbers of `count` entries.
std::vector<double> arg_numbers(const Napi::CallbackInfo& info, size_t i, const char* name, size_t count) {
  GPUDF_EXPECTS(info.Length() > i && info[i].IsArray(), InvalidArgument, std::string(name) + " must be an array");
  const auto a = info[i].As<Napi::Array>();
  GPUDF_EXPECTS(a.Length() == count, InvalidArgument, std::string(name) + " needs one entry per values column");
  std::vector<double> out(count);
  for (uint32_t k = 0; k < a.Length(); ++k) {
    const Napi::Value x = a.Get(k);
    GPUDF_EXPECTS(x.IsNumber(), InvalidArgument, std::string(name) + " must hold numbers");
    out[k] = x.As<Napi::Number>().DoubleValue();
  }
  return out;
}

Napi::Value GroupAggregateMany(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const std::vector<ColumnPtr> values = arg_columns(info, 0, "values");
    const ColumnPtr& groups = ColumnHandle::From(info[1]);
    const int64_t count = arg_count(info, 2);
    const std::vector<double> kinds = arg_numbers(info, 3, "kinds", values.size());
    const std::vector<double> ddofs = arg_numbers(info, 4, "ddofs", values.size());
    const std::vector<double> qs = arg_numbers(info, 5, "qs", values.size());
    std::vector<ReduceKind> k(values.size());
    std::vector<ReduceOptions> o(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
      GPUDF_EXPECTS(kinds[i] >= 0 && kinds[i] < kNumReduceKinds && kinds[i] == double(int64_t(kinds[i])),
                    InvalidArgument, "unknown reduction kind");
      GPUDF_EXPECTS(ddofs[i] == double(int64_t(ddofs[i])), InvalidArgument, "ddof must be an integer");
      k[i] = static_cast<ReduceKind>(int64_t(kinds[i]));
      o[i].ddof = int64_t(ddofs[i]);
      o[i].q = qs[i];
    }
    return wrap_columns(env, group_aggregate_many(views_of(values), groups->view(), count, k, o));
  });
}

Napi::Value GroupCorr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& a = ColumnHandle::From(info[0]);
    const ColumnPtr& b = ColumnHandle::From(info[1]);
    const ColumnPtr& groups = ColumnHandle::From(info[2]);
    const int64_t count = arg_count(info, 3);
    const bool cov = arg_bool(info, 4, "cov");
    const int64_t ddof = arg_int64(info, 5, "ddof");
    return ColumnHandle::Wrap(env, group_corr(a->view(), b->view(), groups->view(), count, cov, ddof));
  });
}

Napi::Value GroupHeadRows(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& groups = ColumnHandle::From(info[0]);
    const int64_t count = arg_count(info, 1);
    const int64_t n = arg_int64(info, 2, "n");
    const bool from_end = arg_bool(info, 3, "fromEnd");
    return ColumnHandle::Wrap(env, group_head_rows(groups->view(), count, n, from_end));
  });
}

}  // namespace

void init_groupby(Napi::Env env, Napi::Object exports) {
  exports.Set("groupRows", Napi::Function::New(env, GroupRows, "groupRows"));
  exports.Set("chooseRows", Napi::Function::New(env, ChooseRows, "chooseRows"));
  exports.Set("groupAggregate", Napi::Function::New(env, GroupAggregate, "groupAggregate"));
  exports.Set("groupMode", Napi::Function::New(env, GroupMode, "groupMode"));
  exports.Set("groupJoin", Napi::Function::New(env, GroupJoin, "groupJoin"));
  exports.Set("groupAggregateMany", Napi::Function::New(env, GroupAggregateMany, "groupAggregateMany"));
  exports.Set("groupCorr", Napi::Function::New(env, GroupCorr, "groupCorr"));
  exports.Set("groupHeadRows", Napi::Function::New(env, GroupHeadRows, "groupHeadRows"));
}

}  // namespace gpudf::js
