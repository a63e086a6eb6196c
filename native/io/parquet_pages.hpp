// Parquet data pages from a host column's rows: definition levels (RLE / bit-packed hybrid,
// bit width 1), PLAIN values of the non-null rows, page statistics, then compression.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "io/parquet_dictionary.hpp"
#include "io/parquet_format.hpp"

namespace gpudf::parquet {

/// About this many bytes of PLAIN values go into one page.
inline constexpr int64_t kPageBytes = int64_t(1) << 20;

struct EncodedPage {
  std::string header;  // the Thrift PageHeader
  std::string body;    // the page as stored (compressed unless Codec::Uncompressed)
  int64_t uncompressed_body = 0;
  Statistics stats;
};

/// Where pages start within rows [begin, end) of a host column: {begin, ..., end}, each page
/// holding about kPageBytes of values (at least one row).
std::vector<int64_t> page_bounds(const ColumnView& v, int64_t begin, int64_t end);

/// Encodes rows [begin, end) of a host column as one DATA_PAGE (v1): PLAIN values, or indices
/// into `dictionary` when one is given.
EncodedPage encode_page(const ColumnView& v, int64_t begin, int64_t end, Codec codec, int zstd_level,
                        const Dictionary* dictionary = nullptr);

/// The DICTIONARY_PAGE of a chunk, with the chunk's min/max (for strings: short ones only).
EncodedPage encode_dictionary_page(const ColumnView& v, const Dictionary& dictionary, Codec codec, int zstd_level);

/// Folds a page's statistics into its column chunk's.
void merge_statistics(Statistics& chunk, const Statistics& page, TypeId type);

/// Bit-width-1 levels in the RLE / bit-packed hybrid: one RLE run when all rows are valid or
/// all null, else one bit-packed run (whose bytes are the validity bits). Appends to `out`.
void put_definition_levels(std::string& out, const uint8_t* validity, int64_t bit_offset, int64_t n,
                           int64_t nulls);

}  // namespace gpudf::parquet
