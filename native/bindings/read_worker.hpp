// The readers' async form (readCSV, readParquet): an AsyncWorker that runs a read off the JS
// thread and settles a promise with its wrapped result. Progress (bytes done, bytes in all)
// reaches the optional JS callback at most once per percent, in increasing order, through a
// thread-safe function; the promise settles through the same queue, after every report.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>

#include "bindings/napi.hpp"

namespace gpudf::js {

/// A reader's result ({ names, columns }) as the JS object the readers return; the columns are
/// moved into their handles.
template <typename Result>
Napi::Object wrap_named_columns(Napi::Env env, Result& result) {
  Napi::Object out = Napi::Object::New(env);
  Napi::Array names = Napi::Array::New(env, result.names.size());
  Napi::Array columns = Napi::Array::New(env, result.columns.size());
  for (uint32_t i = 0; i < result.names.size(); ++i) {
    names.Set(i, result.names[i]);
    columns.Set(i, ColumnHandle::Wrap(env, std::move(result.columns[i])));
  }
  out.Set("names", names);
  out.Set("columns", columns);
  return out;
}

template <typename Result>
class ProgressReadWorker : public Napi::AsyncWorker {
 public:
  using Report = std::function<void(int64_t, int64_t)>;
  using Wrap = Napi::Object (*)(Napi::Env, Result&);

  ProgressReadWorker(Napi::Env env, const char* name, const Napi::Value& on_progress, Wrap wrap)
      : Napi::AsyncWorker(env, name), deferred_(Napi::Promise::Deferred::New(env)), wrap_(wrap) {
    if (on_progress.IsFunction())
      progress_ = Napi::ThreadSafeFunction::New(env, on_progress.As<Napi::Function>(), name, 0, 1);
  }
  Napi::Promise promise() { return deferred_.Promise(); }

 protected:
  /// The read itself, on a worker thread; `report` is empty when no callback was given.
  virtual Result run(const Report& report) = 0;

 private:
  struct Completion {
    Napi::Promise::Deferred deferred;
    Result result;
    std::exception_ptr error;
    Wrap wrap;
    void settle(Napi::Env env) {
      Napi::HandleScope scope(env);
      if (error) {
        deferred.Reject(error_from(env, error));
        return;
      }
      try {
        deferred.Resolve(wrap(env, result));
      } catch (...) {
        deferred.Reject(error_from_current(env));
      }
    }
  };

  void Execute() override {
    try {
      Report report;
      if (progress_) {
        report = [this](int64_t done, int64_t total) {
          const int64_t pct = total > 0 ? done * 100 / total : 100;
          std::lock_guard<std::mutex> lock(progress_mutex_);  // reports queued in increasing order
          if (pct <= last_pct_) return;
          last_pct_ = pct;
          auto* args = new std::pair<double, double>(double(done), double(total));
          progress_->NonBlockingCall(args, [](Napi::Env env, Napi::Function fn, std::pair<double, double>* a) {
            fn.Call({Napi::Number::New(env, a->first), Napi::Number::New(env, a->second)});
            delete a;
          });
        };
      }
      result_ = run(report);
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  void OnOK() override {
    auto* done = new Completion{deferred_, std::move(result_), error_, wrap_};
    if (!progress_) {
      done->settle(Env());
      delete done;
      return;
    }
    progress_->NonBlockingCall(done, [](Napi::Env env, Napi::Function, Completion* c) {
      c->settle(env);
      delete c;
    });
    progress_->Release();
  }

  Napi::Promise::Deferred deferred_;
  Wrap wrap_;
  std::optional<Napi::ThreadSafeFunction> progress_;
  std::mutex progress_mutex_;
  int64_t last_pct_ = -1;
  Result result_;
  std::exception_ptr error_;
};

}  // namespace gpudf::js
