#include "core/error.hpp"

namespace gpudf {

const char* error_code_name(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::InvalidArgument: return "ERR_INVALID_ARGUMENT";
    case ErrorCode::Dtype: return "ERR_DTYPE";
    case ErrorCode::ColumnNotFound: return "ERR_COLUMN_NOT_FOUND";
    case ErrorCode::OutOfMemory: return "ERR_OUT_OF_MEMORY";
    case ErrorCode::Disposed: return "ERR_DISPOSED";
    case ErrorCode::DeviceUnavailable: return "ERR_DEVICE_UNAVAILABLE";
    case ErrorCode::Io: return "ERR_IO";
    case ErrorCode::CsvParse: return "ERR_CSV_PARSE";
    case ErrorCode::JsonParse: return "ERR_JSON_PARSE";
    case ErrorCode::Parquet: return "ERR_PARQUET";
    case ErrorCode::Cast: return "ERR_CAST";
    case ErrorCode::TimeZone: return "ERR_TIME_ZONE";
    case ErrorCode::Internal: return "ERR_INTERNAL";
  }
  return "ERR_INTERNAL";
}

void fail(ErrorCode code, const std::string& message) { throw Error(code, message); }

}  // namespace gpudf
