// A compressor for Snappy's block format (the "SNAPPY" codec of Parquet pages): greedy LZ77
// with a hash table over 64 KiB fragments, literals and copies encoded as the format defines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gpudf::snappy {

/// The most bytes compress() can append for `n` input bytes.
size_t max_compressed_length(size_t n);

/// Appends the Snappy encoding of src[0, n) to `out`. n must be below 2^32.
void compress(const uint8_t* src, size_t n, std::string& out);

}  // namespace gpudf::snappy
