// The native CSV reader: multi-threaded, straight into column buffers.
//
// 1. Row boundaries honouring quotes, in parallel: a first pass counts quote characters per
//    chunk (a doubled quote toggles twice, so parity alone tells whether a chunk starts inside
//    quotes); a second pass lists the newlines outside quotes.
// 2. Types: explicit dtypes, else inferred from the first `infer_rows` rows (bool, int64,
//    float64, date32 / timestamp[us] with try_parse_dates, utf8).
// 3. Parsing in parallel over row chunks into the final buffers (fixed-width values land at their
//    row; strings per chunk, then concatenated). A value that breaks an inferred type widens the
//    column (int64 -> float64 -> utf8) and only that column is parsed again.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/column.hpp"

namespace gpudf::csv {

struct CsvOptions {
  char sep = ',';
  char quote = '"';
  bool has_header = true;
  std::string comment_prefix;      // rows starting with it are skipped (empty: none)
  int64_t skip_rows = 0;           // raw lines skipped before the header
  int64_t n_rows = -1;             // data rows to read; -1: all
  std::vector<std::string> null_values{""};
  std::vector<std::string> true_values{"true", "True", "TRUE"};
  std::vector<std::string> false_values{"false", "False", "FALSE"};
  bool try_parse_dates = false;
  int64_t infer_rows = 100;        // rows used for inference; <= 0: all rows
  bool truncate_ragged = false;    // extra fields dropped, missing ones null (else an error)
  std::vector<std::string> select_names;   // keep these columns (in this order)
  std::vector<int64_t> select_indices;     // or these (0-based)
  std::vector<std::pair<std::string, TypeId>> dtypes_by_name;
  std::vector<std::pair<int64_t, TypeId>> dtypes_by_index;
};

struct CsvResult {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
};

/// Called with (bytes done, bytes total) as work progresses; may be called from any thread.
using ProgressFn = std::function<void(int64_t, int64_t)>;

/// Called with byte ranges [begin, end) of the input the parser has finished reading (it may
/// still read them again, e.g. to re-parse a widened column: a release must keep them readable).
using ReleaseFn = std::function<void(int64_t, int64_t)>;

/// Parses `size` bytes of CSV text. Throws Error(CsvParse) naming the line and column for bad
/// input, InvalidArgument for bad options.
CsvResult read_csv(const char* data, int64_t size, const CsvOptions& options, Device& target,
                   const ProgressFn& progress = {}, const ReleaseFn& parsed = {});

/// A whole file mapped read-only into memory (unmapped on destruction). A file whose size the
/// system does not know in advance (a FIFO, /proc and /sys files, which report 0 bytes) is
/// read into memory instead.
class MappedFile {
 public:
  /// Maps `path`; Error(Io) naming the path on failure.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const char* data() const { return data_; }
  int64_t size() const { return size_; }
  /// Drops the resident pages wholly inside [begin, end) (they read back from the file if
  /// touched again), so a large file does not stay resident after it was parsed.
  void release(int64_t begin, int64_t end) const;

 private:
  const char* data_ = nullptr;
  int64_t size_ = 0;
  std::string read_;  // the bytes of a file read rather than mapped
};

}  // namespace gpudf::csv
