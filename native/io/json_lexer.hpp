// The JSON lexer of the JSON / NDJSON reader: one record (an object of scalar values) at a
// time over a byte range, with strict RFC 8259 syntax. Strings are unescaped (\uXXXX with
// surrogate pairs) and checked to be UTF-8; a string without escapes is a view of the input.
// Errors are Error(JsonParse) naming the line and the byte; a nested value (an object or an
// array) of a column that is read is Error(Dtype) naming the column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpudf::json {

/// What a scalar value is; Nested is an object or an array.
enum class Kind : uint8_t { Null, Bool, Int, Float, Str };

struct Scalar {
  Kind kind = Kind::Null;
  int64_t value = 0;      // Int: the value; Bool: 0 or 1
  std::string_view text;  // Float: the number's text; Str: the unescaped text
  bool in_input = false;  // Str: `text` is a view of the input (no escapes)
};

class Lexer {
 public:
  /// Reads data[pos, end); `data` is the whole input (for line numbers); `label` prefixes messages.
  Lexer(const char* data, int64_t pos, int64_t end, std::string_view label)
      : data_(data), pos_(pos), end_(end), label_(label) {}

  int64_t pos() const { return pos_; }
  void skip_ws();
  bool at_end() { return skip_ws(), pos_ >= end_; }
  /// The next non-space byte (-1 at the end), not consumed.
  int peek() { return skip_ws(), pos_ < end_ ? static_cast<unsigned char>(data_[pos_]) : -1; }
  /// Consumes `c` (after spaces) or fails with `what` ("expected ...").
  void expect(char c, const char* what);

  /// Parses one object: for each member, `want(key)` says whether its value is read; a wanted
  /// value goes to `take(key, scalar)` (nested: Error(Dtype)), any other is skipped whole.
  template <typename Want, typename Take>
  void record(Want&& want, Take&& take) {
    expect('{', "expected '{' (a record is an object)");
    if (peek() == '}') return void(++pos_);
    while (true) {
      if (peek() != '"') fail("expected a member name in double quotes");
      const std::string_view key = string(key_scratch_, key_in_input_);
      expect(':', "expected ':' after a member name");
      if (want(key)) {
        const int c = peek();
        if (c == '{' || c == '[') nested(key);
        take(key, scalar());
      } else {
        skip_value(0);
      }
      const int c = peek();
      ++pos_;
      if (c == '}') return;
      if (c != ',') {
        --pos_;
        fail(c < 0 ? "unexpected end of input inside a record" : "expected ',' or '}' in a record");
      }
    }
  }

  /// One scalar value (after spaces).
  Scalar scalar();
  /// Skips one value of any kind (nesting at most 1000 deep).
  void skip_value(int depth);
  /// Error(JsonParse) naming the line and byte of the current position.
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(int64_t at, const std::string& what) const;

 private:
  std::string_view string(std::string& scratch, bool& in_input);
  void number(Scalar& out);
  void literal(std::string_view word);
  void utf8_sequence(std::string* out);
  uint32_t hex4();
  [[noreturn]] void nested(std::string_view key) const;

  const char* data_;
  int64_t pos_;
  int64_t end_;
  std::string_view label_;
  std::string key_scratch_;
  std::string value_scratch_;
  bool key_in_input_ = false;
};

/// 1 + the number of line breaks in data[0, pos).
int64_t line_of(const char* data, int64_t pos);

/// Appends `s` as a JSON string (quoted; '"', '\\' and control characters escaped).
void put_json_string(std::string& out, std::string_view s);

}  // namespace gpudf::json
