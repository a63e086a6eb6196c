// Expressions and filter: the serialised Expr tree (an array of plain node objects made by
// src/expr.ts) -> expr::NodeSpec, evaluated natively; filter by a bool column.
#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "ops/expr/expr.hpp"
#include "ops/filter/filter.hpp"
#include "ops/regex/regex.hpp"
#include "ops/window/over_cache.hpp"

namespace gpudf::js {
namespace {

expr::LiteralSpec literal_of(const Napi::Value& v) {
  using K = expr::LiteralSpec::Kind;
  expr::LiteralSpec out;
  switch (v.Type()) {
    case napi_undefined:
    case napi_null: out.kind = K::Null; break;
    case napi_number:
      out.kind = K::Number;
      out.number = v.As<Napi::Number>().DoubleValue();
      break;
    case napi_boolean:
      out.kind = K::Bool;
      out.boolean = v.As<Napi::Boolean>().Value();
      break;
    case napi_string:
      out.kind = K::String;
      out.text = v.As<Napi::String>().Utf8Value();
      break;
    case napi_bigint: {
      out.kind = K::BigInt;
      bool lossless = false;
      out.bigint = v.As<Napi::BigInt>().Int64Value(&lossless);
      if (!lossless) {
        uint64_t u = v.As<Napi::BigInt>().Uint64Value(&lossless);
        GPUDF_EXPECTS(lossless, InvalidArgument, "a bigint literal must fit in int64 or uint64");
        out.bigint = int64_t(u);
        out.big_unsigned = true;
      }
      break;
    }
    default:
      GPUDF_EXPECTS(v.IsDate(), InvalidArgument, "unsupported literal value (expected a number, bigint, string, boolean, Date or null)");
      out.kind = K::Date;
      out.number = v.As<Napi::Date>().ValueOf();
  }
  return out;
}

std::vector<int64_t> int_list(const Napi::Value& v, const char* what) {
  std::vector<int64_t> out;
  if (v.IsUndefined()) return out;
  GPUDF_EXPECTS(v.IsArray(), InvalidArgument, std::string(what) + " must be an array");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Value x = a.Get(i);
    GPUDF_EXPECTS(x.IsNumber(), InvalidArgument, std::string(what) + " must hold integers");
    double d = x.As<Napi::Number>().DoubleValue();
    GPUDF_EXPECTS(d == double(int64_t(d)) && d > -9e18 && d < 9e18, InvalidArgument, std::string(what) + " must hold integers");
    out.push_back(int64_t(d));
  }
  return out;
}

std::vector<expr::NodeSpec> specs_of(const Napi::Value& v) {
  GPUDF_EXPECTS(v.IsArray(), InvalidArgument, "expression nodes must be an array");
  Napi::Array nodes = v.As<Napi::Array>();
  std::vector<expr::NodeSpec> out;
  for (uint32_t i = 0; i < nodes.Length(); ++i) {
    Napi::Value nv = nodes.Get(i);
    GPUDF_EXPECTS(nv.IsObject(), InvalidArgument, "expression node must be an object");
    Napi::Object o = nv.As<Napi::Object>();
    expr::NodeSpec s;
    GPUDF_EXPECTS(o.Get("op").IsString(), InvalidArgument, "expression node needs an op");
    s.op = o.Get("op").As<Napi::String>().Utf8Value();
    for (int64_t a : int_list(o.Get("args"), "args")) {
      GPUDF_EXPECTS(a >= 0 && a < int64_t(i), InvalidArgument, "expression node refers forward");
      s.args.push_back(int32_t(a));
    }
    if (o.Get("name").IsString()) s.name = o.Get("name").As<Napi::String>().Utf8Value();
    if (o.Has("value")) s.value = literal_of(o.Get("value"));
    if (o.Get("dtype").IsNumber()) s.dtype = o.Get("dtype").As<Napi::Number>().Int32Value();
    s.params = int_list(o.Get("params"), "params");
    Napi::Value agg = o.Get("agg");
    if (agg.IsObject()) {
      Napi::Object a = agg.As<Napi::Object>();
      GPUDF_EXPECTS(a.Get("kind").IsString(), InvalidArgument, "aggregation node needs a kind");
      s.agg_kind = a.Get("kind").As<Napi::String>().Utf8Value();
      s.ddof = a.Get("ddof").IsNumber() ? a.Get("ddof").As<Napi::Number>().Int64Value() : 1;
      s.q = a.Get("q").IsNumber() ? a.Get("q").As<Napi::Number>().DoubleValue() : 0.5;
      if (a.Get("sep").IsString()) s.sep = a.Get("sep").As<Napi::String>().Utf8Value();
      if (a.Get("ignoreNulls").IsBoolean()) s.ignore_nulls = a.Get("ignoreNulls").As<Napi::Boolean>().Value();
    }
    Napi::Value list = o.Get("list");
    if (list.IsArray()) {
      Napi::Array l = list.As<Napi::Array>();
      for (uint32_t k = 0; k < l.Length(); ++k) s.list.push_back(literal_of(l.Get(k)));
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<ColumnPtr> columns_of(const Napi::Value& v) {
  GPUDF_EXPECTS(v.IsArray(), InvalidArgument, "columns must be an array of handles");
  Napi::Array a = v.As<Napi::Array>();
  std::vector<ColumnPtr> out;
  for (uint32_t i = 0; i < a.Length(); ++i) out.push_back(ColumnHandle::From(a.Get(i)));
  return out;
}

// evalExpr(nodes, names, columns, rows) -> handle; evalPredicate: a filter's mask (null may be false)
Napi::Value Eval(const Napi::CallbackInfo& info, bool predicate) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    std::vector<expr::NodeSpec> specs = specs_of(info[0]);
    expr::Frame frame;
    GPUDF_EXPECTS(info[1].IsArray(), InvalidArgument, "names must be an array");
    Napi::Array names = info[1].As<Napi::Array>();
    for (uint32_t i = 0; i < names.Length(); ++i) frame.names.push_back(names.Get(i).ToString().Utf8Value());
    frame.columns = columns_of(info[2]);
    GPUDF_EXPECTS(frame.columns.size() == frame.names.size(), InvalidArgument, "names and columns differ in length");
    frame.rows = arg_int64(info, 3, "rows");
    GPUDF_EXPECTS(frame.rows >= 0, InvalidArgument, "rows must be >= 0");
    Device& device = active_device(env);
    return ColumnHandle::Wrap(env, predicate ? expr::evaluate_predicate(specs, frame, device) : expr::evaluate(specs, frame, device));
  });
}

Napi::Value EvalExpr(const Napi::CallbackInfo& info) { return Eval(info, false); }
Napi::Value EvalPredicate(const Napi::CallbackInfo& info) { return Eval(info, true); }

// filter(columns, mask) -> handles
Napi::Value Filter(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    std::vector<ColumnPtr> cols = columns_of(info[0]);
    std::vector<ColumnPtr> out = filter(cols, ColumnHandle::From(info[1]));
    Napi::Array arr = Napi::Array::New(env, out.size());
    for (uint32_t i = 0; i < out.size(); ++i) arr.Set(i, ColumnHandle::Wrap(env, out[i]));
    return arr;
  });
}

// overCacheOpen() / overCacheClose(): the overs of the expressions evaluated in between share
// their partition groupings and sorts (ops/window/over_cache.hpp).
Napi::Value OverCacheOpen(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    window::open_over_cache();
    return info.Env().Undefined();
  });
}
Napi::Value OverCacheClose(const Napi::CallbackInfo& info) {
  return guarded(info.Env(), [&]() -> Napi::Value {
    window::close_over_cache();
    return info.Env().Undefined();
  });
}

// overPasses() -> { groupings, sorts }: over's grouping and sort passes so far (for tests).
Napi::Value OverPasses(const Napi::CallbackInfo& info) {
  const window::OverPasses p = window::over_passes();
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("groupings", Napi::Number::New(info.Env(), double(p.groupings)));
  o.Set("sorts", Napi::Number::New(info.Env(), double(p.sorts)));
  return o;
}

// regexGroups(pattern) -> the names of the pattern's capture groups ("" for an unnamed one);
// a bad pattern throws ERR_INVALID_ARGUMENT with its position.
Napi::Value RegexGroups(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const regex::Regex rx = regex::compile_regex(arg_string(info, 0, "pattern"));
    Napi::Array out = Napi::Array::New(env, size_t(rx.groups));
    for (int32_t g = 1; g <= rx.groups; ++g) out.Set(uint32_t(g - 1), Napi::String::New(env, rx.group_names[size_t(g)]));
    return out;
  });
}

}  // namespace

std::vector<expr::NodeSpec> expr_specs_of(const Napi::Value& v) { return specs_of(v); }

void init_expr(Napi::Env env, Napi::Object exports) {
  exports.Set("evalExpr", Napi::Function::New(env, EvalExpr, "evalExpr"));
  exports.Set("evalPredicate", Napi::Function::New(env, EvalPredicate, "evalPredicate"));
  exports.Set("filter", Napi::Function::New(env, Filter, "filter"));
  exports.Set("overCacheOpen", Napi::Function::New(env, OverCacheOpen, "overCacheOpen"));
  exports.Set("overCacheClose", Napi::Function::New(env, OverCacheClose, "overCacheClose"));
  exports.Set("overPasses", Napi::Function::New(env, OverPasses, "overPasses"));
  exports.Set("regexGroups", Napi::Function::New(env, RegexGroups, "regexGroups"));
}

}  // namespace gpudf::js
