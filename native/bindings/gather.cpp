// Row selection and stacking: take (gather by user indices), sample, concat.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/concat/concat.hpp"
#include "ops/gather/gather.hpp"
#include "ops/nulls/fill.hpp"
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

/// The smallest and largest value of a null-free integer column (on its device).
detail::IndexRange gather_index_range(const ColumnView& v) {
  GPUDF_EXPECTS(is_index_type(v.type) && v.validity == nullptr, InvalidArgument, "row maps must be integers without nulls");
  IndexReader idx{v.data, v.offset, v.type};
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) return detail::index_range_cuda(idx, v.size);
#endif
  return detail::index_range_cpu(idx, v.size);
}

/// gatherOrNull(column, indices) -> the rows at `indices`, null where an index is -1. Indices in
/// [-1, column length) are checked (the reshaping verbs' row maps).
Napi::Value GatherOrNull(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    const ColumnPtr& column = ColumnHandle::From(info[0]);
    const ColumnPtr& indices = ColumnHandle::From(info[1]);
    GPUDF_EXPECTS(indices->type() == TypeId::Int64 && !indices->has_validity(), InvalidArgument,
                  "gatherOrNull: int64 indices without nulls are required");
    detail::IndexRange r = gather_index_range(indices->view());
    GPUDF_EXPECTS(indices->size() == 0 || (r.min >= -1 && r.max < column->size()), InvalidArgument,
                  "gatherOrNull: an index is outside [-1, rows)");
    return ColumnHandle::Wrap(info.Env(), gather_or_null(column->view(), indices->view(), r.min < 0));
  });
}

/// pivotCells(rowOf, colOf, rows, cols) -> int64 grid row map (ops/nulls/fill.hpp scatter_cells).
Napi::Value PivotCells(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    const ColumnPtr& row_of = ColumnHandle::From(info[0]);
    const ColumnPtr& col_of = ColumnHandle::From(info[1]);
    const int64_t rows = arg_int64(info, 2, "rows"), cols = arg_int64(info, 3, "cols");
    if (row_of->size() > 0) {
      detail::IndexRange rr = gather_index_range(row_of->view()), cr = gather_index_range(col_of->view());
      GPUDF_EXPECTS(rr.min >= 0 && rr.max < rows && cr.min >= 0 && cr.max < cols, InvalidArgument,
                    "pivotCells: a cell lies outside the grid");
    }
    return ColumnHandle::Wrap(info.Env(), scatter_cells(row_of->view(), col_of->view(), rows, cols));
  });
}

}  // namespace

void init_gather(Napi::Env env, Napi::Object exports) {
  exports.Set("take", Napi::Function::New(env, Take, "take"));
  exports.Set("sample", Napi::Function::New(env, Sample, "sample"));
  exports.Set("concat", Napi::Function::New(env, Concat, "concat"));
  exports.Set("gatherOrNull", Napi::Function::New(env, GatherOrNull, "gatherOrNull"));
  exports.Set("pivotCells", Napi::Function::New(env, PivotCells, "pivotCells"));
}

}  // namespace gpudf::js
