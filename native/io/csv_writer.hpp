// The native CSV writer: rows formatted in parallel chunks, written in order.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/column.hpp"

namespace gpudf::csv {

enum class QuoteStyle { Necessary, Always, NonNumeric, Never };

struct CsvWriteOptions {
  char sep = ',';
  char quote = '"';
  bool header = true;
  QuoteStyle quote_style = QuoteStyle::Necessary;
  std::string null_value;  // written for nulls (default: the empty field)
};

/// Formats the table as CSV and passes each chunk of text, in order, to `sink`.
/// Floats are written in the shortest form that reads back to the same value; dates as
/// YYYY-MM-DD; timestamps as YYYY-MM-DDTHH:MM:SS with the unit's fraction digits.
/// Strings that are empty, or hold the separator, a quote, a line break, or the null text are
/// quoted (QuoteStyle::Necessary), so null and "" stay distinct.
void write_csv(const std::vector<std::string>& names, const std::vector<ColumnPtr>& columns,
               const CsvWriteOptions& options, const std::function<void(const std::string&)>& sink);

}  // namespace gpudf::csv
