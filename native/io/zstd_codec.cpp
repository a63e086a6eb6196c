#include "io/zstd_codec.hpp"

#include <dlfcn.h>

#include <mutex>
#include <new>
#include <type_traits>

#include "core/error.hpp"

namespace gpudf::zstd {
namespace {

// The stable part of zstd's C API (zstd.h, "ZSTD_STATIC_LINKING_ONLY" not needed).
struct Api {
  size_t (*compress_bound)(size_t) = nullptr;
  void* (*create_cctx)() = nullptr;
  size_t (*free_cctx)(void*) = nullptr;
  size_t (*compress_cctx)(void*, void*, size_t, const void*, size_t, int) = nullptr;
  unsigned (*is_error)(size_t) = nullptr;
  const char* (*error_name)(size_t) = nullptr;
  void* (*create_dctx)() = nullptr;
  size_t (*free_dctx)(void*) = nullptr;
  size_t (*decompress_dctx)(void*, void*, size_t, const void*, size_t) = nullptr;
};

const Api* load() {
  static Api api;
  static bool ok = false;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) lib = dlopen("libzstd.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    // The library stays loaded for the life of the process.
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      return fn != nullptr;
    };
    ok = sym(api.compress_bound, "ZSTD_compressBound") && sym(api.create_cctx, "ZSTD_createCCtx") &&
         sym(api.free_cctx, "ZSTD_freeCCtx") && sym(api.compress_cctx, "ZSTD_compressCCtx") &&
         sym(api.is_error, "ZSTD_isError") && sym(api.error_name, "ZSTD_getErrorName") &&
         sym(api.create_dctx, "ZSTD_createDCtx") && sym(api.free_dctx, "ZSTD_freeDCtx") &&
         sym(api.decompress_dctx, "ZSTD_decompressDCtx");
  });
  return ok ? &api : nullptr;
}

// One compression context per thread, reused across pages (creating one costs more than a
// small page's compression).
struct Context {
  void* cctx = nullptr;
  ~Context() {
    if (cctx) load()->free_cctx(cctx);
  }
};
struct DContext {
  void* dctx = nullptr;
  ~DContext() {
    if (dctx) load()->free_dctx(dctx);
  }
};

}  // namespace

bool available() { return load() != nullptr; }

void compress(const uint8_t* src, size_t n, int level, std::string& out) {
  const Api* api = load();
  GPUDF_EXPECTS(api != nullptr, Internal, "libzstd is not available");
  thread_local Context ctx;
  if (!ctx.cctx) ctx.cctx = api->create_cctx();
  if (!ctx.cctx) throw std::bad_alloc();
  const size_t start = out.size();
  out.resize(start + api->compress_bound(n));
  const size_t written = api->compress_cctx(ctx.cctx, out.data() + start, out.size() - start, src, n, level);
  GPUDF_EXPECTS(!api->is_error(written), Internal, std::string("zstd compression failed: ") + api->error_name(written));
  out.resize(start + written);
}

bool decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  const Api* api = load();
  GPUDF_EXPECTS(api != nullptr, Internal, "libzstd is not available");
  thread_local DContext ctx;
  if (!ctx.dctx) ctx.dctx = api->create_dctx();
  if (!ctx.dctx) throw std::bad_alloc();
  const size_t got = api->decompress_dctx(ctx.dctx, dst, dst_size, src, n);
  return !api->is_error(got) && got == dst_size;
}

}  // namespace gpudf::zstd
