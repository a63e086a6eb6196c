// String columns transformed, parsed and formatted row by row, on the CPU over the thread pool and
// on CUDA as kernels. Every per-row function is GPUDF_HD (temporal_text.hpp, transform.hpp), so both
// backends run the same code; results of variable length are built in two passes (the byte length
// of every row, a scan, then the bytes).
#pragma once

#include <cstdint>
#include <string>

#include "core/column.hpp"
#include "ops/strings/temporal_text.hpp"
#include "ops/strings/transform.hpp"

namespace gpudf::strings {

/// Text -> date32 or timestamp by `format` (empty: inferred from the first non-null value).
/// Rows that do not match are null, or with `strict` an ERR_CAST naming the first such row.
ColumnPtr parse_temporal(const ColumnPtr& strings, TypeId to, const std::string& format, bool strict,
                         const std::string& what);

/// The format inference picks for `sample` parsed as `to` (empty when none matches).
std::string infer_temporal_format(const std::string& sample, TypeId to);

/// Date32 or timestamp -> utf8 by `format` (empty: ISO 8601 at the column's precision).
ColumnPtr format_temporal(const ColumnPtr& values, const std::string& format);

/// A string -> string transform (strip, pad, reverse, ...).
ColumnPtr transform(const ColumnPtr& strings, const TransformSpec& spec);

namespace detail {
ColumnPtr parse_temporal_cpu(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad);
ColumnPtr format_temporal_cpu(const ColumnView& v, const Format& f);
ColumnPtr transform_cpu(const ColumnView& v, const TransformArgs& t);
#ifdef GPUDF_WITH_CUDA
ColumnPtr parse_temporal_cuda(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad);
ColumnPtr format_temporal_cuda(const ColumnView& v, const Format& f);
ColumnPtr transform_cuda(const ColumnView& v, const TransformArgs& t);
#endif
}  // namespace detail

}  // namespace gpudf::strings
