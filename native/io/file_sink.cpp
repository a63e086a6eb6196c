#include "io/file_sink.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace gpudf::io {
namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  GPUDF_FAIL(Io, "cannot write " + path + ": " + std::strerror(err));
}

std::string temp_beside(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
  return dir + "." + name + ".gpudf-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".tmp";
}

}  // namespace

FileSink::FileSink(const std::string& path) : path_(path), target_(path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char resolved[PATH_MAX];
    if (realpath(path.c_str(), resolved) != nullptr) target_ = resolved;
  }
  const bool exists = stat(target_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    file_ = std::fopen(target_.c_str(), "wb");  // a device or FIFO: in place, never removed
    if (file_ == nullptr) fail(path_, errno);
  } else {
    temp_ = temp_beside(target_);
    const int fd = open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      const int err = errno;
      temp_.clear();
      fail(path_, err);
    }
    file_ = fdopen(fd, "wb");
    if (file_ == nullptr) {
      const int err = errno;
      close(fd);
      abandon();
      fail(path_, err);
    }
  }
  std::setvbuf(file_, nullptr, _IOFBF, size_t(1) << 20);
}

FileSink::~FileSink() { abandon(); }

void FileSink::write(const char* data, size_t size) {
  GPUDF_EXPECTS(file_ != nullptr, Io, "cannot write " + path_ + ": already closed");
  if (size != 0 && std::fwrite(data, 1, size, file_) != size) {
    const int err = errno;
    abandon();
    fail(path_, err);
  }
}

void FileSink::commit() {
  GPUDF_EXPECTS(file_ != nullptr, Io, "cannot write " + path_ + ": already closed");
  std::FILE* f = file_;
  file_ = nullptr;
  if (std::fclose(f) != 0) {
    const int err = errno;
    abandon();
    fail(path_, err);
  }
  if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    abandon();
    fail(path_, err);
  }
  temp_.clear();
}

void FileSink::abandon() noexcept {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) unlink(temp_.c_str());
  temp_.clear();
}

}  // namespace gpudf::io
