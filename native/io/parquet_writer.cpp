#include "io/parquet_writer.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "core/transfer.hpp"
#include "io/parquet_pages.hpp"

namespace gpudf::parquet {
namespace {

// Row groups are encoded in batches of at least this many rows, so memory holds about one
// batch of encoded pages however large the frame.
constexpr int64_t kBatchRows = int64_t(1) << 20;

/// Rows [begin, end) of one column: one column chunk of a row group.
struct Chunk {
  size_t column;
  int64_t begin, end;
};

/// One page to encode: rows [begin, end) of chunk `chunk`, or (begin < 0) its dictionary page.
struct PageTask {
  size_t chunk;
  int64_t begin, end;
};

/// Writes to the sink and counts the bytes written (the file offsets of the footer).
class Output {
 public:
  explicit Output(const ByteSink& sink) : sink_(sink) {}
  void write(const std::string& s) { write(s.data(), s.size()); }
  void write(const char* p, size_t n) {
    if (n) sink_(p, n);
    pos_ += int64_t(n);
  }
  int64_t pos() const { return pos_; }

 private:
  const ByteSink& sink_;
  int64_t pos_ = 0;
};

/// Hands encoded pages from the pool to the writing thread in file order: the file is written
/// while later pages are still being compressed. The first failure on either side stops both.
class PageHandoff {
 public:
  explicit PageHandoff(size_t n) : ready_(n, 0) {}
  void ready(size_t k) {
    std::lock_guard<std::mutex> lock(mutex_);
    ready_[k] = 1;
    cv_.notify_all();
  }
  /// Waits for page k; false when the work failed instead.
  bool wait(size_t k) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return ready_[k] || error_; });
    return !error_;
  }
  void fail(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = e;
    cv_.notify_all();
  }
  bool failed() {
    std::lock_guard<std::mutex> lock(mutex_);
    return error_ != nullptr;
  }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<char> ready_;
  std::exception_ptr error_;
};

/// Encodes and writes row groups [g0, g1), appending their descriptions to meta.row_groups.
void write_batch(const std::vector<ColumnView>& views, const ParquetWriteOptions& o, int64_t rows, int64_t g0,
                 int64_t g1, Output& out, FileMeta& meta) {
  std::vector<Chunk> chunks;
  for (int64_t g = g0; g < g1; ++g) {
    const int64_t r0 = g * o.row_group_rows;
    const int64_t r1 = std::min(rows, r0 + o.row_group_rows);
    for (size_t c = 0; c < views.size(); ++c) chunks.push_back({c, r0, r1});
  }
  // Dictionaries first (one task per chunk); then chunk k owns the page tasks
  // [first[k], first[k + 1]), its dictionary page first.
  std::vector<std::optional<Dictionary>> dictionaries(chunks.size());
  cpu_pool().parallel_for(int64_t(chunks.size()), 1, [&](int64_t a, int64_t b) {
    for (int64_t k = a; k < b; ++k) {
      const Chunk& ch = chunks[size_t(k)];
      if (o.dictionary) dictionaries[size_t(k)] = build_dictionary(views[ch.column], ch.begin, ch.end);
    }
  });
  std::vector<PageTask> tasks;
  std::vector<size_t> first;
  for (size_t k = 0; k < chunks.size(); ++k) {
    first.push_back(tasks.size());
    if (dictionaries[k]) tasks.push_back({k, -1, -1});
    const std::vector<int64_t> bounds = page_bounds(views[chunks[k].column], chunks[k].begin, chunks[k].end);
    for (size_t p = 0; p + 1 < bounds.size(); ++p) tasks.push_back({k, bounds[p], bounds[p + 1]});
  }
  first.push_back(tasks.size());

  std::vector<EncodedPage> pages(tasks.size());
  PageHandoff handoff(tasks.size());
  std::thread writer([&] {
    try {
      size_t chunk = 0;
      for (int64_t g = g0; g < g1; ++g) {
        RowGroupMeta rg;
        rg.num_rows = chunks[chunk].end - chunks[chunk].begin;
        rg.file_offset = out.pos();
        for (size_t c = 0; c < views.size(); ++c, ++chunk) {
          ColumnChunkMeta cm;
          cm.physical = column_type(views[c].type).physical;
          cm.codec = o.codec;
          cm.num_values = rg.num_rows;
          cm.data_page_offset = out.pos();
          for (size_t k = first[chunk]; k < first[chunk + 1]; ++k) {
            if (!handoff.wait(k)) return;
            EncodedPage& p = pages[k];
            if (tasks[k].begin < 0) {
              cm.dictionary_page_offset = out.pos();
              cm.data_page_offset = out.pos() + int64_t(p.header.size() + p.body.size());
            }
            out.write(p.header);
            out.write(p.body);
            cm.total_uncompressed_size += int64_t(p.header.size()) + p.uncompressed_body;
            cm.total_compressed_size += int64_t(p.header.size() + p.body.size());
            merge_statistics(cm.stats, p.stats, views[c].type);
            p = EncodedPage();  // free as we go
          }
          rg.total_byte_size += cm.total_uncompressed_size;
          rg.total_compressed_size += cm.total_compressed_size;
          rg.columns.push_back(std::move(cm));
        }
        meta.row_groups.push_back(std::move(rg));
      }
    } catch (...) {
      handoff.fail(std::current_exception());
    }
  });
  // Tasks are handed out in file order, so pages become ready roughly in the order written.
  cpu_pool().parallel_for(int64_t(tasks.size()), 1, [&](int64_t a, int64_t b) {
    for (int64_t k = a; k < b; ++k) {
      if (handoff.failed()) return;
      try {
        const PageTask& t = tasks[size_t(k)];
        const ColumnView& v = views[chunks[t.chunk].column];
        const std::optional<Dictionary>& dict = dictionaries[t.chunk];
        pages[size_t(k)] = t.begin < 0 ? encode_dictionary_page(v, *dict, o.codec, o.zstd_level)
                                       : encode_page(v, t.begin, t.end, o.codec, o.zstd_level, dict ? &*dict : nullptr);
        handoff.ready(size_t(k));
      } catch (...) {
        handoff.fail(std::current_exception());
        return;
      }
    }
  });
  writer.join();
  handoff.rethrow();
}

}  // namespace

void write_parquet(const std::vector<std::string>& names, const std::vector<ColumnPtr>& columns,
                   const ParquetWriteOptions& o, const ByteSink& sink) {
  GPUDF_EXPECTS(names.size() == columns.size(), InvalidArgument, "one name per column");
  GPUDF_EXPECTS(o.row_group_rows > 0, InvalidArgument, "rowGroupSize must be a positive integer");
  std::vector<ColumnPtr> host;
  std::vector<ColumnView> views;
  for (const auto& c : columns) host.push_back(to_host(c));
  for (const auto& c : host) views.push_back(c->view());
  const int64_t rows = views.empty() ? 0 : views[0].size;
  for (const auto& v : views) GPUDF_EXPECTS(v.size == rows, InvalidArgument, "columns must have equal lengths");

  FileMeta meta;
  meta.names = names;
  for (const auto& v : views) meta.types.push_back(v.type);
  meta.num_rows = rows;
  meta.key_values = o.key_values;
  meta.created_by = "gpudf";

  Output out(sink);
  out.write("PAR1", 4);
  const int64_t groups = (rows + o.row_group_rows - 1) / o.row_group_rows;
  const int64_t groups_per_batch = std::max<int64_t>(1, kBatchRows / o.row_group_rows);
  for (int64_t g0 = 0; g0 < groups; g0 += groups_per_batch) {
    write_batch(views, o, rows, g0, std::min(groups, g0 + groups_per_batch), out, meta);
  }
  const std::string footer = encode_file_meta(meta);
  out.write(footer);
  const uint32_t len = uint32_t(footer.size());
  const char tail[8] = {char(len), char(len >> 8), char(len >> 16), char(len >> 24), 'P', 'A', 'R', '1'};
  out.write(tail, 8);
}

}  // namespace gpudf::parquet
