// The native JSON / NDJSON reader: records (objects of scalar values) straight into columns.
//
// 1. Records: NDJSON input is cut at line breaks into one chunk per task (a JSON string holds
//    no raw line break, so every line is a whole record; blank lines are skipped); a large JSON
//    array is cut at top-level commas by a pass that follows only strings and brackets (a
//    small one, or one that pass finds broken, is one chunk).
// 2. Each chunk is parsed on its own thread into per-key cells (kind and value; a string
//    without escapes stays a view of the input), columns in the order their keys first appear.
// 3. The chunks' schemas are unified (columns by first appearance over the inputs in order;
//    a dtype is the join of every value's kind: int64 + float64 -> float64, any other mix ->
//    utf8, only nulls -> utf8) unless `dtypes` fix it, and each column is built in parallel.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/column.hpp"

namespace gpudf::json {

struct JsonOptions {
  bool ndjson = true;          // one record per line; otherwise a top-level array of records
  int64_t n_rows = -1;         // records to read (over all inputs); -1: all
  /// Keep only these columns, in this order (empty: every key). With `exact_schema`, keys not
  /// named are skipped and a name no record has is an all-null column of its dtype.
  std::vector<std::string> select_names;
  bool exact_schema = false;
  std::vector<std::pair<std::string, TypeId>> dtypes_by_name;
};

struct JsonInput {
  const char* data = nullptr;
  int64_t size = 0;
  std::string label;  // named in messages (a path; empty for bytes)
};

struct JsonResult {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
};

/// Reads the records of every input as one table. Error(JsonParse) names the line (and the
/// input) of malformed text or of a value its column's dtype cannot hold; Error(Dtype) names a
/// column holding a nested value; Error(ColumnNotFound) a selected name no record has.
JsonResult read_json(const std::vector<JsonInput>& inputs, const JsonOptions& options, Device& target);

}  // namespace gpudf::json
