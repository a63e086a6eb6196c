// Zstandard compression through the system's libzstd, loaded at first use with dlopen
// ("libzstd.so.1", the runtime library every Debian/Ubuntu system has; GPUDF_LIBZSTD names
// another, "" none). No zstd.h is needed at build time: the few entry points used are declared
// here by hand. Where libzstd cannot be loaded, data is written as zstd frames of stored blocks
// (valid zstd that every reader reads, not smaller), and frames of stored and RLE blocks are
// read without it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudf::zstd {

/// True when libzstd could be loaded (tried once per process).
bool available();

/// Appends the zstd frame of src[0, n) at `level` to `out`; stored blocks (store) when libzstd
/// is not available.
void compress(const uint8_t* src, size_t n, int level, std::string& out);

/// Appends src[0, n) as one zstd frame of stored (raw) blocks of at most 128 KiB.
void store(const uint8_t* src, size_t n, std::string& out);

/// Decodes the frame(s) src[0, n) into dst[0, dst_size); false unless that is exactly what they
/// hold. Without libzstd only frames of stored and RLE blocks decode (decode_stored).
bool decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);

/// Decodes frames made only of stored and RLE blocks (skippable frames skipped), without libzstd;
/// false for compressed blocks, a dictionary, or anything malformed. A content checksum is
/// skipped, not verified.
bool decode_stored(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);

}  // namespace gpudf::zstd
