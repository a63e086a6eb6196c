// String columns transformed, parsed and formatted row by row, on the CPU over the thread pool and
// on CUDA as kernels. Every per-row function is GPUDF_HD (temporal_text.hpp, transform.hpp), so both
// backends run the same code; results of variable length are built in two passes (the byte length
// of every row, a scan, then the bytes).
#pragma once

#include <cstdint>
#include <string>

#include "core/column.hpp"
#include <vector>

#include "ops/strings/concat.hpp"
#include "ops/strings/numbers.hpp"
#include "ops/strings/temporal_text.hpp"
#include "ops/strings/transform.hpp"

namespace gpudf::strings {

/// Text -> date32 or timestamp by `format` (empty: inferred from the first non-null value).
/// Rows that do not match are null, or with `strict` an ERR_CAST naming the first such row.
ColumnPtr parse_temporal(const ColumnPtr& strings, TypeId to, const std::string& format, bool strict,
                         const std::string& what);

/// Text -> date32 or timestamp as ISO 8601 (temporal_text.hpp iso_format): casts.
ColumnPtr parse_temporal_iso(const ColumnPtr& strings, TypeId to, bool strict, const std::string& what);

/// parse_temporal by a compiled format; `described` names it in the strict error.
ColumnPtr parse_temporal_by(const ColumnPtr& strings, TypeId to, const Format& f, bool strict, const std::string& what,
                            const std::string& described);

/// The format inference picks for `sample` parsed as `to` (empty when none matches).
std::string infer_temporal_format(const std::string& sample, TypeId to);

/// Date32 or timestamp -> utf8 by `format` (empty: ISO 8601 at the column's precision).
ColumnPtr format_temporal(const ColumnPtr& values, const std::string& format);

/// Text -> `to` (int64, uint64, float32, float64 or bool; narrower integers are a cast of the
/// int64 result); rows that do not parse are null.
ColumnPtr parse_number(const ColumnPtr& strings, TypeId to);

/// Numbers and booleans -> utf8: integers in decimal, floats in the shortest text that reads
/// back the same (core/float_text.hpp, as writeCSV), booleans "true" / "false".
ColumnPtr format_number(const ColumnPtr& values);

/// Row i of any column as text, for error messages ("null" for a null).
std::string value_text(const ColumnPtr& column, int64_t row);

/// The first row valid in `in` and null in `out` (same length), or -1: the row a strict
/// conversion reports.
int64_t first_lost_row(const ColumnPtr& in, const ColumnPtr& out);

/// Row-wise concatenation of string columns (all `rows` long, on one device) with literal
/// pieces: lits[0] c0 lits[1] c1 ... lits[k] (null where any column is null), or with
/// skip_nulls the present values joined by lits[1] (concatStr with ignoreNulls). utf8 result.
ColumnPtr concat_strings(const std::vector<ColumnPtr>& columns, const std::vector<std::string>& lits,
                         bool skip_nulls, int64_t rows);

/// One string per segment: the strings of rows [begin, end) of each segment joined by `sep`, in
/// row order (str.join per group). `strings` holds the segments one after another, `segment_of`
/// (int32 / int64, ascending) each row's segment and `sizes` (int64, `count` rows) each segment's
/// row count. Nulls are skipped, or with !ignore_nulls make their segment null; a segment of no
/// value is "". The strings' dtype.
ColumnPtr join_segments(const ColumnPtr& strings, const ColumnPtr& segment_of, const ColumnPtr& sizes, int64_t count,
                        const std::string& sep, bool ignore_nulls);

/// A string -> string transform (strip, pad, reverse, ...).
ColumnPtr transform(const ColumnPtr& strings, const TransformSpec& spec);

namespace detail {
ColumnPtr parse_temporal_cpu(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad);
ColumnPtr format_temporal_cpu(const ColumnView& v, const Format& f);
ColumnPtr transform_cpu(const ColumnView& v, const TransformArgs& t);
ColumnPtr parse_number_cpu(const ColumnView& v, TypeId to);
ColumnPtr format_number_cpu(const ColumnView& v);
ColumnPtr concat_cpu(const ConcatArgs& a, int64_t rows);
ColumnPtr join_segments_cpu(const ColumnView& v, const ColumnView& sizes, int64_t count, const std::string& sep,
                            bool ignore_nulls);
#ifdef GPUDF_WITH_CUDA
ColumnPtr join_segments_cuda(const ColumnView& v, const ColumnView& segment_of, const ColumnView& sizes, int64_t count,
                             const std::string& sep, bool ignore_nulls);
ColumnPtr parse_temporal_cuda(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad);
ColumnPtr format_temporal_cuda(const ColumnView& v, const Format& f);
ColumnPtr transform_cuda(const ColumnView& v, const TransformArgs& t);
/// Null where the fast path cannot decide a float: `hard` counts those rows (then the caller
/// parses the column on the host).
ColumnPtr parse_number_cuda(const ColumnView& v, TypeId to, int64_t& hard);
/// Integers and booleans only (floats are formatted on the host).
ColumnPtr format_number_cuda(const ColumnView& v);
/// `host` has host pointers for cols/lits; they are copied to the device here.
ColumnPtr concat_cuda(const std::vector<ColumnView>& cols, const std::string& lits, const std::vector<int64_t>& lit_off,
                      bool skip_nulls, int64_t rows);
#endif
}  // namespace detail

}  // namespace gpudf::strings
