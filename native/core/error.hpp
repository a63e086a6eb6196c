// Errors raised by the core. The exception's code is the API (mapped to a typed JS error in one
// place, native/bindings/errors.cpp); the message is for people.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpudf {

enum class ErrorCode {
  InvalidArgument,
  Dtype,
  ColumnNotFound,
  OutOfMemory,
  Disposed,
  DeviceUnavailable,
  Io,
  CsvParse,
  JsonParse,  // malformed JSON / NDJSON: names the line (and file)
  Parquet,
  Cast,  // a value that does not convert (strict casts and parses): names the row and value
  TimeZone,  // a zone not found or malformed, or a local time that is ambiguous or skipped
  Internal,
};

/// The stable string form of a code, e.g. "ERR_DTYPE".
const char* error_code_name(ErrorCode code) noexcept;

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

/// Raised when a device cannot satisfy an allocation; carries the size asked for and, when a
/// memory limit refused it, the limit (-1: none) and the device's name ("cpu", "cuda").
class OutOfMemoryError : public Error {
 public:
  OutOfMemoryError(std::size_t requested, const std::string& message, int64_t limit = -1,
                   std::string device = "cpu")
      : Error(ErrorCode::OutOfMemory, message), requested_(requested), limit_(limit),
        device_(std::move(device)) {}
  std::size_t requested_bytes() const noexcept { return requested_; }
  int64_t limit_bytes() const noexcept { return limit_; }
  const std::string& device() const noexcept { return device_; }

 private:
  std::size_t requested_;
  int64_t limit_;
  std::string device_;
};

[[noreturn]] void fail(ErrorCode code, const std::string& message);

}  // namespace gpudf

/// GPUDF_EXPECTS(cond, Code, msg): throw gpudf::Error(ErrorCode::Code, msg) unless cond holds.
#define GPUDF_EXPECTS(cond, code, msg)                        \
  do {                                                        \
    if (!(cond)) ::gpudf::fail(::gpudf::ErrorCode::code, msg); \
  } while (0)

#define GPUDF_FAIL(code, msg) ::gpudf::fail(::gpudf::ErrorCode::code, msg)
