// readJSON / readNDJSON (a Promise; parsing runs on a worker thread and the CPU pool) and their
// Sync forms; writeJSON / writeNDJSON (a Promise; formatting and writing off the JS thread) and
// their Sync forms. Options arrive fully resolved from src/io/json.ts.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings/napi.hpp"
#include "bindings/read_source.hpp"
#include "bindings/read_worker.hpp"
#include "bindings/write_worker.hpp"
#include "core/error.hpp"
#include "io/file_sink.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"

namespace gpudf::js {
namespace {

json::JsonOptions parse_json_options(const Napi::Value& value) {
  GPUDF_EXPECTS(value.IsObject(), InvalidArgument, "JSON options must be an object");
  Napi::Object o = value.As<Napi::Object>();
  json::JsonOptions opt;
  opt.ndjson = o.Get("ndjson").ToBoolean();
  GPUDF_EXPECTS(o.Get("nRows").IsNumber(), InvalidArgument, "nRows must be a number");
  opt.n_rows = o.Get("nRows").As<Napi::Number>().Int64Value();
  opt.exact_schema = o.Get("exactSchema").ToBoolean();
  GPUDF_EXPECTS(o.Get("columns").IsArray() && o.Get("dtypesByName").IsArray(), InvalidArgument,
                "columns and dtypesByName must be arrays");
  Napi::Array names = o.Get("columns").As<Napi::Array>();
  for (uint32_t i = 0; i < names.Length(); ++i) {
    GPUDF_EXPECTS(names.Get(i).IsString(), InvalidArgument, "columns must be an array of names");
    opt.select_names.push_back(names.Get(i).As<Napi::String>().Utf8Value());
  }
  Napi::Array pairs = o.Get("dtypesByName").As<Napi::Array>();
  for (uint32_t i = 0; i < pairs.Length(); ++i) {
    Napi::Array pair = pairs.Get(i).As<Napi::Array>();
    const int32_t id = pair.Get(1u).As<Napi::Number>().Int32Value();
    GPUDF_EXPECTS(is_valid_type_id(id), Dtype, "unknown type id");
    opt.dtypes_by_name.emplace_back(pair.Get(0u).As<Napi::String>().Utf8Value(), static_cast<TypeId>(id));
  }
  return opt;
}

/// The sources of one read: a path, a Buffer, or an array of paths (read as one table).
struct Sources {
  std::vector<std::unique_ptr<Source>> items;

  Sources(const Napi::Value& v, bool copy, const char* fn) {
    if (v.IsArray()) {
      Napi::Array a = v.As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length(); ++i) {
        GPUDF_EXPECTS(a.Get(i).IsString(), InvalidArgument, std::string(fn) + " expects paths as strings");
        items.push_back(std::make_unique<Source>(a.Get(i), copy, fn));
      }
      return;
    }
    items.push_back(std::make_unique<Source>(v, copy, fn));
  }
  /// Loads the files (no JS access) and lists the inputs.
  std::vector<json::JsonInput> load() {
    std::vector<json::JsonInput> inputs;
    for (auto& s : items) {
      s->load();
      inputs.push_back(json::JsonInput{s->data, s->size, s->is_path ? s->path : std::string()});
    }
    return inputs;
  }
};

/// The async read: the sources loaded (files mapped) and parsed on a worker thread.
class JsonWorker : public ProgressReadWorker<json::JsonResult> {
 public:
  JsonWorker(Napi::Env env, const Napi::Value& source, json::JsonOptions options, Device& device, const char* fn)
      : ProgressReadWorker(env, fn, env.Undefined(), wrap_named_columns<json::JsonResult>),
        sources_(source, true, fn),
        options_(std::move(options)),
        device_(device) {}

 private:
  json::JsonResult run(const Report&) override { return json::read_json(sources_.load(), options_, device_); }

  Sources sources_;
  json::JsonOptions options_;
  Device& device_;
};

// readJSON(source, options) -> Promise<{ names, columns }> (options.ndjson picks the format)
Napi::Value ReadJSON(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    json::JsonOptions options = parse_json_options(info[1]);
    const char* fn = options.ndjson ? "readNDJSON" : "readJSON";
    auto* worker = new JsonWorker(env, info[0], std::move(options), active_device(env), fn);
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

// readJSONSync(source, options) -> { names, columns }
Napi::Value ReadJSONSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    json::JsonOptions options = parse_json_options(info[1]);
    Sources sources(info[0], false, options.ndjson ? "readNDJSONSync" : "readJSONSync");
    json::JsonResult result = json::read_json(sources.load(), options, active_device(env));
    return wrap_named_columns(env, result);
  });
}

/// A write's arguments, read on the JS thread: the columns are held by shared pointers.
struct JsonWriteJob {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
  bool ndjson = true;
  std::optional<std::string> path;  // none: the text is returned

  explicit JsonWriteJob(const Napi::CallbackInfo& info) {
    GPUDF_EXPECTS(info[0].IsArray() && info[1].IsArray(), InvalidArgument, "writeJSON(names, columns, ndjson, path)");
    Napi::Array names_js = info[0].As<Napi::Array>();
    Napi::Array cols_js = info[1].As<Napi::Array>();
    for (uint32_t i = 0; i < names_js.Length(); ++i) names.push_back(names_js.Get(i).ToString().Utf8Value());
    for (uint32_t i = 0; i < cols_js.Length(); ++i) columns.push_back(ColumnHandle::From(cols_js.Get(i)));
    ndjson = info[2].ToBoolean();
    if (info[3].IsString()) path = info[3].As<Napi::String>().Utf8Value();
  }

  /// Formats (and writes) the table; no JS access. A failed write leaves the path as it was.
  std::string run() const {
    std::string text;
    if (!path) {
      json::write_json(names, columns, ndjson, [&](const std::string& chunk) { text += chunk; });
      return text;
    }
    io::FileSink sink(*path);
    json::write_json(names, columns, ndjson, [&](const std::string& chunk) { sink.write(chunk.data(), chunk.size()); });
    sink.commit();
    return text;
  }
};

// writeJSON(names, columns, ndjson, path | null) -> Promise<string (no path) | undefined>
Napi::Value WriteJSON(const Napi::CallbackInfo& info) { return queue_write<JsonWriteJob>(info, "gpudf.writeJSON"); }

// writeJSONSync(names, columns, ndjson, path | null) -> string (no path) or undefined
Napi::Value WriteJSONSync(const Napi::CallbackInfo& info) { return run_write<JsonWriteJob>(info); }

}  // namespace

void init_json(Napi::Env env, Napi::Object exports) {
  exports.Set("readJSON", Napi::Function::New(env, ReadJSON, "readJSON"));
  exports.Set("readJSONSync", Napi::Function::New(env, ReadJSONSync, "readJSONSync"));
  exports.Set("writeJSON", Napi::Function::New(env, WriteJSON, "writeJSON"));
  exports.Set("writeJSONSync", Napi::Function::New(env, WriteJSONSync, "writeJSONSync"));
}

}  // namespace gpudf::js
