#include "io/parquet_schema.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"

namespace gpudf::parquet {
namespace {

// ConvertedType ids of parquet.thrift.
enum : int32_t {
  kCUtf8 = 0, kCMap = 1, kCMapKeyValue = 2, kCList = 3, kCEnum = 4, kCDecimal = 5, kCDate = 6,
  kCTimeMillis = 7, kCTimeMicros = 8, kCTimestampMillis = 9, kCTimestampMicros = 10,
  kCUint8 = 11, kCUint16 = 12, kCUint32 = 13, kCUint64 = 14,
  kCInt8 = 15, kCInt16 = 16, kCInt32 = 17, kCInt64 = 18, kCJson = 19, kCBson = 20,
};
// LogicalType union member ids.
enum : int16_t { kLString = 1, kLEnum = 4, kLDecimal = 5, kLDate = 6, kLTime = 7, kLTimestamp = 8,
                 kLInteger = 10, kLJson = 12, kLBson = 13, kLUuid = 14, kLFloat16 = 15 };

const char* physical_name(int32_t p) {
  static const char* const names[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                                      "FIXED_LEN_BYTE_ARRAY"};
  return p >= 0 && p < 8 ? names[p] : "UNKNOWN";
}

TypeId integer_type(int bits, bool is_signed) {
  switch (bits) {
    case 8: return is_signed ? TypeId::Int8 : TypeId::UInt8;
    case 16: return is_signed ? TypeId::Int16 : TypeId::UInt16;
    case 32: return is_signed ? TypeId::Int32 : TypeId::UInt32;
    default: return is_signed ? TypeId::Int64 : TypeId::UInt64;
  }
}

TypeId timestamp_type(int16_t unit) {
  return unit == 1 ? TypeId::TimestampMs : unit == 2 ? TypeId::TimestampUs : TypeId::TimestampNs;
}

/// The dtype and conversion of a leaf; ERR_PARQUET for a physical type that cannot hold it.
void pick_type(const SchemaElement& e, ColumnSchema& c) {
  const Physical p = Physical(e.physical);
  const bool ints = p == Physical::Int32 || p == Physical::Int64;
  const bool bytes = p == Physical::ByteArray || p == Physical::FixedLenByteArray;
  c.annotated = e.logical != 0 || e.converted >= 0;
  std::string logical;
  auto decimal = [&](int32_t scale) {
    c.dtype = TypeId::Float64;
    c.scale = scale;
    c.conv = p == Physical::Int32 ? Conv::DecInt32 : p == Physical::Int64 ? Conv::DecInt64 : Conv::DecBytes;
    GPUDF_EXPECTS(ints || bytes, Parquet, "column '" + e.name + "': DECIMAL on " + physical_name(e.physical));
    GPUDF_EXPECTS(p != Physical::FixedLenByteArray || e.type_length <= 16, Parquet,
                  "column '" + e.name + "': DECIMAL wider than 16 bytes");
    logical = "DECIMAL(" + std::to_string(e.precision) + "," + std::to_string(scale) + ")";
  };
  auto integer = [&](int bits, bool is_signed) {
    GPUDF_EXPECTS(ints, Parquet, "column '" + e.name + "': an integer annotation on " + physical_name(e.physical));
    c.dtype = integer_type(bits, is_signed);
    c.conv = (bits < 32 && p == Physical::Int32) ? Conv::Narrow : Conv::Copy;
    if (p == Physical::Int64 && bits < 64) c.dtype = is_signed ? TypeId::Int64 : TypeId::UInt64;
    if (p == Physical::Int32 && bits == 64) c.dtype = is_signed ? TypeId::Int32 : TypeId::UInt32;
    logical = std::string(is_signed ? "INT(" : "UINT(") + std::to_string(bits) + ")";
  };
  // The physical type's own dtype first; annotations refine it.
  switch (p) {
    case Physical::Boolean: c.dtype = TypeId::Bool; break;
    case Physical::Int32: c.dtype = TypeId::Int32; break;
    case Physical::Int64: c.dtype = TypeId::Int64; break;
    case Physical::Int96: c.dtype = TypeId::TimestampNs; c.conv = Conv::Int96; break;
    case Physical::Float: c.dtype = TypeId::Float32; break;
    case Physical::Double: c.dtype = TypeId::Float64; break;
    case Physical::ByteArray:
    case Physical::FixedLenByteArray: c.dtype = TypeId::Utf8; c.conv = Conv::Bytes; break;
    default: GPUDF_FAIL(Parquet, "column '" + e.name + "': unknown physical type " + std::to_string(e.physical));
  }
  if (e.logical != 0) {
    switch (e.logical) {
      case kLString: case kLEnum: case kLJson: case kLBson: case kLUuid: logical = "STRING"; break;
      case kLDecimal: decimal(e.scale); break;
      case kLDate:
        GPUDF_EXPECTS(p == Physical::Int32, Parquet, "column '" + e.name + "': DATE on " + physical_name(e.physical));
        c.dtype = TypeId::Date32;
        logical = "DATE";
        break;
      case kLTimestamp:
        GPUDF_EXPECTS(p == Physical::Int64, Parquet, "column '" + e.name + "': TIMESTAMP on " + physical_name(e.physical));
        c.dtype = timestamp_type(e.time_unit);
        logical = std::string("TIMESTAMP(") + (e.time_unit == 1 ? "MILLIS" : e.time_unit == 2 ? "MICROS" : "NANOS") +
                  (e.utc ? ",UTC" : "") + ")";
        break;
      case kLInteger: integer(e.int_bits, e.int_signed); break;
      case kLTime: logical = "TIME"; break;  // kept as its integer
      case kLFloat16:
        GPUDF_EXPECTS(p == Physical::FixedLenByteArray && e.type_length == 2, Parquet,
                      "column '" + e.name + "': FLOAT16 must be 2 fixed bytes");
        c.dtype = TypeId::Float32;
        c.conv = Conv::Float16;
        logical = "FLOAT16";
        break;
      default: break;
    }
  } else if (e.converted >= 0) {
    switch (e.converted) {
      case kCUtf8: case kCEnum: case kCJson: case kCBson: logical = "UTF8"; break;
      case kCDecimal: decimal(e.scale); break;
      case kCDate:
        GPUDF_EXPECTS(p == Physical::Int32, Parquet, "column '" + e.name + "': DATE on " + physical_name(e.physical));
        c.dtype = TypeId::Date32;
        logical = "DATE";
        break;
      case kCTimestampMillis:
      case kCTimestampMicros:
        GPUDF_EXPECTS(p == Physical::Int64, Parquet, "column '" + e.name + "': TIMESTAMP on " + physical_name(e.physical));
        c.dtype = e.converted == kCTimestampMillis ? TypeId::TimestampMs : TypeId::TimestampUs;
        logical = e.converted == kCTimestampMillis ? "TIMESTAMP_MILLIS" : "TIMESTAMP_MICROS";
        break;
      case kCUint8: case kCUint16: case kCUint32: case kCUint64:
        integer(8 << (e.converted - kCUint8), false);
        break;
      case kCInt8: case kCInt16: case kCInt32: case kCInt64:
        integer(8 << (e.converted - kCInt8), true);
        break;
      case kCTimeMillis: case kCTimeMicros: logical = "TIME"; break;
      default: break;
    }
  }
  if (p == Physical::FixedLenByteArray) {
    GPUDF_EXPECTS(e.type_length > 0 && e.type_length < (1 << 24), Parquet,
                  "column '" + e.name + "': FIXED_LEN_BYTE_ARRAY of bad length " + std::to_string(e.type_length));
  }
  c.type_text = std::string(physical_name(e.physical)) + (logical.empty() ? "" : " (" + logical + ")");
}

/// Walks the subtree at schema[i]; returns the index after it, counting its leaves in `leaves`.
size_t skip_subtree(const std::vector<SchemaElement>& s, size_t i, int& leaves, int depth) {
  GPUDF_EXPECTS(i < s.size(), Parquet, "corrupt schema: fewer elements than its groups' children");
  GPUDF_EXPECTS(depth < 64, Parquet, "corrupt schema: nested too deep");
  const SchemaElement& e = s[i];
  if (e.num_children <= 0) {
    GPUDF_EXPECTS(e.physical >= 0, Parquet, "corrupt schema: a field with neither type nor children: '" + e.name + "'");
    ++leaves;
    return i + 1;
  }
  size_t j = i + 1;
  for (int32_t k = 0; k < e.num_children; ++k) j = skip_subtree(s, j, leaves, depth + 1);
  return j;
}

}  // namespace

std::vector<ColumnSchema> resolve_schema(const FileMeta& meta) {
  const std::vector<SchemaElement>& s = meta.schema;
  GPUDF_EXPECTS(!s.empty() && s[0].num_children >= 0, Parquet, "corrupt schema: no root");
  GPUDF_EXPECTS(size_t(s[0].num_children) < s.size(), Parquet, "corrupt schema: the root has more children than elements");
  std::vector<ColumnSchema> out;
  size_t i = 1;
  int leaves = 0;
  for (int32_t k = 0; k < s[0].num_children; ++k) {
    GPUDF_EXPECTS(i < s.size(), Parquet, "corrupt schema: fewer elements than the root's children");
    const SchemaElement& e = s[i];
    ColumnSchema c;
    c.name = e.name;
    if (e.num_children > 0 || e.repetition == 2) {
      c.nested = true;
      c.type_text = e.num_children > 0 ? "GROUP" : "REPEATED";
      i = skip_subtree(s, i, leaves, 0);
    } else {
      GPUDF_EXPECTS(e.physical >= 0, Parquet, "corrupt schema: a field with neither type nor children: '" + e.name + "'");
      c.leaf = leaves++;
      c.physical = Physical(e.physical);
      c.type_length = e.type_length;
      c.max_def = e.repetition == 1 ? 1 : 0;
      pick_type(e, c);
      ++i;
    }
    out.push_back(std::move(c));
  }
  for (const RowGroupMeta& g : meta.row_groups) {
    GPUDF_EXPECTS(int(g.columns.size()) == leaves, Parquet,
                  "corrupt footer: a row group has " + std::to_string(g.columns.size()) + " column chunks, the schema " +
                      std::to_string(leaves) + " columns");
  }
  return out;
}

namespace {
bool integral(TypeId t) { return t != TypeId::Bool && t != TypeId::Float32 && t != TypeId::Float64 && !is_string(t); }
}  // namespace

bool takes_integral_hint(const ColumnSchema& c) {
  // Only unannotated integers take another integral dtype of their width (the same bytes).
  return !c.nested && c.conv == Conv::Copy && !c.annotated && integral(c.dtype);
}

void apply_dtype_hint(ColumnSchema& c, TypeId wanted) {
  if (c.nested || wanted == c.dtype) return;
  if (is_string(wanted) && is_string(c.dtype)) {
    c.dtype = wanted;
    return;
  }
  if (takes_integral_hint(c) && integral(wanted) && value_width(wanted) == value_width(c.dtype)) c.dtype = wanted;
}

int stored_width(const ColumnSchema& c) {
  switch (c.physical) {
    case Physical::Boolean: return 1;
    case Physical::Int32:
    case Physical::Float: return 4;
    case Physical::Int64:
    case Physical::Double: return 8;
    case Physical::Int96: return 12;
    case Physical::FixedLenByteArray: return c.type_length;
    default: return 0;
  }
}

namespace {
double pow10(int32_t scale) { return std::pow(10.0, double(scale)); }
}  // namespace

FixedConversion fixed_conversion(const ColumnSchema& c) {
  GPUDF_EXPECTS(c.conv != Conv::DecBytes && c.conv != Conv::Bytes, Internal, "not a fixed-width conversion");
  return FixedConversion{c.conv, stored_width(c), value_width(c.dtype), pow10(c.scale)};
}

void convert_value(const ColumnSchema& c, const uint8_t* src, size_t n, uint8_t* dst) {
  switch (c.conv) {
    case Conv::DecBytes: {
      __int128 v = 0;
      if (n > 0) {
        v = (src[0] & 0x80) ? -1 : 0;
        const size_t skip = n > 16 ? n - 16 : 0;  // sign extension bytes beyond 128 bits
        for (size_t i = skip; i < n; ++i) v = (v << 8) | src[i];
      }
      const double d = double(v) / pow10(c.scale);
      std::memcpy(dst, &d, 8);
      return;
    }
    case Conv::Bytes: return;
    default: convert_fixed(fixed_conversion(c), src, dst); return;
  }
}

}  // namespace gpudf::parquet
