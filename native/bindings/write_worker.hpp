// The text writers' async form (writeCSV, writeJSON / writeNDJSON): an AsyncWorker that runs a
// job's formatting and writing off the JS thread and settles a promise with the text (no path)
// or undefined. A Job is read on the JS thread (its columns held by shared pointers) and has
// `std::string run() const` (no JS access), `std::optional<std::string> path` and `columns`.
#pragma once

#include <exception>
#include <string>

#include "bindings/napi.hpp"

namespace gpudf::js {

template <typename Job>
class WriteWorker : public Napi::AsyncWorker {
 public:
  WriteWorker(Napi::Env env, const char* name, const Napi::CallbackInfo& info)
      : Napi::AsyncWorker(env, name), deferred_(Napi::Promise::Deferred::New(env)), job_(info) {}
  Napi::Promise promise() { return deferred_.Promise(); }

  void Execute() override {
    // Nothing may escape a worker thread: a failure is kept and reported in OnOK.
    try {
      text_ = job_.run();
    } catch (...) {
      error_ = std::current_exception();
    }
    job_.columns.clear();
  }

  void OnOK() override {
    Napi::HandleScope scope(Env());
    if (error_) {
      deferred_.Reject(error_from(Env(), error_));
      return;
    }
    try {
      deferred_.Resolve(job_.path ? Env().Undefined() : Napi::String::New(Env(), text_));
    } catch (...) {
      deferred_.Reject(error_from_current(Env()));
    }
  }

 private:
  Napi::Promise::Deferred deferred_;
  Job job_;
  std::string text_;
  std::exception_ptr error_;
};

/// Queues a WriteWorker<Job> and returns its promise.
template <typename Job>
Napi::Value queue_write(const Napi::CallbackInfo& info, const char* name) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    auto* worker = new WriteWorker<Job>(env, name, info);
    Napi::Promise promise = worker->promise();
    worker->Queue();
    return promise;
  });
}

/// Runs a Job on the calling thread: the text (no path) or undefined.
template <typename Job>
Napi::Value run_write(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  return guarded(env, [&]() -> Napi::Value {
    Job job(info);
    std::string text = job.run();
    if (job.path) return env.Undefined();
    return Napi::String::New(env, text);
  });
}

}  // namespace gpudf::js
