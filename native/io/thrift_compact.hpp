// Thrift's compact protocol, the encoding of Parquet's page headers and footer: a writer and a
// bounds-checked reader. Only what Parquet's structures use: structs, lists, bool,
// i8/i16/i32/i64 (zigzag varints), double and binary. Fields must be written in increasing id
// order within a struct. The reader never reads past its bytes, refuses lengths beyond them and
// nesting deeper than kMaxDepth, and reports anything off as DecodeError.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
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

/// Malformed compact-protocol bytes (the caller adds which file and structure).
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Reads compact-protocol structs from [data, data + size). Typical use:
///   int16_t id; CType t;
///   while (r.next_field(id, t)) { if (id == 1) x = r.read_i32(t); else r.skip(t); }
class CompactReader {
 public:
  static constexpr int kMaxDepth = 32;

  CompactReader(const uint8_t* data, size_t size) : p_(data), begin_(data), end_(data + size) {
    last_ids_.push_back(0);
  }

  /// Bytes consumed so far.
  size_t position() const { return size_t(p_ - begin_); }

  /// The next field of the current struct; false at its Stop byte (the struct is then closed).
  bool next_field(int16_t& id, CType& type) {
    if (last_ids_.empty()) throw DecodeError("read past the outermost struct");
    const uint8_t b = byte();
    if (b == 0) {
      last_ids_.pop_back();
      return false;
    }
    type = CType(b & 0x0F);
    if (type > CType::Struct) throw DecodeError("unknown field type " + std::to_string(b & 0x0F));
    const int delta = b >> 4;
    if (delta != 0) {
      id = int16_t(last_ids_.back() + delta);
    } else {
      id = int16_t(unzigzag(varint()));
    }
    last_ids_.back() = id;
    bool_value_ = type == CType::True;
    return true;
  }

  /// Enters a struct-valued field (or a struct element of a list); read its fields with
  /// next_field() until it returns false.
  void begin_struct() {
    if (last_ids_.size() > size_t(kMaxDepth)) throw DecodeError("structures nested too deep");
    last_ids_.push_back(0);
  }

  bool read_bool(CType t) {
    if (t == CType::True || t == CType::False) return bool_value_;
    expect(t, CType::Byte);
    return byte() == 1;  // a list element
  }
  int8_t read_i8(CType t) {
    expect(t, CType::Byte);
    return int8_t(byte());
  }
  int32_t read_i32(CType t) {
    if (t != CType::I16 && t != CType::Byte) expect(t, CType::I32);
    if (t == CType::Byte) return int8_t(byte());
    const int64_t v = unzigzag(varint());
    if (v < INT32_MIN || v > INT32_MAX) throw DecodeError("i32 out of range");
    return int32_t(v);
  }
  int64_t read_i64(CType t) {
    if (t == CType::I32 || t == CType::I16 || t == CType::Byte) return read_i32(t);
    expect(t, CType::I64);
    return unzigzag(varint());
  }
  double read_double(CType t) {
    expect(t, CType::Double);
    need(8);
    double d;
    std::memcpy(&d, p_, 8);
    p_ += 8;
    return d;
  }
  std::string read_binary(CType t) {
    expect(t, CType::Binary);
    const uint64_t n = varint();
    need(n);
    std::string s(reinterpret_cast<const char*>(p_), size_t(n));
    p_ += n;
    return s;
  }
  /// A list header: its element type and size (checked against the bytes left: every element
  /// takes at least one byte).
  size_t read_list(CType t, CType& element) {
    if (t != CType::Set) expect(t, CType::List);
    const uint8_t b = byte();
    element = CType(b & 0x0F);
    uint64_t n = b >> 4;
    if (n == 15) n = varint();
    if (n > size_t(end_ - p_)) throw DecodeError("list longer than the bytes left");
    return size_t(n);
  }
  /// The element of a list of `element` type, for bools (one byte each).
  bool read_bool_element() { return byte() == 1; }

  /// Skips a value of type t (structs and lists recursively, to kMaxDepth).
  void skip(CType t, int depth = 0) {
    if (depth > kMaxDepth) throw DecodeError("structures nested too deep");
    switch (t) {
      case CType::True:
      case CType::False: return;
      case CType::Byte: byte(); return;
      case CType::I16:
      case CType::I32:
      case CType::I64: varint(); return;
      case CType::Double: need(8); p_ += 8; return;
      case CType::Binary: {
        const uint64_t n = varint();
        need(n);
        p_ += n;
        return;
      }
      case CType::List:
      case CType::Set: {
        CType e;
        const size_t n = read_list(t, e);
        for (size_t i = 0; i < n; ++i) {
          if (e == CType::True || e == CType::False) byte();
          else skip(e, depth + 1);
        }
        return;
      }
      case CType::Map: {
        const uint64_t n = varint();
        if (n == 0) return;
        const uint8_t kv = byte();
        if (n > size_t(end_ - p_)) throw DecodeError("map longer than the bytes left");
        for (uint64_t i = 0; i < n; ++i) {
          skip(CType(kv >> 4), depth + 1);
          skip(CType(kv & 0x0F), depth + 1);
        }
        return;
      }
      case CType::Struct: {
        begin_struct();
        int16_t id;
        CType ft;
        while (next_field(id, ft)) skip(ft, depth + 1);
        return;
      }
      case CType::Stop: break;
    }
    throw DecodeError("unknown value type");
  }

 private:
  static void expect(CType got, CType want) {
    if (got != want) throw DecodeError("field of an unexpected type");
  }
  static int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }
  void need(uint64_t n) {
    if (n > uint64_t(end_ - p_)) throw DecodeError("runs past the end of the metadata");
  }
  uint8_t byte() {
    need(1);
    return *p_++;
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t b = byte();
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    throw DecodeError("varint longer than 10 bytes");
  }

  const uint8_t* p_;
  const uint8_t* begin_;
  const uint8_t* end_;
  std::vector<int16_t> last_ids_;
  bool bool_value_ = false;
};

}  // namespace gpudf::thrift
