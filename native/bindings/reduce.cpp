// Reductions and value counts: reduce(column, kind, ddof, q) -> one-row column handle;
// valueCounts(column, sorted) -> [values, counts] handles. Options arrive resolved from TS.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/reduce/reduce.hpp"

namespace gpudf::js {
namespace {

Napi::Value Reduce(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& column = ColumnHandle::From(info[0]);
    int64_t kind = arg_int64(info, 1, "kind");
    GPUDF_EXPECTS(kind >= 0 && kind < kNumReduceKinds, InvalidArgument, "unknown reduction kind");
    ReduceOptions options;
    options.ddof = arg_int64(info, 2, "ddof");
    GPUDF_EXPECTS(info[3].IsNumber(), InvalidArgument, "q must be a number");
    options.q = info[3].As<Napi::Number>().DoubleValue();
    return ColumnHandle::Wrap(env, reduce(column->view(), static_cast<ReduceKind>(kind), options));
  });
}

Napi::Value ValueCounts(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& column = ColumnHandle::From(info[0]);
    GPUDF_EXPECTS(info[1].IsBoolean(), InvalidArgument, "sort must be a boolean");
    Table t = value_counts(column->view(), info[1].As<Napi::Boolean>().Value());
    Napi::Array out = Napi::Array::New(env, 2);
    out.Set(0u, ColumnHandle::Wrap(env, t.column(0)));
    out.Set(1u, ColumnHandle::Wrap(env, t.column(1)));
    return out;
  });
}

}  // namespace

void init_reduce(Napi::Env env, Napi::Object exports) {
  exports.Set("reduce", Napi::Function::New(env, Reduce, "reduce"));
  exports.Set("valueCounts", Napi::Function::New(env, ValueCounts, "valueCounts"));
}

}  // namespace gpudf::js
