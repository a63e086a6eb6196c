// readCSV (a Promise; parsing runs on a worker thread, the event loop stays free) and readCSVSync;
// writeCSV (a Promise; formatting and writing run on a worker thread) and writeCSVSync.
// Options arrive fully resolved from src/io/csv.ts.
#include <atomic>
#include <memory>
#include <mutex>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>

#include "bindings/napi.hpp"
#include "bindings/read_source.hpp"
#include "bindings/read_worker.hpp"
#include "bindings/write_worker.hpp"
#include "core/error.hpp"
#include "io/csv_reader.hpp"
#include "io/csv_writer.hpp"
#include "io/file_sink.hpp"

namespace gpudf::js {
namespace {

std::vector<std::string> strings(const Napi::Object& o, const char* key) {
  std::vector<std::string> out;
  Napi::Value v = o.Get(key);
  GPUDF_EXPECTS(v.IsArray(), InvalidArgument, std::string(key) + " must be an array of strings");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    GPUDF_EXPECTS(a.Get(i).IsString(), InvalidArgument, std::string(key) + " must be an array of strings");
    out.push_back(a.Get(i).As<Napi::String>().Utf8Value());
  }
  return out;
}

int64_t integer(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  GPUDF_EXPECTS(v.IsNumber(), InvalidArgument, std::string(key) + " must be a number");
  return v.As<Napi::Number>().Int64Value();
}

char single_char(const Napi::Object& o, const char* key, bool allow_empty) {
  Napi::Value v = o.Get(key);
  GPUDF_EXPECTS(v.IsString(), InvalidArgument, std::string(key) + " must be a string");
  std::string s = v.As<Napi::String>().Utf8Value();
  if (allow_empty && s.empty()) return '\0';
  GPUDF_EXPECTS(s.size() == 1, InvalidArgument, std::string(key) + " must be a single ASCII character");
  return s[0];
}

csv::CsvOptions parse_csv_options(const Napi::Value& value) {
  GPUDF_EXPECTS(value.IsObject(), InvalidArgument, "CSV options must be an object");
  Napi::Object o = value.As<Napi::Object>();
  csv::CsvOptions opt;
  opt.sep = single_char(o, "sep", false);
  opt.quote = single_char(o, "quoteChar", true);
  opt.has_header = o.Get("hasHeader").ToBoolean();
  opt.comment_prefix = o.Get("commentPrefix").IsString() ? o.Get("commentPrefix").As<Napi::String>().Utf8Value() : "";
  opt.skip_rows = integer(o, "skipRows");
  opt.n_rows = integer(o, "nRows");
  opt.null_values = strings(o, "nullValues");
  opt.true_values = strings(o, "trueValues");
  opt.false_values = strings(o, "falseValues");
  opt.try_parse_dates = o.Get("tryParseDates").ToBoolean();
  opt.infer_rows = integer(o, "inferSchemaLength");
  opt.truncate_ragged = o.Get("truncateRaggedLines").ToBoolean();
  opt.select_names = strings(o, "columnNames");
  Napi::Array idx = o.Get("columnIndices").As<Napi::Array>();
  for (uint32_t i = 0; i < idx.Length(); ++i) opt.select_indices.push_back(idx.Get(i).As<Napi::Number>().Int64Value());
  // dtypes arrive as [key, typeId] pairs: by name and by position.
  auto each_dtype = [&](const char* key, auto&& add) {
    Napi::Array pairs = o.Get(key).As<Napi::Array>();
    for (uint32_t i = 0; i < pairs.Length(); ++i) {
      Napi::Array pair = pairs.Get(i).As<Napi::Array>();
      int32_t id = pair.Get(1u).As<Napi::Number>().Int32Value();
      GPUDF_EXPECTS(is_valid_type_id(id), Dtype, "unknown type id");
      add(pair.Get(0u), static_cast<TypeId>(id));
    }
  };
  each_dtype("dtypesByName", [&](const Napi::Value& k, TypeId t) {
    opt.dtypes_by_name.emplace_back(k.As<Napi::String>().Utf8Value(), t);
  });
  each_dtype("dtypesByIndex", [&](const Napi::Value& k, TypeId t) {
    opt.dtypes_by_index.emplace_back(k.As<Napi::Number>().Int64Value(), t);
  });
  return opt;
}

/// readCSV's async form: the source loaded (a file mapped) and parsed on a worker thread.
class CsvWorker : public ProgressReadWorker<csv::CsvResult> {
 public:
  CsvWorker(Napi::Env env, const Napi::Value& source, csv::CsvOptions options, Device& device,
            const Napi::Value& on_progress)
      : ProgressReadWorker(env, "gpudf.readCSV", on_progress, wrap_named_columns<csv::CsvResult>),
        source_(source, true, "readCSV"),
        options_(std::move(options)),
        device_(device) {}

 private:
  csv::CsvResult run(const Report& report) override {
    source_.load();
    return csv::read_csv(source_.data, source_.size, options_, device_, report, source_.release());
  }

  Source source_;
  csv::CsvOptions options_;
  Device& device_;
};

// readCSV(source, options, onProgress?) -> Promise<{ names, columns }>
Napi::Value ReadCSV(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    auto* worker = new CsvWorker(env, info[0], parse_csv_options(info[1]), active_device(env), info[2]);
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

// readCSVSync(source, options) -> { names, columns }
Napi::Value ReadCSVSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    Source source(info[0], false, "readCSV");
    csv::CsvOptions options = parse_csv_options(info[1]);
    source.load();
    csv::CsvResult result = csv::read_csv(source.data, source.size, options, active_device(env), {}, source.release());
    return wrap_named_columns(env, result);
  });
}

csv::QuoteStyle quote_style(const std::string& s) {
  if (s == "necessary") return csv::QuoteStyle::Necessary;
  if (s == "always") return csv::QuoteStyle::Always;
  if (s == "non_numeric") return csv::QuoteStyle::NonNumeric;
  if (s == "never") return csv::QuoteStyle::Never;
  GPUDF_FAIL(InvalidArgument, "quoteStyle must be necessary, always, non_numeric or never, got '" + s + "'");
}

/// A writeCSV call's arguments, read on the JS thread: the columns are held by shared pointers.
struct CsvWriteJob {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
  csv::CsvWriteOptions options;
  std::optional<std::string> path;  // none: the text is returned

  explicit CsvWriteJob(const Napi::CallbackInfo& info) {
    GPUDF_EXPECTS(info[0].IsArray() && info[1].IsArray() && info[2].IsObject(), InvalidArgument,
                  "writeCSV(names, columns, options, path)");
    Napi::Array names_js = info[0].As<Napi::Array>();
    Napi::Array cols_js = info[1].As<Napi::Array>();
    for (uint32_t i = 0; i < names_js.Length(); ++i) names.push_back(names_js.Get(i).ToString().Utf8Value());
    for (uint32_t i = 0; i < cols_js.Length(); ++i) columns.push_back(ColumnHandle::From(cols_js.Get(i)));
    Napi::Object o = info[2].As<Napi::Object>();
    options.sep = single_char(o, "sep", false);
    options.quote = single_char(o, "quoteChar", false);
    options.header = o.Get("header").ToBoolean();
    options.quote_style = quote_style(o.Get("quoteStyle").ToString().Utf8Value());
    options.null_value = o.Get("nullValue").ToString().Utf8Value();
    if (info[3].IsString()) path = info[3].As<Napi::String>().Utf8Value();
  }

  /// Formats (and writes) the table; no JS access, so it runs on a worker thread too. Returns
  /// the text when there is no path. A failed write leaves the path as it was (io::FileSink).
  std::string run() const {
    std::string text;
    if (!path) {
      csv::write_csv(names, columns, options, [&](const std::string& chunk) { text += chunk; });
      return text;
    }
    io::FileSink sink(*path);
    csv::write_csv(names, columns, options, [&](const std::string& chunk) { sink.write(chunk.data(), chunk.size()); });
    sink.commit();
    return text;
  }
};

// writeCSV(names, columns, options, path | null) -> Promise<string (no path) | undefined>
Napi::Value WriteCSV(const Napi::CallbackInfo& info) { return queue_write<CsvWriteJob>(info, "gpudf.writeCSV"); }

// writeCSVSync(names, columns, options, path | null) -> string (no path) or undefined
Napi::Value WriteCSVSync(const Napi::CallbackInfo& info) { return run_write<CsvWriteJob>(info); }

}  // namespace

csv::CsvOptions csv_options_of(const Napi::Value& value) { return parse_csv_options(value); }

void init_csv(Napi::Env env, Napi::Object exports) {
  exports.Set("writeCSV", Napi::Function::New(env, WriteCSV, "writeCSV"));
  exports.Set("writeCSVSync", Napi::Function::New(env, WriteCSVSync, "writeCSVSync"));
  exports.Set("readCSV", Napi::Function::New(env, ReadCSV, "readCSV"));
  exports.Set("readCSVSync", Napi::Function::New(env, ReadCSVSync, "readCSVSync"));
}

}  // namespace gpudf::js
