// Logical dtypes and their physical storage. The numeric ids are shared with the TypeScript layer
// (src/dtypes.ts); change both together.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/hd.hpp"

namespace gpudf {

enum class TypeId : int32_t {
  Bool = 0,
  Int8 = 1,
  Int16 = 2,
  Int32 = 3,
  Int64 = 4,
  UInt8 = 5,
  UInt16 = 6,
  UInt32 = 7,
  UInt64 = 8,
  Float32 = 9,
  Float64 = 10,
  Utf8 = 11,
  LargeUtf8 = 12,
  Date32 = 13,
  TimestampS = 14,
  TimestampMs = 15,
  TimestampUs = 16,
  TimestampNs = 17,
  DurationS = 18,
  DurationMs = 19,
  DurationUs = 20,
  DurationNs = 21,
};

inline constexpr int32_t kNumTypeIds = 22;

inline constexpr bool is_valid_type_id(int32_t id) { return id >= 0 && id < kNumTypeIds; }

GPUDF_HD inline constexpr bool is_string(TypeId t) {
  return t == TypeId::Utf8 || t == TypeId::LargeUtf8;
}

GPUDF_HD inline constexpr bool is_timestamp(TypeId t) {
  return t >= TypeId::TimestampS && t <= TypeId::TimestampNs;
}

/// duration[s|ms|us|ns]: a signed count of the unit (Arrow's Duration), stored as int64.
GPUDF_HD inline constexpr bool is_duration(TypeId t) {
  return t >= TypeId::DurationS && t <= TypeId::DurationNs;
}

/// Ticks per second of a timestamp or duration dtype (s: 1 ... ns: 1e9); 0 for other dtypes.
GPUDF_HD inline constexpr int64_t ticks_per_second(TypeId t) {
  switch (t) {
    case TypeId::TimestampS:
    case TypeId::DurationS: return 1;
    case TypeId::TimestampMs:
    case TypeId::DurationMs: return 1000;
    case TypeId::TimestampUs:
    case TypeId::DurationUs: return 1000000;
    case TypeId::TimestampNs:
    case TypeId::DurationNs: return 1000000000;
    default: return 0;
  }
}

/// The duration dtype of a timestamp's unit, and the timestamp dtype of a duration's.
GPUDF_HD inline constexpr TypeId duration_of(TypeId timestamp) {
  return TypeId(int32_t(timestamp) - int32_t(TypeId::TimestampS) + int32_t(TypeId::DurationS));
}
GPUDF_HD inline constexpr TypeId timestamp_of(TypeId duration) {
  return TypeId(int32_t(duration) - int32_t(TypeId::DurationS) + int32_t(TypeId::TimestampS));
}

/// Bytes per value in the values buffer. Bool is stored as one byte per value (0 or 1) on both
/// backends; Arrow's bit-packed form exists only at the interop boundary. Strings: 0 (they use
/// an offsets buffer plus a byte buffer).
GPUDF_HD inline constexpr int32_t value_width(TypeId t) {
  switch (t) {
    case TypeId::Bool:
    case TypeId::Int8:
    case TypeId::UInt8: return 1;
    case TypeId::Int16:
    case TypeId::UInt16: return 2;
    case TypeId::Int32:
    case TypeId::UInt32:
    case TypeId::Float32:
    case TypeId::Date32: return 4;
    case TypeId::Int64:
    case TypeId::UInt64:
    case TypeId::Float64:
    case TypeId::TimestampS:
    case TypeId::TimestampMs:
    case TypeId::TimestampUs:
    case TypeId::TimestampNs:
    case TypeId::DurationS:
    case TypeId::DurationMs:
    case TypeId::DurationUs:
    case TypeId::DurationNs: return 8;
    case TypeId::Utf8:
    case TypeId::LargeUtf8: return 0;
  }
  return 0;
}

/// Width of one string offset: 4 for utf8, 8 for large_utf8, 0 otherwise.
GPUDF_HD inline constexpr int32_t offset_width(TypeId t) {
  return t == TypeId::Utf8 ? 4 : t == TypeId::LargeUtf8 ? 8 : 0;
}

/// The dtype's user-facing name ("int32", "utf8", "timestamp[ms]").
std::string_view type_name(TypeId t);

}  // namespace gpudf
