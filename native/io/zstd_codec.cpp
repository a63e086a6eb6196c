#include "io/zstd_codec.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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
    void* lib = nullptr;
    if (const char* named = std::getenv("GPUDF_LIBZSTD")) {
      if (*named) lib = dlopen(named, RTLD_NOW | RTLD_LOCAL);
    } else {
      lib = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
      if (!lib) lib = dlopen("libzstd.so", RTLD_NOW | RTLD_LOCAL);
    }
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
  if (!api) return store(src, n, out);
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
  if (!api) return decode_stored(src, n, dst, dst_size);
  thread_local DContext ctx;
  if (!ctx.dctx) ctx.dctx = api->create_dctx();
  if (!ctx.dctx) throw std::bad_alloc();
  const size_t got = api->decompress_dctx(ctx.dctx, dst, dst_size, src, n);
  return !api->is_error(got) && got == dst_size;
}

namespace {
constexpr uint32_t kMagic = 0xFD2FB528u;
constexpr size_t kMaxBlock = size_t(128) << 10;

uint64_t le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}
}  // namespace

void store(const uint8_t* src, size_t n, std::string& out) {
  auto put = [&](uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(char(uint8_t(v >> (8 * i))));
  };
  put(kMagic, 4);
  put(0xE0, 1);  // frame header: an 8-byte content size, single segment, no checksum, no dictionary
  put(n, 8);
  size_t at = 0;
  do {
    const size_t k = std::min(kMaxBlock, n - at);
    const bool last = at + k == n;
    put(uint64_t(last) | uint64_t(k) << 3, 3);  // block type 0: raw
    out.append(reinterpret_cast<const char*>(src) + at, k);
    at += k;
  } while (at < n);
}

bool decode_stored(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  size_t pos = 0, got = 0;
  while (pos < n) {
    if (n - pos < 4) return false;
    const uint32_t magic = uint32_t(le(src + pos, 4));
    pos += 4;
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {  // a skippable frame
      if (n - pos < 4) return false;
      const uint64_t skip = le(src + pos, 4);
      pos += 4;
      if (skip > n - pos) return false;
      pos += size_t(skip);
      continue;
    }
    if (magic != kMagic || pos >= n) return false;
    const uint8_t fhd = src[pos++];
    if (fhd & 0x08) return false;       // reserved bit
    if (fhd & 0x03) return false;       // a dictionary
    const bool single = fhd & 0x20, checksum = fhd & 0x04;
    const int fcs_flag = fhd >> 6;
    const size_t header = (single ? 0 : 1) + (fcs_flag == 0 ? (single ? 1 : 0) : fcs_flag == 1 ? 2 : fcs_flag == 2 ? 4 : 8);
    if (n - pos < header) return false;
    pos += header;
    for (bool last = false; !last;) {
      if (n - pos < 3) return false;
      const uint32_t bh = uint32_t(le(src + pos, 3));
      pos += 3;
      last = bh & 1;
      const uint32_t type = (bh >> 1) & 3;
      const size_t size = bh >> 3;
      if (size > dst_size - got) return false;
      if (type == 0) {
        if (size > n - pos) return false;
        if (size) std::memcpy(dst + got, src + pos, size);
        pos += size;
      } else if (type == 1) {
        if (pos >= n) return false;
        std::memset(dst + got, src[pos++], size);
      } else {
        return false;  // a compressed block: libzstd's work
      }
      got += size;
    }
    if (checksum) {
      if (n - pos < 4) return false;
      pos += 4;
    }
  }
  return got == dst_size;
}

}  // namespace gpudf::zstd
