// io/json: the lexer (escapes, UTF-8, numbers, skipping nested values, errors), the reader
// (inference, chunked NDJSON equal to one chunk, dtypes, projection) and the writer read back,
// and every prefix of a document read without a crash (a table or a typed error).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/json_lexer.hpp"
#include "io/json_reader.hpp"
#include "io/json_writer.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

json::JsonResult read(const std::string& text, json::JsonOptions o = {}) {
  return json::read_json({json::JsonInput{text.data(), int64_t(text.size()), ""}}, o, test_device());
}

std::string error_of(const std::string& text, ErrorCode want, json::JsonOptions o = {}) {
  try {
    read(text, o);
  } catch (const Error& e) {
    EXPECT_EQ(int(e.code()), int(want));
    return e.what();
  }
  ADD_FAILURE("no error for: " + text);
  return "";
}

/// One scalar from a record {"v": <value>}.
json::Scalar scalar_of(const std::string& value, std::string& keep) {
  keep = "{\"v\":" + value + "}";
  json::Lexer lex(keep.data(), 0, int64_t(keep.size()), "");
  json::Scalar out;
  std::string text;
  lex.record([](std::string_view) { return true; }, [&](std::string_view, const json::Scalar& s) {
    out = s;
    text = std::string(s.text);
  });
  keep = text;  // the scalar's text outlives the lexer's scratch
  out.text = keep;
  return out;
}

}  // namespace

TEST(json, lexer_scalars) {
  std::string keep;
  json::Scalar s = scalar_of("-42", keep);
  EXPECT_EQ(int(s.kind), int(json::Kind::Int));
  EXPECT_EQ(s.value, int64_t(-42));
  s = scalar_of("9223372036854775808", keep);
  EXPECT_EQ(int(s.kind), int(json::Kind::Float));
  EXPECT_EQ(keep, std::string("9223372036854775808"));
  s = scalar_of("1.5e-3", keep);
  EXPECT_EQ(int(s.kind), int(json::Kind::Float));
  s = scalar_of("true", keep);
  EXPECT_EQ(int(s.kind), int(json::Kind::Bool));
  EXPECT_EQ(s.value, int64_t(1));
  s = scalar_of("null", keep);
  EXPECT_EQ(int(s.kind), int(json::Kind::Null));
  s = scalar_of("\"plain\"", keep);
  EXPECT_TRUE(s.in_input);
  EXPECT_EQ(keep, std::string("plain"));
  s = scalar_of(R"("a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00")", keep);
  EXPECT_FALSE(s.in_input);
  EXPECT_EQ(keep, std::string("a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80"));
}

TEST(json, lexer_errors_name_the_line) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"a\":1}\n{\"a\":\"\\q\"}\n", "line 2"},
      {"{\"a\":\"\\ud800x\"}\n", "high surrogate"},
      {"{\"a\":\"\xff\"}\n", "invalid UTF-8"},
      {"{\"a\":\"\xe2\x82\"}\n", "invalid UTF-8"},
      {"{\"a\":01}\n", "expected ','"},
      {"{\"a\":1e}\n", "exponent"},
      {"{\"a\":1\n", "unexpected end"},
      {"{\"a\":1} 2\n", "trailing characters"},
  };
  for (const auto& [text, want] : cases) {
    const std::string msg = error_of(text, ErrorCode::JsonParse);
    EXPECT_TRUE(msg.find(want) != std::string::npos);
  }
  EXPECT_TRUE(error_of("{\"n\":{\"x\":1}}\n", ErrorCode::Dtype).find("column \"n\"") != std::string::npos);
  std::string deep = "{\"a\":1,\"n\":" + std::string(2000, '[') + std::string(2000, ']') + "}\n";
  json::JsonOptions only_a;
  only_a.select_names = {"a"};
  EXPECT_TRUE(error_of(deep, ErrorCode::JsonParse, only_a).find("1000 deep") != std::string::npos);
}

TEST(json, inference_and_nulls) {
  json::JsonResult r = read("{\"i\":1,\"f\":1,\"s\":\"x\",\"m\":true}\n\n{\"f\":2.5,\"m\":3,\"i\":null}\n");
  ASSERT_EQ(r.names.size(), size_t(4));
  EXPECT_EQ(int(r.columns[0]->type()), int(TypeId::Int64));
  EXPECT_EQ(int(r.columns[1]->type()), int(TypeId::Float64));
  EXPECT_EQ(int(r.columns[2]->type()), int(TypeId::Utf8));
  EXPECT_EQ(int(r.columns[3]->type()), int(TypeId::Utf8));
  EXPECT_EQ(read_values<int64_t>(r.columns[0]), (std::vector<std::optional<int64_t>>{1, std::nullopt}));
  EXPECT_EQ(read_values<double>(r.columns[1]), (std::vector<std::optional<double>>{1.0, 2.5}));
  EXPECT_EQ(read_strings(r.columns[2]), (std::vector<std::optional<std::string>>{"x", std::nullopt}));
  EXPECT_EQ(read_strings(r.columns[3]), (std::vector<std::optional<std::string>>{"true", "3"}));
}

TEST(json, a_byte_order_mark_is_skipped) {
  json::JsonResult r = read("\xEF\xBB\xBF{\"a\":1}\n");
  EXPECT_EQ(r.names, (std::vector<std::string>{"a"}));
  json::JsonOptions array;
  array.ndjson = false;
  EXPECT_EQ(read("\xEF\xBB\xBF[{\"a\":1}]", array).columns[0]->size(), int64_t(1));
}

TEST(json, chunked_ndjson_equals_one_chunk) {
  // Over 1 MiB so the input is cut into several chunks; nRows parses it as one.
  std::string text;
  for (int i = 0; i < 60000; ++i) {
    text += "{\"k\":" + std::to_string(i);
    if (i % 5) text += ",\"s\":\"v" + std::to_string(i % 17) + "\"";
    if (i == 45000) text += ",\"late\":1.5";
    text += "}\n";
  }
  json::JsonResult all = read(text);
  json::JsonOptions serial;
  serial.n_rows = 1 << 30;
  json::JsonResult one = read(text, serial);
  ASSERT_EQ(all.names, one.names);
  EXPECT_EQ(all.names, (std::vector<std::string>{"k", "s", "late"}));
  for (size_t j = 0; j < all.columns.size(); ++j) EXPECT_EQ(all.columns[j]->size(), int64_t(60000));
  EXPECT_EQ(read_values<int64_t>(all.columns[0]), read_values<int64_t>(one.columns[0]));
  EXPECT_EQ(read_strings(all.columns[1]), read_strings(one.columns[1]));
  EXPECT_EQ(read_values<double>(all.columns[2]), read_values<double>(one.columns[2]));
  EXPECT_EQ(all.columns[2]->null_count(), int64_t(59999));
}

TEST(json, chunked_array_equals_one_chunk) {
  std::string text = "[\n";
  for (int i = 0; i < 80000; ++i) {
    if (i) text += ",\n";
    text += "{\"k\":" + std::to_string(i) + ",\"s\":\"a,]}\\\"" + std::to_string(i % 7) + "\",\"n\":[{\"x\":\"]\"}]}";
  }
  text += "\n]\n";
  json::JsonOptions o;
  o.ndjson = false;
  o.select_names = {"k", "s"};
  json::JsonResult all = read(text, o);
  o.n_rows = 1 << 30;
  json::JsonResult one = read(text, o);
  ASSERT_EQ(all.columns.size(), size_t(2));
  EXPECT_EQ(all.columns[0]->size(), int64_t(80000));
  EXPECT_EQ(read_values<int64_t>(all.columns[0]), read_values<int64_t>(one.columns[0]));
  EXPECT_EQ(read_strings(all.columns[1]), read_strings(one.columns[1]));
  EXPECT_EQ(read_strings(all.columns[1])[3], std::optional<std::string>("a,]}\"3"));
  // Broken documents of that size are named as one chunk names them.
  json::JsonOptions p;
  p.ndjson = false;
  p.select_names = {"k"};
  const std::string trailing_comma = text.substr(0, text.size() - 3) + ",\n]\n";
  EXPECT_TRUE(error_of(trailing_comma, ErrorCode::JsonParse, p).find("expected '{'") != std::string::npos);
  const std::string garbage = text + "x";
  EXPECT_TRUE(error_of(garbage, ErrorCode::JsonParse, p).find("trailing characters after the array") != std::string::npos);
  std::string bad = text;
  const size_t at = text.find("\"k\":", text.size() / 2) + 3;
  bad[at] = '@';
  const std::string line = "line " + std::to_string(1 + std::count(text.begin(), text.begin() + int64_t(at), '\n')) + " ";
  const std::string msg = error_of(bad, ErrorCode::JsonParse, p);
  EXPECT_TRUE(msg.find(line) != std::string::npos && msg.find("expected ':'") != std::string::npos);
}

TEST(json, dtypes_schema_and_projection) {
  const std::string text = "{\"a\":1,\"d\":\"2000-01-02\",\"skip\":{\"x\":[1]}}\n{\"a\":2,\"d\":null,\"skip\":[]}\n";
  json::JsonOptions o;
  o.select_names = {"d", "a", "absent"};
  o.exact_schema = true;
  o.dtypes_by_name = {{"a", TypeId::UInt16}, {"d", TypeId::Date32}, {"absent", TypeId::Float32}};
  json::JsonResult r = read(text, o);
  EXPECT_EQ(r.names, (std::vector<std::string>{"d", "a", "absent"}));
  EXPECT_EQ(read_values<int32_t>(r.columns[0]), (std::vector<std::optional<int32_t>>{10958, std::nullopt}));
  EXPECT_EQ(read_values<uint16_t>(r.columns[1]), (std::vector<std::optional<uint16_t>>{1, 2}));
  EXPECT_EQ(r.columns[2]->null_count(), int64_t(2));
  json::JsonOptions bad;
  bad.dtypes_by_name = {{"a", TypeId::Bool}};
  bad.select_names = {"a"};
  EXPECT_TRUE(error_of(text, ErrorCode::JsonParse, bad).find("line 1, column \"a\": 1 is not a valid bool") != std::string::npos);
}

TEST(json, written_text_reads_back) {
  ColumnPtr i = host_column<int64_t>(TypeId::Int64, {1, -2, 3}, {true, false, true});
  ColumnPtr f = host_column<double>(TypeId::Float64, {2.0, 0.1, 1e300});
  ColumnPtr s = host_strings(TypeId::Utf8, {std::string("q\"\n\x01"), std::nullopt, std::string("\xc3\xa9")});
  for (bool ndjson : {true, false}) {
    std::string text;
    json::write_json({"i", "f", "s"}, {i, f, s}, ndjson, [&](const std::string& c) { text += c; });
    json::JsonOptions o;
    o.ndjson = ndjson;
    json::JsonResult r = read(text, o);
    EXPECT_EQ(read_values<int64_t>(r.columns[0]), read_values<int64_t>(i));
    EXPECT_EQ(int(r.columns[1]->type()), int(TypeId::Float64));
    EXPECT_EQ(read_values<double>(r.columns[1]), read_values<double>(f));
    EXPECT_EQ(read_strings(r.columns[2]), read_strings(s));
  }
}

TEST(json, every_prefix_reads_or_fails_typed) {
  const std::string doc = "[{\"a\":1,\"s\":\"\\u00e9\\ud83d\\ude00x\",\"n\":null,\"b\":[1,{\"c\":2}]},{\"a\":-2.5e3,\"b\":true}]";
  json::JsonOptions o;
  o.ndjson = false;
  o.select_names = {"a", "s"};
  for (size_t n = 0; n <= doc.size(); ++n) {
    const std::string prefix = doc.substr(0, n);
    try {
      read(prefix, o);
      EXPECT_EQ(n, doc.size());
    } catch (const Error& e) {
      EXPECT_TRUE(e.code() == ErrorCode::JsonParse);
    }
  }
  EXPECT_EQ(read(doc, o).columns[0]->size(), int64_t(2));
}
