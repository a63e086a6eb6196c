// Dynamic and rolling windows (ops/dynamic): the window spec object of src/dynamic.ts.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/dynamic/dynamic.hpp"

namespace gpudf::js {
namespace {

int64_t field_int64(const Napi::Object& o, const char* name) {
  Napi::Value v = o.Get(name);
  if (v.IsBigInt()) {
    bool lossless = false;
    const int64_t x = v.As<Napi::BigInt>().Int64Value(&lossless);
    GPUDF_EXPECTS(lossless, InvalidArgument, std::string("window spec `") + name + "` must fit in 64 bits");
    return x;
  }
  GPUDF_EXPECTS(v.IsNumber(), InvalidArgument, std::string("window spec `") + name + "` must be a number or bigint");
  return v.As<Napi::Number>().Int64Value();
}

/// { everyMonths, everyTicks, periodMonths, periodTicks, offsetMonths, offsetTicks, closed, align, weekday, ticksPerDay }
dynamic::WindowSpec spec_of(const Napi::Value& v) {
  GPUDF_EXPECTS(v.IsObject(), InvalidArgument, "window spec must be an object");
  const Napi::Object o = v.As<Napi::Object>();
  dynamic::WindowSpec s;
  s.every = {field_int64(o, "everyMonths"), field_int64(o, "everyTicks")};
  s.period = {field_int64(o, "periodMonths"), field_int64(o, "periodTicks")};
  s.offset = {field_int64(o, "offsetMonths"), field_int64(o, "offsetTicks")};
  const int64_t closed = field_int64(o, "closed"), align = field_int64(o, "align"), weekday = field_int64(o, "weekday");
  GPUDF_EXPECTS(closed >= 0 && closed <= 3 && align >= 0 && align <= 4 && weekday >= 0 && weekday <= 6, InvalidArgument,
                "window spec: bad closed, align or weekday");
  s.closed = dynamic::Closed(closed);
  s.align = dynamic::Align(align);
  s.weekday = int32_t(weekday);
  s.ticks_per_day = field_int64(o, "ticksPerDay");
  return s;
}

ColumnPtr optional_column(const Napi::Value& v) { return v.IsNull() || v.IsUndefined() ? nullptr : ColumnHandle::From(v); }

/// dynamicWindows(index, segments | null, spec) -> { lower, upper, firstRow, rows | null, windows, count }.
Napi::Value DynamicWindows(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& index = ColumnHandle::From(info[0]);
    dynamic::DynamicWindows w = dynamic::dynamic_windows(index, optional_column(info[1]), spec_of(info[2]));
    Napi::Object out = Napi::Object::New(env);
    out.Set("lower", ColumnHandle::Wrap(env, w.lower));
    out.Set("upper", ColumnHandle::Wrap(env, w.upper));
    out.Set("firstRow", ColumnHandle::Wrap(env, w.first_row));
    out.Set("rows", w.members.rows ? ColumnHandle::Wrap(env, w.members.rows) : env.Null());
    out.Set("windows", ColumnHandle::Wrap(env, w.members.windows));
    out.Set("count", Napi::Number::New(env, double(w.members.count)));
    return out;
  });
}

/// rollingWindows(index, segments | null, spec) -> { rows, windows, count }.
Napi::Value RollingWindows(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& index = ColumnHandle::From(info[0]);
    dynamic::WindowRows w = dynamic::rolling_windows(index, optional_column(info[1]), spec_of(info[2]));
    Napi::Object out = Napi::Object::New(env);
    out.Set("rows", ColumnHandle::Wrap(env, w.rows));
    out.Set("windows", ColumnHandle::Wrap(env, w.windows));
    out.Set("count", Napi::Number::New(env, double(w.count)));
    return out;
  });
}

}  // namespace

void init_dynamic(Napi::Env env, Napi::Object exports) {
  exports.Set("dynamicWindows", Napi::Function::New(env, DynamicWindows, "dynamicWindows"));
  exports.Set("rollingWindows", Napi::Function::New(env, RollingWindows, "rollingWindows"));
}

}  // namespace gpudf::js
