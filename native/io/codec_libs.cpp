#include "io/codec_libs.hpp"

#include <dlfcn.h>

#include <cstring>
#include <mutex>
#include <type_traits>

namespace gpudf::codecs {
namespace {

// Node itself exports zlib, brotli and zstd symbols of its own builds; without RTLD_DEEPBIND
// the system library's internal calls (BrotliDecoderDecompress -> ...Stream) bind to Node's
// copies, whose structures differ. AddressSanitizer refuses RTLD_DEEPBIND, so its builds go
// without (they run the codecs Node does not export).
#if defined(__SANITIZE_ADDRESS__)
constexpr int kOpenFlags = RTLD_NOW | RTLD_LOCAL;
#else
constexpr int kOpenFlags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#endif

/// Opens `soname` once per process and resolves the named symbols into `fns`; false when the
/// library or one of the symbols is missing. The library stays loaded.
template <typename Api, typename Bind>
const Api* load_once(std::once_flag& once, Api& api, bool& ok, const char* soname, Bind bind) {
  std::call_once(once, [&] {
    void* lib = dlopen(soname, kOpenFlags);
    if (!lib) return;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      return fn != nullptr;
    };
    ok = bind(sym);
  });
  return ok ? &api : nullptr;
}

// zlib's z_stream as zlib.h lays it out on LP64 systems (the struct is part of its ABI).
struct ZStream {
  const uint8_t* next_in;
  unsigned avail_in;
  unsigned long total_in;
  uint8_t* next_out;
  unsigned avail_out;
  unsigned long total_out;
  const char* msg;
  void* state;
  void* zalloc;
  void* zfree;
  void* opaque;
  int data_type;
  unsigned long adler;
  unsigned long reserved;
};
constexpr int kZOk = 0, kZStreamEnd = 1, kZFinish = 4;

struct ZApi {
  const char* (*version)() = nullptr;
  int (*inflate_init2)(ZStream*, int, const char*, int) = nullptr;
  int (*inflate)(ZStream*, int) = nullptr;
  int (*inflate_end)(ZStream*) = nullptr;
  int (*inflate_reset)(ZStream*) = nullptr;
};
const ZApi* zlib() {
  static ZApi api;
  static bool ok = false;
  static std::once_flag once;
  return load_once(once, api, ok, kZlib, [](auto& sym) {
    return sym(api.version, "zlibVersion") && sym(api.inflate_init2, "inflateInit2_") && sym(api.inflate, "inflate") &&
           sym(api.inflate_end, "inflateEnd") && sym(api.inflate_reset, "inflateReset");
  });
}

struct Lz4Api {
  int (*decompress_safe)(const char*, char*, int, int) = nullptr;
};
const Lz4Api* lz4() {
  static Lz4Api api;
  static bool ok = false;
  static std::once_flag once;
  return load_once(once, api, ok, kLz4, [](auto& sym) { return sym(api.decompress_safe, "LZ4_decompress_safe"); });
}

struct BrotliApi {
  int (*decompress)(size_t, const uint8_t*, size_t*, uint8_t*) = nullptr;
};
const BrotliApi* brotli_api() {
  static BrotliApi api;
  static bool ok = false;
  static std::once_flag once;
  return load_once(once, api, ok, kBrotli, [](auto& sym) { return sym(api.decompress, "BrotliDecoderDecompress"); });
}

}  // namespace

bool zlib_available() { return zlib() != nullptr; }
bool lz4_available() { return lz4() != nullptr; }
bool brotli_available() { return brotli_api() != nullptr; }

bool gunzip(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  const ZApi* z = zlib();
  if (!z || n > 0xFFFFFFFFu || dst_size > 0xFFFFFFFFu) return false;
  ZStream s;
  std::memset(&s, 0, sizeof s);
  // 15 + 32: a 32 KiB window, gzip or zlib header detected.
  if (z->inflate_init2(&s, 15 + 32, z->version(), int(sizeof(ZStream))) != kZOk) return false;
  s.next_in = src;
  s.avail_in = unsigned(n);
  s.next_out = dst;
  s.avail_out = unsigned(dst_size);
  bool good = false;
  for (;;) {
    const int rc = z->inflate(&s, kZFinish);
    if (rc != kZStreamEnd) break;
    if (s.avail_in == 0) {
      good = s.avail_out == 0;
      break;
    }
    // Another gzip member follows.
    if (z->inflate_reset(&s) != kZOk) break;
  }
  z->inflate_end(&s);
  return good;
}

bool lz4_raw(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  const Lz4Api* l = lz4();
  if (!l || n > 0x7FFFFFFFu || dst_size > 0x7FFFFFFFu) return false;
  const int got = l->decompress_safe(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst), int(n), int(dst_size));
  return got >= 0 && size_t(got) == dst_size;
}

bool lz4_hadoop(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  auto be32 = [](const uint8_t* p) { return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]; };
  size_t ip = 0, op = 0;
  bool framed = n >= 8;
  while (framed && ip < n) {
    if (n - ip < 8) {
      framed = false;
      break;
    }
    const uint32_t raw = be32(src + ip), packed = be32(src + ip + 4);
    ip += 8;
    if (packed > n - ip || raw > dst_size - op || !lz4_raw(src + ip, packed, dst + op, raw)) {
      framed = false;
      break;
    }
    ip += packed;
    op += raw;
  }
  if (framed && op == dst_size) return true;
  return lz4_raw(src, n, dst, dst_size);  // some writers store raw blocks under this codec
}

bool brotli(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size) {
  const BrotliApi* b = brotli_api();
  if (!b) return false;
  size_t got = dst_size;
  return b->decompress(n, src, &got, dst) == 1 && got == dst_size;
}

}  // namespace gpudf::codecs
