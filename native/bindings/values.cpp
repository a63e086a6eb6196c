// Plain JS values <-> columns: inference for `new DataFrame({...})` and `toArray()`.
// Inference rules (as nodejs-polars): number -> float64, bigint -> int64, string -> utf8,
// boolean -> bool, Date -> timestamp[ms]; null/undefined -> null; all-null -> float64.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bindings/napi.hpp"
#include "core/calendar.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"

namespace gpudf::js {
namespace {

enum class Kind { Null, Number, BigInt, String, Boolean, Date, Other };

Kind kind_of(const Napi::Value& v) {
  switch (v.Type()) {
    case napi_undefined:
    case napi_null: return Kind::Null;
    case napi_number: return Kind::Number;
    case napi_bigint: return Kind::BigInt;
    case napi_string: return Kind::String;
    case napi_boolean: return Kind::Boolean;
    case napi_object: return v.IsDate() ? Kind::Date : Kind::Other;
    default: return Kind::Other;
  }
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Null: return "null";
    case Kind::Number: return "number";
    case Kind::BigInt: return "bigint";
    case Kind::String: return "string";
    case Kind::Boolean: return "boolean";
    case Kind::Date: return "Date";
    case Kind::Other: return "object";
  }
  return "value";
}

TypeId infer(const Napi::Array& arr) {
  Kind seen = Kind::Null;
  uint32_t first = 0;
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    Kind k = kind_of(arr.Get(i));
    if (k == Kind::Null) continue;
    GPUDF_EXPECTS(k != Kind::Other, Dtype,
                  "cannot infer a dtype for the value at index " + std::to_string(i) +
                      " (objects other than Date are not supported)");
    if (seen == Kind::Null) {
      seen = k;
      first = i;
    } else {
      GPUDF_EXPECTS(k == seen, Dtype,
                    std::string("mixed values: ") + kind_name(seen) + " at index " + std::to_string(first) +
                        " and " + kind_name(k) + " at index " + std::to_string(i) +
                        "; give every value the same type or pass a dtype");
    }
  }
  switch (seen) {
    case Kind::BigInt: return TypeId::Int64;
    case Kind::String: return TypeId::Utf8;
    case Kind::Boolean: return TypeId::Bool;
    case Kind::Date: return TypeId::TimestampMs;
    default: return TypeId::Float64;
  }
}

[[noreturn]] void bad_value(uint32_t i, TypeId t, const std::string& why) {
  GPUDF_FAIL(InvalidArgument, "value at index " + std::to_string(i) + " cannot be stored as " +
                                  std::string(type_name(t)) + ": " + why);
}

double date_ms(const Napi::Value& v) { return v.As<Napi::Date>().ValueOf(); }

int64_t ms_to_unit(double ms, TypeId t, uint32_t i) {
  if (!std::isfinite(ms)) bad_value(i, t, "invalid Date");
  // A valid Date is within ±8.64e15 ms, so the ms, s and day counts fit; us and ns may not
  // (ns spans only about ±292 years around 1970).
  int64_t out = 0;
  switch (t) {
    case TypeId::Date32: return static_cast<int64_t>(std::floor(ms / 86400000.0));
    case TypeId::TimestampS: return static_cast<int64_t>(std::floor(ms / 1000.0));
    case TypeId::TimestampMs: return static_cast<int64_t>(ms);
    case TypeId::TimestampUs:
      if (__builtin_mul_overflow(static_cast<int64_t>(ms), int64_t(1000), &out)) bad_value(i, t, "Date out of range");
      return out;
    case TypeId::TimestampNs:
      if (__builtin_mul_overflow(static_cast<int64_t>(ms), int64_t(1000000), &out)) bad_value(i, t, "Date out of range");
      return out;
    default: bad_value(i, t, "a Date needs a date or timestamp dtype");
  }
}

/// A BigInt as the nearest double (ties to even, as JS Number(bigint)); beyond the double
/// range, out of range.
double bigint_to_double(Napi::BigInt b, TypeId t, uint32_t i) {
  const size_t n = b.WordCount();
  if (n == 0) return 0.0;
  std::vector<uint64_t> words(n);
  int sign = 0;
  size_t count = n;
  b.ToWords(&sign, &count, words.data());
  while (count > 0 && words[count - 1] == 0) --count;
  double magnitude = 0.0;
  if (count == 1) {
    magnitude = static_cast<double>(words[0]);  // one rounding, done by the conversion
  } else if (count > 1) {
    // The top 64 significant bits, with every lower bit folded into the last one (a sticky
    // bit: it lies below the rounding point, so one conversion rounds correctly), scaled.
    const uint64_t hi = words[count - 1], lo = words[count - 2];
    const int lz = std::countl_zero(hi);
    uint64_t m = lz == 0 ? hi : (hi << lz) | (lo >> (64 - lz));
    bool sticky = (lz == 0 ? lo : lo << lz) != 0;  // lo's bits below the top 64
    for (size_t k = 0; k + 2 < count && !sticky; ++k) sticky = words[k] != 0;
    m |= uint64_t(sticky);
    magnitude = std::ldexp(static_cast<double>(m), int(64 * (count - 1)) - lz);
  }
  if (!std::isfinite(magnitude)) bad_value(i, t, "bigint out of range");
  return sign ? -magnitude : magnitude;
}

/// Converts element i to storage type S of dtype t (t is not a string type).
template <typename S>
S to_storage(const Napi::Value& v, Kind k, TypeId t, uint32_t i) {
  if (t == TypeId::Bool) {
    if (k != Kind::Boolean) bad_value(i, t, std::string("expected a boolean, got ") + kind_name(k));
    return S(v.As<Napi::Boolean>().Value());
  }
  const bool temporal = t == TypeId::Date32 || is_timestamp(t);
  if (k == Kind::Date) {
    if (!temporal) bad_value(i, t, "a Date needs a date or timestamp dtype");
    return static_cast<S>(ms_to_unit(date_ms(v), t, i));
  }
  if constexpr (std::is_floating_point_v<S>) {
    if (k == Kind::Number) return static_cast<S>(v.As<Napi::Number>().DoubleValue());
    if (k == Kind::BigInt) {
      const double d = bigint_to_double(v.As<Napi::BigInt>(), t, i);
      if (std::is_same_v<S, float> && std::isinf(static_cast<float>(d))) bad_value(i, t, "bigint out of range");
      return static_cast<S>(d);
    }
    bad_value(i, t, std::string("expected a number, got ") + kind_name(k));
  } else {
    if (k == Kind::Number) {
      double d = v.As<Napi::Number>().DoubleValue();
      if (std::floor(d) != d) bad_value(i, t, "not an integer (" + std::to_string(d) + ")");
      // Range check in double space against the type's limits (exact for every limit here).
      if (d < static_cast<double>(std::numeric_limits<S>::min()) ||
          d >= static_cast<double>(std::numeric_limits<S>::max()) + 1.0)
        bad_value(i, t, "out of range");
      return static_cast<S>(d);
    }
    if (k == Kind::BigInt) {
      bool lossless = false;
      if constexpr (std::is_signed_v<S>) {
        int64_t x = v.As<Napi::BigInt>().Int64Value(&lossless);
        if (!lossless || x < int64_t(std::numeric_limits<S>::min()) || x > int64_t(std::numeric_limits<S>::max()))
          bad_value(i, t, "out of range");
        return static_cast<S>(x);
      } else {
        uint64_t x = v.As<Napi::BigInt>().Uint64Value(&lossless);
        if (!lossless || x > uint64_t(std::numeric_limits<S>::max())) bad_value(i, t, "out of range");
        return static_cast<S>(x);
      }
    }
    bad_value(i, t, std::string("expected a number or bigint, got ") + kind_name(k));
  }
}

struct Builder {
  template <TypeId T>
  ColumnPtr operator()(const Napi::Array& arr, Device& target) const {
    using S = storage_t<T>;
    const uint32_t n = arr.Length();
    std::vector<uint8_t> valid(n);
    std::vector<Napi::Value> items(n);
    bool any_null = false;
    for (uint32_t i = 0; i < n; ++i) {
      items[i] = arr.Get(i);
      valid[i] = kind_of(items[i]) != Kind::Null;
      any_null |= !valid[i];
    }
    ColumnPtr out;
    if constexpr (std::is_arithmetic_v<S>) {
      out = Column::allocate(cpu_device(), T, n, any_null);
      S* dst = reinterpret_cast<S*>(out->data() ? out->data()->data() : nullptr);
      for (uint32_t i = 0; i < n; ++i) dst[i] = valid[i] ? to_storage<S>(items[i], kind_of(items[i]), T, i) : S(0);
    } else {
      using O = typename S::offset_type;
      std::vector<std::string> strs(n);
      int64_t bytes = 0;
      for (uint32_t i = 0; i < n; ++i) {
        if (!valid[i]) continue;
        if (!items[i].IsString()) bad_value(i, T, std::string("expected a string, got ") + kind_name(kind_of(items[i])));
        strs[i] = items[i].As<Napi::String>().Utf8Value();
        bytes += static_cast<int64_t>(strs[i].size());
      }
      out = Column::allocate(cpu_device(), T, n, any_null, bytes);
      O* offs = reinterpret_cast<O*>(out->offsets()->data());
      uint8_t* chars = out->data() ? out->data()->data() : nullptr;
      int64_t pos = 0;
      for (uint32_t i = 0; i < n; ++i) {
        offs[i] = static_cast<O>(pos);
        if (!strs[i].empty()) std::memcpy(chars + pos, strs[i].data(), strs[i].size());
        pos += static_cast<int64_t>(strs[i].size());
      }
      offs[n] = static_cast<O>(pos);
    }
    int64_t nulls = 0;
    if (any_null) {
      uint8_t* bits = out->validity()->data();
      for (uint32_t i = 0; i < n; ++i) {
        if (valid[i]) set_bit(bits, i);
        else ++nulls;
      }
    }
    auto host = std::make_shared<Column>(cpu_device(), T, n, out->data(), out->offsets(), out->validity(), nulls);
    return copy_to_device(host, target);
  }
};

// fromValues(array, typeId | -1) -> handle
Napi::Value FromValues(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    GPUDF_EXPECTS(info[0].IsArray(), InvalidArgument, "values must be an array");
    Napi::Array arr = info[0].As<Napi::Array>();
    int64_t requested = arg_int64(info, 1, "typeId");
    TypeId type;
    if (requested < 0) {
      type = infer(arr);
    } else {
      GPUDF_EXPECTS(is_valid_type_id(static_cast<int32_t>(requested)), Dtype, "unknown type id");
      type = static_cast<TypeId>(requested);
    }
    return ColumnHandle::Wrap(env, type_dispatch(type, Builder{}, arr, active_device(env)));
  });
}

/// A JS string of UTF-8 bytes. ASCII (most data) is made as Latin-1, which V8 copies without the
/// UTF-8 decoder's validation pass.
Napi::Value js_string(Napi::Env env, const char* s, size_t n) {
  uint64_t high = 0;
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint64_t w;
    std::memcpy(&w, s + k, 8);
    high |= w;
  }
  for (; k < n; ++k) high |= uint8_t(s[k]);
  if ((high & 0x8080808080808080ull) != 0) return Napi::String::New(env, s, n);
  napi_value out;
  const napi_status status = napi_create_string_latin1(env, s, n, &out);
  NAPI_THROW_IF_FAILED(env, status, Napi::Value());
  return Napi::Value(env, out);
}

/// Rows converted under one HandleScope: a scope held over millions of new values makes every
/// young-generation GC during the conversion walk all their handles (measured: most of the time
/// of 1.5 M strings went there).
constexpr int64_t kRowsPerScope = 4096;

/// Calls sink(i, value) with the JS value of each row (one dispatch per column, not per row).
struct ToJs {
  template <TypeId T, typename Sink>
  void operator()(Napi::Env env, const ColumnView& v, Sink& out) const {
    for (int64_t b = 0; b < v.size; b += kRowsPerScope) {
      Napi::HandleScope scope(env);
      rows<T>(env, v, out, b, std::min(v.size, b + kRowsPerScope));
    }
  }

  template <TypeId T, typename Sink>
  static void rows(Napi::Env env, const ColumnView& v, Sink& out, int64_t begin, int64_t end) {
    using S = storage_t<T>;
    for (int64_t i = begin; i < end; ++i) {
      auto at = static_cast<uint32_t>(i);
      if (!v.is_valid(i)) {
        out.Set(at, env.Null());
        continue;
      }
      if constexpr (std::is_arithmetic_v<S>) {
        S x = v.values<S>()[i];
        if constexpr (T == TypeId::Bool) out.Set(at, Napi::Boolean::New(env, x != 0));
        else if constexpr (T == TypeId::Int64 || is_duration(T)) out.Set(at, Napi::BigInt::New(env, static_cast<int64_t>(x)));
        else if constexpr (T == TypeId::UInt64) out.Set(at, Napi::BigInt::New(env, static_cast<uint64_t>(x)));
        else if constexpr (T == TypeId::Date32) out.Set(at, Napi::Date::New(env, double(x) * 86400000.0));
        else if constexpr (T == TypeId::TimestampS) out.Set(at, Napi::Date::New(env, double(x) * 1000.0));
        else if constexpr (T == TypeId::TimestampMs) out.Set(at, Napi::Date::New(env, double(x)));
        else if constexpr (T == TypeId::TimestampUs) out.Set(at, Napi::Date::New(env, double(floor_div_i64(int64_t(x), 1000))));
        else if constexpr (T == TypeId::TimestampNs) out.Set(at, Napi::Date::New(env, double(floor_div_i64(int64_t(x), 1000000))));
        else out.Set(at, Napi::Number::New(env, static_cast<double>(x)));
      } else {
        using O = typename S::offset_type;
        const O* offs = v.string_offsets<O>();
        out.Set(at, js_string(env, reinterpret_cast<const char*>(v.data + offs[i]), static_cast<size_t>(offs[i + 1] - offs[i])));
      }
    }
  }
};

// toValues(handle, start, count) -> array
Napi::Value ToValues(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const ColumnPtr& column = ColumnHandle::From(info[0]);
    int64_t start = arg_int64(info, 1, "start");
    int64_t count = arg_int64(info, 2, "count");
    ColumnPtr host = to_host(column->slice(start, count));
    const ColumnView v = host->view();
    Napi::Array out = Napi::Array::New(env, static_cast<size_t>(v.size));
    type_dispatch(v.type, ToJs{}, env, v, out);
    return out;
  });
}

/// Sets one property of row objects: Set(i, value) -> rows[i][name] = value.
struct RecordSink {
  Napi::Array& rows;
  Napi::String name;
  // Defined as own data properties, so a column named "__proto__" is a key, not a prototype.
  void Set(uint32_t i, Napi::Value value) {
    rows.Get(i).As<Napi::Object>().DefineProperty(
        Napi::PropertyDescriptor::Value(name, value, napi_default_jsproperty));
  }
};

// toRecords(names, handles, start, count) -> array of row objects
Napi::Value ToRecords(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    GPUDF_EXPECTS(info[0].IsArray() && info[1].IsArray(), InvalidArgument, "names and columns must be arrays");
    Napi::Array names = info[0].As<Napi::Array>();
    Napi::Array handles = info[1].As<Napi::Array>();
    GPUDF_EXPECTS(names.Length() == handles.Length(), InvalidArgument, "one name per column");
    int64_t start = arg_int64(info, 2, "start");
    int64_t count = arg_int64(info, 3, "count");
    Napi::Array rows = Napi::Array::New(env, static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) rows.Set(static_cast<uint32_t>(i), Napi::Object::New(env));
    for (uint32_t c = 0; c < handles.Length(); ++c) {
      ColumnPtr host = to_host(ColumnHandle::From(handles.Get(c))->slice(start, count));
      const ColumnView v = host->view();
      RecordSink sink{rows, names.Get(c).ToString()};
      type_dispatch(v.type, ToJs{}, env, v, sink);
    }
    return rows;
  });
}

}  // namespace

void init_values(Napi::Env env, Napi::Object exports) {
  exports.Set("fromValues", Napi::Function::New(env, FromValues, "fromValues"));
  exports.Set("toValues", Napi::Function::New(env, ToValues, "toValues"));
  exports.Set("toRecords", Napi::Function::New(env, ToRecords, "toRecords"));
}

}  // namespace gpudf::js
