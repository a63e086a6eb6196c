// The native Parquet reader. A ParquetFile is a file (read with pread, chunk by chunk) or bytes
// in memory whose footer has been parsed and whose schema resolved to gpudf columns;
// read_parquet decodes the chosen row groups x columns in parallel on the CPU pool, each column
// chunk straight into its column's buffers, and hands the columns to the target device.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "core/host_vector.hpp"
#include "io/parquet_format.hpp"
#include "io/parquet_schema.hpp"

namespace gpudf::parquet {

class ParquetFile {
 public:
  /// Opens and parses a file; ERR_IO when it cannot be read, ERR_PARQUET when it is not Parquet.
  static ParquetFile open(const std::string& path);
  /// Parses bytes in memory (not copied: they must outlive the ParquetFile); `name` is for errors.
  static ParquetFile from_memory(const uint8_t* data, size_t size, std::string name);
  ParquetFile(ParquetFile&& other) noexcept;
  ParquetFile& operator=(ParquetFile&&) = delete;
  ~ParquetFile();

  const std::string& name() const { return name_; }
  const FileMeta& meta() const { return meta_; }
  std::vector<ColumnSchema>& columns() { return columns_; }
  const std::vector<ColumnSchema>& columns() const { return columns_; }
  /// The Arrow schema of the footer ("ARROW:schema", base64), "" when absent.
  std::string arrow_schema() const;

  /// Bytes [offset, offset + n) of the file: a pointer into memory, or read into buf.
  const uint8_t* bytes(int64_t offset, size_t n, HostVector<uint8_t>& buf) const;

 private:
  ParquetFile() = default;
  void parse();
  std::string name_;
  int fd_ = -1;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t footer_start_ = 0;
  FileMeta meta_;
  std::vector<ColumnSchema> columns_;
};

struct ParquetReadOptions {
  std::vector<std::string> columns;   // empty: all, in file order
  bool all_columns = true;
  std::vector<int64_t> row_groups;    // empty with all_row_groups: every one
  bool all_row_groups = true;
  int64_t n_rows = -1;                // -1: all
};

struct ParquetResult {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
};

/// Called as chunks finish: (bytes decoded so far, bytes to decode).
using ParquetProgress = std::function<void(int64_t, int64_t)>;

ParquetResult read_parquet(const ParquetFile& file, const ParquetReadOptions& options, Device& target,
                           const ParquetProgress& progress = {});

}  // namespace gpudf::parquet
