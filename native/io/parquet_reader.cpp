#include "io/parquet_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>

#include "core/bitmask.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "io/parquet_chunk.hpp"
#include "io/parquet_device.hpp"
#include "io/parquet_metadata.hpp"

namespace gpudf::parquet {
namespace {

/// Re-raises the error being handled with `where` in front of its message (same code).
[[noreturn]] void rethrow_with(const std::string& where) {
  try {
    throw;
  } catch (const OutOfMemoryError&) {
    throw;
  } catch (const Error& e) {
    throw Error(e.code(), where + ": " + e.what());
  }
}

}  // namespace

ParquetFile ParquetFile::open(const std::string& path) {
  ParquetFile f;
  f.name_ = path;
  GPUDF_EXPECTS(!path.empty(), Io, "cannot read \"\": an empty path");
  f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  GPUDF_EXPECTS(f.fd_ >= 0, Io, "cannot read " + path + ": " + std::strerror(errno));
  struct stat st;
  GPUDF_EXPECTS(::fstat(f.fd_, &st) == 0, Io, "cannot read " + path + ": " + std::strerror(errno));
  GPUDF_EXPECTS(S_ISREG(st.st_mode), Io, "cannot read " + path + ": not a regular file");
  f.size_ = int64_t(st.st_size);
  f.parse();
  return f;
}

ParquetFile ParquetFile::from_memory(const uint8_t* data, size_t size, std::string name) {
  ParquetFile f;
  f.name_ = std::move(name);
  f.data_ = data;
  f.size_ = int64_t(size);
  f.parse();
  return f;
}

ParquetFile::ParquetFile(ParquetFile&& o) noexcept
    : name_(std::move(o.name_)), fd_(o.fd_), data_(o.data_), size_(o.size_), footer_start_(o.footer_start_),
      meta_(std::move(o.meta_)), columns_(std::move(o.columns_)) {
  o.fd_ = -1;
}

ParquetFile::~ParquetFile() {
  if (fd_ >= 0) ::close(fd_);
}

const uint8_t* ParquetFile::bytes(int64_t offset, size_t n, HostVector<uint8_t>& buf) const {
  GPUDF_EXPECTS(offset >= 0 && offset <= size_ && n <= size_t(size_ - offset), Parquet,
                "an offset beyond the end of the file");
  if (data_) return data_ + offset;
  if (buf.size() < n) buf.resize(n);
  size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd_, buf.data() + got, n - got, off_t(offset + int64_t(got)));
    if (r < 0 && errno == EINTR) continue;
    GPUDF_EXPECTS(r >= 0, Io, "cannot read " + name_ + ": " + std::strerror(errno));
    GPUDF_EXPECTS(r > 0, Io, "cannot read " + name_ + ": the file got shorter while being read");
    got += size_t(r);
  }
  return buf.data();
}

void ParquetFile::parse() {
  try {
    GPUDF_EXPECTS(size_ >= 12, Parquet, "not a Parquet file (" + std::to_string(size_) + " bytes)");
    HostVector<uint8_t> buf;
    const uint8_t* head = bytes(0, 4, buf);
    GPUDF_EXPECTS(std::memcmp(head, "PAR1", 4) == 0, Parquet, "not a Parquet file (no PAR1 magic at the start)");
    const uint8_t* tail = bytes(size_ - 8, 8, buf);
    GPUDF_EXPECTS(std::memcmp(tail + 4, "PAR1", 4) == 0, Parquet, "not a Parquet file, or truncated (no PAR1 magic at the end)");
    uint32_t len;
    std::memcpy(&len, tail, 4);
    GPUDF_EXPECTS(int64_t(len) <= size_ - 12, Parquet, "corrupt footer: its length runs past the start of the file");
    footer_start_ = size_ - 8 - int64_t(len);
    const uint8_t* footer = bytes(footer_start_, len, buf);
    meta_ = parse_file_meta(footer, len);
    columns_ = resolve_schema(meta_);
    int64_t rows = 0;
    for (const RowGroupMeta& g : meta_.row_groups) {
      GPUDF_EXPECTS(g.num_rows >= 0 && g.num_rows <= (int64_t(1) << 40), Parquet, "corrupt footer: a row group's row count");
      rows += g.num_rows;
      for (const ColumnChunkMeta& c : g.columns) {
        GPUDF_EXPECTS(c.total_compressed_size >= 0 && c.data_page_offset >= 0, Parquet, "corrupt footer: a column chunk's offsets");
      }
    }
    GPUDF_EXPECTS(rows == meta_.num_rows, Parquet, "corrupt footer: the row groups' rows do not add up to the file's");
  } catch (...) {
    rethrow_with(name_);
  }
}

std::string ParquetFile::arrow_schema() const {
  for (const auto& [k, v] : meta_.key_values)
    if (k == "ARROW:schema") return v;
  return "";
}

namespace {

struct OutColumn {
  const ColumnSchema* schema;
  int64_t rows = 0;
  BufferPtr values;
  BufferPtr lens;                   // strings: rows + 1 uint32 (slot 0 unused): each row's length,
                                    // then, in place, the offsets when they fit int32
  HostBuffer<uint8_t> valid;        // one byte per row, written only by the chunks that met a null
  std::vector<ChunkOut> chunks;      // one per row group read
};

ColumnPtr assemble(OutColumn& oc) {
  const ColumnSchema& c = *oc.schema;
  int64_t nulls = 0;
  for (const ChunkOut& ch : oc.chunks) nulls += ch.nulls;
  BufferPtr validity;
  if (nulls > 0) {
    for (const ChunkOut& ch : oc.chunks)
      if (!ch.valid_written) std::memset(ch.valid, 1, size_t(ch.rows));
    validity = Buffer::allocate(cpu_device(), size_t(std::max<int64_t>(1, bitmap_bytes(oc.rows))));
    uint8_t* bits = static_cast<uint8_t*>(validity->data());
    const uint8_t* v = oc.valid.data();
    cpu_pool().parallel_for(bitmap_bytes(oc.rows), 1 << 16, [&](int64_t a, int64_t b) {
      for (int64_t k = a; k < b; ++k) {
        uint8_t byte = 0;
        const int64_t r0 = k * 8;
        const int64_t n = std::min<int64_t>(8, oc.rows - r0);
        for (int64_t i = 0; i < n; ++i) byte |= uint8_t(v[r0 + i] & 1) << i;
        bits[k] = byte;
      }
    });
  }
  oc.valid.reset();
  if (!is_string(c.dtype)) return std::make_shared<Column>(cpu_device(), c.dtype, oc.rows, oc.values, nullptr, validity, nulls);
  // Each chunk's bytes start where the chunks before it end; its rows' offsets are the running
  // sum of their lengths from there, written over the lengths when int32 offsets serve.
  int64_t total = 0;
  std::vector<int64_t> byte_base, row_base;
  int64_t r = 0;
  for (const ChunkOut& ch : oc.chunks) {
    byte_base.push_back(total);
    row_base.push_back(r);
    total += int64_t(ch.bytes.size());
    r += ch.rows;
  }
  const TypeId t = (c.dtype == TypeId::Utf8 && total > INT32_MAX) ? TypeId::LargeUtf8 : c.dtype;
  const bool narrow = offset_width(t) == 4;
  BufferPtr offsets = narrow ? oc.lens : Buffer::allocate(cpu_device(), size_t(oc.rows + 1) * 8);
  const uint32_t* lens = reinterpret_cast<const uint32_t*>(oc.lens->data());
  int32_t* off32 = reinterpret_cast<int32_t*>(offsets->data());
  int64_t* off64 = reinterpret_cast<int64_t*>(offsets->data());
  BufferPtr data = Buffer::allocate(cpu_device(), size_t(std::max<int64_t>(1, total)));
  char* bytes = reinterpret_cast<char*>(data->data());
  if (narrow) off32[0] = 0;
  else off64[0] = 0;
  cpu_pool().parallel_for(int64_t(oc.chunks.size()), 1, [&](int64_t a, int64_t b) {
    for (int64_t k = a; k < b; ++k) {
      ChunkOut& ch = oc.chunks[size_t(k)];
      std::memcpy(bytes + byte_base[size_t(k)], ch.bytes.data(), ch.bytes.size());
      int64_t o = byte_base[size_t(k)];
      const int64_t first = row_base[size_t(k)] + 1, end = first + ch.rows;
      if (narrow) {
        for (int64_t i = first; i < end; ++i) off32[i] = int32_t(o += lens[i]);
      } else {
        for (int64_t i = first; i < end; ++i) off64[i] = (o += lens[i]);
      }
      ch = ChunkOut();
    }
  });
  oc.lens.reset();
  return std::make_shared<Column>(cpu_device(), t, oc.rows, data, offsets, validity, nulls);
}

}  // namespace

ParquetResult read_parquet(const ParquetFile& file, const ParquetReadOptions& o, Device& target,
                           const ParquetProgress& progress) {
  const FileMeta& meta = file.meta();
  const std::vector<ColumnSchema>& schema = file.columns();
  std::vector<size_t> cols;
  if (o.all_columns) {
    for (size_t i = 0; i < schema.size(); ++i) cols.push_back(i);
  } else {
    for (const std::string& name : o.columns) {
      size_t i = 0;
      while (i < schema.size() && schema[i].name != name) ++i;
      GPUDF_EXPECTS(i < schema.size(), ColumnNotFound, file.name() + ": no column '" + name + "'");
      cols.push_back(i);
    }
  }
  for (size_t i : cols) {
    GPUDF_EXPECTS(!schema[i].nested, Parquet,
                  file.name() + ": column '" + schema[i].name + "' is nested (" + schema[i].type_text +
                      "); nested columns cannot be read yet, leave it out with `columns`");
  }
  std::vector<int64_t> groups;
  if (o.all_row_groups) {
    for (size_t g = 0; g < meta.row_groups.size(); ++g) groups.push_back(int64_t(g));
  } else {
    for (int64_t g : o.row_groups) {
      GPUDF_EXPECTS(g >= 0 && g < int64_t(meta.row_groups.size()), InvalidArgument,
                    file.name() + ": no row group " + std::to_string(g) + " (the file has " +
                        std::to_string(meta.row_groups.size()) + ")");
      groups.push_back(g);
    }
  }
  // Rows wanted from each group read (n_rows cuts the last ones).
  std::vector<int64_t> take, row0;
  int64_t rows = 0;
  for (int64_t g : groups) {
    const int64_t left = o.n_rows < 0 ? meta.row_groups[size_t(g)].num_rows : std::max<int64_t>(0, o.n_rows - rows);
    row0.push_back(rows);
    take.push_back(std::min(meta.row_groups[size_t(g)].num_rows, left));
    rows += take.back();
  }

  std::vector<OutColumn> out(cols.size());
  for (size_t k = 0; k < cols.size(); ++k) {
    out[k].schema = &schema[cols[k]];
    out[k].rows = rows;
  }
  // Columns the CUDA page decoder reads (the others decode here and are copied over).
  std::vector<char> on_device(cols.size(), 0);
  std::vector<std::vector<DevicePlan>> plans(cols.size());
#ifdef GPUDF_WITH_CUDA
  if (target.kind() == DeviceKind::Cuda && rows > 0) {
    for (size_t k = 0; k < cols.size(); ++k) {
      on_device[k] = device_decodable(*out[k].schema);
      if (on_device[k]) plans[k].resize(groups.size());
    }
  }
#endif
  // The host buffers a CPU-decoded column's chunks write into.
  auto prepare = [&](OutColumn& oc) {
    oc.chunks.resize(groups.size());
    if (!is_string(oc.schema->dtype)) {
      oc.values = Buffer::allocate(cpu_device(), size_t(std::max<int64_t>(1, rows * value_width(oc.schema->dtype))));
    } else {
      oc.lens = Buffer::allocate(cpu_device(), size_t(rows + 1) * sizeof(uint32_t));
    }
    if (oc.schema->max_def > 0) oc.valid.get(size_t(std::max<int64_t>(1, rows)));
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      ChunkOut& ch = oc.chunks[gi];
      ch.rows = take[gi];
      if (oc.values) ch.values = static_cast<uint8_t*>(oc.values->data()) + size_t(row0[gi]) * size_t(value_width(oc.schema->dtype));
      if (oc.lens) ch.lens = reinterpret_cast<uint32_t*>(oc.lens->data()) + row0[gi] + 1;
      if (oc.schema->max_def > 0) ch.valid = oc.valid.data() + row0[gi];
      const ColumnChunkMeta& cm = meta.row_groups[size_t(groups[gi])].columns[size_t(oc.schema->leaf)];
      // PLAIN strings take less than their pages; dictionary-encoded ones may take more (growth).
      if (take[gi] == meta.row_groups[size_t(groups[gi])].num_rows) ch.bytes_hint = cm.total_uncompressed_size;
    }
  };
  for (size_t k = 0; k < cols.size(); ++k)
    if (!on_device[k]) prepare(out[k]);

  struct Task {
    size_t col, group;
  };
  int64_t total_bytes = 0;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    if (take[gi] == 0) continue;
    for (size_t k = 0; k < cols.size(); ++k)
      total_bytes += meta.row_groups[size_t(groups[gi])].columns[size_t(out[k].schema->leaf)].total_compressed_size;
  }
  std::atomic<int64_t> done_bytes{0};
  std::mutex progress_mutex;
  std::vector<std::atomic<bool>> fallback(cols.size());
  // Decodes (or plans, for the device) every chunk of the columns `wanted` picks, in parallel;
  // `second`: the pass that decodes the columns the device decoder gave back.
  auto run = [&](auto wanted, bool second) {
    std::vector<Task> tasks;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      if (take[gi] == 0) continue;
      for (size_t k = 0; k < cols.size(); ++k)
        if (wanted(k)) tasks.push_back({k, gi});
    }
    cpu_pool().parallel_for(int64_t(tasks.size()), 1, [&](int64_t a, int64_t b) {
      HostVector<uint8_t> buf;
      ChunkScratch scratch;
      for (int64_t t = a; t < b; ++t) {
        const Task& task = tasks[size_t(t)];
        OutColumn& oc = out[task.col];
        const int64_t g = groups[task.group];
        const RowGroupMeta& rg = meta.row_groups[size_t(g)];
        const ColumnChunkMeta& cm = rg.columns[size_t(oc.schema->leaf)];
        const bool plan = on_device[task.col] && !second;
        if (!plan || !fallback[task.col].load()) {
          try {
            GPUDF_EXPECTS(cm.physical == oc.schema->physical, Parquet, "the chunk's physical type differs from the schema's");
            int64_t start = cm.data_page_offset;
            if (cm.dictionary_page_offset > 0 && cm.dictionary_page_offset < start) start = cm.dictionary_page_offset;
            const size_t n = size_t(cm.total_compressed_size);
            const uint8_t* p = file.bytes(start, n, buf);
            if (!plan) {
              decode_chunk(*oc.schema, cm.codec, p, n, rg.num_rows, oc.chunks[task.group], scratch);
            } else if (!plan_chunk(*oc.schema, cm.codec, p, n, g, rg.num_rows, take[task.group], scratch,
                                   plans[task.col][task.group])) {
              fallback[task.col] = true;
            }
          } catch (...) {
            rethrow_with(file.name() + ": column '" + oc.schema->name + "', row group " + std::to_string(g));
          }
        }
        if (second) continue;  // counted in the first pass
        const int64_t d = done_bytes.fetch_add(cm.total_compressed_size) + cm.total_compressed_size;
        if (progress) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          progress(d, total_bytes);
        }
      }
    });
  };
  run([&](size_t) { return true; }, false);
  // Columns with a page the device decoder does not take: decoded here after all.
  bool any_fallback = false;
  for (size_t k = 0; k < cols.size(); ++k) {
    if (!fallback[k]) continue;
    any_fallback = true;
    plans[k].clear();
    prepare(out[k]);
  }
  if (any_fallback) run([&](size_t k) { return bool(fallback[k]); }, true);

  ParquetResult result;
  for (size_t k = 0; k < cols.size(); ++k) {
    result.names.push_back(out[k].schema->name);
#ifdef GPUDF_WITH_CUDA
    if (on_device[k] && !fallback[k]) {
      DevicePlan plan;
      for (DevicePlan& p : plans[k])
        if (!p.chunk_groups.empty()) append_plan(plan, std::move(p));
      plans[k].clear();
      result.columns.push_back(decode_on_device(*out[k].schema, plan, file.name() + ": column '" + out[k].schema->name + "'"));
      continue;
    }
#endif
    result.columns.push_back(copy_to_device(assemble(out[k]), target));
  }
  return result;
}

}  // namespace gpudf::parquet
