// C++ exceptions -> typed JS errors, in one place. The TS layer registers its GpudfError
// subclasses by code; an exception's code picks the constructor.
#include <new>

#include "bindings/napi.hpp"
#include "core/error.hpp"

namespace gpudf::js {
namespace {

Napi::Value make_error(Napi::Env env, const char* code, const std::string& message) {
  AddonData& data = addon(env);
  auto it = data.error_ctors.find(code);
  Napi::Object err;
  if (it != data.error_ctors.end()) {
    err = it->second.New({Napi::String::New(env, message)});
  } else {
    err = Napi::Error::New(env, message).Value();
    err.Set("code", Napi::String::New(env, code));
  }
  return err;
}

Napi::Value RegisterErrors(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsObject()) throw Napi::TypeError::New(env, "registerErrors expects an object");
  Napi::Object ctors = info[0].As<Napi::Object>();
  Napi::Array keys = ctors.GetPropertyNames();
  AddonData& data = addon(env);
  for (uint32_t i = 0; i < keys.Length(); ++i) {
    std::string code = keys.Get(i).As<Napi::String>().Utf8Value();
    Napi::Value ctor = ctors.Get(code);
    if (ctor.IsFunction()) data.error_ctors[code] = Napi::Persistent(ctor.As<Napi::Function>());
  }
  return env.Undefined();
}

}  // namespace

Napi::Value error_from_current(Napi::Env env) {
  Napi::Value err;
  try {
    throw;
  } catch (const OutOfMemoryError& e) {
    err = make_error(env, error_code_name(e.code()), e.what());
    Napi::Object o = err.As<Napi::Object>();
    o.Set("requestedBytes", Napi::Number::New(env, double(e.requested_bytes())));
    if (e.limit_bytes() >= 0) o.Set("limitBytes", Napi::Number::New(env, double(e.limit_bytes())));
    o.Set("device", Napi::String::New(env, e.device()));
  } catch (const Error& e) {
    err = make_error(env, error_code_name(e.code()), e.what());
  } catch (const Napi::Error& e) {
    err = e.Value();
  } catch (const std::bad_alloc&) {
    // A small host allocation the library does not size itself (a container's growth): the
    // system refused it, so there is no limit to name and the size is not known here.
    err = make_error(env, "ERR_OUT_OF_MEMORY", "host allocation failed (the system had no memory left)");
    Napi::Object o = err.As<Napi::Object>();
    o.Set("requestedBytes", Napi::Number::New(env, 0));
    o.Set("device", Napi::String::New(env, "cpu"));
  } catch (const std::exception& e) {
    err = make_error(env, "ERR_INTERNAL", std::string("internal error: ") + e.what());
  } catch (...) {
    err = make_error(env, "ERR_INTERNAL", "internal error: unknown exception");
  }
  return err;
}

Napi::Value error_from(Napi::Env env, const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (...) {
    return error_from_current(env);
  }
}

void throw_current_as_js(Napi::Env env) { throw Napi::Error(env, error_from_current(env)); }

int64_t arg_int64(const Napi::CallbackInfo& info, size_t i, const char* name) {
  Napi::Value v = info[i];
  if (v.IsNumber()) {
    double d = v.As<Napi::Number>().DoubleValue();
    // Only exactly representable integers (|d| <= 2^53) are accepted; the cast is then defined.
    if (d >= -9007199254740992.0 && d <= 9007199254740992.0 && d == static_cast<double>(static_cast<int64_t>(d)))
      return static_cast<int64_t>(d);
  }
  GPUDF_FAIL(InvalidArgument, std::string(name) + " must be an integer");
}

std::string arg_string(const Napi::CallbackInfo& info, size_t i, const char* name) {
  GPUDF_EXPECTS(info[i].IsString(), InvalidArgument, std::string(name) + " must be a string");
  return info[i].As<Napi::String>().Utf8Value();
}

void init_errors(Napi::Env env, Napi::Object exports) {
  exports.Set("registerErrors", Napi::Function::New(env, RegisterErrors, "registerErrors"));
}

}  // namespace gpudf::js
