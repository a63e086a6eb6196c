// ops/strings: the shared per-row rules (formats, number parsing, transforms) and the column
// ops on the test device (CUDA under the simulator): strptime / strftime, number parsing and
// printing, padding, concatenation; nulls and slices whose offset is not a multiple of 8.
#include <cmath>
#include <optional>
#include <charconv>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ops/strings/strings.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::strings;
using namespace gpudf::testing;

namespace {

using Strings = std::vector<std::optional<std::string>>;

int64_t parse_or(const char* fmt, const std::string& s, TypeId to, int64_t fallback = -999) {
  int64_t v = 0;
  return parse_temporal(compile_format(fmt, true), s.data(), int64_t(s.size()), to, v) ? v : fallback;
}

std::string fmt(const char* f, TypeId t, int64_t v) {
  const Format c = compile_format(f, false);
  std::string out(size_t(format_temporal(c, t, v, nullptr)), '\0');
  format_temporal(c, t, v, out.data());
  return out;
}

/// 70 rows with a null every 7th, from make(i).
template <typename F>
Strings rows(F make) {
  Strings out;
  for (int i = 0; i < 70; ++i) out.push_back(i % 7 == 3 ? std::nullopt : std::optional<std::string>(make(i)));
  return out;
}

}  // namespace

TEST(strings, strptime_rules) {
  EXPECT_EQ(parse_or("%Y-%m-%d", "2024-02-29", TypeId::Date32), int64_t(19782));
  EXPECT_EQ(parse_or("%Y-%m-%d", "2023-02-29", TypeId::Date32), int64_t(-999));
  EXPECT_EQ(parse_or("%d/%m/%Y %H:%M", "01/01/1970 01:02", TypeId::TimestampS), int64_t(3720));
  EXPECT_EQ(parse_or("%Y-%m-%dT%H:%M:%S%z", "1970-01-01T00:00:00+01:30", TypeId::TimestampS), int64_t(-5400));
  EXPECT_EQ(parse_or("%s%.f", "1.5", TypeId::TimestampMs), int64_t(1500));
  EXPECT_EQ(parse_or("%I %p", "12 AM", TypeId::TimestampS), int64_t(0));
  EXPECT_EQ(parse_or("%b %d %Y", "feb 01 1970", TypeId::Date32), int64_t(31));
  EXPECT_EQ(parse_or("%Y-%m-%d", "1970-01-01 ", TypeId::Date32), int64_t(-999));  // whole string
  EXPECT_EQ(parse_or("%Y %j", "1970 365", TypeId::Date32), int64_t(364));
  EXPECT_THROW_CODE(compile_format("%Q", true), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(compile_format("%Z", true), ErrorCode::InvalidArgument);
}

TEST(strings, strftime_rules) {
  EXPECT_EQ(fmt("%Y-%m-%d %H:%M:%S%.f", TypeId::TimestampMs, -1), std::string("1969-12-31 23:59:59.999"));
  EXPECT_EQ(fmt("%a %A %b %B %j %u %w", TypeId::Date32, 0), std::string("Thu Thursday Jan January 001 4 4"));
  EXPECT_EQ(fmt("%I:%M %p|%e|%y|%C", TypeId::TimestampS, 13 * 3600), std::string("01:00 PM| 1|70|19"));
  EXPECT_EQ(fmt("%.3f|%.9f|%f", TypeId::TimestampNs, 1234567), std::string(".001|.001234567|001234567"));
  EXPECT_EQ(fmt("%s %z %Z %%", TypeId::TimestampS, 42), std::string("42 +0000 UTC %"));
}

TEST(strings, number_rules) {
  double d = 0;
  EXPECT_TRUE(parse_float_fast("12.5e-1", 7, d) == FloatParse::Ok);
  EXPECT_EQ(d, 1.25);
  EXPECT_TRUE(parse_float_fast("1e400", 5, d) == FloatParse::Ok);
  EXPECT_TRUE(std::isinf(d));
  EXPECT_TRUE(parse_float_fast("0.1000000000000000055511151231257827", 36, d) == FloatParse::Hard);
  EXPECT_TRUE(parse_float_fast("1e", 2, d) == FloatParse::Bad);
  int64_t i = 0;
  EXPECT_TRUE(parse_int64("-9223372036854775808", 20, i));
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_TRUE(!parse_int64("9223372036854775808", 19, i));
  uint64_t u = 0;
  EXPECT_TRUE(!parse_uint64("-0", 2, u));
  char buf[32];
  EXPECT_EQ(std::string(buf, size_t(format_int(-120, false, buf))), std::string("-120"));
  EXPECT_EQ(std::string(buf, size_t(format_int(-1, true, buf))), std::string("18446744073709551615"));
  EXPECT_TRUE(float_midpoint(1.0 + 0x1p-24));  // halfway between 1 and the next float
  EXPECT_TRUE(!float_midpoint(1.0));
}

TEST(strings, inference_past_leading_nulls) {
  // The format comes from the first non-null row; on the device it is found by copying windows
  // of rows (64, then 128, ...), so a first value at row 150 crosses two window boundaries.
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    Strings text(300, std::nullopt);
    for (size_t i = 150; i < text.size(); i += 3) text[i] = "03/02/2024 10:" + std::to_string(10 + i % 50);
    ColumnPtr col = on_test_device(host_strings(t, text));
    ColumnPtr ts = parse_temporal(col, TypeId::TimestampS, "", true, "test");
    const auto got = read_values<int64_t>(ts);
    EXPECT_TRUE(!got[149]);
    // 3 February 2024 (day first: "%d/%m/%Y %H:%M"), 10:(10 + 150 % 50) = 10:10.
    EXPECT_EQ(*got[150], int64_t(19756) * 86400 + 10 * 3600 + 10 * 60);
    // A slice starting inside the nulls, and one that is all nulls (the default format).
    EXPECT_EQ(*read_values<int64_t>(parse_temporal(col->slice(100, 60), TypeId::TimestampS, "", true, "test"))[50],
              *got[150]);
    EXPECT_EQ(parse_temporal(col->slice(0, 150), TypeId::TimestampS, "", true, "test")->null_count(), int64_t(150));
    // A strict failure names the bad row and its text, copied alone from the device.
    text[297] = "not a date";
    try {
      parse_temporal(on_test_device(host_strings(t, text)), TypeId::TimestampS, "", true, "test");
      EXPECT_TRUE(false);
    } catch (const Error& e) {
      EXPECT_TRUE(std::string(e.what()).find("row 297 (\"not a date\")") != std::string::npos);
    }
  }
}

TEST(strings, columns_on_the_device) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    // strptime, then strftime back.
    const Strings text = rows([](int i) { return "2024-01-" + std::string(i % 28 < 9 ? "0" : "") + std::to_string(i % 28 + 1); });
    ColumnPtr col = on_test_device(host_strings(t, text));
    ColumnPtr days = parse_temporal(col, TypeId::Date32, "%Y-%m-%d", true, "test");
    EXPECT_TRUE(read_strings(format_temporal(days, "%Y-%m-%d")) == text);
    ColumnPtr part = col->slice(13, 33);
    EXPECT_TRUE(read_strings(format_temporal(parse_temporal(part, TypeId::Date32, "", true, "test"), "")) ==
                Strings(text.begin() + 13, text.begin() + 46));
    EXPECT_THROW_CODE(parse_temporal(on_test_device(host_strings(t, {"2024-01-01", "x"})), TypeId::Date32, "%Y-%m-%d", true, "test"),
                       ErrorCode::Cast);
    // Numbers: parse (fast path and the host fallback) and print.
    const Strings nums = rows([](int i) { return i % 5 == 0 ? std::string("0.1000000000000000055511151231257827") : std::to_string(i * 3) + ".25"; });
    ColumnPtr parsed = parse_number(on_test_device(host_strings(t, nums)), TypeId::Float64);
    const auto values = read_values<double>(parsed);
    for (size_t k = 0; k < nums.size(); ++k) {
      if (!nums[k]) {
        EXPECT_TRUE(!values[k]);
        continue;
      }
      EXPECT_EQ(*values[k], std::stod(*nums[k]));
    }
    Strings printed = read_strings(format_number(parsed));
    EXPECT_EQ(*printed[0], std::string("0.1"));
    EXPECT_EQ(*printed[1], std::string("3.25"));
    EXPECT_TRUE(!printed[3]);
    // Padding and reversing.
    TransformSpec pad;
    pad.kind = Transform::PadStart;
    pad.width = 4;
    pad.fill = "\xc3\xa9";  // é
    const Strings short_rows = rows([](int i) { return std::string(size_t(i % 6), 'a'); });
    const Strings padded = read_strings(transform(on_test_device(host_strings(t, short_rows)), pad));
    for (size_t k = 0; k < short_rows.size(); ++k) {
      if (!short_rows[k]) continue;
      std::string want;
      for (size_t j = short_rows[k]->size(); j < 4; ++j) want += "\xc3\xa9";
      EXPECT_EQ(*padded[k], want + *short_rows[k]);
    }
    TransformSpec rev;
    rev.kind = Transform::Reverse;
    EXPECT_TRUE(read_strings(transform(on_test_device(host_strings(t, {"ab\xc3\xa9", std::nullopt, ""})), rev)) ==
                Strings({"\xc3\xa9" "ba", std::nullopt, ""}));
    // Concatenation with literal pieces, nulls propagated or skipped.
    ColumnPtr a = on_test_device(host_strings(t, {"x", std::nullopt, "z"}));
    ColumnPtr b = on_test_device(host_strings(t, {"1", "2", std::nullopt}));
    EXPECT_TRUE(read_strings(concat_strings({a, b}, {"<", "-", ">"}, false, 3)) == Strings({"<x-1>", std::nullopt, std::nullopt}));
    EXPECT_TRUE(read_strings(concat_strings({a, b}, {"", "+", ""}, true, 3)) == Strings({"x+1", "2", "z"}));
  }
}

namespace {

/// from_chars' double of `s` bit for bit against float_from_text with the table (Ok, or Hard).
bool products_agree(const std::string& s, bool& decided) {
  double want = 0, got = 0;
  const char* b = s.data() + (s[0] == '+' ? 1 : 0);
  const auto r = std::from_chars(b, s.data() + s.size(), want);
  if (r.ec == std::errc::result_out_of_range) return decided = true;  // the parser's caller handles these
  const FloatParse p = parse_float_fast(s.data(), int64_t(s.size()), got, kPow5Table);
  decided = p == FloatParse::Ok;
  if (p == FloatParse::Hard) return true;
  return p == FloatParse::Ok && bits_of(got) == bits_of(want);
}

}  // namespace

TEST(strings, float_by_products_rounds_as_from_chars) {
  // Hand-picked: ties to even at 2^53, the subnormal and overflow edges, many digits.
  const char* edges[] = {"9007199254740993", "9007199254740995", "9007199254740992.5", "4.9406564584124654e-324",
                         "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072014e-308",
                         "1.7976931348623157e308", "1.7976931348623158e308", "0.1", "-9876.539999999999",
                         "123456789012345678901234567890", "0.30000000000000004", "5e-324", "1e23", "8.98846567431158e307",
                         "0.000000000000000000000000000000000000000000001", "4503599627370496.5", "4503599627370497.5"};
  int decided = 0;
  for (const char* e : edges) {
    bool d = false;
    if (!products_agree(e, d)) std::fprintf(stderr, "  %s differs\n", e);
    EXPECT_TRUE(products_agree(e, d));
    decided += d;
  }
  EXPECT_TRUE(decided >= 17);
  // Random digits (1..22 of them, some after leading zeros, the point anywhere) at every
  // decimal exponent the table covers and beyond.
  std::mt19937_64 gen(20261207);
  int64_t checked = 0, hard = 0, wrong = 0;
  for (int k = 0; k < 400000; ++k) {
    const int digits = 1 + int(gen() % 22);
    std::string s = gen() % 2 ? "-" : "";
    std::string body(size_t(gen() % 4 == 0 ? gen() % 5 : 0), '0');  // leading zeros
    for (int d = 0; d < digits; ++d) body += char('0' + (d == 0 ? 1 + gen() % 9 : gen() % 10));
    if (gen() % 3 == 0) body.insert(size_t(gen() % (body.size() + 1)), ".");  // ".5", "5." and between
    s += body + "e" + std::to_string(int64_t(gen() % 700) - 360);
    bool d = false;
    if (!products_agree(s, d) && ++wrong <= 5) std::fprintf(stderr, "  %s differs\n", s.c_str());
    hard += !d;
    ++checked;
  }
  EXPECT_EQ(wrong, int64_t(0));
  if (hard >= checked / 1000) std::fprintf(stderr, "  %lld of %lld undecided\n", (long long)hard, (long long)checked);
  EXPECT_TRUE(hard < checked / 1000);  // only 20+ digit texts whose last digits decide
}
