#include "io/parquet_format.hpp"

#include "core/error.hpp"
#include "io/thrift_compact.hpp"

namespace gpudf::parquet {
namespace {

using thrift::CompactWriter;
using thrift::CType;

// ConvertedType ids.
constexpr int32_t kUtf8 = 0;
constexpr int32_t kDate = 6;
constexpr int32_t kUInt8 = 11;
constexpr int32_t kInt8 = 15;

ColumnType integer(Physical p, int8_t bits, bool is_signed) {
  ColumnType t;
  t.physical = p;
  t.logical = Logical::Integer;
  t.bit_width = bits;
  t.is_signed = is_signed;
  // UINT_8, UINT_16, UINT_32, UINT_64 are 11..14; INT_8 .. INT_64 are 15..18.
  const int32_t step = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
  t.converted = (is_signed ? kInt8 : kUInt8) + step;
  return t;
}

ColumnType timestamp(int16_t unit) {
  ColumnType t;
  t.physical = Physical::Int64;
  t.logical = Logical::Timestamp;
  t.time_unit = unit;
  // No converted type: TIMESTAMP_MILLIS/MICROS mean UTC-adjusted values, and these are not.
  return t;
}

void write_logical_type(CompactWriter& w, const ColumnType& t) {
  if (t.logical == Logical::None) return;
  w.begin_struct(10);  // SchemaElement.logicalType (a union)
  switch (t.logical) {
    case Logical::String:
      w.begin_struct(1);  // STRING
      w.end_struct();
      break;
    case Logical::Date:
      w.begin_struct(6);  // DATE
      w.end_struct();
      break;
    case Logical::Timestamp:
      w.begin_struct(8);            // TIMESTAMP
      w.field_bool(1, false);       // isAdjustedToUTC: gpudf timestamps carry no time zone
      w.begin_struct(2);            // unit (a union)
      w.begin_struct(t.time_unit);  // MILLIS / MICROS / NANOS
      w.end_struct();
      w.end_struct();
      w.end_struct();
      break;
    case Logical::Integer:
      w.begin_struct(10);  // INTEGER
      w.field_i8(1, t.bit_width);
      w.field_bool(2, t.is_signed);
      w.end_struct();
      break;
    case Logical::None: break;
  }
  w.end_struct();
}

void write_statistics(CompactWriter& w, const Statistics& s) {
  w.begin_struct(12);  // ColumnMetaData.statistics
  w.field_i64(3, s.null_count);
  if (s.has_min_max) {
    w.field_binary(5, s.max);  // max_value
    w.field_binary(6, s.min);  // min_value
  }
  w.end_struct();
}

void write_column_chunk(CompactWriter& w, const ColumnChunkMeta& c, const std::string& name) {
  w.begin_element();
  const bool dictionary = c.dictionary_page_offset >= 0;
  w.field_i64(2, dictionary ? c.dictionary_page_offset : c.data_page_offset);  // file_offset: the chunk's first byte
  w.begin_struct(3);                   // meta_data
  w.field_i32(1, int32_t(c.physical));
  w.begin_list(2, CType::I32, dictionary ? 3 : 2);  // encodings
  w.element_i32(kPlain);
  w.element_i32(kRle);
  if (dictionary) w.element_i32(kRleDictionary);
  w.begin_list(3, CType::Binary, 1);  // path_in_schema
  w.element_binary(name);
  w.field_i32(4, int32_t(c.codec));
  w.field_i64(5, c.num_values);
  w.field_i64(6, c.total_uncompressed_size);
  w.field_i64(7, c.total_compressed_size);
  w.field_i64(9, c.data_page_offset);
  if (dictionary) w.field_i64(11, c.dictionary_page_offset);
  write_statistics(w, c.stats);
  w.end_struct();
  w.end_struct();
}

}  // namespace

ColumnType column_type(TypeId t) {
  ColumnType c;
  switch (t) {
    case TypeId::Bool: c.physical = Physical::Boolean; return c;
    case TypeId::Int8: return integer(Physical::Int32, 8, true);
    case TypeId::Int16: return integer(Physical::Int32, 16, true);
    case TypeId::Int32: return integer(Physical::Int32, 32, true);
    case TypeId::Int64: return integer(Physical::Int64, 64, true);
    case TypeId::UInt8: return integer(Physical::Int32, 8, false);
    case TypeId::UInt16: return integer(Physical::Int32, 16, false);
    case TypeId::UInt32: return integer(Physical::Int32, 32, false);
    case TypeId::UInt64: return integer(Physical::Int64, 64, false);
    case TypeId::Float32: c.physical = Physical::Float; return c;
    case TypeId::Float64: c.physical = Physical::Double; return c;
    case TypeId::Utf8:
    case TypeId::LargeUtf8:
      c.physical = Physical::ByteArray;
      c.logical = Logical::String;
      c.converted = kUtf8;
      return c;
    case TypeId::Date32:
      c.physical = Physical::Int32;
      c.logical = Logical::Date;
      c.converted = kDate;
      return c;
    // Parquet has no seconds unit. Stored as plain INT64 seconds (as the Rust Arrow writer
    // does): the Arrow schema in the footer makes Arrow readers give timestamp[s] back, where
    // scaling to TIMESTAMP(MILLIS) would come back from them as timestamp[ms].
    case TypeId::TimestampS: c.physical = Physical::Int64; return c;
    case TypeId::TimestampMs: return timestamp(1);
    case TypeId::TimestampUs: return timestamp(2);
    case TypeId::TimestampNs: return timestamp(3);
    // Parquet has no duration type: plain INT64 counts, as Arrow writers store them; the Arrow
    // schema in the footer gives the unit back.
    case TypeId::DurationS:
    case TypeId::DurationMs:
    case TypeId::DurationUs:
    case TypeId::DurationNs: c.physical = Physical::Int64; return c;
  }
  GPUDF_FAIL(Dtype, "no Parquet type for this dtype");
}

namespace {
/// A PageHeader's first fields, shared by every page type: type and both sizes.
void page_header_sizes(CompactWriter& w, int32_t type, int32_t uncompressed_size, int32_t compressed_size) {
  w.field_i32(1, type);
  w.field_i32(2, uncompressed_size);
  w.field_i32(3, compressed_size);
}
}  // namespace

void encode_data_page_header(std::string& out, int32_t uncompressed_size, int32_t compressed_size,
                             int32_t num_values, int32_t encoding) {
  CompactWriter w(out);
  page_header_sizes(w, 0, uncompressed_size, compressed_size);  // type: DATA_PAGE
  w.begin_struct(5);  // data_page_header
  w.field_i32(1, num_values);
  w.field_i32(2, encoding);
  w.field_i32(3, kRle);    // definition_level_encoding
  w.field_i32(4, kRle);    // repetition_level_encoding
  w.end_struct();
  w.end_struct();
}

void encode_dictionary_page_header(std::string& out, int32_t uncompressed_size, int32_t compressed_size,
                                   int32_t num_values) {
  CompactWriter w(out);
  page_header_sizes(w, 2, uncompressed_size, compressed_size);  // type: DICTIONARY_PAGE
  w.begin_struct(7);  // dictionary_page_header
  w.field_i32(1, num_values);
  w.field_i32(2, kPlain);
  w.end_struct();
  w.end_struct();
}

const char* codec_name(Codec c) {
  switch (c) {
    case Codec::Uncompressed: return "UNCOMPRESSED";
    case Codec::Snappy: return "SNAPPY";
    case Codec::Gzip: return "GZIP";
    case Codec::Lzo: return "LZO";
    case Codec::Brotli: return "BROTLI";
    case Codec::Lz4: return "LZ4";
    case Codec::Zstd: return "ZSTD";
    case Codec::Lz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

const char* encoding_name(int32_t e) {
  static const char* const names[] = {"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED",
                                      "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
                                      "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  return e >= 0 && e < 10 ? names[e] : "UNKNOWN";
}

std::string encode_file_meta(const FileMeta& m) {
  std::string out;
  CompactWriter w(out);
  w.field_i32(1, 2);  // version
  // schema: the root, then one OPTIONAL leaf per column.
  w.begin_list(2, CType::Struct, m.names.size() + 1);
  w.begin_element();
  w.field_binary(4, "schema");
  w.field_i32(5, int32_t(m.names.size()));
  w.end_struct();
  for (size_t i = 0; i < m.names.size(); ++i) {
    const ColumnType t = column_type(m.types[i]);
    w.begin_element();
    w.field_i32(1, int32_t(t.physical));
    w.field_i32(3, 1);  // repetition_type: OPTIONAL
    w.field_binary(4, m.names[i]);
    if (t.converted >= 0) w.field_i32(6, t.converted);
    write_logical_type(w, t);
    w.end_struct();
  }
  w.field_i64(3, m.num_rows);
  w.begin_list(4, CType::Struct, m.row_groups.size());
  for (const RowGroupMeta& rg : m.row_groups) {
    w.begin_element();
    w.begin_list(1, CType::Struct, rg.columns.size());
    for (size_t c = 0; c < rg.columns.size(); ++c) write_column_chunk(w, rg.columns[c], m.names[c]);
    w.field_i64(2, rg.total_byte_size);
    w.field_i64(3, rg.num_rows);
    w.field_i64(5, rg.file_offset);
    w.field_i64(6, rg.total_compressed_size);
    w.end_struct();
  }
  if (!m.key_values.empty()) {
    w.begin_list(5, CType::Struct, m.key_values.size());
    for (const auto& [k, v] : m.key_values) {
      w.begin_element();
      w.field_binary(1, k);
      w.field_binary(2, v);
      w.end_struct();
    }
  }
  w.field_binary(6, m.created_by);
  // column_orders: TYPE_ORDER for every column, so readers trust unsigned min/max.
  w.begin_list(7, CType::Struct, m.names.size());
  for (size_t i = 0; i < m.names.size(); ++i) {
    w.begin_element();
    w.begin_struct(1);  // TYPE_ORDER
    w.end_struct();
    w.end_struct();
  }
  w.end_struct();
  return out;
}

}  // namespace gpudf::parquet
