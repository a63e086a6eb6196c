// Module entry: per-env data, device selection and memory stats; the other sections register
// their own exports.
#include "bindings/napi.hpp"
#include "core/error.hpp"

namespace gpudf::js {

AddonData& addon(Napi::Env env) { return *env.GetInstanceData<AddonData>(); }

Device& active_device(Napi::Env env) {
  Device* d = addon(env).device;
  GPUDF_EXPECTS(d != nullptr, Internal, "no device selected");
  return *d;
}

namespace {

Napi::Value SelectDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    DeviceSelection sel = select_device(arg_string(info, 0, "mode"));
    addon(env).device = sel.device;
    Napi::Object out = Napi::Object::New(env);
    out.Set("name", sel.device->kind() == DeviceKind::Cuda ? "cuda" : "cpu");
    out.Set("reason", sel.reason);
    const CudaStatus& cuda = cuda_status();
    out.Set("cudaCompiled", cuda.compiled);
    if (sel.device->kind() == DeviceKind::Cuda) {
      Napi::Object gpu = Napi::Object::New(env);
      gpu.Set("name", cuda.gpu_name);
      gpu.Set("memoryBytes", static_cast<double>(cuda.memory_bytes));
      out.Set("gpu", gpu);
    }
    return out;
  });
}

Napi::Object stats_object(Napi::Env env, const MemoryStats& s, int64_t limit) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("limitBytes", static_cast<double>(limit));
  o.Set("liveBytes", static_cast<double>(s.live_bytes));
  o.Set("peakBytes", static_cast<double>(s.peak_bytes));
  o.Set("allocations", static_cast<double>(s.live_allocations));
  return o;
}

Napi::Value Memory(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    Napi::Object out = Napi::Object::New(env);
    out.Set("cpu", stats_object(env, cpu_device().stats(), cpu_device().limit()));
    Device* d = addon(env).device;
    if (d && d->kind() == DeviceKind::Cuda) out.Set("cuda", stats_object(env, d->stats(), d->limit()));
    return out;
  });
}

/// setMemoryLimit(device: "cpu" | "cuda", bytes: integer, -1 for none). A CUDA limit where
/// the CUDA backend cannot run is ignored. Returns the limit now in force (-1: none).
Napi::Value SetMemoryLimit(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const std::string which = arg_string(info, 0, "device");
    const int64_t bytes = arg_int64(info, 1, "bytes");
    GPUDF_EXPECTS(which == "cpu" || which == "cuda", InvalidArgument, "device must be cpu or cuda");
    Device* d = nullptr;
    if (which == "cpu") d = &cpu_device();
    else if (cuda_status().available) d = &cuda_device();
    if (d == nullptr) return Napi::Number::New(env, -1);
    d->set_limit(bytes);
    return Napi::Number::New(env, double(d->limit()));
  });
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto* data = new AddonData();
  env.SetInstanceData<AddonData>(data);
  data->column_ctor = Napi::Persistent(ColumnHandle::Define(env));
  exports.Set("selectDevice", Napi::Function::New(env, SelectDevice, "selectDevice"));
  exports.Set("memory", Napi::Function::New(env, Memory, "memory"));
  exports.Set("setMemoryLimit", Napi::Function::New(env, SetMemoryLimit, "setMemoryLimit"));
  init_errors(env, exports);
  init_arrow(env, exports);
  init_values(env, exports);
  init_csv(env, exports);
  init_json(env, exports);
  init_parquet(env, exports);
  init_reduce(env, exports);
  init_expr(env, exports);
  init_sort(env, exports);
  init_gather(env, exports);
  init_join(env, exports);
  init_groupby(env, exports);
  init_group_top(env, exports);
  init_exec(env, exports);
  init_dynamic(env, exports);
  return exports;
}

}  // namespace
}  // namespace gpudf::js

static Napi::Object InitGpudf(Napi::Env env, Napi::Object exports) { return gpudf::js::Init(env, exports); }

NODE_API_MODULE(gpudf, InitGpudf)
