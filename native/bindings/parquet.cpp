// writeParquet (a Promise: encoding, compression and file output run on a worker thread, the
// pages themselves on the CPU pool). Options arrive fully resolved from src/io/parquet.ts.
#include <cstring>
#include <exception>

#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "io/file_sink.hpp"
#include "io/parquet_writer.hpp"

namespace gpudf::js {
namespace {

parquet::Codec codec_of(const std::string& name) {
  if (name == "none") return parquet::Codec::Uncompressed;
  if (name == "snappy") return parquet::Codec::Snappy;
  if (name == "zstd") return parquet::Codec::Zstd;
  GPUDF_FAIL(InvalidArgument, "compression must be \"zstd\", \"snappy\" or \"none\", got \"" + name + "\"");
}

parquet::ParquetWriteOptions parse_options(const Napi::Value& value) {
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
    parquet::ParquetWriteOptions options = parse_options(info[2]);
    std::string path = arg_string(info, 3, "path");
    GPUDF_EXPECTS(parquet::codec_available(options.codec), InvalidArgument,
                  "zstd compression needs libzstd, which could not be loaded");
    auto* worker = new ParquetWorker(env, std::move(names), std::move(columns), std::move(options), std::move(path));
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

// parquetCodecAvailable(name) -> bool: zstd is false when libzstd cannot be loaded.
Napi::Value ParquetCodecAvailable(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    return Napi::Boolean::New(env, parquet::codec_available(codec_of(arg_string(info, 0, "compression"))));
  });
}

}  // namespace

void init_parquet(Napi::Env env, Napi::Object exports) {
  exports.Set("writeParquet", Napi::Function::New(env, WriteParquet, "writeParquet"));
  exports.Set("parquetCodecAvailable", Napi::Function::New(env, ParquetCodecAvailable, "parquetCodecAvailable"));
}

}  // namespace gpudf::js
