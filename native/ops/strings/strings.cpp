// Host side of the string ops: format compilation, format inference, backend dispatch and the
// strict-mode errors.
#include "ops/strings/strings.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/transfer.hpp"

namespace gpudf::strings {
namespace {

void push(Format& f, Spec s, char lit = 0) {
  GPUDF_EXPECTS(f.n < kMaxFormatItems, InvalidArgument,
                "format is too long (more than " + std::to_string(kMaxFormatItems) + " items)");
  f.spec[f.n] = s;
  f.lit[f.n] = lit;
  ++f.n;
}

void compile_into(Format& f, const std::string& text, bool for_parse, int depth) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '%') {
      const bool space = c == ' ' || c == '\t' || c == '\n';
      push(f, space && for_parse ? Spec::Space : Spec::Literal, c);
      continue;
    }
    const size_t at = i;
    GPUDF_EXPECTS(i + 1 < text.size(), InvalidArgument, "format \"" + text + "\" ends with a lone '%'");
    std::string spec(1, text[++i]);
    if ((spec == "." || spec == ":" || spec == "3" || spec == "6" || spec == "9") && i + 1 < text.size()) {
      spec += text[++i];
      if (spec[0] == '.' && spec[1] != 'f' && i + 1 < text.size()) spec += text[++i];
    }
    auto expand = [&](const char* sub) { compile_into(f, sub, for_parse, depth + 1); };
    if (spec == "Y") push(f, Spec::Year);
    else if (spec == "y") push(f, Spec::Year2);
    else if (spec == "C") push(f, Spec::Century);
    else if (spec == "m") push(f, Spec::Month);
    else if (spec == "d") push(f, Spec::Day);
    else if (spec == "e") push(f, Spec::DaySpace);
    else if (spec == "H" || spec == "k") push(f, Spec::Hour), f.has_time = true;
    else if (spec == "I" || spec == "l") push(f, Spec::Hour12), f.has_time = true;
    else if (spec == "M") push(f, Spec::Minute), f.has_time = true;
    else if (spec == "S") push(f, Spec::Second), f.has_time = true;
    else if (spec == "p") push(f, Spec::AmPm);
    else if (spec == "P") push(f, Spec::AmPmLower);
    else if (spec == "f") push(f, Spec::Frac), f.has_time = true;
    else if (spec == "3f") push(f, Spec::Frac3), f.has_time = true;
    else if (spec == "6f") push(f, Spec::Frac6), f.has_time = true;
    else if (spec == "9f") push(f, Spec::Frac9), f.has_time = true;
    else if (spec == ".f") push(f, Spec::DotFrac), f.has_time = true;
    else if (spec == ".3f") push(f, Spec::DotFrac3), f.has_time = true;
    else if (spec == ".6f") push(f, Spec::DotFrac6), f.has_time = true;
    else if (spec == ".9f") push(f, Spec::DotFrac9), f.has_time = true;
    else if (spec == "z") push(f, Spec::Offset), f.has_time = true;
    else if (spec == ":z") push(f, Spec::OffsetColon), f.has_time = true;
    else if (spec == "b" || spec == "h") push(f, Spec::MonthAbbr);
    else if (spec == "B") push(f, Spec::MonthName);
    else if (spec == "a") push(f, Spec::WeekdayAbbr);
    else if (spec == "A") push(f, Spec::WeekdayName);
    else if (spec == "j") push(f, Spec::DayOfYear);
    else if (spec == "s") push(f, Spec::Epoch), f.has_time = true;
    else if (spec == "u" && !for_parse) push(f, Spec::IsoWeekday);
    else if (spec == "w" && !for_parse) push(f, Spec::SunWeekday);
    else if (spec == "Z" && !for_parse) push(f, Spec::ZoneName);
    else if (spec == "F") expand("%Y-%m-%d");
    else if (spec == "T") expand("%H:%M:%S");
    else if (spec == "R") expand("%H:%M");
    else if (spec == "D") expand("%m/%d/%y");
    else if (spec == "%") push(f, Spec::Literal, '%');
    else if (spec == "n") push(f, for_parse ? Spec::Space : Spec::Literal, '\n');
    else if (spec == "t") push(f, for_parse ? Spec::Space : Spec::Literal, '\t');
    else
      GPUDF_FAIL(InvalidArgument, "format \"" + text + "\": '%" + spec + "' at position " + std::to_string(at) +
                                      (for_parse ? " is not supported for parsing" : " is not supported"));
  }
  (void)depth;
}

/// The text of row i of a host string column (for messages and inference).
template <typename O>
std::string row_text_typed(const ColumnView& v, int64_t i) {
  const O* off = v.string_offsets<O>();
  return std::string(reinterpret_cast<const char*>(v.data) + off[i], size_t(off[i + 1] - off[i]));
}

/// Row i's text; a device column copies that row alone.
std::string row_text(const ColumnPtr& strings, int64_t i) {
  const bool host = strings->device().kind() == DeviceKind::Cpu;
  ColumnPtr row = host ? strings : to_host(strings->slice(i, 1));
  ColumnView v = row->view();
  const int64_t at = host ? i : 0;
  return v.type == TypeId::Utf8 ? row_text_typed<int32_t>(v, at) : row_text_typed<int64_t>(v, at);
}

/// The first non-null row's text, or false when every row is null. A device column is copied
/// to the host in windows that double from 64 rows, so a leading valid row costs 64 rows' copy
/// and never the column's.
bool first_value(const ColumnPtr& strings, std::string& out) {
  const int64_t n = strings->size();
  if (n == 0 || strings->null_count() == n) return false;
  const bool host = strings->device().kind() == DeviceKind::Cpu;
  for (int64_t start = 0, len = host ? n : 64; start < n; start += len, len *= 2) {
    const int64_t take = std::min(len, n - start);
    ColumnPtr part = host ? strings : to_host(strings->slice(start, take));
    ColumnView v = part->view();
    for (int64_t i = 0; i < v.size; ++i) {
      if (!v.is_valid(i)) continue;
      out = v.type == TypeId::Utf8 ? row_text_typed<int32_t>(v, i) : row_text_typed<int64_t>(v, i);
      return true;
    }
  }
  return false;
}

const char* kDateFormats[] = {"%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d", "%Y%m%d", "%d-%m-%Y", "%d/%m/%Y", "%d.%m.%Y",
                              "%Y-%m", "%d %B %Y", "%B %d, %Y", "%b %d %Y"};
const char* kDatetimeFormats[] = {
    "%Y-%m-%dT%H:%M:%S%.f%z", "%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f%z", "%Y-%m-%d %H:%M:%S%.f",
    "%Y-%m-%dT%H:%M%z",       "%Y-%m-%dT%H:%M",       "%Y-%m-%d %H:%M%z",       "%Y-%m-%d %H:%M",
    "%Y/%m/%d %H:%M:%S%.f",   "%Y/%m/%d %H:%M",       "%d/%m/%Y %H:%M:%S%.f",   "%d/%m/%Y %H:%M",
    "%d-%m-%Y %H:%M:%S%.f",   "%d-%m-%Y %H:%M",       "%Y%m%d%H%M%S",           "%Y-%m-%d",
    "%Y/%m/%d",               "%d/%m/%Y",             "%d-%m-%Y"};

}  // namespace

Format compile_format(const std::string& text, bool for_parse) {
  Format f;
  compile_into(f, text, for_parse, 0);
  return f;
}

Format iso_format(bool with_time) {
  Format f = compile_format("%Y-%m-%d", true);
  if (with_time) {
    push(f, Spec::IsoTime);
    push(f, Spec::OptOffset);
    f.has_time = true;
  }
  return f;
}

std::string infer_temporal_format(const std::string& sample, TypeId to) {
  int64_t out = 0;
  if (to == TypeId::Date32) {
    for (const char* fmt : kDateFormats)
      if (parse_temporal(compile_format(fmt, true), sample.data(), int64_t(sample.size()), to, out)) return fmt;
    return "";
  }
  for (const char* fmt : kDatetimeFormats)
    if (parse_temporal(compile_format(fmt, true), sample.data(), int64_t(sample.size()), to, out)) return fmt;
  return "";
}

ColumnPtr parse_temporal(const ColumnPtr& strings, TypeId to, const std::string& format, bool strict,
                         const std::string& what) {
  GPUDF_EXPECTS(is_string(strings->type()), Dtype,
                "'" + what + "' is not supported for dtype " + std::string(type_name(strings->type())));
  GPUDF_EXPECTS(to == TypeId::Date32 || is_timestamp(to), Dtype,
                "'" + what + "' parses to a date or timestamp dtype, not " + std::string(type_name(to)));
  std::string fmt = format;
  if (fmt.empty()) {
    std::string sample;
    if (first_value(strings, sample)) {
      fmt = infer_temporal_format(sample, to);
      GPUDF_EXPECTS(!fmt.empty(), Cast,
                    "'" + what + "' could not infer a format from \"" + sample + "\"; pass one (\"%Y-%m-%d\")");
    } else {
      fmt = to == TypeId::Date32 ? "%Y-%m-%d" : "%Y-%m-%d %H:%M:%S%.f";
    }
  }
  return parse_temporal_by(strings, to, compile_format(fmt, true), strict, what, "the format \"" + fmt + "\"");
}

ColumnPtr parse_temporal_iso(const ColumnPtr& strings, TypeId to, bool strict, const std::string& what) {
  GPUDF_EXPECTS(is_string(strings->type()), Dtype, "'" + what + "' of a non-string column");
  // Durations read ISO 8601 durations ("P1DT2H"); the format is not used for them.
  return parse_temporal_by(strings, to, iso_format(to != TypeId::Date32), strict, what,
                           is_duration(to) ? "an ISO 8601 duration" : "ISO 8601");
}

ColumnPtr parse_temporal_by(const ColumnPtr& strings, TypeId to, const Format& f, bool strict, const std::string& what,
                            const std::string& described) {
  int64_t first_bad = -1;
  ColumnView v = strings->view();
  ColumnPtr out;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) out = detail::parse_temporal_cuda(v, to, f, first_bad);
  else
#endif
    out = detail::parse_temporal_cpu(v, to, f, first_bad);
  if (strict && first_bad >= 0) {
    GPUDF_FAIL(Cast, "'" + what + "': row " + std::to_string(first_bad) + " (\"" + row_text(strings, first_bad) +
                         "\") does not match " + described + " as " + std::string(type_name(to)) +
                         "; pass strict: false to make such rows null");
  }
  return out;
}

ColumnPtr format_temporal(const ColumnPtr& values, const std::string& format) {
  const TypeId t = values->type();
  GPUDF_EXPECTS(t == TypeId::Date32 || is_timestamp(t) || (is_duration(t) && format.empty()), Dtype,
                is_duration(t) ? "'dt.toString' of a duration takes no format (it writes ISO 8601)"
                               : "'dt.toString' is not supported for dtype " + std::string(type_name(t)));
  std::string fmt = format;
  if (is_duration(t)) fmt = "%Y";  // unused: durations write ISO 8601
  if (fmt.empty()) {
    fmt = t == TypeId::Date32        ? "%Y-%m-%d"
          : t == TypeId::TimestampS  ? "%Y-%m-%d %H:%M:%S"
          : t == TypeId::TimestampMs ? "%Y-%m-%d %H:%M:%S%.3f"
          : t == TypeId::TimestampUs ? "%Y-%m-%d %H:%M:%S%.6f"
                                     : "%Y-%m-%d %H:%M:%S%.9f";
  }
  const Format f = compile_format(fmt, false);
  ColumnView v = values->view();
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) return detail::format_temporal_cuda(v, f);
#endif
  return detail::format_temporal_cpu(v, f);
}

ColumnPtr parse_number(const ColumnPtr& strings, TypeId to) {
  GPUDF_EXPECTS(is_string(strings->type()), Dtype, "number parse of a non-string column");
  GPUDF_EXPECTS(to == TypeId::Int64 || to == TypeId::UInt64 || to == TypeId::Float32 || to == TypeId::Float64 ||
                    to == TypeId::Bool,
                InvalidArgument, "number parse to an unsupported dtype");
  ColumnView v = strings->view();
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) {
    int64_t hard = 0;
    ColumnPtr out = detail::parse_number_cuda(v, to, hard);
    if (hard == 0) return out;
    // Floats the fast path cannot decide: the column parsed on the host (correctly rounded).
    ColumnPtr host = to_host(strings);
    return copy_to_device(detail::parse_number_cpu(host->view(), to), strings->device());
  }
#endif
  return detail::parse_number_cpu(v, to);
}

ColumnPtr format_number(const ColumnPtr& values) {
  const TypeId t = values->type();
  GPUDF_EXPECTS(t == TypeId::Bool || (t >= TypeId::Int8 && t <= TypeId::Float64), Dtype,
                "number formatting of dtype " + std::string(type_name(t)));
  ColumnView v = values->view();
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) {
    if (t != TypeId::Float32 && t != TypeId::Float64) return detail::format_number_cuda(v);
    // The shortest round-trip digits of floats are generated on the host (std::to_chars).
    ColumnPtr host = to_host(values);
    return copy_to_device(detail::format_number_cpu(host->view()), values->device());
  }
#endif
  return detail::format_number_cpu(v);
}

std::string value_text(const ColumnPtr& column, int64_t row) {
  ColumnPtr host = column->device().kind() == DeviceKind::Cpu ? column : to_host(column);
  ColumnView v = host->view();
  if (!v.is_valid(row)) return "null";
  if (is_string(v.type)) {
    std::string quoted = "\"";
    quoted += row_text(host, row);
    quoted += '"';
    return quoted;
  }
  ColumnPtr one = std::make_shared<Column>(host->device(), host->type(), 1, host->data(), host->offsets(), nullptr, 0,
                                           host->offset() + row);
  ColumnPtr text = v.type == TypeId::Date32 || is_timestamp(v.type) || is_duration(v.type) ? format_temporal(one, "") : format_number(one);
  return row_text(text, 0);
}

int64_t first_lost_row(const ColumnPtr& in, const ColumnPtr& out) {
  if (!out->has_validity() || out->null_count() == 0) return -1;
  if (out->null_count() == in->null_count()) return -1;  // out is null only where in is
  ColumnPtr hi = in->device().kind() == DeviceKind::Cpu ? in : to_host(in);
  ColumnPtr ho = out->device().kind() == DeviceKind::Cpu ? out : to_host(out);
  ColumnView a = hi->view(), b = ho->view();
  for (int64_t i = 0; i < a.size; ++i)
    if (a.is_valid(i) && !b.is_valid(i)) return i;
  return -1;
}

ColumnPtr concat_strings(const std::vector<ColumnPtr>& columns, const std::vector<std::string>& lits,
                         bool skip_nulls, int64_t rows) {
  GPUDF_EXPECTS(lits.size() == columns.size() + 1, Internal, "concat_strings: one literal more than columns");
  std::vector<ColumnView> views;
  for (const ColumnPtr& c : columns) {
    GPUDF_EXPECTS(is_string(c->type()) && c->size() == rows, Internal, "concat_strings: string columns of the frame's length");
    views.push_back(c->view());
  }
  std::string text;
  std::vector<int64_t> off{0};
  for (const std::string& l : lits) {
    text += l;
    off.push_back(int64_t(text.size()));
  }
#ifdef GPUDF_WITH_CUDA
  if (!views.empty() && on_cuda(views[0])) return detail::concat_cuda(views, text, off, skip_nulls, rows);
#endif
  ConcatArgs a;
  a.cols = views.data();
  a.k = int32_t(views.size());
  a.lits = text.data();
  a.lit_off = off.data();
  a.skip_nulls = skip_nulls;
  return detail::concat_cpu(a, rows);
}

ColumnPtr join_segments(const ColumnPtr& strings, const ColumnPtr& segment_of, const ColumnPtr& sizes, int64_t count,
                        const std::string& sep, bool ignore_nulls) {
  GPUDF_EXPECTS(is_string(strings->type()), Dtype, "str.join of a non-string column");
  GPUDF_EXPECTS(segment_of->size() == strings->size() && sizes->type() == TypeId::Int64 && sizes->size() == count &&
                    (segment_of->type() == TypeId::Int32 || segment_of->type() == TypeId::Int64),
                Internal, "join_segments: a segment per row and an int64 size per segment");
  const ColumnView v = strings->view();
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) return detail::join_segments_cuda(v, segment_of->view(), sizes->view(), count, sep, ignore_nulls);
#endif
  return detail::join_segments_cpu(v, sizes->view(), count, sep, ignore_nulls);
}

ColumnPtr transform(const ColumnPtr& strings, const TransformSpec& spec) {
  GPUDF_EXPECTS(is_string(strings->type()), Dtype, "string transform of a non-string column");
  TransformArgs t;
  t.kind = spec.kind;
  t.width = spec.width;
  GPUDF_EXPECTS(spec.width >= 0, InvalidArgument, "the width must be >= 0");
  if (spec.kind == Transform::PadStart || spec.kind == Transform::PadEnd) {
    GPUDF_EXPECTS(!spec.fill.empty() && spec.fill.size() <= 4 && expr::utf8_length(spec.fill.data(), int64_t(spec.fill.size())) == 1,
                  InvalidArgument, "the fill must be one character");
    std::memcpy(t.fill, spec.fill.data(), std::min(spec.fill.size(), sizeof t.fill));
    t.fill_len = int32_t(spec.fill.size());
  }
  ColumnView v = strings->view();
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) return detail::transform_cuda(v, t);
#endif
  return detail::transform_cpu(v, t);
}

}  // namespace gpudf::strings
