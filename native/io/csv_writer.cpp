#include "core/duration_text.hpp"
#include "io/csv_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"
#include "io/value_text.hpp"

namespace gpudf::csv {
namespace {

using io::put_date;
using io::put_float;
using io::put_timestamp;

constexpr int64_t kRowsPerChunk = 16384;

bool needs_quotes(std::string_view s, const CsvWriteOptions& o) {
  if (s.empty() || s == o.null_value) return true;
  for (char c : s)
    if (c == o.sep || c == o.quote || c == '\n' || c == '\r') return true;
  return false;
}

void put_string(std::string& out, std::string_view s, const CsvWriteOptions& o) {
  bool quote = o.quote_style == QuoteStyle::Always || o.quote_style == QuoteStyle::NonNumeric ||
               (o.quote_style == QuoteStyle::Necessary && needs_quotes(s, o));
  if (!quote) return out.append(s.data(), s.size()), void();
  out.push_back(o.quote);
  for (char c : s) {
    out.push_back(c);
    if (c == o.quote) out.push_back(c);
  }
  out.push_back(o.quote);
}

/// Appends the text of row i of a host column.
struct CellWriter {
  template <TypeId T>
  void operator()(std::string& out, const ColumnView& v, int64_t i, const CsvWriteOptions& o) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      S x = v.values<S>()[i];
      if constexpr (T == TypeId::Bool) {
        out.append(x ? "true" : "false");
      } else if constexpr (T == TypeId::Float32 || T == TypeId::Float64) {
        put_float(out, x);
      } else if constexpr (T == TypeId::Date32) {
        put_date(out, x);
      } else if constexpr (T == TypeId::TimestampS) {
        put_timestamp(out, x, 1, 0);
      } else if constexpr (T == TypeId::TimestampMs) {
        put_timestamp(out, x, 1000, 3);
      } else if constexpr (T == TypeId::TimestampUs) {
        put_timestamp(out, x, 1000000, 6);
      } else if constexpr (T == TypeId::TimestampNs) {
        put_timestamp(out, x, 1000000000, 9);
      } else if constexpr (is_duration(T)) {
        char text[kMaxDurationText];
        out.append(text, size_t(write_duration_iso(text, x, ticks_per_second(T))));
      } else {
        io::put_int(out, x);
      }
    } else {
      using O = typename S::offset_type;
      const O* offs = v.string_offsets<O>();
      put_string(out, std::string_view(reinterpret_cast<const char*>(v.data) + offs[i], size_t(offs[i + 1] - offs[i])), o);
    }
  }
};

}  // namespace

void write_csv(const std::vector<std::string>& names, const std::vector<ColumnPtr>& columns,
               const CsvWriteOptions& o, const std::function<void(const std::string&)>& sink) {
  GPUDF_EXPECTS(names.size() == columns.size(), InvalidArgument, "one name per column");
  GPUDF_EXPECTS(o.sep != '\n' && o.sep != '\r' && o.sep != o.quote, InvalidArgument,
                "sep must differ from the quote character and from line breaks");
  std::vector<ColumnPtr> host;
  std::vector<ColumnView> views;
  for (const auto& c : columns) host.push_back(to_host(c));
  for (const auto& c : host) views.push_back(c->view());
  const int64_t rows = views.empty() ? 0 : views[0].size;

  if (o.header && !names.empty()) {
    std::string line;
    for (size_t j = 0; j < names.size(); ++j) {
      if (j) line.push_back(o.sep);
      put_string(line, names[j], o);
    }
    line.push_back('\n');
    sink(line);
  }
  io::format_rows_parallel(rows, kRowsPerChunk, [&](std::string& out, int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      for (size_t j = 0; j < views.size(); ++j) {
        if (j) out.push_back(o.sep);
        const ColumnView& v = views[j];
        if (!v.is_valid(r)) {
          out.append(o.null_value);
          continue;
        }
        type_dispatch(v.type, CellWriter{}, out, v, r, o);
      }
      out.push_back('\n');
    }
  }, sink);
}

}  // namespace gpudf::csv
