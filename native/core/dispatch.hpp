// The one type dispatcher: a single switch from a runtime TypeId to a functor templated on the
// C++ storage type. Dispatch one level only; cast to a common type before a second dispatch.
#pragma once

#include <cstdint>

#include "core/error.hpp"
#include "core/types.hpp"

namespace gpudf {

/// Tags for the variable-width types; functors specialise on them.
struct StringTag {
  using offset_type = int32_t;
};
struct LargeStringTag {
  using offset_type = int64_t;
};

template <TypeId T>
struct storage_type;
template <> struct storage_type<TypeId::Bool> { using type = uint8_t; };
template <> struct storage_type<TypeId::Int8> { using type = int8_t; };
template <> struct storage_type<TypeId::Int16> { using type = int16_t; };
template <> struct storage_type<TypeId::Int32> { using type = int32_t; };
template <> struct storage_type<TypeId::Int64> { using type = int64_t; };
template <> struct storage_type<TypeId::UInt8> { using type = uint8_t; };
template <> struct storage_type<TypeId::UInt16> { using type = uint16_t; };
template <> struct storage_type<TypeId::UInt32> { using type = uint32_t; };
template <> struct storage_type<TypeId::UInt64> { using type = uint64_t; };
template <> struct storage_type<TypeId::Float32> { using type = float; };
template <> struct storage_type<TypeId::Float64> { using type = double; };
template <> struct storage_type<TypeId::Utf8> { using type = StringTag; };
template <> struct storage_type<TypeId::LargeUtf8> { using type = LargeStringTag; };
template <> struct storage_type<TypeId::Date32> { using type = int32_t; };
template <> struct storage_type<TypeId::TimestampS> { using type = int64_t; };
template <> struct storage_type<TypeId::TimestampMs> { using type = int64_t; };
template <> struct storage_type<TypeId::TimestampUs> { using type = int64_t; };
template <> struct storage_type<TypeId::TimestampNs> { using type = int64_t; };
template <> struct storage_type<TypeId::DurationS> { using type = int64_t; };
template <> struct storage_type<TypeId::DurationMs> { using type = int64_t; };
template <> struct storage_type<TypeId::DurationUs> { using type = int64_t; };
template <> struct storage_type<TypeId::DurationNs> { using type = int64_t; };

template <TypeId T>
using storage_t = typename storage_type<T>::type;

/// Calls `f.template operator()<T>(args...)` with T the TypeId known at compile time.
template <typename F, typename... Args>
decltype(auto) type_dispatch(TypeId id, F&& f, Args&&... args) {
#define GPUDF_DISPATCH_CASE(ID) \
  case TypeId::ID: return f.template operator()<TypeId::ID>(static_cast<Args&&>(args)...);
  switch (id) {
    GPUDF_DISPATCH_CASE(Bool)
    GPUDF_DISPATCH_CASE(Int8)
    GPUDF_DISPATCH_CASE(Int16)
    GPUDF_DISPATCH_CASE(Int32)
    GPUDF_DISPATCH_CASE(Int64)
    GPUDF_DISPATCH_CASE(UInt8)
    GPUDF_DISPATCH_CASE(UInt16)
    GPUDF_DISPATCH_CASE(UInt32)
    GPUDF_DISPATCH_CASE(UInt64)
    GPUDF_DISPATCH_CASE(Float32)
    GPUDF_DISPATCH_CASE(Float64)
    GPUDF_DISPATCH_CASE(Utf8)
    GPUDF_DISPATCH_CASE(LargeUtf8)
    GPUDF_DISPATCH_CASE(Date32)
    GPUDF_DISPATCH_CASE(TimestampS)
    GPUDF_DISPATCH_CASE(TimestampMs)
    GPUDF_DISPATCH_CASE(TimestampUs)
    GPUDF_DISPATCH_CASE(TimestampNs)
    GPUDF_DISPATCH_CASE(DurationS)
    GPUDF_DISPATCH_CASE(DurationMs)
    GPUDF_DISPATCH_CASE(DurationUs)
    GPUDF_DISPATCH_CASE(DurationNs)
  }
#undef GPUDF_DISPATCH_CASE
  GPUDF_FAIL(Dtype, "unknown type id " + std::to_string(static_cast<int32_t>(id)));
}

}  // namespace gpudf
