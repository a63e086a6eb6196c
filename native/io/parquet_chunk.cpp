#include "io/parquet_chunk.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "io/codec_libs.hpp"
#include "io/parquet_values.hpp"
#include "io/snappy.hpp"
#include "io/zstd_codec.hpp"

namespace gpudf::parquet {

bool codec_readable(Codec codec, std::string& library) {
  switch (codec) {
    case Codec::Uncompressed:
    case Codec::Snappy: return true;
    case Codec::Zstd: library = "libzstd.so.1"; return zstd::available();
    case Codec::Gzip: library = codecs::kZlib; return codecs::zlib_available();
    case Codec::Lz4:
    case Codec::Lz4Raw: library = codecs::kLz4; return codecs::lz4_available();
    case Codec::Brotli: library = codecs::kBrotli; return codecs::brotli_available();
    default: library = ""; return false;
  }
}

const uint8_t* decompress(Codec codec, const uint8_t* src, size_t n, size_t dst_size, PageBuffer& buf) {
  if (codec == Codec::Uncompressed) {
    GPUDF_EXPECTS(n == dst_size, Parquet, "an uncompressed page whose sizes disagree");
    return src;
  }
  std::string library;
  if (codec != Codec::Zstd && !codec_readable(codec, library)) {
    GPUDF_EXPECTS(!library.empty(), Parquet, std::string("unsupported compression codec ") + codec_name(codec));
    GPUDF_FAIL(Parquet, std::string("the ") + codec_name(codec) + " codec needs " + library + ", which could not be loaded");
  }
  uint8_t* dst = buf.get(std::max<size_t>(dst_size, 1));
  bool ok = false;
  switch (codec) {
    case Codec::Snappy: ok = snappy::decompress(src, n, dst, dst_size); break;
    case Codec::Zstd: ok = zstd::decompress(src, n, dst, dst_size); break;
    case Codec::Gzip: ok = codecs::gunzip(src, n, dst, dst_size); break;
    case Codec::Lz4Raw: ok = codecs::lz4_raw(src, n, dst, dst_size); break;
    case Codec::Lz4: ok = codecs::lz4_hadoop(src, n, dst, dst_size); break;
    case Codec::Brotli: ok = codecs::brotli(src, n, dst, dst_size); break;
    default: break;
  }
  GPUDF_EXPECTS(ok || codec_readable(codec, library), Parquet,
                "the ZSTD codec needs " + library + ", which could not be loaded (only stored zstd blocks read without it)");
  GPUDF_EXPECTS(ok, Parquet, std::string("a page fails to decompress (") + codec_name(codec) + ")");
  return dst;
}

namespace {

using Scratch = ChunkScratch;

/// Definition levels of n rows (bit width 1: flat optional columns) into s.levels; the count of
/// valid rows. A page whose levels are one run of valid rows leaves s.levels unwritten (callers
/// read them only when some row is null).
int64_t read_levels(const uint8_t* p, const uint8_t* end, int64_t n, int max_def, Scratch& s) {
  if (n == 0) return 0;
  HybridDecoder dec(p, end, bit_width_of(uint64_t(max_def)), "definition levels");
  uint32_t run;
  if (dec.run_covers(n, run) && run == uint32_t(max_def)) return n;
  s.levels.resize(size_t(n));
  dec.get(s.levels.data(), n);
  int64_t valid = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t l = s.levels[size_t(i)];
    GPUDF_EXPECTS(l <= uint32_t(max_def), Parquet, "a definition level above the column's maximum");
    valid += l == uint32_t(max_def);
  }
  return valid;
}

/// Writes `take` rows of a decoded page (valid values dense in s) at row `row` of out;
/// `has_nulls`: the page has null rows (its levels are in s.levels).
void scatter(const ColumnSchema& c, const Scratch& s, bool has_nulls, int64_t take, int64_t row, ChunkOut& out) {
  if (take == 0) return;  // a page of no rows (its buffers may be empty: no memcpy from null)
  const int max_def = c.max_def;
  auto valid_at = [&](int64_t i) { return !has_nulls || s.levels[size_t(i)] == uint32_t(max_def); };
  if (has_nulls && !out.valid_written) {  // the rows before this page were all valid
    std::memset(out.valid, 1, size_t(row));
    out.valid_written = true;
  }
  uint8_t* const valid = out.valid_written ? out.valid : nullptr;
  if (is_string(c.dtype)) {
    // The bytes were appended to out.bytes by the decoder; the rows' lengths go beside them.
    uint32_t* lens = out.lens + row;
    if (!has_nulls) {
      std::memcpy(lens, s.lens.data(), size_t(take) * sizeof(uint32_t));
      if (valid) std::memset(valid + row, 1, size_t(take));
      return;
    }
    size_t j = 0;
    for (int64_t i = 0; i < take; ++i) {
      const bool v = valid_at(i);
      lens[i] = v ? s.lens[j++] : 0;
      out.nulls += !v;
      if (valid) valid[row + i] = v;
    }
    return;
  }
  const size_t sw = size_t(stored_width(c));
  const size_t dw = size_t(value_width(c.dtype));
  uint8_t* dst = out.values + size_t(row) * dw;
  const uint8_t* src = s.dense.data();
  const bool var_src = c.physical == Physical::ByteArray;  // decimals in BYTE_ARRAY
  if (!has_nulls && c.conv == Conv::Copy) {
    std::memcpy(dst, src, size_t(take) * dw);
    if (valid) std::memset(valid + row, 1, size_t(take));
    return;
  }
  size_t j = 0, byte_pos = 0;
  const bool fixed_conv = c.conv != Conv::DecBytes && c.conv != Conv::Bytes;
  const FixedConversion fc = fixed_conv ? fixed_conversion(c) : FixedConversion{Conv::Copy, 0, 0};
  for (int64_t i = 0; i < take; ++i) {
    const bool v = valid_at(i);
    if (valid) valid[row + i] = v;
    if (!v) {
      std::memset(dst + size_t(i) * dw, 0, dw);
      ++out.nulls;
      continue;
    }
    if (var_src) {
      const uint32_t len = s.lens[j++];
      convert_value(c, src + byte_pos, len, dst + size_t(i) * dw);
      byte_pos += len;
    } else if (c.conv == Conv::Copy && dw == 4) {
      std::memcpy(dst + size_t(i) * 4, src + j++ * 4, 4);
    } else if (c.conv == Conv::Copy && dw == 8) {
      std::memcpy(dst + size_t(i) * 8, src + j++ * 8, 8);
    } else if (fixed_conv) {
      convert_fixed(fc, src + j++ * sw, dst + size_t(i) * dw);
    } else {
      convert_value(c, src + j++ * sw, sw, dst + size_t(i) * dw);
    }
  }
}

/// Decodes `valid` values of a page into s (dense) / out.bytes (strings).
void decode_values(const ColumnSchema& c, int32_t encoding, ByteReader in, int64_t valid, const PageDictionary* dict,
                   Scratch& s, ChunkOut& out) {
  if (c.physical == Physical::ByteArray) {
    s.lens.resize(size_t(valid));
    if (is_string(c.dtype)) {
      decode_byte_arrays(c, encoding, in, valid, dict, s.lens.data(), out.bytes);
    } else {
      HostString tmp;
      decode_byte_arrays(c, encoding, in, valid, dict, s.lens.data(), tmp);
      s.dense.assign(tmp.begin(), tmp.end());
    }
    return;
  }
  const size_t sw = size_t(stored_width(c));
  s.dense.resize(size_t(valid) * sw);
  decode_fixed(c, encoding, in, valid, dict, s.dense.data());
  if (is_string(c.dtype)) {  // FIXED_LEN_BYTE_ARRAY read as bytes
    s.lens.assign(size_t(valid), uint32_t(sw));
    out.bytes.append(reinterpret_cast<const char*>(s.dense.data()), s.dense.size());
  }
}

}  // namespace

void walk_chunk(const ColumnSchema& c, Codec codec, const uint8_t* data, size_t size, int64_t group_rows, int64_t rows,
                ChunkScratch& s, const std::function<void(const PageHeader&, ByteReader)>& on_dictionary,
                const std::function<void(const DataPage&)>& on_data) {
  bool have_dict = false;
  size_t pos = 0;
  int64_t done = 0;  // rows of the group walked (all of a page, even past `rows`)
  while (done < rows) {
    GPUDF_EXPECTS(pos < size, Parquet,
                  "the column chunk ends after " + std::to_string(done) + " of its " + std::to_string(group_rows) + " rows");
    const PageHeader h = parse_page_header(data + pos, size - pos);
    const size_t body_at = pos + h.header_size;
    GPUDF_EXPECTS(size_t(h.compressed_size) <= size - body_at, Parquet, "a page runs past the end of its column chunk");
    const uint8_t* body = data + body_at;
    pos = body_at + size_t(h.compressed_size);
    if (h.type == PageType::Index) continue;
    if (h.type == PageType::Dictionary) {
      GPUDF_EXPECTS(!have_dict, Parquet, "a second dictionary page in one column chunk");
      GPUDF_EXPECTS(h.encoding == kPlain || h.encoding == kPlainDictionary, Parquet, "a dictionary page not PLAIN-encoded");
      const uint8_t* p = decompress(codec, body, size_t(h.compressed_size), size_t(h.uncompressed_size), s.page);
      on_dictionary(h, ByteReader{p, p + h.uncompressed_size});
      have_dict = true;
      continue;
    }
    GPUDF_EXPECTS(h.type == PageType::Data || h.type == PageType::DataV2, Parquet,
                  "unknown page type " + std::to_string(int(h.type)));
    DataPage page{&h, h.num_values, done};
    const int64_t n = page.values;
    GPUDF_EXPECTS(n <= group_rows - done, Parquet,
                  "levels do not add up: the pages hold more values than the row group's " + std::to_string(group_rows) + " rows");
    if (h.type == PageType::Data) {
      const uint8_t* p = decompress(codec, body, size_t(h.compressed_size), size_t(h.uncompressed_size), s.page);
      ByteReader r{p, p + h.uncompressed_size};
      if (c.max_def > 0) {
        GPUDF_EXPECTS(h.def_encoding == kRle, Parquet, std::string("definition levels in ") + encoding_name(h.def_encoding));
        r.need(4, "definition levels");
        uint32_t len;
        std::memcpy(&len, r.p, 4);
        r.p += 4;
        r.need(len, "definition levels");
        page.levels = ByteReader{r.p, r.p + len};
        r.p += len;
      }
      page.data = r;
    } else {
      GPUDF_EXPECTS(h.num_rows == n || h.num_rows == 0, Parquet, "levels do not add up: a v2 page's rows and values differ");
      const size_t levels = size_t(h.rep_bytes) + size_t(h.def_bytes);
      GPUDF_EXPECTS(levels <= size_t(h.compressed_size) && levels <= size_t(h.uncompressed_size), Parquet,
                    "a v2 page's levels are longer than the page");
      if (c.max_def > 0) {
        page.levels = ByteReader{body + h.rep_bytes, body + levels};
      } else {
        GPUDF_EXPECTS(h.num_nulls == 0, Parquet, "a required column's page has nulls");
      }
      const size_t packed = size_t(h.compressed_size) - levels, raw = size_t(h.uncompressed_size) - levels;
      const uint8_t* p = h.is_compressed ? decompress(codec, body + levels, packed, raw, s.page) : body + levels;
      GPUDF_EXPECTS(h.is_compressed || packed == raw, Parquet, "an uncompressed v2 page whose sizes disagree");
      page.data = ByteReader{p, p + raw};
    }
    on_data(page);
    done += n;
  }
  GPUDF_EXPECTS(rows < group_rows || done == group_rows, Parquet,
                "levels do not add up: the pages hold " + std::to_string(done) + " values for " + std::to_string(group_rows) + " rows");
}

void check_page_nulls(const DataPage& page, int64_t valid) {
  if (page.header->type == PageType::DataV2 && page.levels.p) {
    GPUDF_EXPECTS(page.values - valid == page.header->num_nulls, Parquet,
                  "levels do not add up: a v2 page's null count disagrees with its levels");
  }
}

void decode_chunk(const ColumnSchema& c, Codec codec, const uint8_t* data, size_t size, int64_t group_rows,
                  ChunkOut& out, ChunkScratch& s) {
  const int64_t rows = out.rows;
  if (is_string(c.dtype)) {
    out.bytes.reserve(size_t(std::max<int64_t>(0, out.bytes_hint)));
  }
  // Fixed-width values stored as the column keeps them decode straight into the column.
  const bool direct = !is_string(c.dtype) && c.physical != Physical::ByteArray && c.conv == Conv::Copy &&
                      stored_width(c) == value_width(c.dtype);
  PageDictionary dict;
  bool have_dict = false;
  auto on_dictionary = [&](const PageHeader& h, ByteReader in) {
    read_dictionary(c, in, h.num_values, dict);
    have_dict = true;
  };
  auto on_data = [&](const DataPage& page) {
    const PageHeader& h = *page.header;
    const int64_t n = page.values, done = page.row;
    int64_t valid = n;
    if (page.levels.p) {
      valid = read_levels(page.levels.p, page.levels.end, n, c.max_def, s);
      check_page_nulls(page, valid);
    }
    const int64_t take = std::min<int64_t>(n, rows - done);
    const bool has_nulls = valid < n;
    if (direct && !has_nulls && take == n) {
      decode_fixed(c, h.encoding, page.data, n, have_dict ? &dict : nullptr, out.values + size_t(done) * size_t(stored_width(c)));
      if (out.valid_written) std::memset(out.valid + done, 1, size_t(n));
      return;
    }
    const size_t bytes_before = out.bytes.size();
    decode_values(c, h.encoding, page.data, valid, have_dict ? &dict : nullptr, s, out);
    if (take < n && is_string(c.dtype)) {
      // Only the first `take` rows are wanted: drop the bytes of the values after them.
      int64_t keep = 0, j = 0;
      for (int64_t i = 0; i < take; ++i)
        if (!has_nulls || s.levels[size_t(i)] == uint32_t(c.max_def)) keep += s.lens[size_t(j++)];
      out.bytes.resize(bytes_before + size_t(keep));
    }
    scatter(c, s, has_nulls, take, done, out);
  };
  walk_chunk(c, codec, data, size, group_rows, rows, s, on_dictionary, on_data);
}

}  // namespace gpudf::parquet
