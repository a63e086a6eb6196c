// Parquet's file structures (parquet.thrift: PageHeader, FileMetaData and what they hold) as
// the writer fills them and the reader parses them (io/parquet_metadata.hpp), and the writer's
// Thrift compact encoding of them. Only the fields one of the two uses are modelled.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace gpudf::parquet {

/// CompressionCodec values of parquet.thrift.
enum class Codec : int32_t { Uncompressed = 0, Snappy = 1, Gzip = 2, Lzo = 3, Brotli = 4, Lz4 = 5, Zstd = 6, Lz4Raw = 7 };

/// Physical (storage) types of parquet.thrift.
enum class Physical : int32_t {
  Boolean = 0,
  Int32 = 1,
  Int64 = 2,
  Int96 = 3,
  Float = 4,
  Double = 5,
  ByteArray = 6,
  FixedLenByteArray = 7,
};

enum class Logical { None, Integer, String, Date, Timestamp };

/// How one gpudf dtype is stored: physical type, logical (and legacy converted) annotation.
struct ColumnType {
  Physical physical = Physical::Int32;
  Logical logical = Logical::None;
  int32_t converted = -1;   // ConvertedType, -1: none
  int8_t bit_width = 0;     // Logical::Integer
  bool is_signed = true;    // Logical::Integer
  int16_t time_unit = 0;    // Logical::Timestamp: 1 millis, 2 micros, 3 nanos (TimeUnit ids)
};

ColumnType column_type(TypeId t);

/// Column-chunk statistics; min/max are PLAIN-encoded values (absent for strings).
struct Statistics {
  int64_t null_count = 0;
  bool has_null_count = true;   // read: false when the writer left it out
  bool legacy_min_max = false;  // read: only the deprecated (signed-order) min/max were there
  bool has_min_max = false;
  std::string min, max;
};

struct ColumnChunkMeta {
  Physical physical = Physical::Int32;
  Codec codec = Codec::Uncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;  // page headers included
  int64_t total_compressed_size = 0;    // page headers included
  int64_t data_page_offset = 0;
  int64_t dictionary_page_offset = -1;  // -1: PLAIN pages only
  Statistics stats;
  // Read only (the writer derives them): the encodings listed and the column's path.
  std::vector<int32_t> encodings;
  std::vector<std::string> path;
};

/// One node of the schema tree (read only; the writer encodes its flat schema directly).
struct SchemaElement {
  std::string name;
  int32_t physical = -1;      // -1: a group
  int32_t type_length = 0;    // FIXED_LEN_BYTE_ARRAY
  int32_t repetition = 0;     // 0 REQUIRED, 1 OPTIONAL, 2 REPEATED
  int32_t num_children = 0;
  int32_t converted = -1;     // ConvertedType, -1: none
  int32_t scale = 0, precision = 0;
  // LogicalType (a union): the member's field id, 0: none; with its parameters.
  int16_t logical = 0;
  int8_t int_bits = 0;
  bool int_signed = true;
  bool utc = false;
  int16_t time_unit = 0;      // 1 millis, 2 micros, 3 nanos
};

struct RowGroupMeta {
  std::vector<ColumnChunkMeta> columns;
  int64_t num_rows = 0;
  int64_t total_byte_size = 0;  // uncompressed
  int64_t file_offset = 0;
  int64_t total_compressed_size = 0;
};

struct FileMeta {
  std::vector<std::string> names;
  std::vector<TypeId> types;
  int64_t num_rows = 0;
  std::vector<RowGroupMeta> row_groups;
  std::vector<std::pair<std::string, std::string>> key_values;
  std::string created_by;
  std::vector<SchemaElement> schema;  // read only: the whole tree, root first
};

/// Encoding ids of parquet.thrift used by the writer.
inline constexpr int32_t kPlain = 0;
inline constexpr int32_t kPlainDictionary = 2;
inline constexpr int32_t kRle = 3;
inline constexpr int32_t kBitPacked = 4;
inline constexpr int32_t kDeltaBinaryPacked = 5;
inline constexpr int32_t kDeltaLengthByteArray = 6;
inline constexpr int32_t kDeltaByteArray = 7;
inline constexpr int32_t kRleDictionary = 8;
inline constexpr int32_t kByteStreamSplit = 9;

/// The name of a codec / an encoding as parquet.thrift spells it ("SNAPPY", "RLE_DICTIONARY").
const char* codec_name(Codec c);
const char* encoding_name(int32_t e);

/// Appends a DATA_PAGE (v1) header: values in `encoding` (kPlain or kRleDictionary), RLE
/// definition levels.
void encode_data_page_header(std::string& out, int32_t uncompressed_size, int32_t compressed_size,
                             int32_t num_values, int32_t encoding);

/// Appends a DICTIONARY_PAGE header (PLAIN entries).
void encode_dictionary_page_header(std::string& out, int32_t uncompressed_size, int32_t compressed_size,
                                   int32_t num_values);

/// The footer's FileMetaData.
std::string encode_file_meta(const FileMeta& meta);

}  // namespace gpudf::parquet
