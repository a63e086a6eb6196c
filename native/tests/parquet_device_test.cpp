// io/parquet_device: files read onto the test device (with --device cuda, the CUDA page decoder)
// give what the CPU reader gives, column by column, byte for byte: every dtype the native writer
// writes, PLAIN and dictionary chunks side by side in one column, nulls in some pages only, no
// nulls at all, row-group and row cuts, a dictionary page followed by PLAIN pages only (a file
// put together page by page), and an index past the dictionary as the same error.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "io/parquet_format.hpp"
#include "io/parquet_reader.hpp"
#include "tests/helpers.hpp"
#include "tests/parquet_files.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {


/// The same rows, validity and values (fixed width: the value bytes of valid rows; null rows'
/// bytes are unspecified), read back to the host.
void expect_same(const ColumnPtr& want_col, const ColumnPtr& got_col, const std::string& what) {
  const ColumnPtr want = to_host(want_col), got = to_host(got_col);
  EXPECT_TRUE(want->type() == got->type());
  EXPECT_EQ(got->size(), want->size());
  EXPECT_EQ(got->null_count(), want->null_count());
  if (got->size() != want->size() || want->type() != got->type()) return;
  if (is_string(want->type())) {
    const bool same = read_strings(want) == read_strings(got);
    if (!same) std::fprintf(stderr, "  strings differ: %s\n", what.c_str());
    EXPECT_TRUE(same);
    return;
  }
  const ColumnView a = want->view(), b = got->view();
  const int64_t w = value_width(a.type);
  int64_t bad = -1;
  for (int64_t i = 0; i < a.size && bad < 0; ++i) {
    if (a.is_valid(i) != b.is_valid(i)) bad = i;
    else if (a.is_valid(i) && std::memcmp(a.data + (a.offset + i) * w, b.data + (b.offset + i) * w, size_t(w)) != 0) bad = i;
  }
  if (bad >= 0) std::fprintf(stderr, "  %s differs at row %lld\n", what.c_str(), static_cast<long long>(bad));
  EXPECT_EQ(bad, int64_t(-1));
}

/// Reads `file` with `o` on the CPU and on the test device and compares every column.
void expect_device_reads_like_cpu(const std::string& file, const parquet::ParquetReadOptions& o, const std::string& what) {
  parquet::ParquetFile f = open_memory(file);
  parquet::ParquetResult cpu = parquet::read_parquet(f, o, cpu_device());
  parquet::ParquetResult dev = parquet::read_parquet(f, o, test_device());
  EXPECT_EQ(dev.columns.size(), cpu.columns.size());
  for (size_t k = 0; k < cpu.columns.size() && k < dev.columns.size(); ++k) {
    EXPECT_TRUE(dev.columns[k]->device().kind() == test_device().kind());
    expect_same(cpu.columns[k], dev.columns[k], what + ", column " + cpu.names[k]);
  }
}

template <typename T>
std::vector<T> values_of(int64_t n, bool low_card, uint64_t seed) {
  std::vector<T> v(static_cast<size_t>(n));
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    // Low cardinality in the first third of the rows (dictionary chunks), distinct values after
    // (PLAIN chunks), so one column holds both kinds.
    const uint64_t r = low_card && i < n / 3 ? x % 5 : x;
    if constexpr (std::is_floating_point_v<T>) v[size_t(i)] = T(int64_t(r % 2000003) - 1000000) / T(8);
    else v[size_t(i)] = T(r);
  }
  return v;
}

}  // namespace

TEST(parquet_device, every_written_dtype_reads_as_on_the_cpu) {
  const int64_t n = 3000;
  std::vector<bool> some_null(static_cast<size_t>(n)), late_null(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    some_null[size_t(i)] = i % 7 != 3;
    late_null[size_t(i)] = i != 2500;  // only the last row group has a null
  }
  std::vector<std::string> names;
  std::vector<ColumnPtr> cols;
  auto add = [&](const std::string& name, ColumnPtr c) {
    names.push_back(name);
    cols.push_back(std::move(c));
  };
  for (int nulls = 0; nulls < 3; ++nulls) {
    const std::vector<bool> valid = nulls == 0 ? std::vector<bool>{} : nulls == 1 ? some_null : late_null;
    const std::string tag = std::to_string(nulls);
    add("i8_" + tag, host_column<int8_t>(TypeId::Int8, values_of<int8_t>(n, true, 1), valid));
    add("i16_" + tag, host_column<int16_t>(TypeId::Int16, values_of<int16_t>(n, true, 2), valid));
    add("u16_" + tag, host_column<uint16_t>(TypeId::UInt16, values_of<uint16_t>(n, true, 3), valid));
    add("i32_" + tag, host_column<int32_t>(TypeId::Int32, values_of<int32_t>(n, true, 4), valid));
    add("u32_" + tag, host_column<uint32_t>(TypeId::UInt32, values_of<uint32_t>(n, true, 5), valid));
    add("i64_" + tag, host_column<int64_t>(TypeId::Int64, values_of<int64_t>(n, true, 6), valid));
    add("u64_" + tag, host_column<uint64_t>(TypeId::UInt64, values_of<uint64_t>(n, false, 7), valid));
    add("f32_" + tag, host_column<float>(TypeId::Float32, values_of<float>(n, true, 8), valid));
    add("f64_" + tag, host_column<double>(TypeId::Float64, values_of<double>(n, true, 9), valid));
    add("date_" + tag, host_column<int32_t>(TypeId::Date32, values_of<int32_t>(n, true, 10), valid));
    add("ts_" + tag, host_column<int64_t>(TypeId::TimestampUs, values_of<int64_t>(n, false, 11), valid));
    std::vector<uint8_t> b(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) b[size_t(i)] = uint8_t((i * 7 / 3) % 2);
    add("bool_" + tag, host_column<uint8_t>(TypeId::Bool, b, valid));
    std::vector<std::optional<std::string>> s;
    for (int64_t i = 0; i < n; ++i) {
      if (!valid.empty() && !valid[size_t(i)]) s.push_back(std::nullopt);
      else if (i < n / 3) s.push_back("k" + std::to_string(i % 4));  // dictionary chunk
      else s.push_back(std::string(size_t(i % 13), char('a' + i % 26)) + std::to_string(i));  // PLAIN
    }
    add("s_" + tag, host_strings(TypeId::Utf8, s));
  }
  for (parquet::Codec codec : {parquet::Codec::Uncompressed, parquet::Codec::Snappy}) {
    const std::string file = write_file(names, cols, codec, 1000);
    parquet::ParquetReadOptions o;
    expect_device_reads_like_cpu(file, o, "all rows");
    o.n_rows = 2345;  // the last group read cut within it
    expect_device_reads_like_cpu(file, o, "2345 rows");
    o.n_rows = 1;
    expect_device_reads_like_cpu(file, o, "1 row");
    o.n_rows = 0;
    expect_device_reads_like_cpu(file, o, "no rows");
    o.n_rows = -1;
    o.all_row_groups = false;
    o.row_groups = {2, 0};
    expect_device_reads_like_cpu(file, o, "row groups 2 and 0");
    o.all_columns = false;
    o.columns = {"s_1", "bool_2", "i8_1"};
    expect_device_reads_like_cpu(file, o, "three columns");
  }
}

TEST(parquet_device, a_column_written_in_many_pages_reads_as_on_the_cpu) {
  // Enough rows that each chunk has several pages of about 1 MB; nulls in one page only.
  const int64_t n = 400000;
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::vector<bool> valid(static_cast<size_t>(n));
  std::vector<std::optional<std::string>> s(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[size_t(i)] = i * 2654435761ll;
    valid[size_t(i)] = !(i > 250000 && i < 250100 && i % 3 == 0);
    if (valid[size_t(i)]) s[size_t(i)] = "row " + std::to_string(i);
  }
  const std::string file = write_file({"v", "s"}, {host_column<int64_t>(TypeId::Int64, v, valid), host_strings(TypeId::Utf8, s)},
                                      parquet::Codec::Snappy, 300000);
  parquet::ParquetReadOptions o;
  expect_device_reads_like_cpu(file, o, "all rows");
  o.n_rows = 250050;
  expect_device_reads_like_cpu(file, o, "cut among the nulls");
}

TEST(parquet_device, an_index_past_the_dictionary_is_the_same_error_on_every_device) {
  std::vector<std::optional<std::string>> s;
  for (int i = 0; i < 64; ++i) s.push_back("key" + std::to_string(i % 3));
  std::string file = write_file({"k"}, {host_strings(TypeId::Utf8, s)}, parquet::Codec::Uncompressed, 64);
  // The data page's indices: bit width 2 and one bit-packed run of 8 groups (header 0x11); all
  // ones makes every index 3, past the dictionary's 3 entries.
  const size_t dict_end = file.find("key2") + 4;
  const size_t at = file.find(std::string("\x02\x11", 2), dict_end);
  EXPECT_TRUE(at != std::string::npos);
  if (at == std::string::npos) return;
  for (size_t i = at + 2; i < at + 18; ++i) file[i] = char(0xFF);
  auto message = [&](Device& dev) {
    parquet::ParquetFile f = open_memory(file);
    try {
      parquet::read_parquet(f, parquet::ParquetReadOptions{}, dev);
    } catch (const Error& e) {
      EXPECT_TRUE(e.code() == ErrorCode::Parquet);
      return std::string(e.what());
    }
    return std::string("nothing thrown");
  };
  const std::string cpu = message(cpu_device());
  EXPECT_EQ(cpu, std::string("mem: column 'k', row group 0: dictionary index 3 out of range (the dictionary has 3 entries)"));
  EXPECT_EQ(message(test_device()), cpu);
}

TEST(parquet_device, a_dictionary_page_before_plain_pages_only_is_not_taken_for_values) {
  // A chunk whose writer gave up on its dictionary before the first data page: a dictionary
  // page, then PLAIN pages only. The dictionary's entries must not be read as values (the
  // device decoder once uploaded its pool, dictionary entries first, as the column). The native
  // writer never writes such a chunk, so the file is put together here page by page.
  const int32_t n = 64;
  std::vector<int64_t> values(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) values[size_t(i)] = int64_t(i) * 977 - 5000;
  const int64_t entries[3] = {111, 222, 333};
  std::string file = "PAR1", dict_body(reinterpret_cast<const char*>(entries), sizeof entries), data_body;
  // Definition levels: 4-byte length, then one RLE run of n ones (header n << 1 as a varint).
  const char levels[] = {3, 0, 0, 0, char(0x80), 0x01, 0x01};
  data_body.append(levels, sizeof levels);
  data_body.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t));
  parquet::ColumnChunkMeta chunk;
  chunk.physical = parquet::Physical::Int64;
  chunk.num_values = n;
  chunk.dictionary_page_offset = int64_t(file.size());
  parquet::encode_dictionary_page_header(file, int32_t(dict_body.size()), int32_t(dict_body.size()), 3);
  file += dict_body;
  chunk.data_page_offset = int64_t(file.size());
  parquet::encode_data_page_header(file, int32_t(data_body.size()), int32_t(data_body.size()), n, parquet::kPlain);
  file += data_body;
  chunk.total_compressed_size = chunk.total_uncompressed_size = int64_t(file.size()) - chunk.dictionary_page_offset;
  parquet::FileMeta meta;
  meta.names = {"v"};
  meta.types = {TypeId::Int64};
  meta.num_rows = n;
  parquet::RowGroupMeta group;
  group.columns = {chunk};
  group.num_rows = n;
  group.file_offset = chunk.dictionary_page_offset;
  group.total_byte_size = group.total_compressed_size = chunk.total_compressed_size;
  meta.row_groups = {group};
  const std::string footer = parquet::encode_file_meta(meta);
  const uint32_t footer_len = uint32_t(footer.size());
  file += footer;
  file.append(reinterpret_cast<const char*>(&footer_len), 4);
  file += "PAR1";

  parquet::ParquetFile f = open_memory(file);
  parquet::ParquetResult cpu = parquet::read_parquet(f, parquet::ParquetReadOptions{}, cpu_device());
  EXPECT_EQ(cpu.columns.size(), size_t(1));
  if (cpu.columns.size() != 1) return;
  const ColumnView v = cpu.columns[0]->view();
  EXPECT_EQ(v.size, int64_t(n));
  EXPECT_EQ(cpu.columns[0]->null_count(), int64_t(0));
  if (v.size == n) EXPECT_TRUE(std::memcmp(v.data, values.data(), values.size() * sizeof(int64_t)) == 0);
  expect_device_reads_like_cpu(file, parquet::ParquetReadOptions{}, "dictionary page, then PLAIN pages");
}
