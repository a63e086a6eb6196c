// The one place that includes napi.h. Bindings convert JS values to core views and options,
// call the core, wrap results, and map C++ exceptions to gpudf's typed JS errors.
#pragma once

#include <napi.h>

#include <map>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "core/device.hpp"

namespace gpudf::js {

/// Per-environment state (worker threads get their own).
struct AddonData {
  Napi::FunctionReference column_ctor;
  std::map<std::string, Napi::FunctionReference> error_ctors;  // code -> constructor
  Device* device = nullptr;                                    // chosen by selectDevice
};

AddonData& addon(Napi::Env env);

/// The active device; throws Internal when none was selected yet (the TS layer always selects).
Device& active_device(Napi::Env env);

/// A JS handle that owns a reference to a core Column. Type-tagged, so a foreign object passed
/// where a handle is expected is a typed error, not a bad cast.
class ColumnHandle : public Napi::ObjectWrap<ColumnHandle> {
 public:
  static Napi::Function Define(Napi::Env env);
  static Napi::Object Wrap(Napi::Env env, ColumnPtr column);
  /// The column behind a handle; ERR_DISPOSED after dispose(), ERR_INVALID_ARGUMENT for a
  /// value that is not a handle.
  static const ColumnPtr& From(const Napi::Value& value);

  explicit ColumnHandle(const Napi::CallbackInfo& info);
  ~ColumnHandle() override;

 private:
  void adopt(Napi::Env env, ColumnPtr column);
  void release(Napi::Env env);
  Napi::Value Dispose(const Napi::CallbackInfo& info);
  Napi::Value Disposed(const Napi::CallbackInfo& info);
  Napi::Value TypeId(const Napi::CallbackInfo& info);
  Napi::Value Length(const Napi::CallbackInfo& info);
  Napi::Value NullCount(const Napi::CallbackInfo& info);
  Napi::Value Slice(const Napi::CallbackInfo& info);
  Napi::Value Bytes(const Napi::CallbackInfo& info);

  ColumnPtr column_;
  int64_t reported_bytes_ = 0;
};

/// Runs body; converts any C++ exception into the matching typed JS error and throws it.
template <typename F>
Napi::Value guarded(Napi::Env env, F&& body);

[[noreturn]] void throw_current_as_js(Napi::Env env);
/// The typed JS error for the exception being handled (call inside a catch block).
Napi::Value error_from_current(Napi::Env env);
/// The typed JS error for a stored exception (e.g. one caught on a worker thread).
Napi::Value error_from(Napi::Env env, const std::exception_ptr& error);

template <typename F>
Napi::Value guarded(Napi::Env env, F&& body) {
  try {
    return body();
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    throw_current_as_js(env);
  }
}

// Argument helpers: throw ERR_INVALID_ARGUMENT with the argument's name when the type is off.
int64_t arg_int64(const Napi::CallbackInfo& info, size_t i, const char* name);
std::string arg_string(const Napi::CallbackInfo& info, size_t i, const char* name);
bool arg_bool(const Napi::CallbackInfo& info, size_t i, const char* name);
/// The bytes a TypedArray (or Buffer) views, over an ArrayBuffer or a SharedArrayBuffer;
/// ERR_INVALID_ARGUMENT naming `what` for anything else. The pointer is valid only while JS
/// cannot run (no detach): an async worker copies what it reads later.
struct TypedBytes {
  const uint8_t* data = nullptr;
  int64_t size = 0;
};
TypedBytes typed_array_bytes(const Napi::Value& v, const char* what);
/// An array of column handles (the pointers keep the columns alive while their views are used).
std::vector<ColumnPtr> arg_columns(const Napi::CallbackInfo& info, size_t i, const char* name);
/// An array of booleans of exactly `count` entries.
std::vector<bool> arg_bools(const Napi::CallbackInfo& info, size_t i, const char* name, size_t count);
std::vector<ColumnView> views_of(const std::vector<ColumnPtr>& columns);
/// A JS array of new handles owning `columns`.
Napi::Array wrap_columns(Napi::Env env, std::vector<ColumnPtr> columns);

}  // namespace gpudf::js

namespace gpudf::csv { struct CsvOptions; }
namespace gpudf::expr { struct NodeSpec; }

namespace gpudf::js {

/// A serialised expression (src/expr.ts serializeExpr) as the compiler's node specs.
std::vector<expr::NodeSpec> expr_specs_of(const Napi::Value& v);
/// Resolved CSV reader options (src/io/csv.ts resolveCsvOptions) as the reader's.
csv::CsvOptions csv_options_of(const Napi::Value& v);

// Module sections, each registering its exports.
void init_errors(Napi::Env env, Napi::Object exports);
void init_arrow(Napi::Env env, Napi::Object exports);
void init_values(Napi::Env env, Napi::Object exports);
void init_csv(Napi::Env env, Napi::Object exports);
void init_json(Napi::Env env, Napi::Object exports);
void init_parquet(Napi::Env env, Napi::Object exports);
void init_reduce(Napi::Env env, Napi::Object exports);
void init_expr(Napi::Env env, Napi::Object exports);
void init_sort(Napi::Env env, Napi::Object exports);
void init_gather(Napi::Env env, Napi::Object exports);
void init_join(Napi::Env env, Napi::Object exports);
void init_groupby(Napi::Env env, Napi::Object exports);
void init_group_top(Napi::Env env, Napi::Object exports);
void init_exec(Napi::Env env, Napi::Object exports);
void init_dynamic(Napi::Env env, Napi::Object exports);

}  // namespace gpudf::js
