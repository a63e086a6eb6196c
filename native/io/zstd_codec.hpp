// Zstandard compression through the system's libzstd, loaded at first use with dlopen
// ("libzstd.so.1", the runtime library every Debian/Ubuntu system has). No zstd.h is needed at
// build time: the few entry points used are declared here by hand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudf::zstd {

/// True when libzstd could be loaded (tried once per process).
bool available();

/// Appends the zstd frame of src[0, n) at `level` to `out`. Requires available().
void compress(const uint8_t* src, size_t n, int level, std::string& out);

/// Decodes the frame(s) src[0, n) into dst[0, dst_size); false unless that is exactly what they
/// hold. Requires available().
bool decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);

}  // namespace gpudf::zstd
