// Where a writer's bytes go: a file that either ends up complete at its path or leaves what was
// there untouched. A regular file (or a new path) is written to a temporary file beside it and
// renamed over it by commit(); a failed or abandoned write removes only that temporary file. A
// path that is not a regular file (a device such as /dev/null, a FIFO) is written in place and
// never removed. A symbolic link is followed, so the file it names is replaced, not the link.
#pragma once

#include <cstdio>
#include <string>

namespace gpudf::io {

class FileSink {
 public:
  /// Opens the destination; ERR_IO naming `path` when it cannot be written.
  explicit FileSink(const std::string& path);
  ~FileSink();  // abandons the write unless commit() succeeded
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;

  /// Appends bytes; ERR_IO (with the system's reason) on a failed write.
  void write(const char* data, size_t size);
  /// Flushes and closes, then puts the file in place; ERR_IO when any of it fails.
  void commit();

 private:
  void abandon() noexcept;

  std::string path_;  // as given (for messages)
  std::string target_;  // the file to replace (a link's target)
  std::string temp_;  // empty: writing in place
  std::FILE* file_ = nullptr;
};

}  // namespace gpudf::io
