// The regex string functions over a string column: contains, count of matches, find (the
// character index of the first match), extract (a group of the first match) and replace (the
// first n matches, or all). One row per CPU loop step or CUDA thread, through regex_row.hpp.
// Null in, null out; find and extract are also null where there is no match.
#pragma once

#include <cstdint>

#include "core/column.hpp"
#include "ops/regex/regex.hpp"

namespace gpudf::regex {

enum class RegexFn : int32_t { Contains, Count, Find, Extract, Replace };

struct RegexCall {
  RegexFn fn = RegexFn::Contains;
  const Regex* rx = nullptr;
  int32_t group = 0;              // Extract: 0 is the whole match
  const Template* tmpl = nullptr;  // Replace
  int64_t limit = -1;             // Replace: how many matches per row (-1: all)
};

/// The result's dtype for a string column of dtype `in`.
TypeId regex_result_type(RegexFn fn, TypeId in);

/// The capture slots a call's searches track.
int32_t regex_slots(const RegexCall& call);

/// Runs the call over `strings` on the device the column lives on.
ColumnPtr regex_apply(const ColumnPtr& strings, const RegexCall& call);

namespace detail {
ColumnPtr regex_apply_cpu(const ColumnPtr& strings, const RegexCall& call);
#ifdef GPUDF_WITH_CUDA
ColumnPtr regex_apply_cuda(const ColumnPtr& strings, const RegexCall& call);
#endif
}  // namespace detail

}  // namespace gpudf::regex
