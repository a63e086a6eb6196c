// Decompressors of the system's shared libraries, each loaded with dlopen at first use (no
// headers at build time, nothing bundled): zlib ("libz.so.1") for GZIP, liblz4 ("liblz4.so.1")
// for LZ4_RAW and Hadoop-framed LZ4, libbrotlidec ("libbrotlidec.so.1") for BROTLI.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpudf::codecs {

/// The library each of these needs, for error messages.
inline constexpr const char* kZlib = "libz.so.1";
inline constexpr const char* kLz4 = "liblz4.so.1";
inline constexpr const char* kBrotli = "libbrotlidec.so.1";

bool zlib_available();
bool lz4_available();
bool brotli_available();

// Each decodes src[0, n) into dst[0, dst_size) and is false unless that is exactly what the
// input holds. Each requires its *_available().

/// gzip members (one or more, concatenated) or a zlib stream.
bool gunzip(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);
/// One raw LZ4 block.
bool lz4_raw(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);
/// Hadoop's LZ4 framing (big-endian uncompressed and compressed sizes before each block); raw
/// blocks when the input does not parse as that.
bool lz4_hadoop(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);
bool brotli(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);

}  // namespace gpudf::codecs
