// The native JSON / NDJSON writer: rows formatted in parallel chunks, written in order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/column.hpp"

namespace gpudf::json {

/// Formats the table as NDJSON (one object per line, each line ending in a line break) or as a
/// JSON array of objects (`[{...},{...}]`) and passes each chunk of text, in order, to `sink`.
/// Integers as digits; floats in their shortest round-trip form, always with a fraction or an
/// exponent (so they read back as float64); NaN and infinities as null (JSON has no such
/// numbers); dates "YYYY-MM-DD" and timestamps "YYYY-MM-DDTHH:MM:SS[.fraction]" as strings;
/// strings escaped ('"', '\\', control characters); nulls as null.
void write_json(const std::vector<std::string>& names, const std::vector<ColumnPtr>& columns, bool ndjson,
                const std::function<void(const std::string&)>& sink);

}  // namespace gpudf::json
