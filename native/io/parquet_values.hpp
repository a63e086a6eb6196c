// Decoding a data page's values (the non-null ones, densely) in each of Parquet's value
// encodings: PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY (indices into the chunk's dictionary), RLE
// (booleans), DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and
// BYTE_STREAM_SPLIT. Anything that does not fit the page's bytes or the dictionary is
// ERR_PARQUET.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/host_vector.hpp"
#include "io/parquet_bits.hpp"
#include "io/parquet_schema.hpp"

namespace gpudf::parquet {

/// A column chunk's dictionary: fixed-width entries back to back, or byte strings.
struct PageDictionary {
  int64_t count = 0;
  HostVector<uint8_t> fixed;      // count * stored_width bytes
  HostVector<int64_t> offsets;    // byte arrays: count + 1 entries into bytes
  HostString bytes;
};

/// Reads a dictionary page's `n` PLAIN entries.
void read_dictionary(const ColumnSchema& c, ByteReader in, int64_t n, PageDictionary& d);

/// Decodes n values of a fixed-width stored type (every type but BYTE_ARRAY) into out
/// (n * stored_width(c) bytes; booleans one byte each).
void decode_fixed(const ColumnSchema& c, int32_t encoding, ByteReader in, int64_t n, const PageDictionary* dict,
                  uint8_t* out);

/// Decodes n BYTE_ARRAY values: their lengths into lens[0, n), their bytes appended to bytes.
void decode_byte_arrays(const ColumnSchema& c, int32_t encoding, ByteReader in, int64_t n, const PageDictionary* dict,
                        uint32_t* lens, HostString& bytes);

}  // namespace gpudf::parquet
