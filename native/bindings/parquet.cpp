// writeParquet (a Promise: encoding, compression and file output run on a worker thread, the
// pages themselves on the CPU pool); readParquet (a Promise: the file is read and decoded on a
// worker thread, its chunks on the CPU pool), readParquetSync and parquetMetadata. Options
// arrive fully resolved from src/io/parquet.ts.
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>

#include "bindings/napi.hpp"
#include "bindings/read_worker.hpp"
#include "core/error.hpp"
#include "io/file_sink.hpp"
#include "io/parquet_reader.hpp"
#include "io/parquet_writer.hpp"

namespace gpudf::js {
namespace {

parquet::Codec codec_of(const std::string& name) {
  if (name == "none") return parquet::Codec::Uncompressed;
  if (name == "snappy") return parquet::Codec::Snappy;
  if (name == "zstd") return parquet::Codec::Zstd;
  GPUDF_FAIL(InvalidArgument, "compression must be \"zstd\", \"snappy\" or \"none\", got \"" + name + "\"");
}

parquet::ParquetWriteOptions parse_write_options(const Napi::Value& value) {
  GPUDF_EXPECTS(value.IsObject(), InvalidArgument, "Parquet options must be an object");
  Napi::Object o = value.As<Napi::Object>();
  parquet::ParquetWriteOptions opt;
  GPUDF_EXPECTS(o.Get("compression").IsString(), InvalidArgument, "compression must be a string");
  opt.codec = codec_of(o.Get("compression").As<Napi::String>().Utf8Value());
  Napi::Value rg = o.Get("rowGroupSize");
  GPUDF_EXPECTS(rg.IsNumber() && rg.As<Napi::Number>().DoubleValue() >= 1, InvalidArgument,
                "rowGroupSize must be a positive integer");
  opt.row_group_rows = rg.As<Napi::Number>().Int64Value();
  Napi::Value schema = o.Get("arrowSchema");
  if (schema.IsString()) opt.key_values.emplace_back("ARROW:schema", schema.As<Napi::String>().Utf8Value());
  return opt;
}

/// Writes the file on a worker thread; the columns are held by shared pointers until done.
class ParquetWorker : public Napi::AsyncWorker {
 public:
  ParquetWorker(Napi::Env env, std::vector<std::string> names, std::vector<ColumnPtr> columns,
                parquet::ParquetWriteOptions options, std::string path)
      : Napi::AsyncWorker(env, "gpudf.writeParquet"),
        deferred_(Napi::Promise::Deferred::New(env)),
        names_(std::move(names)),
        columns_(std::move(columns)),
        options_(std::move(options)),
        path_(std::move(path)) {}
  Napi::Promise promise() { return deferred_.Promise(); }

  void Execute() override {
    // Nothing may escape a worker thread: every failure is kept and reported in OnOK. A failed
    // write leaves the path as it was (io::FileSink).
    try {
      io::FileSink sink(path_);
      parquet::write_parquet(names_, columns_, options_, [&](const char* p, size_t n) { sink.write(p, n); });
      sink.commit();
    } catch (...) {
      error_ = std::current_exception();
    }
    columns_.clear();
  }

  void OnOK() override {
    Napi::HandleScope scope(Env());
    if (error_) {
      deferred_.Reject(error_from(Env(), error_));
      return;
    }
    deferred_.Resolve(Env().Undefined());
  }

 private:
  Napi::Promise::Deferred deferred_;
  std::vector<std::string> names_;
  std::vector<ColumnPtr> columns_;
  parquet::ParquetWriteOptions options_;
  std::string path_;
  std::exception_ptr error_;
};

// writeParquet(names, columns, options, path) -> Promise<void>
Napi::Value WriteParquet(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    GPUDF_EXPECTS(info[0].IsArray(), InvalidArgument, "writeParquet(names, columns, options, path)");
    Napi::Array names_js = info[0].As<Napi::Array>();
    std::vector<std::string> names;
    for (uint32_t i = 0; i < names_js.Length(); ++i) names.push_back(names_js.Get(i).ToString().Utf8Value());
    std::vector<ColumnPtr> columns = arg_columns(info, 1, "columns");
    parquet::ParquetWriteOptions options = parse_write_options(info[2]);
    std::string path = arg_string(info, 3, "path");
    auto* worker = new ParquetWorker(env, std::move(names), std::move(columns), std::move(options), std::move(path));
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

/// Where a read gets its bytes: a path, or its own copy of a Buffer's bytes (JS may detach the
/// buffer while a worker thread reads).
struct ReadSource {
  bool is_path = false;
  std::string path;
  std::vector<uint8_t> owned;

  explicit ReadSource(const Napi::Value& v) {
    if (v.IsString()) {
      is_path = true;
      path = v.As<Napi::String>().Utf8Value();
      return;
    }
    GPUDF_EXPECTS(v.IsTypedArray(), InvalidArgument, "readParquet expects a path or a Buffer");
    const TypedBytes b = typed_array_bytes(v, "readParquet's source");
    owned.assign(b.data, b.data + b.size);
  }
  parquet::ParquetFile open() const {
    return is_path ? parquet::ParquetFile::open(path) : parquet::ParquetFile::from_memory(owned.data(), owned.size(), "<buffer>");
  }
};

struct ReadRequest {
  parquet::ParquetReadOptions options;
  std::vector<std::pair<std::string, TypeId>> hints;
};

ReadRequest parse_read_options(const Napi::Value& value) {
  GPUDF_EXPECTS(value.IsObject(), InvalidArgument, "Parquet read options must be an object");
  Napi::Object o = value.As<Napi::Object>();
  ReadRequest r;
  Napi::Value cols = o.Get("columns");
  if (cols.IsArray()) {
    r.options.all_columns = false;
    Napi::Array a = cols.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) r.options.columns.push_back(a.Get(i).ToString().Utf8Value());
  }
  Napi::Value groups = o.Get("rowGroups");
  if (groups.IsArray()) {
    r.options.all_row_groups = false;
    Napi::Array a = groups.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) r.options.row_groups.push_back(a.Get(i).As<Napi::Number>().Int64Value());
  }
  Napi::Value n = o.Get("nRows");
  r.options.n_rows = n.IsNumber() ? n.As<Napi::Number>().Int64Value() : -1;
  Napi::Value hints = o.Get("dtypeHints");
  if (hints.IsArray()) {
    Napi::Array a = hints.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); ++i) {
      Napi::Array pair = a.Get(i).As<Napi::Array>();
      const int32_t id = pair.Get(1u).As<Napi::Number>().Int32Value();
      GPUDF_EXPECTS(is_valid_type_id(id), Dtype, "unknown type id");
      r.hints.emplace_back(pair.Get(0u).ToString().Utf8Value(), TypeId(id));
    }
  }
  return r;
}

parquet::ParquetResult run_read(const ReadSource& src, const ReadRequest& req, Device& device,
                                const parquet::ParquetProgress& progress) {
  parquet::ParquetFile file = src.open();
  for (const auto& [name, t] : req.hints)
    for (parquet::ColumnSchema& c : file.columns())
      if (c.name == name) parquet::apply_dtype_hint(c, t);
  return parquet::read_parquet(file, req.options, device, progress);
}

/// readParquet's async form: the file read and decoded on a worker thread (and the CPU pool).
class ParquetReadWorker : public ProgressReadWorker<parquet::ParquetResult> {
 public:
  ParquetReadWorker(Napi::Env env, const Napi::Value& source, ReadRequest req, Device& device, const Napi::Value& on_progress)
      : ProgressReadWorker(env, "gpudf.readParquet", on_progress, wrap_named_columns<parquet::ParquetResult>),
        source_(source),
        req_(std::move(req)),
        device_(device) {}

 private:
  parquet::ParquetResult run(const Report& report) override { return run_read(source_, req_, device_, report); }

  ReadSource source_;
  ReadRequest req_;
  Device& device_;
};

// readParquet(source, options, onProgress?) -> Promise<{ names, columns }>
Napi::Value ReadParquet(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    ReadRequest req = parse_read_options(info[1]);
    auto* worker = new ParquetReadWorker(env, info[0], std::move(req), active_device(env), info[2]);
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

// readParquetSync(source, options) -> { names, columns }
Napi::Value ReadParquetSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    ReadSource src(info[0]);
    ReadRequest req = parse_read_options(info[1]);
    parquet::ParquetResult r = run_read(src, req, active_device(env), {});
    return wrap_named_columns(env, r);
  });
}

/// A statistic as a JS value of the column's dtype (null when it cannot be trusted or read).
Napi::Value stat_value(Napi::Env env, const parquet::ColumnSchema& c, const parquet::Statistics& s, const std::string& raw) {
  using parquet::Conv;
  using parquet::Physical;
  if (c.nested || !s.has_min_max || c.conv == Conv::Int96) return env.Null();
  const bool unsigned_type = c.dtype == TypeId::UInt8 || c.dtype == TypeId::UInt16 || c.dtype == TypeId::UInt32 ||
                             c.dtype == TypeId::UInt64;
  // The deprecated min/max are in signed byte order: wrong for strings, unsigned and decimals.
  if (s.legacy_min_max && (is_string(c.dtype) || unsigned_type || c.conv != Conv::Copy)) return env.Null();
  if (is_string(c.dtype)) {
    if (c.physical == Physical::FixedLenByteArray && raw.size() != size_t(c.type_length)) return env.Null();
    return Napi::String::New(env, raw);
  }
  const size_t sw = size_t(parquet::stored_width(c));
  if (c.physical != Physical::ByteArray && raw.size() != sw) return env.Null();
  if (c.physical == Physical::ByteArray && raw.size() > 16) return env.Null();
  uint8_t slot[8] = {0};
  parquet::convert_value(c, reinterpret_cast<const uint8_t*>(raw.data()), raw.size(), slot);
  auto get = [&](auto v) {
    std::memcpy(&v, slot, sizeof v);
    return v;
  };
  switch (c.dtype) {
    case TypeId::Bool: return Napi::Boolean::New(env, slot[0] != 0);
    case TypeId::Int8: return Napi::Number::New(env, get(int8_t()));
    case TypeId::Int16: return Napi::Number::New(env, get(int16_t()));
    case TypeId::Int32:
    case TypeId::Date32: return Napi::Number::New(env, get(int32_t()));
    case TypeId::UInt8: return Napi::Number::New(env, get(uint8_t()));
    case TypeId::UInt16: return Napi::Number::New(env, get(uint16_t()));
    case TypeId::UInt32: return Napi::Number::New(env, get(uint32_t()));
    case TypeId::UInt64: return Napi::BigInt::New(env, get(uint64_t()));
    case TypeId::Float32: {
      const float f = get(float());
      return std::isnan(f) ? env.Null() : Napi::Number::New(env, f);
    }
    case TypeId::Float64: {
      const double d = get(double());
      return std::isnan(d) ? env.Null() : Napi::Number::New(env, d);
    }
    default: return Napi::BigInt::New(env, get(int64_t()));  // int64 and timestamps
  }
}

// parquetMetadata(source) -> { numRows, createdBy, arrowSchema, keyValues, columns, rowGroups }
Napi::Value ParquetMetadata(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    ReadSource src(info[0]);
    parquet::ParquetFile file = src.open();
    const parquet::FileMeta& m = file.meta();
    Napi::Object out = Napi::Object::New(env);
    out.Set("numRows", Napi::Number::New(env, double(m.num_rows)));
    out.Set("createdBy", Napi::String::New(env, m.created_by));
    out.Set("arrowSchema", Napi::String::New(env, file.arrow_schema()));
    Napi::Array kv = Napi::Array::New(env, m.key_values.size());
    for (uint32_t i = 0; i < m.key_values.size(); ++i) {
      Napi::Array pair = Napi::Array::New(env, 2);
      pair.Set(0u, m.key_values[i].first);
      pair.Set(1u, m.key_values[i].second);
      kv.Set(i, pair);
    }
    out.Set("keyValues", kv);
    const auto& cols = file.columns();
    Napi::Array cj = Napi::Array::New(env, cols.size());
    for (uint32_t i = 0; i < cols.size(); ++i) {
      Napi::Object c = Napi::Object::New(env);
      c.Set("name", cols[i].name);
      c.Set("typeId", Napi::Number::New(env, cols[i].nested ? -1 : int(cols[i].dtype)));
      c.Set("nested", Napi::Boolean::New(env, cols[i].nested));
      c.Set("nullable", Napi::Boolean::New(env, cols[i].max_def > 0));
      c.Set("parquetType", cols[i].type_text);
      c.Set("hintable", Napi::Boolean::New(env, parquet::takes_integral_hint(cols[i])));
      cj.Set(i, c);
    }
    out.Set("columns", cj);
    Napi::Array groups = Napi::Array::New(env, m.row_groups.size());
    for (uint32_t g = 0; g < m.row_groups.size(); ++g) {
      const parquet::RowGroupMeta& rg = m.row_groups[g];
      Napi::Object go = Napi::Object::New(env);
      go.Set("numRows", Napi::Number::New(env, double(rg.num_rows)));
      go.Set("totalByteSize", Napi::Number::New(env, double(rg.total_byte_size)));
      int64_t compressed = 0;
      for (const auto& cm : rg.columns) compressed += cm.total_compressed_size;
      go.Set("compressedSize", Napi::Number::New(env, double(compressed)));
      Napi::Array cc = Napi::Array::New(env, cols.size());
      for (uint32_t i = 0; i < cols.size(); ++i) {
        Napi::Object co = Napi::Object::New(env);
        co.Set("name", cols[i].name);
        if (cols[i].leaf >= 0) {
          const parquet::ColumnChunkMeta& cm = rg.columns[size_t(cols[i].leaf)];
          co.Set("codec", parquet::codec_name(cm.codec));
          Napi::Array enc = Napi::Array::New(env, cm.encodings.size());
          for (uint32_t e = 0; e < cm.encodings.size(); ++e) enc.Set(e, parquet::encoding_name(cm.encodings[e]));
          co.Set("encodings", enc);
          co.Set("numValues", Napi::Number::New(env, double(cm.num_values)));
          co.Set("dataPageOffset", Napi::Number::New(env, double(cm.data_page_offset)));
          co.Set("dictionaryPageOffset", cm.dictionary_page_offset > 0 ? Napi::Number::New(env, double(cm.dictionary_page_offset)) : env.Null());
          co.Set("compressedSize", Napi::Number::New(env, double(cm.total_compressed_size)));
          co.Set("uncompressedSize", Napi::Number::New(env, double(cm.total_uncompressed_size)));
          co.Set("nullCount", cm.stats.has_null_count ? Napi::Number::New(env, double(cm.stats.null_count)) : env.Null());
          co.Set("min", stat_value(env, cols[i], cm.stats, cm.stats.min));
          co.Set("max", stat_value(env, cols[i], cm.stats, cm.stats.max));
        }
        cc.Set(i, co);
      }
      go.Set("columns", cc);
      groups.Set(g, go);
    }
    out.Set("rowGroups", groups);
    return out;
  });
}

}  // namespace

void init_parquet(Napi::Env env, Napi::Object exports) {
  exports.Set("readParquet", Napi::Function::New(env, ReadParquet, "readParquet"));
  exports.Set("readParquetSync", Napi::Function::New(env, ReadParquetSync, "readParquetSync"));
  exports.Set("parquetMetadata", Napi::Function::New(env, ParquetMetadata, "parquetMetadata"));
  exports.Set("writeParquet", Napi::Function::New(env, WriteParquet, "writeParquet"));
}

}  // namespace gpudf::js
