#include "core/types.hpp"

namespace gpudf {

std::string_view type_name(TypeId t) {
  switch (t) {
    case TypeId::Bool: return "bool";
    case TypeId::Int8: return "int8";
    case TypeId::Int16: return "int16";
    case TypeId::Int32: return "int32";
    case TypeId::Int64: return "int64";
    case TypeId::UInt8: return "uint8";
    case TypeId::UInt16: return "uint16";
    case TypeId::UInt32: return "uint32";
    case TypeId::UInt64: return "uint64";
    case TypeId::Float32: return "float32";
    case TypeId::Float64: return "float64";
    case TypeId::Utf8: return "utf8";
    case TypeId::LargeUtf8: return "large_utf8";
    case TypeId::Date32: return "date32";
    case TypeId::TimestampS: return "timestamp[s]";
    case TypeId::TimestampMs: return "timestamp[ms]";
    case TypeId::TimestampUs: return "timestamp[us]";
    case TypeId::TimestampNs: return "timestamp[ns]";
    case TypeId::DurationS: return "duration[s]";
    case TypeId::DurationMs: return "duration[ms]";
    case TypeId::DurationUs: return "duration[us]";
    case TypeId::DurationNs: return "duration[ns]";
  }
  return "unknown";
}

}  // namespace gpudf
