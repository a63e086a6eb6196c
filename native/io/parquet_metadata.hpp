// Parsing Parquet's Thrift metadata for the reader: the footer's FileMetaData and each page's
// PageHeader, from bytes that may be anything (every length and offset is checked; a malformed
// structure is ERR_PARQUET saying what was off).
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/parquet_format.hpp"

namespace gpudf::parquet {

enum class PageType : int32_t { Data = 0, Index = 1, Dictionary = 2, DataV2 = 3 };

struct PageHeader {
  PageType type = PageType::Data;
  int32_t uncompressed_size = 0;
  int32_t compressed_size = 0;
  int32_t num_values = 0;
  int32_t encoding = 0;
  int32_t def_encoding = kRle;  // v1
  // v2
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  int32_t def_bytes = 0;
  int32_t rep_bytes = 0;
  bool is_compressed = true;
  size_t header_size = 0;  // bytes of the Thrift header itself
};

/// The FileMetaData encoded in [data, data + size) (the footer without its length and magic).
FileMeta parse_file_meta(const uint8_t* data, size_t size);

/// The PageHeader at the start of [data, data + size).
PageHeader parse_page_header(const uint8_t* data, size_t size);

}  // namespace gpudf::parquet
