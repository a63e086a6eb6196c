// io/parquet reader: the Thrift compact reader against the writer's encoding and against
// malformed bytes, the Snappy decoder against the compressor, the hybrid and delta decoders on
// hand-assembled bytes, and whole files written by the native writer read back through the
// native reader (every decoded value compared, nulls included), and cut at every length.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "io/parquet_bits.hpp"
#include "io/parquet_reader.hpp"
#include "io/parquet_values.hpp"
#include "io/parquet_writer.hpp"
#include "io/snappy.hpp"
#include "io/thrift_compact.hpp"
#include "tests/helpers.hpp"
#include "tests/parquet_files.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

TEST(parquet_reader, thrift_reader_reads_what_the_writer_wrote) {
  std::string bytes;
  {
    thrift::CompactWriter w(bytes);
    w.field_i32(1, -7);
    w.field_i64(3, int64_t(1) << 40);
    w.field_binary(20, "hello");
    w.begin_struct(21);
    w.field_bool(1, true);
    w.end_struct();
    w.begin_list(22, thrift::CType::I32, 3);
    w.element_i32(1);
    w.element_i32(-2);
    w.element_i32(300);
    w.end_struct();
  }
  thrift::CompactReader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  int16_t id;
  thrift::CType t;
  std::vector<int32_t> list;
  int32_t a = 0;
  int64_t b = 0;
  std::string s;
  bool flag = false;
  while (r.next_field(id, t)) {
    if (id == 1) a = r.read_i32(t);
    else if (id == 3) b = r.read_i64(t);
    else if (id == 20) s = r.read_binary(t);
    else if (id == 21) {
      r.begin_struct();
      int16_t fid;
      thrift::CType ft;
      while (r.next_field(fid, ft)) flag = r.read_bool(ft);
    } else if (id == 22) {
      thrift::CType e;
      const size_t n = r.read_list(t, e);
      for (size_t i = 0; i < n; ++i) list.push_back(r.read_i32(e));
    }
  }
  EXPECT_EQ(a, -7);
  EXPECT_EQ(b, int64_t(1) << 40);
  EXPECT_EQ(s, std::string("hello"));
  EXPECT_TRUE(flag);
  EXPECT_TRUE(list == std::vector<int32_t>({1, -2, 300}));
  EXPECT_EQ(r.position(), bytes.size());
  // Every truncation fails with DecodeError, never reads past the end.
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    thrift::CompactReader rc(reinterpret_cast<const uint8_t*>(bytes.data()), cut);
    bool threw = false;
    try {
      while (rc.next_field(id, t)) rc.skip(t);
    } catch (const thrift::DecodeError&) {
      threw = true;
    }
    EXPECT_TRUE(threw);
  }
  // Deep nesting is refused.
  std::string deep(200, char(0x1C));  // field delta 1, type struct, again and again
  thrift::CompactReader rd(reinterpret_cast<const uint8_t*>(deep.data()), deep.size());
  bool threw = false;
  try {
    while (rd.next_field(id, t)) rd.skip(t);
  } catch (const thrift::DecodeError&) {
    threw = true;
  }
  EXPECT_TRUE(threw);
}

TEST(parquet_reader, snappy_decoder_inverts_the_compressor_and_refuses_garbage) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "value " + std::to_string(i % 97) + ";";
  for (const std::string& in : {std::string(), std::string("a"), text, std::string(100000, 'z')}) {
    std::string packed;
    snappy::compress(reinterpret_cast<const uint8_t*>(in.data()), in.size(), packed);
    std::vector<uint8_t> out(in.size() + 1);
    EXPECT_TRUE(snappy::decompress(reinterpret_cast<const uint8_t*>(packed.data()), packed.size(), out.data(), in.size()));
    EXPECT_TRUE(std::memcmp(out.data(), in.data(), in.size()) == 0);
    EXPECT_FALSE(snappy::decompress(reinterpret_cast<const uint8_t*>(packed.data()), packed.size(), out.data(), in.size() + 1));
    if (packed.size() > 2) {
      EXPECT_FALSE(snappy::decompress(reinterpret_cast<const uint8_t*>(packed.data()), packed.size() - 1, out.data(), in.size()));
    }
  }
  const uint8_t bad_offset[] = {4, 0x01 | (0 << 2), 0x10};  // length 4, a copy before any output
  uint8_t out[4];
  EXPECT_FALSE(snappy::decompress(bad_offset, sizeof bad_offset, out, 4));
}

TEST(parquet_reader, hybrid_runs_and_their_bounds) {
  // RLE run of 5 x 3 (width 2), then a bit-packed group of 8: 0..7 mod 4.
  const uint8_t bytes[] = {0x0A, 0x03, 0x03, 0xE4, 0xE4};
  parquet::HybridDecoder d(bytes, bytes + sizeof bytes, 2, "test");
  uint32_t v[13];
  d.get(v, 13);
  const uint32_t want[13] = {3, 3, 3, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  for (int i = 0; i < 13; ++i) EXPECT_EQ(v[i], want[i]);
  parquet::HybridDecoder short_run(bytes, bytes + 3, 2, "test");
  EXPECT_THROW_CODE(short_run.get(v, 13), ErrorCode::Parquet);
}

TEST(parquet_reader, native_files_read_back_exactly_and_every_truncation_is_an_error) {
  std::vector<std::optional<int64_t>> iv;
  std::vector<std::optional<std::string>> sv;
  std::vector<int64_t> raw;
  std::vector<bool> valid;
  for (int i = 0; i < 3000; ++i) {
    raw.push_back(int64_t(i) * 1000003 - 7);
    valid.push_back(i % 7 != 0);
    sv.push_back(i % 5 == 0 ? std::nullopt : std::optional<std::string>("s" + std::to_string(i % 11)));
  }
  const ColumnPtr ints = host_column<int64_t>(TypeId::Int64, raw, valid);
  const ColumnPtr strs = host_strings(TypeId::Utf8, sv);
  for (parquet::Codec codec : {parquet::Codec::Uncompressed, parquet::Codec::Snappy}) {
    const std::string file = write_file({"i", "s"}, {ints, strs}, codec, 1000);
    parquet::ParquetFile f =
        parquet::ParquetFile::from_memory(reinterpret_cast<const uint8_t*>(file.data()), file.size(), "mem");
    EXPECT_EQ(f.meta().row_groups.size(), size_t(3));
    parquet::ParquetReadOptions o;
    parquet::ParquetResult r = parquet::read_parquet(f, o, cpu_device());
    EXPECT_TRUE(read_values<int64_t>(r.columns[0]) == read_values<int64_t>(ints));
    EXPECT_TRUE(read_strings(r.columns[1]) == sv);
    o.all_row_groups = false;
    o.row_groups = {2};
    o.n_rows = 10;
    o.all_columns = false;
    o.columns = {"s"};
    parquet::ParquetResult part = parquet::read_parquet(f, o, cpu_device());
    EXPECT_EQ(part.columns[0]->size(), int64_t(10));
    EXPECT_TRUE(read_strings(part.columns[0])[1] == sv[2001]);
    for (size_t cut = 0; cut < file.size(); cut += 97) {
      std::string t = file.substr(0, cut);
      EXPECT_THROW_CODE(parquet::ParquetFile::from_memory(reinterpret_cast<const uint8_t*>(t.data()), t.size(), "cut"),
                        ErrorCode::Parquet);
    }
  }
}

TEST(parquet_reader, nulls_met_late_in_a_chunk_or_only_in_some_row_groups_read_back_exactly) {
  // Row groups of 300000 rows, several pages each (the writer cuts a page at about 1 MB): group 0
  // has no null, group 1 one null in its third page only (the rows before it were decoded
  // without validity and must read as valid), group 2 a null every 1000 rows.
  const int64_t n = 900000;
  std::vector<int64_t> i64;
  std::vector<int32_t> i32;
  std::vector<bool> valid;
  std::vector<std::optional<std::string>> sv;
  for (int64_t i = 0; i < n; ++i) {
    const bool v = i < 300000 ? true : i < 600000 ? i != 580001 : i % 1000 != 3;
    i64.push_back(i * 7919 - 3);
    i32.push_back(int32_t(i % 100003) - 50000);
    valid.push_back(v);
    sv.push_back(v ? std::optional<std::string>("v" + std::to_string(i % 4099)) : std::nullopt);
  }
  const ColumnPtr a = host_column<int64_t>(TypeId::Int64, i64, valid);
  const ColumnPtr b = host_column<int32_t>(TypeId::Int32, i32, valid);
  const ColumnPtr s = host_strings(TypeId::Utf8, sv);
  const std::string file = write_file({"a", "b", "s"}, {a, b, s}, parquet::Codec::Snappy, 300000);
  parquet::ParquetFile f = parquet::ParquetFile::from_memory(reinterpret_cast<const uint8_t*>(file.data()), file.size(), "mem");
  EXPECT_EQ(f.meta().row_groups.size(), size_t(3));
  parquet::ParquetReadOptions o;
  parquet::ParquetResult r = parquet::read_parquet(f, o, cpu_device());
  EXPECT_EQ(r.columns[0]->null_count(), a->null_count());
  EXPECT_TRUE(read_values<int64_t>(r.columns[0]) == read_values<int64_t>(a));
  EXPECT_TRUE(read_values<int32_t>(r.columns[1]) == read_values<int32_t>(b));
  EXPECT_TRUE(read_strings(r.columns[2]) == sv);
  // Only the first 590000 rows: group 1 cut after its null.
  o.n_rows = 590000;
  parquet::ParquetResult cut = parquet::read_parquet(f, o, cpu_device());
  const auto want = read_values<int64_t>(a);
  const auto got = read_values<int64_t>(cut.columns[0]);
  EXPECT_EQ(got.size(), size_t(590000));
  EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin()));
  EXPECT_EQ(cut.columns[1]->null_count(), int64_t(1));
  const auto strs = read_strings(cut.columns[2]);
  EXPECT_TRUE(std::equal(strs.begin(), strs.end(), sv.begin()));
}

TEST(parquet_reader, snappy_decoder_fast_copies_match_on_random_repetitive_bytes) {
  // Literals of every short length and back-references at offsets 1..40 (the 8-byte and the
  // byte-by-byte copies), checked byte for byte.
  uint32_t x = 12345;
  auto next = [&] { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
  for (int round = 0; round < 40; ++round) {
    std::string in;
    while (in.size() < size_t(20000 + round * 997)) {
      const uint32_t r = next();
      if (in.size() > 64 && r % 3 != 0) {
        const size_t off = 1 + next() % 40, len = 1 + next() % 70;
        for (size_t k = 0; k < len; ++k) in.push_back(in[in.size() - off]);
      } else {
        for (uint32_t k = 0, len = 1 + next() % 20; k < len; ++k) in.push_back(char('a' + next() % 6));
      }
    }
    std::string packed;
    snappy::compress(reinterpret_cast<const uint8_t*>(in.data()), in.size(), packed);
    std::vector<uint8_t> out(in.size());
    EXPECT_TRUE(snappy::decompress(reinterpret_cast<const uint8_t*>(packed.data()), packed.size(), out.data(), in.size()));
    EXPECT_TRUE(std::memcmp(out.data(), in.data(), in.size()) == 0);
  }
}

TEST(parquet_reader, snappy_decoder_reads_every_element_form_written_by_hand) {
  // Our compressor never writes 4-byte offsets or 2-4 byte literal lengths, and other writers
  // do; this encodes random elements of every form (literal lengths in the tag and in 1-4
  // bytes, copies with 1-, 2- and 4-byte offsets at periods 1..70000) straight from the format,
  // so both the fast and the careful loop of the decoder meet each of them.
  uint32_t x = 777;
  auto next = [&] { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
  auto varint = [](std::string& s, uint64_t v) {
    for (; v >= 0x80; v >>= 7) s.push_back(char(0x80 | (v & 0x7F)));
    s.push_back(char(v));
  };
  for (int round = 0; round < 30; ++round) {
    std::string in, body;
    while (in.size() < size_t(90000 + round * 1231)) {
      const uint32_t kind = next() % 5;
      if (in.empty() || kind == 0) {
        const size_t len = 1 + (next() % 4 == 0 ? next() % 300 : next() % 20);
        const int least = len - 1 < 60 ? 0 : len - 1 < 256 ? 1 : 2;
        const int bytes = least + int(next() % uint32_t(5 - least)) * (least > 0);  // any width that holds len - 1
        body.push_back(char(bytes == 0 ? (len - 1) << 2 : (59 + bytes) << 2));
        for (int b = 0; b < bytes; ++b) body.push_back(char(((len - 1) >> (8 * b)) & 0xFF));
        for (size_t k = 0; k < len; ++k) {
          in.push_back(char(next() & 0xFF));
          body.push_back(in.back());
        }
        continue;
      }
      const size_t room = std::min<size_t>(in.size(), 70000);
      size_t off = kind == 1 ? 1 + next() % std::min<size_t>(room, 15) : 1 + next() % room;
      size_t len;
      if (kind <= 2 && off < 2048) {  // 1-byte offset: length 4..11
        len = 4 + next() % 8;
        body.push_back(char(0x01 | ((len - 4) << 2) | ((off >> 8) << 5)));
        body.push_back(char(off & 0xFF));
      } else if (off < 65536 && kind != 4) {  // 2-byte offset: length 1..64
        len = 1 + next() % 64;
        body.push_back(char(0x02 | ((len - 1) << 2)));
        body.push_back(char(off & 0xFF));
        body.push_back(char(off >> 8));
      } else {  // 4-byte offset
        len = 1 + next() % 64;
        body.push_back(char(0x03 | ((len - 1) << 2)));
        for (int b = 0; b < 4; ++b) body.push_back(char((off >> (8 * b)) & 0xFF));
      }
      for (size_t k = 0; k < len; ++k) in.push_back(in[in.size() - off]);
    }
    std::string packed;
    varint(packed, in.size());
    packed += body;
    std::vector<uint8_t> out(in.size());
    ASSERT_TRUE(snappy::decompress(reinterpret_cast<const uint8_t*>(packed.data()), packed.size(), out.data(), in.size()));
    ASSERT_TRUE(std::memcmp(out.data(), in.data(), in.size()) == 0);
    // Cut anywhere, or pointed before the output's start, it is refused, never read past.
    const size_t cut = 1 + next() % (packed.size() - 1);
    EXPECT_FALSE(snappy::decompress(reinterpret_cast<const uint8_t*>(packed.data()), cut, out.data(), in.size()));
  }
}

TEST(parquet_reader, hybrid_bit_packed_runs_of_every_width_read_in_pieces) {
  // For each width 1..32: a bit-packed run, an RLE run, a second bit-packed run, read back by
  // get() in pieces of random sizes, so pieces start and end inside groups of 8 and the
  // width-specialised whole-group path meets every alignment.
  uint32_t x = 99;
  auto next = [&] { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
  for (int w = 1; w <= 32; ++w) {
    const uint64_t mask = w == 32 ? 0xFFFFFFFFull : (uint64_t(1) << w) - 1;
    std::vector<uint8_t> bytes;
    std::vector<uint32_t> want;
    auto packed_run = [&](int groups) {
      bytes.push_back(uint8_t((groups << 1) | 1));  // groups < 64: a one-byte header
      std::vector<uint8_t> body(size_t(groups) * size_t(w), 0);
      for (int i = 0; i < groups * 8; ++i) {
        const uint32_t v = uint32_t(next() & mask);
        want.push_back(v);
        for (int b = 0; b < w; ++b)
          if ((v >> b) & 1) body[size_t(i * w + b) / 8] |= uint8_t(1u << ((i * w + b) % 8));
      }
      bytes.insert(bytes.end(), body.begin(), body.end());
    };
    packed_run(37);
    const uint32_t rv = uint32_t(next() & mask);
    bytes.push_back(uint8_t(20 << 1));  // an RLE run of 20
    for (int b = 0; b < (w + 7) / 8; ++b) bytes.push_back(uint8_t(rv >> (8 * b)));
    want.insert(want.end(), 20, rv);
    packed_run(5);
    parquet::HybridDecoder d(bytes.data(), bytes.data() + bytes.size(), w, "test");
    std::vector<uint32_t> got(want.size());
    size_t at = 0;
    while (at < want.size()) {
      const size_t piece = std::min<size_t>(want.size() - at, 1 + next() % 29);
      d.get(got.data() + at, int64_t(piece));
      at += piece;
    }
    ASSERT_TRUE(got == want);
  }
}
