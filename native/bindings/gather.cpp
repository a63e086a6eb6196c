// Row selection and stacking: take (gather by user indices), sample, concat.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/concat/concat.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sample/sample.hpp"

namespace gpudf::js {
namespace {

/// take(columns, indices, rows) -> the rows at `indices` (integers in [0, rows)) of every column.
Napi::Value Take(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> columns = arg_columns(info, 0, "columns");
    const ColumnPtr& indices = ColumnHandle::From(info[1]);
    int64_t rows = arg_int64(info, 2, "rows");
    return wrap_columns(info.Env(), gather(views_of(columns), indices->view(), rows));
  });
}

/// sample(columns, rows, n, withReplacement, seed: bigint) -> n sampled rows of every column.
Napi::Value Sample(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> columns = arg_columns(info, 0, "columns");
    int64_t rows = arg_int64(info, 1, "rows");
    int64_t n = arg_int64(info, 2, "n");
    bool replace = arg_bool(info, 3, "withReplacement");
    GPUDF_EXPECTS(info[4].IsBigInt(), InvalidArgument, "seed must be a bigint");
    bool lossless = false;
    uint64_t seed = info[4].As<Napi::BigInt>().Uint64Value(&lossless);
    GPUDF_EXPECTS(lossless, InvalidArgument, "seed must fit in 64 unsigned bits");
    ColumnPtr idx = sample_index_column(active_device(info.Env()), rows, n, replace, seed);
    return wrap_columns(info.Env(), gather(views_of(columns), idx->view(), rows));
  });
}

/// concat(parts) -> one column holding the parts' rows in order.
Napi::Value Concat(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    std::vector<ColumnPtr> parts = arg_columns(info, 0, "parts");
    return ColumnHandle::Wrap(info.Env(), concat(views_of(parts)));
  });
}

}  // namespace

void init_gather(Napi::Env env, Napi::Object exports) {
  exports.Set("take", Napi::Function::New(env, Take, "take"));
  exports.Set("sample", Napi::Function::New(env, Sample, "sample"));
  exports.Set("concat", Napi::Function::New(env, Concat, "concat"));
}

}  // namespace gpudf::js
