#include "bindings/napi.hpp"
#include "core/error.hpp"

namespace gpudf::js {
namespace {
// Distinguishes our handles from any other object (N-API type tag).
const napi_type_tag kColumnTag = {0x6770756466636f6cULL, 0x756d6e68616e646cULL};
}  // namespace

Napi::Function ColumnHandle::Define(Napi::Env env) {
  return DefineClass(env, "ColumnHandle",
                     {
                         InstanceMethod("dispose", &ColumnHandle::Dispose),
                         InstanceAccessor("disposed", &ColumnHandle::Disposed, nullptr),
                         InstanceAccessor("typeId", &ColumnHandle::TypeId, nullptr),
                         InstanceAccessor("length", &ColumnHandle::Length, nullptr),
                         InstanceMethod("nullCount", &ColumnHandle::NullCount),
                         InstanceMethod("slice", &ColumnHandle::Slice),
                         InstanceAccessor("bytes", &ColumnHandle::Bytes, nullptr),
                     });
}

ColumnHandle::ColumnHandle(const Napi::CallbackInfo& info) : Napi::ObjectWrap<ColumnHandle>(info) {
  info.This().As<Napi::Object>().TypeTag(&kColumnTag);
}

ColumnHandle::~ColumnHandle() {
  // Finalizer path (the GC's safety net): the env is still valid while finalizers run.
  if (column_) release(Env());
}

Napi::Object ColumnHandle::Wrap(Napi::Env env, ColumnPtr column) {
  Napi::Object obj = addon(env).column_ctor.New({});
  Unwrap(obj)->adopt(env, std::move(column));
  return obj;
}

const ColumnPtr& ColumnHandle::From(const Napi::Value& value) {
  GPUDF_EXPECTS(value.IsObject() && value.As<Napi::Object>().CheckTypeTag(&kColumnTag),
                InvalidArgument, "expected a gpudf column handle");
  ColumnHandle* h = Unwrap(value.As<Napi::Object>());
  GPUDF_EXPECTS(h->column_ != nullptr, Disposed, "this column was disposed");
  return h->column_;
}

void ColumnHandle::adopt(Napi::Env env, ColumnPtr column) {
  column_ = std::move(column);
  // Tell V8 about the native bytes so the GC feels the pressure of large columns; only the
  // bytes this column alone holds: a slice or share of another column (a grouped-by column, an
  // aggregation's input) adds no memory, and counting its buffers again made V8 run a full GC
  // every few queries.
  reported_bytes_ = static_cast<int64_t>(column_->owned_bytes());
  if (reported_bytes_) Napi::MemoryManagement::AdjustExternalMemory(env, reported_bytes_);
}

void ColumnHandle::release(Napi::Env env) {
  column_.reset();
  if (reported_bytes_) Napi::MemoryManagement::AdjustExternalMemory(env, -reported_bytes_);
  reported_bytes_ = 0;
}

Napi::Value ColumnHandle::Dispose(const Napi::CallbackInfo& info) {
  if (column_) release(info.Env());
  return info.Env().Undefined();
}

Napi::Value ColumnHandle::Disposed(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), column_ == nullptr);
}

Napi::Value ColumnHandle::TypeId(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    return Napi::Number::New(info.Env(), static_cast<int32_t>(From(info.This())->type()));
  });
}

Napi::Value ColumnHandle::Length(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    return Napi::Number::New(info.Env(), static_cast<double>(From(info.This())->size()));
  });
}

Napi::Value ColumnHandle::NullCount(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    return Napi::Number::New(info.Env(), static_cast<double>(From(info.This())->null_count()));
  });
}

Napi::Value ColumnHandle::Slice(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    const ColumnPtr& c = From(info.This());
    int64_t offset = arg_int64(info, 0, "offset");
    int64_t length = arg_int64(info, 1, "length");
    return Wrap(info.Env(), c->slice(offset, length));
  });
}

Napi::Value ColumnHandle::Bytes(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    return Napi::Number::New(info.Env(), static_cast<double>(From(info.This())->buffer_bytes()));
  });
}

std::vector<ColumnPtr> arg_columns(const Napi::CallbackInfo& info, size_t i, const char* name) {
  GPUDF_EXPECTS(info[i].IsArray(), InvalidArgument, std::string(name) + " must be an array of columns");
  Napi::Array arr = info[i].As<Napi::Array>();
  std::vector<ColumnPtr> out;
  out.reserve(arr.Length());
  for (uint32_t k = 0; k < arr.Length(); ++k) out.push_back(ColumnHandle::From(arr.Get(k)));
  return out;
}

std::vector<bool> arg_bools(const Napi::CallbackInfo& info, size_t i, const char* name, size_t count) {
  GPUDF_EXPECTS(info[i].IsArray() && info[i].As<Napi::Array>().Length() == count, InvalidArgument,
                std::string(name) + " must be an array of " + std::to_string(count) + " booleans");
  Napi::Array arr = info[i].As<Napi::Array>();
  std::vector<bool> out;
  for (uint32_t k = 0; k < count; ++k) {
    Napi::Value v = arr.Get(k);
    GPUDF_EXPECTS(v.IsBoolean(), InvalidArgument, std::string(name) + " must hold booleans");
    out.push_back(v.As<Napi::Boolean>().Value());
  }
  return out;
}

TypedBytes typed_array_bytes(const Napi::Value& v, const char* what) {
  GPUDF_EXPECTS(v.IsTypedArray(), InvalidArgument, std::string(what) + " must be a TypedArray or Buffer");
  // napi_get_typedarray_info gives the data pointer for a SharedArrayBuffer too (the
  // ArrayBuffer accessors reject one).
  napi_typedarray_type type;
  size_t length = 0, offset = 0;
  void* data = nullptr;
  napi_value buffer;
  const napi_status status = napi_get_typedarray_info(v.Env(), v, &type, &length, &data, &buffer, &offset);
  GPUDF_EXPECTS(status == napi_ok, InvalidArgument, std::string(what) + ": its memory cannot be read");
  return {static_cast<const uint8_t*>(data), static_cast<int64_t>(length * v.As<Napi::TypedArray>().ElementSize())};
}

bool arg_bool(const Napi::CallbackInfo& info, size_t i, const char* name) {
  GPUDF_EXPECTS(info[i].IsBoolean(), InvalidArgument, std::string(name) + " must be a boolean");
  return info[i].As<Napi::Boolean>().Value();
}

std::vector<ColumnView> views_of(const std::vector<ColumnPtr>& columns) {
  std::vector<ColumnView> out;
  out.reserve(columns.size());
  for (const ColumnPtr& c : columns) out.push_back(c->view());
  return out;
}

Napi::Array wrap_columns(Napi::Env env, std::vector<ColumnPtr> columns) {
  Napi::Array out = Napi::Array::New(env, columns.size());
  for (uint32_t k = 0; k < columns.size(); ++k) out.Set(k, ColumnHandle::Wrap(env, std::move(columns[k])));
  return out;
}

}  // namespace gpudf::js
