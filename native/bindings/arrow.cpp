// Arrow buffers in and out. Import reads apache-arrow Data buffers in place (zero-copy view of
// the TypedArrays) and copies once into a column on the active device; export fills V8-owned
// ArrayBuffers, which the GC reclaims in time (external buffers are freed only when the event
// loop turns).
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

// exportArrow(handle) -> { length, nullCount, validity, offsets, values }
Napi::Value ExportArrow(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    ColumnPtr host = to_host(ColumnHandle::From(info[0]));
    ArrowExportSizes sizes = arrow_export_sizes(*host);
    uint8_t *validity, *offsets, *values;
    Napi::Object out = Napi::Object::New(env);
    out.Set("length", static_cast<double>(host->size()));
    out.Set("nullCount", static_cast<double>(sizes.null_count));
    out.Set("validity", buffer_or_null(env, sizes.validity_bytes, &validity));
    out.Set("offsets", buffer_or_null(env, sizes.offsets_bytes, &offsets));
    // Values are always an ArrayBuffer (possibly empty) so Arrow gets a typed array.
    Napi::ArrayBuffer vals = Napi::ArrayBuffer::New(env, static_cast<size_t>(sizes.values_bytes));
    values = static_cast<uint8_t*>(vals.Data());
    out.Set("values", vals);
    arrow_export(*host, validity, offsets, values);
    return out;
  });
}

}  // namespace

void init_arrow(Napi::Env env, Napi::Object exports) {
  exports.Set("importArrow", Napi::Function::New(env, ImportArrow, "importArrow"));
  exports.Set("exportArrow", Napi::Function::New(env, ExportArrow, "exportArrow"));
}

}  // namespace gpudf::js
