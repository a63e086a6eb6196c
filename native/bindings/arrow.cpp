// Arrow buffers in and out. Import reads apache-arrow Data buffers in place (zero-copy view of
// the TypedArrays) and copies once into a column on the active device; export fills V8-owned
// ArrayBuffers, which the GC reclaims in time (external buffers are freed only when the event
// loop turns).
#include <exception>
#include <vector>

#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"
#include "ops/interop/arrow.hpp"

namespace gpudf::js {
namespace {

TypedBytes typed_bytes(const Napi::Value& v, const char* what) {
  if (v.IsUndefined() || v.IsNull()) return {};
  return typed_array_bytes(v, what);
}

TypeId type_arg(const Napi::Value& v, const char* what) {
  GPUDF_EXPECTS(v.IsNumber(), InvalidArgument, std::string(what) + " must be a type id");
  int32_t id = v.As<Napi::Number>().Int32Value();
  GPUDF_EXPECTS(is_valid_type_id(id), Dtype, "unknown type id " + std::to_string(id));
  return static_cast<TypeId>(id);
}

int64_t int_field(const Napi::Object& o, const char* name) {
  Napi::Value v = o.Get(name);
  GPUDF_EXPECTS(v.IsNumber(), InvalidArgument, std::string("chunk.") + name + " must be a number");
  double d = v.As<Napi::Number>().DoubleValue();
  GPUDF_EXPECTS(d >= 0 && d <= 9007199254740992.0 && d == static_cast<double>(static_cast<int64_t>(d)),
                InvalidArgument, std::string("chunk.") + name + " must be a non-negative integer");
  return static_cast<int64_t>(d);
}

std::vector<ArrowChunk> read_chunks(const Napi::Value& value, TypeId type);

ArrowChunk read_chunk(const Napi::Object& o, TypeId type) {
  ArrowChunk c;
  c.length = int_field(o, "length");
  c.offset = int_field(o, "offset");
  TypedBytes validity = typed_bytes(o.Get("validity"), "chunk.validity");
  TypedBytes offsets = typed_bytes(o.Get("offsets"), "chunk.offsets");
  TypedBytes values = typed_bytes(o.Get("values"), "chunk.values");
  // Arrow JS leaves an empty bitmap when a chunk has no nulls.
  if (validity.size > 0) {
    c.validity = validity.data;
    c.validity_bytes = validity.size;
  }
  c.offsets = offsets.data;
  c.offsets_bytes = offsets.size;
  c.values = values.data;
  c.values_bytes = values.size;
  Napi::Value dict = o.Get("dictionary");
  if (dict.IsObject()) {
    Napi::Object d = dict.As<Napi::Object>();
    c.index_type = type_arg(d.Get("indexType"), "dictionary.indexType");
    // Decode through a host copy of the dictionary values.
    c.dictionary = import_arrow(cpu_device(), type, read_chunks(d.Get("chunks"), type));
  }
  return c;
}

std::vector<ArrowChunk> read_chunks(const Napi::Value& value, TypeId type) {
  GPUDF_EXPECTS(value.IsArray(), InvalidArgument, "chunks must be an array");
  Napi::Array arr = value.As<Napi::Array>();
  std::vector<ArrowChunk> chunks;
  chunks.reserve(arr.Length());
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    Napi::Value item = arr.Get(i);
    GPUDF_EXPECTS(item.IsObject(), InvalidArgument, "each chunk must be an object");
    chunks.push_back(read_chunk(item.As<Napi::Object>(), type));
  }
  return chunks;
}

// importArrow(typeId, chunks) -> handle
Napi::Value ImportArrow(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    TypeId type = type_arg(info[0], "typeId");
    std::vector<ArrowChunk> chunks = read_chunks(info[1], type);
    return ColumnHandle::Wrap(env, import_arrow(active_device(env), type, chunks));
  });
}

Napi::Value buffer_or_null(Napi::Env env, int64_t bytes, uint8_t** out) {
  if (bytes == 0) {
    *out = nullptr;
    return env.Null();
  }
  Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(env, static_cast<size_t>(bytes));
  *out = static_cast<uint8_t*>(ab.Data());
  return ab;
}

/// One column's export: the host column and the ArrayBuffers its bytes go to.
struct ExportItem {
  ColumnPtr column;
  uint8_t* validity;
  uint8_t* offsets;
  uint8_t* values;
};

/// `{ length, nullCount, validity, offsets, values }` for a column, its buffers allocated
/// (sized for arrow_export) but not yet filled; `item` says where the bytes go.
Napi::Object export_object(Napi::Env env, const Napi::Value& handle, ExportItem& item) {
  item = ExportItem{to_host(ColumnHandle::From(handle)), nullptr, nullptr, nullptr};
  ArrowExportSizes sizes = arrow_export_sizes(*item.column);
  Napi::Object o = Napi::Object::New(env);
  o.Set("length", static_cast<double>(item.column->size()));
  o.Set("nullCount", static_cast<double>(sizes.null_count));
  o.Set("validity", buffer_or_null(env, sizes.validity_bytes, &item.validity));
  o.Set("offsets", buffer_or_null(env, sizes.offsets_bytes, &item.offsets));
  // Values are always an ArrayBuffer (possibly empty) so Arrow gets a typed array.
  Napi::ArrayBuffer vals = Napi::ArrayBuffer::New(env, static_cast<size_t>(sizes.values_bytes));
  item.values = static_cast<uint8_t*>(vals.Data());
  o.Set("values", vals);
  return o;
}

// exportArrow(handle) -> { length, nullCount, validity, offsets, values }
Napi::Value ExportArrow(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    ExportItem item;
    Napi::Object out = export_object(env, info[0], item);
    arrow_export(*item.column, item.validity, item.offsets, item.values);
    return out;
  });
}

/// exportArrowAsync's work: the export objects and their buffers are made on the JS thread
/// (the result array is held by a reference), the bytes are copied into them on a worker thread.
class ExportWorker : public Napi::AsyncWorker {
 public:
  ExportWorker(Napi::Env env, Napi::Array result, std::vector<ExportItem> items)
      : Napi::AsyncWorker(env, "exportArrowAsync"), deferred_(Napi::Promise::Deferred::New(env)),
        result_(Napi::Persistent(result)), items_(std::move(items)) {}
  Napi::Promise promise() { return deferred_.Promise(); }

  void Execute() override {
    // Nothing may escape a worker thread: a failure is kept and reported in OnOK.
    try {
      for (const ExportItem& it : items_) arrow_export(*it.column, it.validity, it.offsets, it.values);
    } catch (...) {
      error_ = std::current_exception();
    }
    items_.clear();
  }

  void OnOK() override {
    Napi::HandleScope scope(Env());
    if (error_) deferred_.Reject(error_from(Env(), error_));
    else deferred_.Resolve(result_.Value());
    result_.Reset();
  }

 private:
  Napi::Promise::Deferred deferred_;
  Napi::Reference<Napi::Array> result_;
  std::vector<ExportItem> items_;
  std::exception_ptr error_;
};

// exportArrowAsync(handles) -> Promise<{ length, nullCount, validity, offsets, values }[]>: as
// exportArrow for each column, the copies made off the JS thread.
Napi::Value ExportArrowAsync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    GPUDF_EXPECTS(info[0].IsArray(), InvalidArgument, "handles must be an array");
    Napi::Array handles = info[0].As<Napi::Array>();
    Napi::Array out = Napi::Array::New(env, handles.Length());
    std::vector<ExportItem> items(handles.Length());
    for (uint32_t i = 0; i < handles.Length(); ++i) out.Set(i, export_object(env, handles.Get(i), items[i]));
    auto* worker = new ExportWorker(env, out, std::move(items));
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

}  // namespace

void init_arrow(Napi::Env env, Napi::Object exports) {
  exports.Set("importArrow", Napi::Function::New(env, ImportArrow, "importArrow"));
  exports.Set("exportArrow", Napi::Function::New(env, ExportArrow, "exportArrow"));
  exports.Set("exportArrowAsync", Napi::Function::New(env, ExportArrowAsync, "exportArrowAsync"));
}

}  // namespace gpudf::js
