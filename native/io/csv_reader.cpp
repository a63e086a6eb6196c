#include "core/duration_text.hpp"
#include "io/csv_reader.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "io/csv_fields.hpp"
#include "io/csv_rows.hpp"

namespace gpudf::csv {
namespace {

// Rows per parse task; a multiple of 8 so no two tasks write the same validity byte.
constexpr int64_t kRowsPerTask = 8192;

bool in_list(std::string_view s, const std::vector<std::string>& list) {
  for (const auto& v : list)
    if (s == v) return true;
  return false;
}

bool is_null(const Field& f, const CsvOptions& o) { return !f.quoted && in_list(f.text, o.null_values); }

// ---- inference --------------------------------------------------------------------------------

enum class Guess { Null, Bool, Int, Float, Date, Timestamp, Utf8 };

Guess guess_field(std::string_view s, const CsvOptions& o) {
  int64_t i;
  double d;
  int32_t day;
  if (in_list(s, o.true_values) || in_list(s, o.false_values)) return Guess::Bool;
  if (parse_int64(s, i)) return Guess::Int;
  if (parse_float64(s, d)) return Guess::Float;
  if (o.try_parse_dates) {
    if (parse_date32(s, day)) return Guess::Date;
    int64_t us;  // the inferred unit; text beyond its range stays text
    if (parse_instant(s, TypeId::TimestampUs, us)) return Guess::Timestamp;
  }
  return Guess::Utf8;
}

Guess join(Guess a, Guess b) {
  if (a == b || b == Guess::Null) return a;
  if (a == Guess::Null) return b;
  auto numeric = [](Guess g) { return g == Guess::Int || g == Guess::Float; };
  if (numeric(a) && numeric(b)) return Guess::Float;
  auto temporal = [](Guess g) { return g == Guess::Date || g == Guess::Timestamp; };
  if (temporal(a) && temporal(b)) return Guess::Timestamp;
  return Guess::Utf8;
}

TypeId type_of(Guess g) {
  switch (g) {
    case Guess::Bool: return TypeId::Bool;
    case Guess::Int: return TypeId::Int64;
    case Guess::Float: return TypeId::Float64;
    case Guess::Date: return TypeId::Date32;
    case Guess::Timestamp: return TypeId::TimestampUs;
    default: return TypeId::Utf8;
  }
}

/// The next type when a value breaks an inferred one.
TypeId widen(TypeId t) {
  switch (t) {
    case TypeId::Int64: return TypeId::Float64;
    case TypeId::Date32: return TypeId::TimestampUs;
    default: return TypeId::Utf8;
  }
}

// ---- conversion -------------------------------------------------------------------------------

bool parse_bool(std::string_view s, const CsvOptions& o, uint8_t& out) {
  if (in_list(s, o.true_values)) return out = 1, true;
  if (in_list(s, o.false_values)) return out = 0, true;
  return false;
}

/// Converts one non-null field into slot `row` of a fixed-width values buffer.
struct FixedWriter {
  template <TypeId T>
  bool operator()(std::string_view s, const CsvOptions& o, uint8_t* values, int64_t row) const {
    using S = storage_t<T>;
    if constexpr (!std::is_arithmetic_v<S>) {
      return false;
    } else {
      S* dst = reinterpret_cast<S*>(values) + row;
      if constexpr (T == TypeId::Bool) {
        return parse_bool(s, o, *dst);
      } else if constexpr (T == TypeId::Float32 || T == TypeId::Float64) {
        double d;
        if (!parse_float64(s, d)) return false;
        *dst = static_cast<S>(d);
        return true;
      } else if constexpr (T == TypeId::Date32) {
        return parse_date32(s, *dst);
      } else if constexpr (is_timestamp(T)) {
        int64_t v;
        if (!parse_instant(s, T, v)) return false;
        *dst = v;
        return true;
      } else if constexpr (is_duration(T)) {
        return parse_duration_iso(s.data(), int64_t(s.size()), ticks_per_second(T), *dst);
      } else if constexpr (std::is_unsigned_v<S>) {
        uint64_t u;
        const char* b = s.data();
        const char* e = b + s.size();
        if (b != e && *b == '+') ++b;
        auto [ptr, ec] = std::from_chars(b, e, u);
        if (b == e || ec != std::errc() || ptr != e || u > std::numeric_limits<S>::max()) return false;
        *dst = static_cast<S>(u);
        return true;
      } else {
        int64_t v;
        if (!parse_int64(s, v) || v < std::numeric_limits<S>::min() || v > std::numeric_limits<S>::max()) return false;
        *dst = static_cast<S>(v);
        return true;
      }
    }
  }
};

/// One output column while parsing (host memory).
struct OutColumn {
  int64_t source = 0;  // field index in the row
  std::string name;
  TypeId type = TypeId::Utf8;
  bool explicit_type = false;
  BufferPtr values;                          // fixed width
  HostVector<uint8_t> valid_bits;            // one bit per row
  BufferPtr offsets;                         // strings: the final offsets; lengths while parsing
  int64_t offset_width = 4;                  // strings: 4 or 8 bytes per offset
  std::vector<HostString> chunk_bytes;       // strings: bytes per task
  std::atomic<int64_t> failed_row{-1};       // first row whose value broke the type
  std::atomic<int64_t> nulls{0};
};

struct Failure {
  std::mutex m;
  int64_t row = -1;
  int64_t byte = 0;
  std::string what;
  void set(int64_t r, int64_t at, std::string message) {
    std::lock_guard<std::mutex> lock(m);
    if (row < 0 || r < row) {
      row = r;
      byte = at;
      what = std::move(message);
    }
  }
};

void put_length(OutColumn& c, int64_t row, int64_t len) {
  if (c.offset_width == 4) reinterpret_cast<int32_t*>(c.offsets->data())[row] = int32_t(len);
  else reinterpret_cast<int64_t*>(c.offsets->data())[row] = len;
}

/// Turns the per-row lengths in c.offsets into offsets, in place (an exclusive prefix sum).
BufferPtr lengths_to_offsets(OutColumn& c, int64_t nrows) {
  auto scan = [&](auto* o) {
    int64_t pos = 0;
    for (int64_t r = 0; r < nrows; ++r) {
      const int64_t len = int64_t(o[r]);
      o[r] = static_cast<std::remove_reference_t<decltype(*o)>>(pos);
      pos += len;
    }
    o[nrows] = static_cast<std::remove_reference_t<decltype(*o)>>(pos);
  };
  if (c.offset_width == 4) scan(reinterpret_cast<int32_t*>(c.offsets->data()));
  else scan(reinterpret_cast<int64_t*>(c.offsets->data()));
  return std::move(c.offsets);
}

/// int64 offsets copied to int32 (the caller checked the last one fits).
BufferPtr narrow_offsets(const BufferPtr& wide, int64_t nrows) {
  BufferPtr out = Buffer::allocate(cpu_device(), size_t((nrows + 1) * 4));
  const int64_t* w = reinterpret_cast<const int64_t*>(wide->data());
  int32_t* n = reinterpret_cast<int32_t*>(out->data());
  for (int64_t r = 0; r <= nrows; ++r) n[r] = int32_t(w[r]);
  return out;
}

std::string col_label(const OutColumn& c) {
  return "column " + std::to_string(c.source + 1) + " (\"" + c.name + "\")";
}

}  // namespace

MappedFile::MappedFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  GPUDF_EXPECTS(fd >= 0, Io, "cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    int err = errno;
    ::close(fd);
    GPUDF_FAIL(Io, "cannot read " + path + ": " + (S_ISDIR(st.st_mode) ? "is a directory" : std::strerror(err)));
  }
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    // No size known up front: read to the end.
    char chunk[1 << 16];
    while (true) {
      const ssize_t got = ::read(fd, chunk, sizeof chunk);
      if (got == 0) break;
      if (got < 0) {
        if (errno == EINTR) continue;
        const int err = errno;
        ::close(fd);
        GPUDF_FAIL(Io, "cannot read " + path + ": " + std::strerror(err));
      }
      read_.append(chunk, size_t(got));
    }
    ::close(fd);
    data_ = read_.data();
    size_ = static_cast<int64_t>(read_.size());
    return;
  }
  size_ = static_cast<int64_t>(st.st_size);
  if (size_ > 0) {
    // The page cache is read in place; MAP_POPULATE faults the pages in up front.
    void* p = ::mmap(nullptr, size_t(size_), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    int err = errno;
    ::close(fd);
    GPUDF_EXPECTS(p != MAP_FAILED, Io, "cannot map " + path + ": " + std::strerror(err));
    data_ = static_cast<const char*>(p);
  } else {
    ::close(fd);
  }
}

void MappedFile::release(int64_t begin, int64_t end) const {
  static const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t b = (std::max<int64_t>(begin, 0) + page - 1) / page * page;
  const int64_t e = std::min(end, size_) / page * page;
  if (data_ && read_.empty() && e > b) ::madvise(const_cast<char*>(data_) + b, size_t(e - b), MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (data_ && read_.empty()) ::munmap(const_cast<char*>(data_), size_t(size_));
}

CsvResult read_csv(const char* data, int64_t size, const CsvOptions& o, Device& target,
                   const ProgressFn& progress, const ReleaseFn& parsed) {
  GPUDF_EXPECTS(o.sep != '\n' && o.sep != '\r' && o.sep != o.quote, InvalidArgument,
                "sep must differ from the quote character and from line breaks");
  GPUDF_EXPECTS(o.skip_rows >= 0, InvalidArgument, "skipRows must be >= 0");
  Rows rows = split_rows(data, size, o);
  if (progress) progress(size / 4, size);

  std::vector<Field> fields;
  std::string scratch;
  auto split_or_fail = [&](int64_t r) {
    int64_t bad = 0;
    if (!split_fields(data, rows.begin[size_t(r)], rows.end[size_t(r)], o, fields, scratch, bad))
      GPUDF_FAIL(CsvParse, "malformed quoted field on line " + std::to_string(line_number(data, bad)));
  };

  // Header and column names.
  std::vector<std::string> header;
  int64_t first_data = 0;
  if (rows.size() > 0) {
    split_or_fail(0);
    for (size_t i = 0; i < fields.size(); ++i)
      header.push_back(o.has_header ? std::string(fields[i].text) : "column_" + std::to_string(i + 1));
    if (o.has_header) first_data = 1;
  }
  for (size_t i = 0; i < header.size(); ++i) {
    int dup = 0;
    for (size_t j = 0; j < i; ++j)
      if (header[j] == header[i]) ++dup;
    if (dup) header[i] += "_duplicated_" + std::to_string(dup - 1);
  }
  const int64_t ncols = static_cast<int64_t>(header.size());
  int64_t nrows = rows.size() - first_data;
  if (o.n_rows >= 0) nrows = std::min(nrows, o.n_rows);

  // Selected columns.
  std::vector<int64_t> sources;
  for (const auto& name : o.select_names) {
    auto it = std::find(header.begin(), header.end(), name);
    GPUDF_EXPECTS(it != header.end(), ColumnNotFound, "column \"" + name + "\" is not in the CSV header");
    sources.push_back(it - header.begin());
  }
  for (int64_t idx : o.select_indices) {
    GPUDF_EXPECTS(idx >= 0 && idx < ncols, ColumnNotFound,
                  "column index " + std::to_string(idx) + " is out of range (" + std::to_string(ncols) + " columns)");
    sources.push_back(idx);
  }
  if (o.select_names.empty() && o.select_indices.empty())
    for (int64_t i = 0; i < ncols; ++i) sources.push_back(i);

  std::vector<OutColumn> cols(sources.size());
  for (size_t j = 0; j < cols.size(); ++j) {
    cols[j].source = sources[j];
    cols[j].name = header[size_t(sources[j])];
  }
  for (const auto& [name, type] : o.dtypes_by_name) {
    auto it = std::find(header.begin(), header.end(), name);
    GPUDF_EXPECTS(it != header.end(), ColumnNotFound, "dtypes names column \"" + name + "\", which is not in the CSV header");
    for (auto& c : cols)
      if (c.source == it - header.begin()) c.type = type, c.explicit_type = true;
  }
  for (const auto& [idx, type] : o.dtypes_by_index) {
    GPUDF_EXPECTS(idx >= 0 && idx < ncols, ColumnNotFound, "dtypes index " + std::to_string(idx) + " is out of range");
    for (auto& c : cols)
      if (c.source == idx) c.type = type, c.explicit_type = true;
  }

  auto check_width = [&](int64_t r) {
    if (int64_t(fields.size()) != ncols && !o.truncate_ragged)
      GPUDF_FAIL(CsvParse, "line " + std::to_string(line_number(data, rows.begin[size_t(r)])) + " has " +
                               std::to_string(fields.size()) + " fields, expected " + std::to_string(ncols) +
                               " (truncateRaggedLines accepts such rows)");
  };

  // Inference over the first rows.
  const int64_t infer_end = o.infer_rows > 0 ? std::min(nrows, o.infer_rows) : nrows;
  std::vector<Guess> guesses(cols.size(), Guess::Null);
  for (int64_t r = first_data; r < first_data + infer_end; ++r) {
    split_or_fail(r);
    check_width(r);
    for (size_t j = 0; j < cols.size(); ++j) {
      if (cols[j].source >= int64_t(fields.size())) continue;
      const Field& f = fields[size_t(cols[j].source)];
      if (is_null(f, o)) continue;
      guesses[j] = join(guesses[j], f.quoted ? Guess::Utf8 : guess_field(f.text, o));
    }
  }
  for (size_t j = 0; j < cols.size(); ++j)
    if (!cols[j].explicit_type) cols[j].type = type_of(guesses[j]);

  // Parse (again for columns whose inferred type a later value broke).
  const int64_t tasks = (nrows + kRowsPerTask - 1) / kRowsPerTask;
  std::atomic<int64_t> bytes_done{0};
  std::vector<size_t> todo(cols.size());
  for (size_t j = 0; j < cols.size(); ++j) todo[j] = j;
  Failure failure;
  while (!todo.empty()) {
    for (size_t j : todo) {
      OutColumn& c = cols[j];
      c.failed_row = -1;
      c.nulls = 0;
      c.valid_bits.assign(size_t((nrows + 7) / 8), 0);
      if (is_string(c.type)) {
        // Every string's bytes come from the input, so 32-bit offsets hold any input under 2 GiB.
        c.values.reset();
        c.offset_width = (c.type == TypeId::LargeUtf8 || size > std::numeric_limits<int32_t>::max()) ? 8 : 4;
        c.offsets = Buffer::allocate(cpu_device(), size_t((nrows + 1) * c.offset_width));
        c.chunk_bytes.assign(size_t(tasks), HostString());
      } else {
        c.values = Buffer::allocate(cpu_device(), size_t(nrows) * size_t(value_width(c.type)));
      }
    }
    cpu_pool().parallel_for(tasks, 1, [&](int64_t t0, int64_t t1) {
      std::vector<Field> fs;
      std::string sc;
      for (int64_t t = t0; t < t1; ++t) {
        const int64_t r0 = t * kRowsPerTask;
        const int64_t r1 = std::min(nrows, r0 + kRowsPerTask);
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t src_row = first_data + r;
          int64_t bad = 0;
          if (!split_fields(data, rows.begin[size_t(src_row)], rows.end[size_t(src_row)], o, fs, sc, bad)) {
            failure.set(r, bad, "malformed quoted field");
            return;
          }
          if (int64_t(fs.size()) != ncols && !o.truncate_ragged) {
            failure.set(r, rows.begin[size_t(src_row)],
                        "has " + std::to_string(fs.size()) + " fields, expected " + std::to_string(ncols) +
                            " (truncateRaggedLines accepts such rows)");
            return;
          }
          for (size_t j : todo) {
            OutColumn& c = cols[j];
            if (c.source >= int64_t(fs.size()) || is_null(fs[size_t(c.source)], o)) {
              c.nulls.fetch_add(1, std::memory_order_relaxed);
              // Values under nulls are zero (never stale memory); a null string is empty.
              if (!is_string(c.type)) std::memset(c.values->data() + r * value_width(c.type), 0, size_t(value_width(c.type)));
              else put_length(c, r, 0);
              continue;
            }
            const Field& f = fs[size_t(c.source)];
            bool ok;
            if (is_string(c.type)) {
              HostString& bytes = c.chunk_bytes[size_t(t)];
              if (bytes.capacity() == 0) {  // at most the task's span: no regrowth copies
                bytes.reserve(size_t(rows.end[size_t(first_data + r1 - 1)] - rows.begin[size_t(src_row)]));
              }
              bytes.append(f.text);
              put_length(c, r, int64_t(f.text.size()));
              ok = true;
            } else {
              ok = type_dispatch(c.type, FixedWriter{}, f.text, o, c.values->data(), r);
            }
            if (ok) {
              c.valid_bits[size_t(r >> 3)] |= uint8_t(1u << (r & 7));
            } else {
              int64_t prev = c.failed_row.load();
              while ((prev < 0 || r < prev) && !c.failed_row.compare_exchange_weak(prev, r)) {
              }
            }
          }
        }
        const int64_t b0 = rows.begin[size_t(first_data + r0)], b1 = rows.end[size_t(first_data + r1 - 1)];
        if (parsed) parsed(b0, b1);
        if (progress) {
          int64_t done = bytes_done.fetch_add(b1 - b0);
          progress(size / 4 + (done * 3) / 4, size);
        }
      }
    });
    if (failure.row >= 0) {
      GPUDF_FAIL(CsvParse, "line " + std::to_string(line_number(data, rows.begin[size_t(first_data + failure.row)])) + " " +
                               failure.what);
    }
    std::vector<size_t> again;
    for (size_t j : todo) {
      OutColumn& c = cols[j];
      int64_t r = c.failed_row.load();
      if (r < 0) continue;
      if (c.explicit_type) {
        int64_t src_row = first_data + r;
        split_or_fail(src_row);
        GPUDF_FAIL(CsvParse, "line " + std::to_string(line_number(data, rows.begin[size_t(src_row)])) + ", " +
                                 col_label(c) + ": \"" + std::string(fields[size_t(c.source)].text) +
                                 "\" is not a valid " + std::string(type_name(c.type)));
      }
      c.type = widen(c.type);
      again.push_back(j);
    }
    todo.swap(again);
  }

  // Assemble columns on the host, then hand them to the target device.
  HostVector<int64_t>().swap(rows.begin);
  HostVector<int64_t>().swap(rows.end);
  CsvResult result;
  for (OutColumn& c : cols) {
    const int64_t nulls = c.nulls.load();
    BufferPtr validity;
    if (nulls > 0) {
      validity = Buffer::allocate(cpu_device(), c.valid_bits.size());
      if (!c.valid_bits.empty()) std::memcpy(validity->data(), c.valid_bits.data(), c.valid_bits.size());
    }
    HostVector<uint8_t>().swap(c.valid_bits);
    ColumnPtr host;
    if (is_string(c.type)) {
      int64_t total = 0;
      for (const auto& s : c.chunk_bytes) total += int64_t(s.size());
      BufferPtr offsets = lengths_to_offsets(c, nrows);
      TypeId t = c.type;
      if (c.offset_width == 8 && t == TypeId::Utf8) {
        if (total > std::numeric_limits<int32_t>::max()) t = TypeId::LargeUtf8;
        else offsets = narrow_offsets(offsets, nrows);
      }
      BufferPtr bytes = Buffer::allocate(cpu_device(), size_t(total));
      int64_t at = 0;
      for (auto& s : c.chunk_bytes) {
        if (!s.empty()) std::memcpy(bytes->data() + at, s.data(), s.size());
        at += int64_t(s.size());
        HostString().swap(s);
      }
      host = std::make_shared<Column>(cpu_device(), t, nrows, bytes, offsets, validity, nulls);
    } else {
      host = std::make_shared<Column>(cpu_device(), c.type, nrows, c.values, nullptr, validity, nulls);
    }
    result.names.push_back(c.name);
    result.columns.push_back(copy_to_device(host, target));
  }
  if (progress) progress(size, size);
  return result;
}

}  // namespace gpudf::csv
