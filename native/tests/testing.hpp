// A tiny self-contained test framework for the native core (no external dependencies).
//
//   TEST(suite, name) { ... }            registers a test (run by native/tests/main.cpp)
//   EXPECT_EQ(a, b) / EXPECT_NE(a, b)    records a failure (file:line, both values) and goes on
//   EXPECT_TRUE(c) / EXPECT_FALSE(c)
//   EXPECT_THROW_CODE(stmt, gpudf::ErrorCode::X)  stmt must throw a gpudf::Error with code X
//   ASSERT_EQ / ASSERT_TRUE              as EXPECT_*, but end the test on failure
//   SCOPED_TRACE(text)                   appended to every failure recorded while in scope
//   test_device()                        the device tests allocate on (--device cpu|cuda|auto)
//
// A test passes when it records no failure and throws nothing.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"
#include "core/types.hpp"

namespace gpudf::testing {

using TestFn = void (*)();

struct TestCase {
  const char* suite;
  const char* name;
  TestFn fn;
};

/// All registered tests, in registration order.
std::vector<TestCase>& registry();

struct Registrar {
  Registrar(const char* suite, const char* name, TestFn fn) {
    registry().push_back(TestCase{suite, name, fn});
  }
};

/// Records one failure of the running test (thread-safe).
void record_failure(const char* file, int line, const std::string& message);

/// Thrown by ASSERT_* to end the running test; the failure is already recorded.
struct AssertionAbort {};

/// The device that tests allocate on.
Device& test_device();
void set_test_device(Device& device);

/// RAII context for failure messages (SCOPED_TRACE).
class ScopedTrace {
 public:
  explicit ScopedTrace(std::string text);
  ~ScopedTrace();
  ScopedTrace(const ScopedTrace&) = delete;
  ScopedTrace& operator=(const ScopedTrace&) = delete;
};

/// Printable form of a value for failure messages.
template <typename T>
std::string show(const T& v);

namespace impl {
template <typename T>
concept Streamable = requires(std::ostream& os, const T& v) { os << v; };
template <typename T>
concept Range = requires(const T& v) {
  v.begin();
  v.end();
  v.size();
};
}  // namespace impl

inline std::string show_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c >= 0x20 && c < 0x7F) {
      out += char(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out + "\"";
}

template <typename T>
std::string show(const T& v) {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_same_v<U, std::string> || std::is_same_v<U, std::string_view> ||
                       std::is_same_v<U, const char*> || std::is_same_v<U, char*>) {
    return show_string(std::string_view(v));
  } else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, signed char> ||
                       std::is_same_v<U, unsigned char>) {
    return std::to_string(int(v));
  } else if constexpr (std::is_enum_v<U>) {
    if constexpr (std::is_same_v<U, ErrorCode>) return error_code_name(v);
    if constexpr (std::is_same_v<U, TypeId>) return std::string(type_name(v));
    return std::to_string(static_cast<long long>(v));
  } else if constexpr (std::is_floating_point_v<U>) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return os.str();
  } else if constexpr (std::is_pointer_v<U> || std::is_null_pointer_v<U>) {
    std::ostringstream os;
    os << static_cast<const void*>(v);
    return os.str();
  } else if constexpr (requires { v.has_value(); *v; }) {  // std::optional
    return v.has_value() ? show(*v) : std::string("null");
  } else if constexpr (requires { v.first; v.second; }) {
    return "(" + show(v.first) + ", " + show(v.second) + ")";
  } else if constexpr (impl::Range<U>) {
    std::string out = "[";
    std::size_t i = 0;
    for (const auto& e : v) {
      if (i) out += ", ";
      if (i == 32) {
        out += "... (" + std::to_string(v.size()) + " items)";
        break;
      }
      out += show(e);
      ++i;
    }
    return out + "]";
  } else if constexpr (impl::Streamable<U>) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else {
    return "<" + std::to_string(sizeof(U)) + "-byte value>";
  }
}

/// For ranges: where two sequences first differ (for readable failure lines on long data).
template <typename A, typename B>
std::string first_difference(const A& a, const B& b) {
  if constexpr (impl::Range<A> && impl::Range<B>) {
    std::size_t n = std::min<std::size_t>(a.size(), b.size());
    auto ia = a.begin();
    auto ib = b.begin();
    for (std::size_t i = 0; i < n; ++i, ++ia, ++ib) {
      if (!(*ia == *ib)) {
        return " (sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) +
               ", first difference at [" + std::to_string(i) + "]: " + show(*ia) + " vs " +
               show(*ib) + ")";
      }
    }
    if (a.size() != b.size())
      return " (sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")";
  }
  return "";
}

template <typename T>
inline constexpr bool is_plain_integer_v =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
    !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
    !std::is_same_v<T, char32_t>;

template <typename A, typename B>
bool check_eq(const A& a, const B& b, const char* ea, const char* eb, const char* file, int line) {
  bool equal;
  if constexpr (is_plain_integer_v<A> && is_plain_integer_v<B>) {
    equal = std::cmp_equal(a, b);  // no sign-compare surprises
  } else {
    equal = (a == b);
  }
  if (equal) return true;
  record_failure(file, line,
                 std::string("EXPECT_EQ(") + ea + ", " + eb + "): " + show(a) + " != " + show(b) +
                     first_difference(a, b));
  return false;
}

template <typename A, typename B>
bool check_ne(const A& a, const B& b, const char* ea, const char* eb, const char* file, int line) {
  bool equal;
  if constexpr (is_plain_integer_v<A> && is_plain_integer_v<B>) {
    equal = std::cmp_equal(a, b);
  } else {
    equal = (a == b);
  }
  if (!equal) return true;
  record_failure(file, line,
                 std::string("EXPECT_NE(") + ea + ", " + eb + "): both are " + show(a));
  return false;
}

inline bool check_true(bool c, const char* expr, bool expected, const char* file, int line) {
  if (c == expected) return true;
  record_failure(file, line,
                 std::string(expected ? "EXPECT_TRUE(" : "EXPECT_FALSE(") + expr + ") failed");
  return false;
}

}  // namespace gpudf::testing

namespace gpudf {
using testing::test_device;
}

#define GPUDF_TEST_CAT2(a, b) a##b
#define GPUDF_TEST_CAT(a, b) GPUDF_TEST_CAT2(a, b)

#define TEST(suite, name)                                                                  \
  static void gpudf_test_##suite##__##name();                                              \
  static const ::gpudf::testing::Registrar gpudf_test_registrar_##suite##__##name(         \
      #suite, #name, &gpudf_test_##suite##__##name);                                       \
  static void gpudf_test_##suite##__##name()

#define EXPECT_EQ(a, b) ::gpudf::testing::check_eq((a), (b), #a, #b, __FILE__, __LINE__)
#define EXPECT_NE(a, b) ::gpudf::testing::check_ne((a), (b), #a, #b, __FILE__, __LINE__)
#define EXPECT_TRUE(c) ::gpudf::testing::check_true(static_cast<bool>(c), #c, true, __FILE__, __LINE__)
#define EXPECT_FALSE(c) \
  ::gpudf::testing::check_true(static_cast<bool>(c), #c, false, __FILE__, __LINE__)

#define ASSERT_EQ(a, b) \
  do {                  \
    if (!EXPECT_EQ(a, b)) throw ::gpudf::testing::AssertionAbort{}; \
  } while (0)
#define ASSERT_TRUE(c) \
  do {                 \
    if (!EXPECT_TRUE(c)) throw ::gpudf::testing::AssertionAbort{}; \
  } while (0)

#define ADD_FAILURE(msg) ::gpudf::testing::record_failure(__FILE__, __LINE__, (msg))

/// stmt must throw a gpudf::Error whose code() is `code` (any other outcome is a failure).
#define EXPECT_THROW_CODE(gpudf_stmt, gpudf_code)                                                           \
  do {                                                                                          \
    const ::gpudf::ErrorCode gpudf_expected_code_ = (gpudf_code);                                     \
    try {                                                                                       \
      gpudf_stmt;                                                                                     \
      ::gpudf::testing::record_failure(                                                         \
          __FILE__, __LINE__,                                                                   \
          std::string("EXPECT_THROW_CODE(" #gpudf_stmt "): nothing thrown, expected ") +              \
              ::gpudf::error_code_name(gpudf_expected_code_));                                  \
    } catch (const ::gpudf::Error& gpudf_error_) {                                              \
      if (gpudf_error_.code() != gpudf_expected_code_) {                                        \
        ::gpudf::testing::record_failure(                                                       \
            __FILE__, __LINE__,                                                                 \
            std::string("EXPECT_THROW_CODE(" #gpudf_stmt "): threw ") +                               \
                ::gpudf::error_code_name(gpudf_error_.code()) + " (" + gpudf_error_.what() +    \
                "), expected " + ::gpudf::error_code_name(gpudf_expected_code_));               \
      }                                                                                         \
    } catch (const ::gpudf::testing::AssertionAbort&) {                                         \
      throw;                                                                                    \
    } catch (const std::exception& gpudf_other_) {                                              \
      ::gpudf::testing::record_failure(                                                         \
          __FILE__, __LINE__,                                                                   \
          std::string("EXPECT_THROW_CODE(" #gpudf_stmt "): threw a non-gpudf exception (") +          \
              gpudf_other_.what() + "), expected " +                                            \
              ::gpudf::error_code_name(gpudf_expected_code_));                                  \
    } catch (...) {                                                                             \
      ::gpudf::testing::record_failure(                                                         \
          __FILE__, __LINE__,                                                                   \
          std::string("EXPECT_THROW_CODE(" #gpudf_stmt "): threw an unknown exception, expected ") +  \
              ::gpudf::error_code_name(gpudf_expected_code_));                                  \
    }                                                                                           \
  } while (0)

#define SCOPED_TRACE(text) \
  ::gpudf::testing::ScopedTrace GPUDF_TEST_CAT(gpudf_scoped_trace_, __LINE__)(text)
