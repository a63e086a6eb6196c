// Parquet files for the reader tests: written by the native writer into memory, and opened there.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/parquet_reader.hpp"
#include "io/parquet_writer.hpp"

namespace gpudf::testing {

inline std::string write_file(const std::vector<std::string>& names, const std::vector<ColumnPtr>& cols,
                              parquet::Codec codec, int64_t row_group) {
  parquet::ParquetWriteOptions o;
  o.codec = codec;
  o.row_group_rows = row_group;
  std::string out;
  parquet::write_parquet(names, cols, o, [&](const char* p, size_t n) { out.append(p, n); });
  return out;
}

/// `file` opened in place (it must outlive the result).
inline parquet::ParquetFile open_memory(const std::string& file, std::string name = "mem") {
  return parquet::ParquetFile::from_memory(reinterpret_cast<const uint8_t*>(file.data()), file.size(), std::move(name));
}

}  // namespace gpudf::testing
