#include "io/csv_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "core/calendar.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/float_text.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"

namespace gpudf::csv {
namespace {

constexpr int64_t kRowsPerChunk = 16384;



void put_padded(std::string& out, int64_t v, int width) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v < 0 ? -v : v);
  if (v < 0) out.push_back('-');
  for (int pad = width - int(p - buf); pad > 0; --pad) out.push_back('0');
  out.append(buf, p);
}

void put_date(std::string& out, int64_t days) {
  const CivilDate c = civil_from_days(days);
  put_padded(out, c.year, 4);
  out.push_back('-');
  put_padded(out, c.month, 2);
  out.push_back('-');
  put_padded(out, c.day, 2);
}

void put_timestamp(std::string& out, int64_t value, int64_t per_second, int digits) {
  int64_t secs = floor_div_i64(value, per_second);
  int64_t frac = value - secs * per_second;
  int64_t days = floor_div_i64(secs, 86400);
  int64_t rem = secs - days * 86400;
  put_date(out, days);
  out.push_back('T');
  put_padded(out, rem / 3600, 2);
  out.push_back(':');
  put_padded(out, (rem / 60) % 60, 2);
  out.push_back(':');
  put_padded(out, rem % 60, 2);
  if (digits) {
    out.push_back('.');
    put_padded(out, frac, digits);
  }
}

template <typename F>
void put_float(std::string& out, F v) {
  char buf[64];
  out.append(buf, size_t(format_float_shortest(v, buf)));
}

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
      } else {
        char buf[24];
        auto [p, ec] = std::to_chars(buf, buf + sizeof buf, x);
        out.append(buf, p);
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
  const int64_t chunks = (rows + kRowsPerChunk - 1) / kRowsPerChunk;
  // Format a batch of chunks in parallel, then hand them to the sink in order (bounded memory).
  const int64_t batch = int64_t(cpu_pool().size()) * 4;
  for (int64_t c0 = 0; c0 < chunks; c0 += batch) {
    const int64_t c1 = std::min(chunks, c0 + batch);
    std::vector<std::string> texts(size_t(c1 - c0));
    cpu_pool().parallel_for(c1 - c0, 1, [&](int64_t a, int64_t b) {
      for (int64_t k = a; k < b; ++k) {
        std::string& out = texts[size_t(k)];
        const int64_t r0 = (c0 + k) * kRowsPerChunk;
        const int64_t r1 = std::min(rows, r0 + kRowsPerChunk);
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
      }
    });
    for (const auto& t : texts) sink(t);
  }
}

}  // namespace gpudf::csv
