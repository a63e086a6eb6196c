// Snappy's block format (the "SNAPPY" codec of Parquet pages). The compressor: greedy LZ77
// with a hash table over 64 KiB fragments, literals and copies encoded as the format defines
// (snappy.cpp). The decompressor: every length and offset checked (snappy_decompress.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudf::snappy {

/// The most bytes compress() can append for `n` input bytes.
size_t max_compressed_length(size_t n);

/// Appends the Snappy encoding of src[0, n) to `out`. n must be below 2^32.
void compress(const uint8_t* src, size_t n, std::string& out);

/// Decodes the block src[0, n) into dst[0, dst_size). False (dst then undefined) when the block
/// is malformed or does not decode to exactly dst_size bytes.
bool decompress(const uint8_t* src, size_t n, uint8_t* dst, size_t dst_size);

}  // namespace gpudf::snappy
