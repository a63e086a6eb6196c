// String -> string transforms whose bytes are new (padding, reversing), per row and GPUDF_HD:
// apply_transform(args, s, n, out) returns the result's byte length and writes it when out is
// not null, so one function serves the sizing pass and the writing pass on both backends.
// (Transforms that only narrow a string, strip / head / tail / stripPrefix, are views and run
// inside expressions: ops/expr/text.hpp.)
#pragma once

#include <cstdint>
#include <string>

#include "core/hd.hpp"
#include "ops/expr/text.hpp"

namespace gpudf::strings {

enum class Transform : int32_t { PadStart, PadEnd, ZFill, Reverse };

/// As the host builds it.
struct TransformSpec {
  Transform kind = Transform::Reverse;
  int64_t width = 0;     // PadStart / PadEnd / ZFill: the length to reach, in characters
  std::string fill = " ";  // PadStart / PadEnd: one character
};

/// As kernels take it (by value).
struct TransformArgs {
  Transform kind = Transform::Reverse;
  int64_t width = 0;
  char fill[4] = {' ', 0, 0, 0};
  int32_t fill_len = 1;
};

GPUDF_HD inline int64_t apply_transform(const TransformArgs& t, const char* s, int64_t n, char* out) {
  using expr::is_continuation;
  switch (t.kind) {
    case Transform::PadStart:
    case Transform::PadEnd: {
      const int64_t chars = expr::utf8_length(s, n);
      const int64_t pad = chars < t.width ? t.width - chars : 0;
      const int64_t total = n + pad * t.fill_len;
      if (out) {
        char* body = t.kind == Transform::PadStart ? out + pad * t.fill_len : out;
        char* fill = t.kind == Transform::PadStart ? out : out + n;
        for (int64_t k = 0; k < n; ++k) body[k] = s[k];
        for (int64_t k = 0; k < pad; ++k)
          for (int32_t j = 0; j < t.fill_len; ++j) fill[k * t.fill_len + j] = t.fill[j];
      }
      return total;
    }
    case Transform::ZFill: {
      // As Python and Polars: zeros go after a leading sign ("-1" -> "-01").
      const int64_t chars = expr::utf8_length(s, n);
      const int64_t pad = chars < t.width ? t.width - chars : 0;
      if (out) {
        const int64_t sign = n > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
        if (sign) out[0] = s[0];
        for (int64_t k = 0; k < pad; ++k) out[sign + k] = '0';
        for (int64_t k = sign; k < n; ++k) out[pad + k] = s[k];
      }
      return n + pad;
    }
    case Transform::Reverse: {
      // By code point; the bytes of each character keep their order.
      if (out) {
        int64_t e = n;
        int64_t w = 0;
        while (e > 0) {
          int64_t b = e - 1;
          while (b > 0 && is_continuation(s[b]) && e - b < 4) --b;
          for (int64_t k = b; k < e; ++k) out[w++] = s[k];
          e = b;
        }
      }
      return n;
    }
  }
  return n;
}

}  // namespace gpudf::strings
