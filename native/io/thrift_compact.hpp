// A writer for Thrift's compact protocol, the encoding of Parquet's page headers and footer.
// Only what Parquet's structures use: structs, lists, bool, i8/i16/i32/i64 (zigzag varints)
// and binary. Fields must be written in increasing id order within a struct.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpudf::thrift {

/// Compact-protocol type codes.
enum class CType : uint8_t {
  Stop = 0,
  True = 1,
  False = 2,
  Byte = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  Double = 7,
  Binary = 8,
  List = 9,
  Set = 10,
  Map = 11,
  Struct = 12,
};

class CompactWriter {
 public:
  /// Appends to `out` (not owned). The writer starts inside the top-level struct.
  explicit CompactWriter(std::string& out) : out_(out) { last_ids_.push_back(0); }

  void field_bool(int16_t id, bool v) { field_header(id, v ? CType::True : CType::False); }
  void field_i8(int16_t id, int8_t v) {
    field_header(id, CType::Byte);
    out_.push_back(char(v));
  }
  void field_i32(int16_t id, int32_t v) {
    field_header(id, CType::I32);
    varint(zigzag(v));
  }
  void field_i64(int16_t id, int64_t v) {
    field_header(id, CType::I64);
    varint(zigzag(v));
  }
  void field_binary(int16_t id, std::string_view v) {
    field_header(id, CType::Binary);
    binary(v);
  }
  /// Starts a struct-valued field; close it with end_struct().
  void begin_struct(int16_t id) {
    field_header(id, CType::Struct);
    last_ids_.push_back(0);
  }
  /// Ends the innermost struct (a field's, a list element's, or the top-level one).
  void end_struct() {
    out_.push_back(char(CType::Stop));
    last_ids_.pop_back();
  }
  /// Starts a list field of `size` elements of `element` type; then write exactly `size`
  /// elements with the element_* calls (or begin_element() ... end_struct() for structs).
  void begin_list(int16_t id, CType element, size_t size) {
    field_header(id, CType::List);
    if (size < 15) {
      out_.push_back(char((size << 4) | uint8_t(element)));
    } else {
      out_.push_back(char(0xF0 | uint8_t(element)));
      varint(uint64_t(size));
    }
  }
  void element_i32(int32_t v) { varint(zigzag(v)); }
  void element_binary(std::string_view v) { binary(v); }
  /// Starts a struct element of a list; close it with end_struct().
  void begin_element() { last_ids_.push_back(0); }

  static uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }

 private:
  void field_header(int16_t id, CType type) {
    int16_t& last = last_ids_.back();
    int delta = int(id) - int(last);
    if (delta > 0 && delta <= 15) {
      out_.push_back(char((delta << 4) | uint8_t(type)));
    } else {
      out_.push_back(char(type));
      varint(zigzag(id));
    }
    last = id;
  }
  void binary(std::string_view v) {
    varint(v.size());
    out_.append(v.data(), v.size());
  }
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(char(uint8_t(v) | 0x80));
      v >>= 7;
    }
    out_.push_back(char(v));
  }

  std::string& out_;
  std::vector<int16_t> last_ids_;
};

}  // namespace gpudf::thrift
