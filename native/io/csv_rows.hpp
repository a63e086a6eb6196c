// CSV rows and fields: finding row boundaries (in parallel, honouring quotes) and splitting one
// row into fields. Internal to the reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/host_vector.hpp"
#include "io/csv_reader.hpp"

namespace gpudf::csv {

/// Byte ranges [begin, end) of the rows after the skipped lines, with empty and comment rows
/// dropped and a trailing '\r' excluded.
struct Rows {
  HostVector<int64_t> begin;
  HostVector<int64_t> end;
  int64_t size() const { return static_cast<int64_t>(begin.size()); }
};

Rows split_rows(const char* data, int64_t size, const CsvOptions& options);

struct Field {
  std::string_view text;  // unquoted, unescaped content
  bool quoted = false;
};

/// Splits data[b, e) into fields. `scratch` receives unescaped copies of fields holding doubled
/// quotes; it is reserved up front so the views stay valid. Returns false (with `bad` set to the
/// offending byte offset) on a character after a closing quote or an unterminated quote.
bool split_fields(const char* data, int64_t b, int64_t e, const CsvOptions& options,
                  std::vector<Field>& out, std::string& scratch, int64_t& bad);

/// 1-based line number of byte `pos`.
int64_t line_number(const char* data, int64_t pos);

}  // namespace gpudf::csv
