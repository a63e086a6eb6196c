// From a file's schema tree to gpudf columns: each top-level field is one column whose leaf's
// physical and logical types pick the gpudf dtype and how values convert to it. Nested fields
// (groups, repeated fields) are kept, marked, so that reading them is an error naming them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "io/parquet_convert.hpp"
#include "io/parquet_format.hpp"

namespace gpudf::parquet {

struct ColumnSchema {
  std::string name;
  bool nested = false;      // a group or repeated field: not readable yet
  int leaf = -1;            // index of its column chunk in each row group
  Physical physical = Physical::Int32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY
  TypeId dtype = TypeId::Int32;
  Conv conv = Conv::Copy;
  int max_def = 0;          // 0: required
  int32_t scale = 0;        // decimals
  bool annotated = false;   // has a logical or converted type
  std::string type_text;    // e.g. "INT64 (TIMESTAMP(MICROS))", for parquetMetadata
};

/// The top-level columns of a file's schema (FileMeta::schema), in file order.
std::vector<ColumnSchema> resolve_schema(const FileMeta& meta);

/// Takes `wanted` as the column's dtype where the file stores it compatibly (what the Arrow
/// schema in the footer says: timestamp[s] stored as plain INT64, large_utf8 as a string).
void apply_dtype_hint(ColumnSchema& c, TypeId wanted);

/// True when apply_dtype_hint takes another integral dtype of the same width for this column.
bool takes_integral_hint(const ColumnSchema& c);

/// Bytes one stored value takes (PLAIN), 0 for BYTE_ARRAY; for Bool: 1 (as decoded).
int stored_width(const ColumnSchema& c);

/// The conversion of a fixed-width stored value (every Conv but DecBytes and Bytes).
FixedConversion fixed_conversion(const ColumnSchema& c);

/// Converts one stored value (stored_width bytes; Bytes and DecBytes: `n` bytes) into `dst`
/// (value_width(c.dtype) bytes; nothing for Bytes).
void convert_value(const ColumnSchema& c, const uint8_t* src, size_t n, uint8_t* dst);

}  // namespace gpudf::parquet
