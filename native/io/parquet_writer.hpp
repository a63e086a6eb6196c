// The native Parquet writer: row groups of column chunks, each chunk a run of data pages (v1)
// with RLE definition levels (dictionary-encoded when values repeat, else PLAIN), pages encoded and compressed in parallel on the CPU pool and
// written in file order; then the Thrift footer. Every gpudf dtype is annotated with the
// logical type that makes Parquet readers give it back as itself.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/column.hpp"
#include "io/parquet_format.hpp"

namespace gpudf::parquet {

struct ParquetWriteOptions {
  Codec codec = Codec::Zstd;
  int zstd_level = 1;
  int64_t row_group_rows = int64_t(1) << 20;
  /// Dictionary-encode chunks whose values repeat (see parquet_dictionary.hpp).
  bool dictionary = true;
  /// The footer's key_value_metadata (e.g. "ARROW:schema").
  std::vector<std::pair<std::string, std::string>> key_values;
};

/// Receives the file's bytes, in order.
using ByteSink = std::function<void(const char* data, size_t size)>;


/// Writes the columns (any device; CUDA columns are copied to the host) as one Parquet file.
void write_parquet(const std::vector<std::string>& names, const std::vector<ColumnPtr>& columns,
                   const ParquetWriteOptions& options, const ByteSink& sink);

}  // namespace gpudf::parquet
