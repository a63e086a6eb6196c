// The query engine's entry points: execute(plan, frames, profile) -> Promise (the plan runs on
// a worker thread, the event loop stays free), executeSync, and exprType (an expression's dtype
// over a schema, for plan-time schemas). The physical plan arrives as plain objects made by
// src/lazy/lower.ts; everything is converted to exec::Plan before any work starts.
#include <exception>

#include "bindings/napi.hpp"
#include "core/error.hpp"
#include "exec/executor.hpp"
#include "exec/expr_eval.hpp"
#include "ops/expr/typing.hpp"

namespace gpudf::js {
namespace {

using exec::NodeKind;

Napi::Object object_of(const Napi::Value& v, const char* what) {
  GPUDF_EXPECTS(v.IsObject(), InvalidArgument, std::string(what) + " must be an object");
  return v.As<Napi::Object>();
}

Napi::Array array_of(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  GPUDF_EXPECTS(v.IsArray(), InvalidArgument, std::string("plan: ") + key + " must be an array");
  return v.As<Napi::Array>();
}

int64_t int_of(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  GPUDF_EXPECTS(v.IsNumber(), InvalidArgument, std::string("plan: ") + key + " must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  GPUDF_EXPECTS(d == double(int64_t(d)), InvalidArgument, std::string("plan: ") + key + " must be an integer");
  return int64_t(d);
}

bool bool_of(const Napi::Object& o, const char* key) { return o.Get(key).ToBoolean(); }

std::string string_of(const Napi::Value& v, const char* what) {
  GPUDF_EXPECTS(v.IsString(), InvalidArgument, std::string("plan: ") + what + " must be a string");
  return v.As<Napi::String>().Utf8Value();
}

std::vector<std::string> strings_of(const Napi::Object& o, const char* key) {
  std::vector<std::string> out;
  Napi::Array a = array_of(o, key);
  for (uint32_t i = 0; i < a.Length(); ++i) out.push_back(string_of(a.Get(i), key));
  return out;
}

std::vector<int32_t> ints_of(const Napi::Object& o, const char* key) {
  std::vector<int32_t> out;
  Napi::Array a = array_of(o, key);
  for (uint32_t i = 0; i < a.Length(); ++i) {
    GPUDF_EXPECTS(a.Get(i).IsNumber(), InvalidArgument, std::string("plan: ") + key + " must hold integers");
    out.push_back(a.Get(i).As<Napi::Number>().Int32Value());
  }
  return out;
}

std::vector<bool> bools_of(const Napi::Object& o, const char* key) {
  std::vector<bool> out;
  Napi::Array a = array_of(o, key);
  for (uint32_t i = 0; i < a.Length(); ++i) out.push_back(a.Get(i).ToBoolean());
  return out;
}

exec::ExprSpec expr_of(const Napi::Object& o, const char* key) { return expr_specs_of(o.Get(key)); }

std::vector<exec::ExprSpec> exprs_of(const Napi::Object& o, const char* key) {
  std::vector<exec::ExprSpec> out;
  Napi::Array a = array_of(o, key);
  for (uint32_t i = 0; i < a.Length(); ++i) out.push_back(expr_specs_of(a.Get(i)));
  return out;
}

std::vector<exec::NamedExpr> named_of(const Napi::Object& o, const char* key) {
  std::vector<exec::NamedExpr> out;
  Napi::Array a = array_of(o, key);
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Object e = object_of(a.Get(i), key);
    out.push_back({string_of(e.Get("name"), "name"), expr_of(e, "expr")});
  }
  return out;
}

NodeKind kind_of(const std::string& k) {
  static const std::map<std::string, NodeKind> kinds = {
      {"scan", NodeKind::Scan},       {"csvScan", NodeKind::CsvScan},     {"filter", NodeKind::Filter},
      {"project", NodeKind::Project}, {"aggregate", NodeKind::Aggregate}, {"join", NodeKind::Join},
      {"sort", NodeKind::Sort},       {"slice", NodeKind::Slice},         {"topK", NodeKind::TopK},
      {"groupSlice", NodeKind::GroupSlice}, {"unique", NodeKind::Unique}, {"union", NodeKind::Union},
  };
  auto it = kinds.find(k);
  GPUDF_EXPECTS(it != kinds.end(), InvalidArgument, "plan: unknown node kind \"" + k + "\"");
  return it->second;
}

exec::PlanNode node_of(const Napi::Object& o) {
  exec::PlanNode n;
  n.kind = kind_of(string_of(o.Get("kind"), "kind"));
  n.inputs = ints_of(o, "inputs");
  n.label = o.Get("label").IsString() ? o.Get("label").As<Napi::String>().Utf8Value() : string_of(o.Get("kind"), "kind");
  n.pipeline = bool_of(o, "pipeline");
  n.row_wise = bool_of(o, "rowWise");
  switch (n.kind) {
    case NodeKind::Scan:
      n.frame = int32_t(int_of(o, "frame"));
      n.columns = ints_of(o, "columns");
      n.names = strings_of(o, "names");
      break;
    case NodeKind::CsvScan:
      n.path = string_of(o.Get("path"), "path");
      n.csv = csv_options_of(o.Get("csv"));
      n.names = strings_of(o, "names");
      break;
    case NodeKind::Filter:
      n.predicate = expr_of(o, "predicate");
      break;
    case NodeKind::Project:
      n.exprs = named_of(o, "exprs");
      n.broadcast_height = bool_of(o, "broadcastHeight");
      break;
    case NodeKind::Aggregate: {
      exec::AggregateSpec& a = n.aggregate;
      a.keys = named_of(o, "keys");
      a.inputs = exprs_of(o, "aggInputs");
      Napi::Array slots = array_of(o, "slots");
      for (uint32_t i = 0; i < slots.Length(); ++i) {
        Napi::Object s = object_of(slots.Get(i), "slot");
        exec::AggSlot slot;
        slot.kind = string_of(s.Get("kind"), "kind");
        slot.options.ddof = int_of(s, "ddof");
        slot.options.q = s.Get("q").ToNumber().DoubleValue();
        if (s.Get("sep").IsString()) slot.options.sep = s.Get("sep").As<Napi::String>().Utf8Value();
        if (s.Get("ignoreNulls").IsBoolean()) slot.options.ignore_nulls = s.Get("ignoreNulls").As<Napi::Boolean>().Value();
        slot.inputs = ints_of(s, "inputs");
        a.slots.push_back(std::move(slot));
      }
      a.outputs = named_of(o, "outputs");
      a.maintain_order = bool_of(o, "maintainOrder");
      a.sort = bool_of(o, "sort");
      a.drop_nulls = bool_of(o, "dropNulls");
      break;
    }
    case NodeKind::Join: {
      exec::JoinSpec& j = n.join;
      j.left_on = strings_of(o, "leftOn");
      j.right_on = strings_of(o, "rightOn");
      const int64_t how = int_of(o, "how"), order = int_of(o, "order");
      GPUDF_EXPECTS(how >= 0 && how <= int64_t(JoinHow::Cross), InvalidArgument, "plan: bad join how");
      GPUDF_EXPECTS(order >= 0 && order <= int64_t(JoinOrder::RightLeft), InvalidArgument, "plan: bad join order");
      j.how = JoinHow(how);
      j.order = JoinOrder(order);
      j.nulls_equal = bool_of(o, "nullsEqual");
      j.reducer_ratio = int_of(o, "reducerRatio");
      GPUDF_EXPECTS(j.reducer_ratio == 0 || (j.reducer_ratio > 0 && j.how == JoinHow::Semi), InvalidArgument,
                    "plan: a reducer is a semi join with a positive ratio");
      Napi::Array outs = array_of(o, "outputs");
      for (uint32_t i = 0; i < outs.Length(); ++i) {
        Napi::Object x = object_of(outs.Get(i), "join output");
        exec::JoinOutput out;
        const int64_t from = int_of(x, "from");
        GPUDF_EXPECTS(from >= 0 && from <= 2, InvalidArgument, "plan: bad join output");
        out.from = exec::JoinOutput::From(from);
        out.column = x.Get("column").IsString() ? x.Get("column").As<Napi::String>().Utf8Value() : "";
        out.key = x.Get("key").IsNumber() ? x.Get("key").As<Napi::Number>().Int32Value() : -1;
        out.name = string_of(x.Get("name"), "name");
        j.outputs.push_back(std::move(out));
      }
      break;
    }
    case NodeKind::Sort:
      n.sort.keys = exprs_of(o, "keys");
      n.sort.descending = bools_of(o, "descending");
      n.sort.nulls_last = bools_of(o, "nullsLast");
      n.sort.limit = int_of(o, "limit");
      break;
    case NodeKind::Slice:
      n.offset = int_of(o, "offset");
      n.length = int_of(o, "length");
      break;
    case NodeKind::TopK:
      n.top_k.keys = named_of(o, "keys");
      n.top_k.by = expr_of(o, "by");
      n.top_k.n = int_of(o, "n");
      n.top_k.largest = bool_of(o, "largest");
      n.top_k.maintain_order = bool_of(o, "maintainOrder");
      n.top_k.sort = bool_of(o, "sort");
      n.top_k.drop_nulls = bool_of(o, "dropNulls");
      break;
    case NodeKind::GroupSlice:
      n.group_slice.keys = named_of(o, "keys");
      n.group_slice.n = int_of(o, "n");
      n.group_slice.from_end = bool_of(o, "fromEnd");
      n.group_slice.maintain_order = bool_of(o, "maintainOrder");
      n.group_slice.sort = bool_of(o, "sort");
      n.group_slice.drop_nulls = bool_of(o, "dropNulls");
      break;
    case NodeKind::Unique: {
      n.unique.subset = strings_of(o, "subset");
      const int64_t keep = int_of(o, "keep");
      GPUDF_EXPECTS(keep >= 0 && keep <= int64_t(Keep::None), InvalidArgument, "plan: bad unique keep");
      n.unique.keep = Keep(keep);
      n.unique.maintain_order = bool_of(o, "maintainOrder");
      break;
    }
    case NodeKind::Union: break;
  }
  return n;
}

exec::Plan plan_of(const Napi::CallbackInfo& info) {
  GPUDF_EXPECTS(info[0].IsArray() && info[1].IsArray(), InvalidArgument, "execute(nodes, frames, profile)");
  exec::Plan plan;
  Napi::Array nodes = info[0].As<Napi::Array>();
  for (uint32_t i = 0; i < nodes.Length(); ++i) plan.nodes.push_back(node_of(object_of(nodes.Get(i), "plan node")));
  Napi::Array frames = info[1].As<Napi::Array>();
  for (uint32_t i = 0; i < frames.Length(); ++i) {
    Napi::Object f = object_of(frames.Get(i), "frame");
    exec::Frame frame;
    Napi::Array cols = array_of(f, "columns");
    for (uint32_t c = 0; c < cols.Length(); ++c) frame.columns.push_back(ColumnHandle::From(cols.Get(c)));
    frame.rows = int_of(f, "rows");
    for (const ColumnPtr& c : frame.columns)
      GPUDF_EXPECTS(c->size() == frame.rows, InvalidArgument, "plan: a frame's columns differ in length");
    plan.frames.push_back(std::move(frame));
  }
  return plan;
}

Napi::Object result_of(Napi::Env env, exec::Result& r) {
  Napi::Object out = Napi::Object::New(env);
  Napi::Array names = Napi::Array::New(env, r.names.size());
  for (uint32_t i = 0; i < r.names.size(); ++i) names.Set(i, Napi::String::New(env, r.names[i]));
  out.Set("names", names);
  out.Set("columns", wrap_columns(env, std::move(r.columns)));
  out.Set("rows", Napi::Number::New(env, double(r.rows)));
  Napi::Array prof = Napi::Array::New(env, r.profile.size());
  for (uint32_t i = 0; i < r.profile.size(); ++i) {
    const exec::OperatorProfile& p = r.profile[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("name", Napi::String::New(env, p.name));
    o.Set("rowsIn", Napi::Number::New(env, double(p.rows_in)));
    o.Set("rowsOut", Napi::Number::New(env, double(p.rows_out)));
    o.Set("startNs", Napi::Number::New(env, double(p.start_ns)));
    o.Set("endNs", Napi::Number::New(env, double(p.end_ns)));
    o.Set("copiedBytes", Napi::Number::New(env, double(p.copied_bytes)));
    prof.Set(i, o);
  }
  out.Set("profile", prof);
  return out;
}

class ExecuteWorker : public Napi::AsyncWorker {
 public:
  ExecuteWorker(Napi::Env env, exec::Plan plan, Device& device, bool profile)
      : Napi::AsyncWorker(env, "gpudf.collect"),
        deferred_(Napi::Promise::Deferred::New(env)),
        plan_(std::move(plan)),
        device_(device),
        profile_(profile) {}
  Napi::Promise promise() { return deferred_.Promise(); }

  void Execute() override {
    try {
      result_ = exec::execute(plan_, device_, profile_);
    } catch (...) {
      error_ = std::current_exception();
    }
    plan_ = exec::Plan{};  // the inputs' references go with the work
  }

  void OnOK() override {
    Napi::Env env = Env();
    if (error_) {
      deferred_.Reject(error_from(env, error_));
      return;
    }
    try {
      deferred_.Resolve(result_of(env, result_));
    } catch (...) {
      deferred_.Reject(error_from_current(env));
    }
  }

 private:
  Napi::Promise::Deferred deferred_;
  exec::Plan plan_;
  Device& device_;
  bool profile_;
  exec::Result result_;
  std::exception_ptr error_;
};

// execute(nodes, frames, profile) -> Promise<{ names, columns, rows, profile }>
Napi::Value Execute(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    auto* worker = new ExecuteWorker(env, plan_of(info), active_device(env), info[2].ToBoolean());
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

// executeSync(nodes, frames, profile) -> { names, columns, rows, profile }
Napi::Value ExecuteSync(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    exec::Plan plan = plan_of(info);
    exec::Result r = exec::execute(plan, active_device(env), info[2].ToBoolean());
    return result_of(env, r);
  });
}

// exprType(nodes, names, typeIds) -> typeId
Napi::Value ExprType(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    exec::ExprSpec e = expr_specs_of(info[0]);
    GPUDF_EXPECTS(info[1].IsArray() && info[2].IsArray(), InvalidArgument, "exprType(nodes, names, typeIds)");
    Napi::Array names_js = info[1].As<Napi::Array>(), types_js = info[2].As<Napi::Array>();
    std::vector<std::string> names;
    std::vector<TypeId> types;
    for (uint32_t i = 0; i < names_js.Length(); ++i) names.push_back(string_of(names_js.Get(i), "name"));
    for (uint32_t i = 0; i < types_js.Length(); ++i) {
      const int32_t t = types_js.Get(i).ToNumber().Int32Value();
      GPUDF_EXPECTS(is_valid_type_id(t), InvalidArgument, "exprType: unknown dtype id");
      types.push_back(TypeId(t));
    }
    return Napi::Number::New(env, double(int32_t(exec::expr_type(e, names, types))));
  });
}

// keySupertype(a, b) -> typeId: the dtype a join's key pair is compared in (ERR_DTYPE: none)
Napi::Value KeySupertype(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    const int64_t a = arg_int64(info, 0, "a"), b = arg_int64(info, 1, "b");
    GPUDF_EXPECTS(is_valid_type_id(int32_t(a)) && is_valid_type_id(int32_t(b)), InvalidArgument, "unknown dtype id");
    if (a == b) return Napi::Number::New(env, double(a));
    std::optional<TypeId> to = expr::value_supertype(TypeId(a), TypeId(b));
    GPUDF_EXPECTS(to.has_value(), Dtype,
                  "join keys of dtypes " + std::string(type_name(TypeId(a))) + " and " + std::string(type_name(TypeId(b))) +
                      " cannot be compared");
    return Napi::Number::New(env, double(int32_t(*to)));
  });
}

}  // namespace

void init_exec(Napi::Env env, Napi::Object exports) {
  exports.Set("execute", Napi::Function::New(env, Execute, "execute"));
  exports.Set("executeSync", Napi::Function::New(env, ExecuteSync, "executeSync"));
  exports.Set("exprType", Napi::Function::New(env, ExprType, "exprType"));
  exports.Set("keySupertype", Napi::Function::New(env, KeySupertype, "keySupertype"));
}

}  // namespace gpudf::js
