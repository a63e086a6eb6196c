// Row-wise concatenation of string columns with literal text around them (concatStr, format),
// per row and GPUDF_HD: concat_row returns the row's byte length and writes it when out is not
// null, so it serves the sizing and the writing pass on both backends.
#pragma once

#include <cstdint>

#include "core/column.hpp"
#include "core/hd.hpp"

namespace gpudf::strings {

/// As kernels take it: `cols` and `lits` live on the device that runs it.
struct ConcatArgs {
  const ColumnView* cols = nullptr;
  int32_t k = 0;
  const char* lits = nullptr;       // the k + 1 literal pieces, back to back
  const int64_t* lit_off = nullptr; // k + 2 offsets into lits
  bool skip_nulls = false;          // concatStr's ignoreNulls: lits[1] separates the present values
};

GPUDF_HD inline void string_at(const ColumnView& v, int64_t i, const char*& s, int64_t& n) {
  const char* base = reinterpret_cast<const char*>(v.data);
  if (v.type == TypeId::LargeUtf8) {
    const int64_t* off = v.string_offsets<int64_t>();
    s = base + off[i];
    n = off[i + 1] - off[i];
  } else {
    const int32_t* off = v.string_offsets<int32_t>();
    s = base + off[i];
    n = int64_t(off[i + 1] - off[i]);
  }
}

/// Null when a column is null at i (unless skipping nulls).
GPUDF_HD inline bool concat_valid(const ConcatArgs& a, int64_t i) {
  if (a.skip_nulls) return true;
  for (int32_t j = 0; j < a.k; ++j)
    if (!a.cols[j].is_valid(i)) return false;
  return true;
}

GPUDF_HD inline int64_t concat_row(const ConcatArgs& a, int64_t i, char* out) {
  int64_t len = 0;
  auto put = [&](const char* s, int64_t n) {
    if (out)
      for (int64_t k = 0; k < n; ++k) out[len + k] = s[k];
    len += n;
  };
  auto lit = [&](int32_t j) { put(a.lits + a.lit_off[j], a.lit_off[j + 1] - a.lit_off[j]); };
  bool first = true;
  if (!a.skip_nulls) lit(0);
  for (int32_t j = 0; j < a.k; ++j) {
    if (a.skip_nulls) {
      if (!a.cols[j].is_valid(i)) continue;
      if (!first) lit(1);
      first = false;
    }
    const char* s = nullptr;
    int64_t n = 0;
    string_at(a.cols[j], i, s, n);
    put(s, n);
    if (!a.skip_nulls) lit(j + 1);
  }
  return len;
}

}  // namespace gpudf::strings
