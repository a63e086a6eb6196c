#include "io/json_lexer.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "core/error.hpp"

namespace gpudf::json {
namespace {

constexpr int kMaxDepth = 1000;

bool is_digit(int c) { return c >= '0' && c <= '9'; }

void put_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(char(cp));
  } else if (cp < 0x800) {
    out.push_back(char(0xC0 | (cp >> 6)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(char(0xE0 | (cp >> 12)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(char(0xF0 | (cp >> 18)));
    out.push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

int64_t line_of(const char* data, int64_t pos) { return 1 + std::count(data, data + pos, '\n'); }

void Lexer::fail_at(int64_t at, const std::string& what) const {
  std::string where = label_.empty() ? std::string() : std::string(label_) + ": ";
  GPUDF_FAIL(JsonParse, where + "line " + std::to_string(line_of(data_, at)) + " (byte " + std::to_string(at) + "): " + what);
}

void Lexer::nested(std::string_view key) const {
  std::string where = label_.empty() ? std::string() : std::string(label_) + ": ";
  GPUDF_FAIL(Dtype, where + "column \"" + std::string(key) + "\" holds a nested value (an object or an array) on line " +
                        std::to_string(line_of(data_, pos_)) +
                        "; nested dtypes are not supported yet (leave the column out with `columns`)");
}

void Lexer::skip_ws() {
  while (pos_ < end_) {
    const char c = data_[pos_];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
    ++pos_;
  }
}

void Lexer::expect(char c, const char* what) {
  if (peek() != static_cast<unsigned char>(c)) fail(pos_ >= end_ ? std::string("unexpected end of input: ") + what : what);
  ++pos_;
}

uint32_t Lexer::hex4() {
  if (end_ - pos_ < 4) fail("truncated \\u escape");
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = data_[pos_ + i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= uint32_t(c - '0');
    else if (c >= 'a' && c <= 'f') v |= uint32_t(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= uint32_t(c - 'A' + 10);
    else fail("invalid \\u escape (four hex digits expected)");
  }
  pos_ += 4;
  return v;
}

/// Checks the UTF-8 sequence at pos_ (a lead byte >= 0x80), appends it to `out` if given.
void Lexer::utf8_sequence(std::string* out) {
  const auto* s = reinterpret_cast<const unsigned char*>(data_ + pos_);
  const int64_t left = end_ - pos_;
  int n;
  uint32_t cp;
  if (s[0] >= 0xC2 && s[0] <= 0xDF) n = 2, cp = s[0] & 0x1F;
  else if (s[0] >= 0xE0 && s[0] <= 0xEF) n = 3, cp = s[0] & 0x0F;
  else if (s[0] >= 0xF0 && s[0] <= 0xF4) n = 4, cp = s[0] & 0x07;
  else fail("invalid UTF-8");
  if (left < n) fail("invalid UTF-8 (a truncated sequence)");
  for (int i = 1; i < n; ++i) {
    if ((s[i] & 0xC0) != 0x80) fail("invalid UTF-8");
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
    fail("invalid UTF-8");
  if (out) out->append(data_ + pos_, size_t(n));
  pos_ += n;
}

std::string_view Lexer::string(std::string& scratch, bool& in_input) {
  ++pos_;  // the opening quote
  const int64_t start = pos_;
  // Fast path: no escapes, the text is a view of the input.
  while (pos_ < end_) {
    const auto c = static_cast<unsigned char>(data_[pos_]);
    if (c == '"') {
      in_input = true;
      return std::string_view(data_ + start, size_t(pos_++ - start));
    }
    if (c == '\\' || c < 0x20) break;
    if (c >= 0x80) utf8_sequence(nullptr);
    else ++pos_;
  }
  in_input = false;
  scratch.assign(data_ + start, size_t(pos_ - start));
  while (true) {
    if (pos_ >= end_) fail_at(start - 1, "unterminated string");
    const auto c = static_cast<unsigned char>(data_[pos_]);
    if (c == '"') {
      ++pos_;
      return scratch;
    }
    if (c < 0x20) fail(c == '\n' ? "unterminated string (a line break inside a string)" : "a control character inside a string must be escaped");
    if (c >= 0x80) {
      utf8_sequence(&scratch);
      continue;
    }
    if (c != '\\') {
      scratch.push_back(char(c));
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= end_) fail("truncated escape");
    const char e = data_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"': scratch.push_back('"'); break;
      case '\\': scratch.push_back('\\'); break;
      case '/': scratch.push_back('/'); break;
      case 'b': scratch.push_back('\b'); break;
      case 'f': scratch.push_back('\f'); break;
      case 'n': scratch.push_back('\n'); break;
      case 'r': scratch.push_back('\r'); break;
      case 't': scratch.push_back('\t'); break;
      case 'u': {
        const int64_t at = pos_ - 2;
        uint32_t cp = hex4();
        if (cp >= 0xDC00 && cp <= 0xDFFF) fail_at(at, "invalid \\u escape: a low surrogate without a high one");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (end_ - pos_ < 6 || data_[pos_] != '\\' || data_[pos_ + 1] != 'u')
            fail_at(at, "invalid \\u escape: a high surrogate without a low one");
          pos_ += 2;
          const uint32_t lo = hex4();
          if (lo < 0xDC00 || lo > 0xDFFF) fail_at(at, "invalid \\u escape: a high surrogate without a low one");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(scratch, cp);
        break;
      }
      default:
        pos_ -= 2;
        fail(std::string("invalid escape '\\") + (e >= 0x20 && e < 0x7F ? std::string(1, e) : "?") + "'");
    }
  }
}

void Lexer::number(Scalar& out) {
  const int64_t start = pos_;
  auto at = [&](int64_t i) { return i < end_ ? static_cast<unsigned char>(data_[i]) : -1; };
  int64_t p = pos_;
  if (at(p) == '-') ++p;
  if (at(p) == '0') {
    ++p;
  } else if (is_digit(at(p))) {
    while (is_digit(at(p))) ++p;
  } else {
    fail("invalid number");
  }
  bool integral = true;
  if (at(p) == '.') {
    integral = false;
    ++p;
    if (!is_digit(at(p))) fail_at(p, "invalid number (a digit must follow '.')");
    while (is_digit(at(p))) ++p;
  }
  if (at(p) == 'e' || at(p) == 'E') {
    integral = false;
    ++p;
    if (at(p) == '+' || at(p) == '-') ++p;
    if (!is_digit(at(p))) fail_at(p, "invalid number (a digit must follow the exponent)");
    while (is_digit(at(p))) ++p;
  }
  pos_ = p;
  out.text = std::string_view(data_ + start, size_t(p - start));
  if (integral) {
    auto [ptr, ec] = std::from_chars(data_ + start, data_ + p, out.value);
    if (ec == std::errc() && ptr == data_ + p) return void(out.kind = Kind::Int);
  }
  out.kind = Kind::Float;  // fractions, exponents, and integers past int64
}

void Lexer::literal(std::string_view word) {
  if (end_ - pos_ < int64_t(word.size()) || std::memcmp(data_ + pos_, word.data(), word.size()) != 0)
    fail("invalid literal (expected a value: a string, a number, true, false or null)");
  pos_ += int64_t(word.size());
}

Scalar Lexer::scalar() {
  Scalar s;
  switch (peek()) {
    case '"': s.kind = Kind::Str, s.text = string(value_scratch_, s.in_input); break;
    case 't': literal("true"), s.kind = Kind::Bool, s.value = 1; break;
    case 'f': literal("false"), s.kind = Kind::Bool, s.value = 0; break;
    case 'n': literal("null"); break;
    case -1: fail("unexpected end of input (expected a value)");
    default: number(s);
  }
  return s;
}

void Lexer::skip_value(int depth) {
  if (depth > kMaxDepth) fail("values nested more than 1000 deep");
  const int c = peek();
  if (c == '{' || c == '[') {
    const char close = c == '{' ? '}' : ']';
    ++pos_;
    if (peek() == close) return void(++pos_);
    while (true) {
      if (c == '{') {
        if (peek() != '"') fail("expected a member name in double quotes");
        string(value_scratch_, key_in_input_);
        expect(':', "expected ':' after a member name");
      }
      skip_value(depth + 1);
      const int n = peek();
      if (n == close) return void(++pos_);
      if (n != ',') fail(n < 0 ? "unexpected end of input inside a nested value" : "expected ',' or a closing bracket");
      ++pos_;
    }
  }
  scalar();
}

void put_json_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out.push_back('"');
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      default:
        if (c < 0x20) {
          out.append("\\u00");
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 15]);
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
}

}  // namespace gpudf::json
