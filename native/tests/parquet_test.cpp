// io/parquet: the Snappy compressor against a block decoder written here from the format
// description, the Thrift compact encoder against hand-assembled bytes, definition levels
// against a hybrid RLE/bit-packed decoder, and the file frame (magic, footer length) of a
// written table whose columns live on the test device.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "io/parquet_pages.hpp"
#include "io/parquet_writer.hpp"
#include "io/snappy.hpp"
#include "io/thrift_compact.hpp"
#include "io/zstd_codec.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

uint64_t read_varint(const std::string& s, size_t& pos) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    GPUDF_EXPECTS(pos < s.size(), Internal, "varint runs past the end");
    const uint8_t b = uint8_t(s[pos++]);
    v |= uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
}

/// Snappy block decoder (the format's rules; throws on malformed input).
std::string snappy_decompress(const std::string& in) {
  size_t pos = 0;
  const uint64_t length = read_varint(in, pos);
  std::string out;
  while (pos < in.size()) {
    const uint8_t tag = uint8_t(in[pos++]);
    size_t len = 0, offset = 0;
    switch (tag & 3) {
      case 0: {  // literal
        len = (tag >> 2) + 1;
        if (len > 60) {
          const int bytes = int(len) - 60;
          len = 0;
          for (int i = 0; i < bytes; ++i) len |= size_t(uint8_t(in.at(pos++))) << (8 * i);
          len += 1;
        }
        GPUDF_EXPECTS(pos + len <= in.size(), Internal, "literal runs past the end");
        out.append(in, pos, len);
        pos += len;
        continue;
      }
      case 1:
        len = ((tag >> 2) & 7) + 4;
        offset = (size_t(tag >> 5) << 8) | uint8_t(in.at(pos++));
        break;
      case 2:
        len = (tag >> 2) + 1;
        offset = uint8_t(in.at(pos)) | (size_t(uint8_t(in.at(pos + 1))) << 8);
        pos += 2;
        break;
      default:
        len = (tag >> 2) + 1;
        offset = 0;
        for (int i = 0; i < 4; ++i) offset |= size_t(uint8_t(in.at(pos++))) << (8 * i);
        break;
    }
    GPUDF_EXPECTS(offset > 0 && offset <= out.size(), Internal, "copy offset out of range");
    for (size_t i = 0; i < len; ++i) out.push_back(out[out.size() - offset]);  // may overlap
  }
  GPUDF_EXPECTS(out.size() == length, Internal, "length does not match the preamble");
  return out;
}

std::string snappy_compress(const std::string& s) {
  std::string out = "prefix";  // compress() appends
  snappy::compress(reinterpret_cast<const uint8_t*>(s.data()), s.size(), out);
  EXPECT_EQ(out.substr(0, 6), std::string("prefix"));
  return out.substr(6);
}

/// `n` values of `w` bits in the RLE / bit-packed hybrid starting at s[pos].
std::vector<uint32_t> decode_hybrid(const std::string& s, size_t pos, int64_t n, int w) {
  std::vector<uint32_t> out;
  while (int64_t(out.size()) < n) {
    const uint64_t header = read_varint(s, pos);
    if (header & 1) {
      const uint64_t count = (header >> 1) * 8;
      for (uint64_t k = 0; k < count; ++k) {
        uint32_t v = 0;
        for (int b = 0; b < w; ++b) {
          const uint64_t bit = k * uint64_t(w) + uint64_t(b);
          v |= uint32_t((uint8_t(s.at(pos + bit / 8)) >> (bit % 8)) & 1) << b;
        }
        out.push_back(v);
      }
      pos += size_t((header >> 1) * uint64_t(w));
    } else {
      uint32_t v = 0;
      for (int b = 0; b < (w + 7) / 8; ++b) v |= uint32_t(uint8_t(s.at(pos++))) << (8 * b);
      out.insert(out.end(), size_t(header >> 1), v);
    }
  }
  EXPECT_EQ(pos, s.size());
  out.resize(size_t(n));
  return out;
}

/// Bit-width-1 levels of the RLE / bit-packed hybrid, after the 4-byte length.
std::vector<bool> decode_levels(const std::string& s, int64_t n) {
  uint32_t length;
  std::memcpy(&length, s.data(), 4);
  EXPECT_EQ(size_t(length) + 4, s.size());
  std::vector<bool> out;
  for (uint32_t v : decode_hybrid(s, 4, n, 1)) out.push_back(v != 0);
  return out;
}

}  // namespace

TEST(parquet, snappy_round_trips_every_shape_of_input) {
  std::vector<std::string> inputs = {"", "a", "abcd", std::string(15, 'x'), std::string(16, 'x'),
                                     std::string(17, 'y'), "abcabcabcabcabcabcabcabcabc0123456789"};
  const std::vector<uint8_t> noise = random_bytes(200000, 7);
  inputs.emplace_back(noise.begin(), noise.end());             // incompressible, long literals
  inputs.emplace_back(300000, '\0');                           // long matches, several fragments
  std::string text;
  Rng rng(3);
  while (text.size() < 250000) text += "id" + std::to_string(rng.next() % 1000) + ",";
  inputs.push_back(text);                                      // short repeats, 2-byte offsets
  std::string mixed;
  for (int k = 0; k < 40; ++k) {
    mixed.append(noise.begin() + k * 1000, noise.begin() + k * 1000 + 70 + k * 37);
    mixed.append(size_t(5 + k * 11), char('a' + k % 26));
  }
  inputs.push_back(mixed);
  for (const std::string& in : inputs) {
    SCOPED_TRACE("size " + std::to_string(in.size()));
    const std::string packed = snappy_compress(in);
    EXPECT_TRUE(packed.size() <= snappy::max_compressed_length(in.size()));
    EXPECT_TRUE(snappy_decompress(packed) == in);
  }
  EXPECT_TRUE(snappy_compress(std::string(300000, '\0')).size() < 20000);
  // zlib -1 gets 34% here; this compressor about 50%.
  EXPECT_TRUE(snappy_compress(text).size() < text.size() * 6 / 10);
}

TEST(parquet, thrift_compact_encoding_matches_hand_assembled_bytes) {
  std::string out;
  thrift::CompactWriter w(out);
  w.field_i32(1, 5);             // delta 1, type i32, zigzag 10
  w.field_i64(3, -1);            // delta 2, type i64, zigzag 1
  w.begin_struct(5);             // delta 2, type struct
  w.field_i32(1, 300);           // zigzag 600 = 0xD8 0x04
  w.end_struct();
  w.field_binary(20, "ab");      // delta 15
  w.field_bool(40, true);        // delta 20: long form, zigzag(40) = 80
  w.begin_list(41, thrift::CType::I32, 3);
  for (int v : {0, -1, 1}) w.element_i32(v);
  w.begin_list(42, thrift::CType::Struct, 20);  // 20 elements: size in a varint
  for (int k = 0; k < 20; ++k) {
    w.begin_element();
    w.field_i8(1, int8_t(k));
    w.end_struct();
  }
  w.end_struct();
  std::string want = {0x15, 0x0A, 0x26, 0x01, 0x2C, 0x15, char(0xD8), 0x04, 0x00,
                      char(0xF8), 0x02, 'a', 'b', 0x01, 0x50, 0x19, 0x35, 0x00, 0x01, 0x02,
                      0x19, char(0xFC), 0x14};
  for (int k = 0; k < 20; ++k) want += {0x13, char(k), 0x00};
  want += '\0';
  EXPECT_EQ(out, want);
}

TEST(parquet, definition_levels_decode_to_the_validity) {
  for (Pattern p : kPatterns) {
    for (int64_t offset : {0, 3, 8, 13}) {
      for (int64_t n : {1, 7, 8, 9, 64, 65, 1000}) {
        SCOPED_TRACE(std::string(pattern_name(p)) + " offset=" + std::to_string(offset) + " n=" + std::to_string(n));
        const std::vector<bool> flags = make_flags(p, n, uint64_t(n * 31 + offset));
        const std::vector<uint8_t> bits = pack_bits(flags, offset, /*filler=*/true);
        std::string out;
        parquet::put_definition_levels(out, bits.data(), offset, n, count_false(flags));
        EXPECT_EQ(decode_levels(out, n), flags);
      }
    }
  }
}

TEST(parquet, hybrid_encoding_of_indices_decodes_for_every_bit_width) {
  Rng rng(11);
  for (int w : {1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32}) {
    for (int64_t n : {1, 7, 8, 9, 16, 17, 100, 1000}) {
      SCOPED_TRACE("w=" + std::to_string(w) + " n=" + std::to_string(n));
      const uint64_t top = w == 32 ? 0xFFFFFFFFull : (uint64_t(1) << w) - 1;
      // Runs of every length (long ones become RLE runs) between random stretches.
      std::vector<uint32_t> values;
      while (int64_t(values.size()) < n) {
        const uint32_t v = uint32_t(rng.next() & top);
        const int64_t run = rng.coin(30) ? int64_t(rng.next() % 40) + 1 : 1;
        for (int64_t k = 0; k < run && int64_t(values.size()) < n; ++k) values.push_back(v);
      }
      std::string out;
      parquet::put_hybrid(out, values.data(), n, w);
      EXPECT_EQ(decode_hybrid(out, 0, n, w), values);
    }
  }
  // A long run costs a few bytes.
  std::vector<uint32_t> same(100000, 5);
  std::string out;
  parquet::put_hybrid(out, same.data(), int64_t(same.size()), 3);
  EXPECT_TRUE(out.size() <= 4);
}

TEST(parquet, string_dictionary_indexes_each_distinct_value_once) {
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 5000; ++i)
    values.push_back(i % 7 == 3 ? std::nullopt : std::optional<std::string>("k" + std::to_string(i % 300)));
  ColumnPtr c = host_strings(TypeId::Utf8, values);
  ColumnView v = c->view();
  auto d = parquet::build_dictionary(v, 100, 5000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->entries.size(), size_t(300));
  EXPECT_EQ(d->bit_width, 9);
  for (int64_t r = 100; r < 5000; ++r) {
    if (!values[size_t(r)]) continue;
    const int64_t e = d->entries[d->indices[size_t(r - 100)]];
    EXPECT_EQ(values[size_t(e)], values[size_t(r)]);
  }
  EXPECT_EQ(*values[size_t(d->min_entry)], std::string("k0"));
  EXPECT_EQ(*values[size_t(d->max_entry)], std::string("k99"));
  // Mostly distinct values: no dictionary.
  std::vector<std::optional<std::string>> distinct;
  for (int i = 0; i < 1000; ++i) distinct.push_back("v" + std::to_string(i));
  EXPECT_FALSE(parquet::build_dictionary(host_strings(TypeId::Utf8, distinct)->view(), 0, 1000).has_value());
}

TEST(parquet, int32_page_holds_levels_then_the_non_null_values) {
  std::vector<int32_t> values = {7, -1, 42, 5, 2147483647};
  std::vector<bool> valid = {true, false, true, true, true};
  ColumnPtr c = host_column(TypeId::Int32, values, valid);
  // Rows 1..4 of the column: levels 0 1 1 1, values 42 5 INT32_MAX.
  parquet::EncodedPage page = parquet::encode_page(c->view(), 1, 5, parquet::Codec::Uncompressed, 1);
  EXPECT_EQ(page.stats.null_count, 1);
  ASSERT_TRUE(page.stats.has_min_max);
  int32_t lo, hi;
  std::memcpy(&lo, page.stats.min.data(), 4);
  std::memcpy(&hi, page.stats.max.data(), 4);
  EXPECT_EQ(lo, 5);
  EXPECT_EQ(hi, 2147483647);
  uint32_t levels_len;
  std::memcpy(&levels_len, page.body.data(), 4);
  EXPECT_EQ(decode_levels(page.body.substr(0, 4 + levels_len), 4), (std::vector<bool>{false, true, true, true}));
  std::vector<int32_t> got(3);
  ASSERT_EQ(page.body.size(), 4 + levels_len + 12);
  std::memcpy(got.data(), page.body.data() + 4 + levels_len, 12);
  EXPECT_EQ(got, (std::vector<int32_t>{42, 5, 2147483647}));
  EXPECT_EQ(page.uncompressed_body, int64_t(page.body.size()));
}

TEST(parquet, string_pages_split_at_the_byte_budget) {
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 5000; ++i) values.push_back(std::string(size_t(500 + i % 7), 'a'));
  ColumnPtr c = host_strings(TypeId::Utf8, values);
  const std::vector<int64_t> bounds = parquet::page_bounds(c->view(), 10, 5000);
  ASSERT_TRUE(bounds.size() >= 3);
  EXPECT_EQ(bounds.front(), 10);
  EXPECT_EQ(bounds.back(), 5000);
  for (size_t k = 0; k + 1 < bounds.size(); ++k) {
    EXPECT_TRUE(bounds[k] < bounds[k + 1]);
    // Each page but the last carries about kPageBytes (within one value).
    if (k + 2 < bounds.size()) EXPECT_TRUE((bounds[k + 1] - bounds[k]) * 511 >= parquet::kPageBytes);
  }
}

TEST(parquet, file_has_magic_at_both_ends_and_its_footer_length) {
  std::vector<int64_t> ints(1000);
  std::vector<bool> valid(1000);
  for (int i = 0; i < 1000; ++i) {
    ints[size_t(i)] = int64_t(i) * 1000003;
    valid[size_t(i)] = i % 3 != 0;
  }
  std::vector<std::optional<std::string>> strings;
  for (int i = 0; i < 1000; ++i) strings.push_back(i % 5 ? std::optional<std::string>("s" + std::to_string(i)) : std::nullopt);
  std::vector<ColumnPtr> columns = {on_test_device(host_column(TypeId::Int64, ints, valid)),
                                    on_test_device(host_strings(TypeId::Utf8, strings))};
  for (parquet::Codec codec : {parquet::Codec::Uncompressed, parquet::Codec::Snappy, parquet::Codec::Zstd}) {
    parquet::ParquetWriteOptions o;
    o.codec = codec;
    o.row_group_rows = 300;
    std::string file;
    parquet::write_parquet({"a", "b"}, columns, o, [&](const char* p, size_t n) { file.append(p, n); });
    ASSERT_TRUE(file.size() > 12);
    EXPECT_EQ(file.substr(0, 4), std::string("PAR1"));
    EXPECT_EQ(file.substr(file.size() - 4), std::string("PAR1"));
    uint32_t footer;
    std::memcpy(&footer, file.data() + file.size() - 8, 4);
    EXPECT_TRUE(footer > 0 && footer + 12 <= file.size());
  }
  parquet::ParquetWriteOptions bad;
  bad.row_group_rows = 0;
  EXPECT_THROW_CODE(parquet::write_parquet({"a", "b"}, columns, bad, [](const char*, size_t) {}), ErrorCode::InvalidArgument);
}

TEST(parquet, zstd_loads_from_the_system_library) {
  // libzstd1 is a required package on Debian and Ubuntu; elsewhere this only reports.
  if (!zstd::available()) return;
  std::string out;
  const std::string in(100000, 'z');
  zstd::compress(reinterpret_cast<const uint8_t*>(in.data()), in.size(), 1, out);
  EXPECT_TRUE(out.size() < 1000);
  EXPECT_EQ(uint8_t(out[0]), 0x28);  // zstd frame magic 0xFD2FB528, little endian
}

TEST(parquet, stored_zstd_frames_decode_with_and_without_libzstd) {
  for (size_t n : {size_t(0), size_t(1), size_t(131071), size_t(131072), size_t(131073), size_t(300000)}) {
    const std::vector<uint8_t> in = random_bytes(n, 7 + n);
    std::string frame;
    zstd::store(in.data(), in.size(), frame);
    EXPECT_EQ(frame.size(), 13 + n + 3 * std::max<size_t>(1, (n + 131071) / 131072));  // header, blocks
    std::vector<uint8_t> back(n + 1);
    const auto* f = reinterpret_cast<const uint8_t*>(frame.data());
    EXPECT_TRUE(zstd::decode_stored(f, frame.size(), back.data(), n));
    EXPECT_TRUE(std::equal(in.begin(), in.end(), back.begin()));
    EXPECT_TRUE(!zstd::decode_stored(f, frame.size(), back.data(), n + 1));  // not what it holds
    if (frame.size() > 13) EXPECT_TRUE(!zstd::decode_stored(f, frame.size() - 1, back.data(), n));  // cut short
    if (zstd::available()) {  // libzstd reads the frame as any zstd
      std::fill(back.begin(), back.end(), uint8_t(0));
      EXPECT_TRUE(zstd::decompress(f, frame.size(), back.data(), n));
      EXPECT_TRUE(std::equal(in.begin(), in.end(), back.begin()));
    }
  }
  // An RLE block (type 1) after a skippable frame: 5 copies of 'q'.
  const uint8_t rle[] = {0x50, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 9, 9,  // skippable frame of 2 bytes
                         0x28, 0xB5, 0x2F, 0xFD, 0x20, 5,            // single segment, 1-byte size
                         uint8_t(1 | 1 << 1 | 5 << 3), 0, 0, 'q'};
  uint8_t five[5] = {};
  EXPECT_TRUE(zstd::decode_stored(rle, sizeof rle, five, 5));
  EXPECT_EQ(std::string(reinterpret_cast<char*>(five), 5), std::string("qqqqq"));
  if (zstd::available()) {  // a compressed block needs libzstd
    const std::string z(100000, 'z');
    std::string packed;
    zstd::compress(reinterpret_cast<const uint8_t*>(z.data()), z.size(), 1, packed);
    std::vector<uint8_t> out(z.size());
    EXPECT_TRUE(!zstd::decode_stored(reinterpret_cast<const uint8_t*>(packed.data()), packed.size(), out.data(), out.size()));
  }
}
