// core/dispatch and core/types: every TypeId maps to the right storage type, widths and names.
#include <memory>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "core/dispatch.hpp"
#include "core/types.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

struct Expected {
  TypeId id;
  std::type_index storage;
  std::size_t size;  // 0 for the string tags
  bool is_signed;
  bool is_float;
  int32_t value_width;
  int32_t offset_width;
  const char* name;
};

const std::vector<Expected>& table() {
  static const std::vector<Expected> t = {
      {TypeId::Bool, typeid(uint8_t), 1, false, false, 1, 0, "bool"},
      {TypeId::Int8, typeid(int8_t), 1, true, false, 1, 0, "int8"},
      {TypeId::Int16, typeid(int16_t), 2, true, false, 2, 0, "int16"},
      {TypeId::Int32, typeid(int32_t), 4, true, false, 4, 0, "int32"},
      {TypeId::Int64, typeid(int64_t), 8, true, false, 8, 0, "int64"},
      {TypeId::UInt8, typeid(uint8_t), 1, false, false, 1, 0, "uint8"},
      {TypeId::UInt16, typeid(uint16_t), 2, false, false, 2, 0, "uint16"},
      {TypeId::UInt32, typeid(uint32_t), 4, false, false, 4, 0, "uint32"},
      {TypeId::UInt64, typeid(uint64_t), 8, false, false, 8, 0, "uint64"},
      {TypeId::Float32, typeid(float), 4, true, true, 4, 0, "float32"},
      {TypeId::Float64, typeid(double), 8, true, true, 8, 0, "float64"},
      {TypeId::Utf8, typeid(StringTag), 0, false, false, 0, 4, "utf8"},
      {TypeId::LargeUtf8, typeid(LargeStringTag), 0, false, false, 0, 8, "large_utf8"},
      {TypeId::Date32, typeid(int32_t), 4, true, false, 4, 0, "date32"},
      {TypeId::TimestampS, typeid(int64_t), 8, true, false, 8, 0, "timestamp[s]"},
      {TypeId::TimestampMs, typeid(int64_t), 8, true, false, 8, 0, "timestamp[ms]"},
      {TypeId::TimestampUs, typeid(int64_t), 8, true, false, 8, 0, "timestamp[us]"},
      {TypeId::TimestampNs, typeid(int64_t), 8, true, false, 8, 0, "timestamp[ns]"},
      {TypeId::DurationS, typeid(int64_t), 8, true, false, 8, 0, "duration[s]"},
      {TypeId::DurationMs, typeid(int64_t), 8, true, false, 8, 0, "duration[ms]"},
      {TypeId::DurationUs, typeid(int64_t), 8, true, false, 8, 0, "duration[us]"},
      {TypeId::DurationNs, typeid(int64_t), 8, true, false, 8, 0, "duration[ns]"},
  };
  return t;
}

struct Probe {
  std::type_index storage = typeid(void);
  std::size_t size = 0;
  bool is_signed = false, is_float = false, is_string_tag = false;
  int32_t string_offset_size = 0;
  TypeId seen = TypeId::Bool;
};

struct ProbeFn {
  template <TypeId T>
  Probe operator()() const {
    using S = storage_t<T>;
    Probe p;
    p.storage = typeid(S);
    p.seen = T;
    if constexpr (std::is_arithmetic_v<S>) {
      p.size = sizeof(S);
      p.is_signed = std::is_signed_v<S>;
      p.is_float = std::is_floating_point_v<S>;
    } else {
      p.is_string_tag = true;
      p.string_offset_size = int32_t(sizeof(typename S::offset_type));
    }
    return p;
  }
};

}  // namespace

TEST(dispatch, the_table_covers_every_type_id) {
  EXPECT_EQ(table().size(), std::size_t(kNumTypeIds));
  for (int32_t i = 0; i < kNumTypeIds; ++i) EXPECT_EQ(int32_t(table()[std::size_t(i)].id), i);
}

TEST(dispatch, type_dispatch_maps_each_id_to_its_storage_type) {
  for (const Expected& e : table()) {
    SCOPED_TRACE(e.name);
    Probe p = type_dispatch(e.id, ProbeFn{});
    EXPECT_EQ(int32_t(p.seen), int32_t(e.id));
    EXPECT_TRUE(p.storage == e.storage);
    EXPECT_EQ(p.size, e.size);
    EXPECT_EQ(p.is_signed, e.is_signed);
    EXPECT_EQ(p.is_float, e.is_float);
    EXPECT_EQ(p.is_string_tag, is_string(e.id));
    if (p.is_string_tag) EXPECT_EQ(p.string_offset_size, e.offset_width);
    else EXPECT_EQ(int64_t(p.size), int64_t(value_width(e.id)));  // storage width == value width
  }
}

TEST(dispatch, widths_names_and_predicates) {
  for (const Expected& e : table()) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(value_width(e.id), e.value_width);
    EXPECT_EQ(offset_width(e.id), e.offset_width);
    EXPECT_EQ(std::string(type_name(e.id)), std::string(e.name));
    EXPECT_EQ(is_string(e.id), e.offset_width != 0);
    EXPECT_TRUE(is_valid_type_id(int32_t(e.id)));
  }
  EXPECT_FALSE(is_valid_type_id(-1));
  EXPECT_FALSE(is_valid_type_id(kNumTypeIds));
  EXPECT_FALSE(is_valid_type_id(1000));
  EXPECT_EQ(std::string(type_name(static_cast<TypeId>(99))), std::string("unknown"));
  EXPECT_EQ(value_width(static_cast<TypeId>(99)), 0);
  EXPECT_EQ(offset_width(static_cast<TypeId>(99)), 0);
  static_assert(value_width(TypeId::Int64) == 8 && offset_width(TypeId::LargeUtf8) == 8);
  static_assert(std::is_same_v<StringTag::offset_type, int32_t>);
  static_assert(std::is_same_v<LargeStringTag::offset_type, int64_t>);
}

TEST(dispatch, unknown_type_id_throws_dtype) {
  EXPECT_THROW_CODE(type_dispatch(static_cast<TypeId>(kNumTypeIds), ProbeFn{}), ErrorCode::Dtype);
  EXPECT_THROW_CODE(type_dispatch(static_cast<TypeId>(-1), ProbeFn{}), ErrorCode::Dtype);
}

namespace {
struct AddWidth {
  template <TypeId T>
  int operator()(int& calls, int base) const {
    ++calls;
    return base + value_width(T);
  }
};
struct MoveOnlySink {
  template <TypeId T>
  std::size_t operator()(std::unique_ptr<int> p) const {
    return p ? std::size_t(*p) + std::size_t(T) : 0;
  }
};
}  // namespace

TEST(dispatch, arguments_are_forwarded_and_results_returned) {
  int calls = 0;
  EXPECT_EQ(type_dispatch(TypeId::Int16, AddWidth{}, calls, 40), 42);
  EXPECT_EQ(type_dispatch(TypeId::Float64, AddWidth{}, calls, 0), 8);
  EXPECT_EQ(calls, 2);  // the lvalue reference reached the functor
  EXPECT_EQ(type_dispatch(TypeId::Int32, MoveOnlySink{}, std::make_unique<int>(7)), std::size_t(10));
  // A generic lambda works as the functor.
  auto widths = [](auto... ids) {
    std::vector<int> out;
    (out.push_back(type_dispatch(ids, []<TypeId T>() { return int(value_width(T)); })), ...);
    return out;
  };
  EXPECT_EQ(widths(TypeId::Bool, TypeId::UInt16, TypeId::Date32, TypeId::TimestampNs, TypeId::Utf8),
            (std::vector<int>{1, 2, 4, 8, 0}));
}
