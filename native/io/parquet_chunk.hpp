// Decoding one column chunk: its pages in order (dictionary, then data pages v1 / v2), each
// decompressed, its definition levels and values decoded and converted straight into the
// column's buffers at the chunk's first row.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/host_vector.hpp"
#include "io/parquet_bits.hpp"
#include "io/parquet_format.hpp"
#include "io/parquet_metadata.hpp"
#include "io/parquet_schema.hpp"

namespace gpudf::parquet {

/// Where a chunk's rows go.
struct ChunkOut {
  uint8_t* values = nullptr;        // fixed-width dtypes: the column's values at the chunk's first row
  uint8_t* valid = nullptr;         // optional columns: one byte per row (1: valid), else nullptr;
                                    // left unwritten while every row so far is valid (see valid_written)
  bool valid_written = false;       // true once the chunk met a null: valid[0, rows) is then filled
  int64_t rows = 0;                 // the rows wanted from the chunk
  int64_t bytes_hint = 0;           // strings: bytes to reserve before the first page (an estimate)
  uint32_t* lens = nullptr;         // strings: each row's byte length (0 for a null), rows of them
  HostString bytes;                 // strings: the rows' bytes, back to back
  int64_t nulls = 0;
};

/// A page's decompressed bytes, left uninitialised (a page's declared size is only committed as
/// the decompressor writes it).
using PageBuffer = HostBuffer<uint8_t>;

/// Buffers one worker reuses from chunk to chunk (decompressed pages, decoded levels and values),
/// so a read does not fault in fresh pages for every chunk.
struct ChunkScratch {
  PageBuffer page;
  HostVector<uint8_t> dense;
  HostVector<uint32_t> levels, lens;
};

/// Decompresses src[0, n) of `codec` into exactly dst_size bytes: src itself when uncompressed,
/// else into buf. ERR_PARQUET naming the codec when it fails, or when its library is missing.
const uint8_t* decompress(Codec codec, const uint8_t* src, size_t n, size_t dst_size, PageBuffer& buf);

/// True when `codec` can be read in this process; else `library` names what is missing.
bool codec_readable(Codec codec, std::string& library);

/// A data page (v1 or v2) with its parts located, decompressed where the page is.
struct DataPage {
  const PageHeader* header;
  int64_t values = 0;      // num_values: rows of a flat column, null or not
  int64_t row = 0;         // the page's first row within the chunk
  ByteReader levels{nullptr, nullptr};  // definition levels (RLE / bit-packed hybrid); empty when required
  ByteReader data{nullptr, nullptr};    // the values, in header->encoding
};

/// Walks the pages of the column chunk [data, data + size) until `rows` rows (of `group_rows`)
/// are covered: each dictionary page's PLAIN entries (decompressed) to on_dictionary, each
/// data page to on_data. The page structure is checked here (sizes, counts, level encodings);
/// buffers handed out live until the next callback.
void walk_chunk(const ColumnSchema& c, Codec codec, const uint8_t* data, size_t size, int64_t group_rows, int64_t rows,
                ChunkScratch& s, const std::function<void(const PageHeader&, ByteReader)>& on_dictionary,
                const std::function<void(const DataPage&)>& on_data);

/// ERR_PARQUET unless a v2 page's declared null count matches `valid` of its values.
void check_page_nulls(const DataPage& page, int64_t valid);

/// Decodes the first out.rows rows (of `group_rows`) of the chunk whose pages are [data, data + size).
void decode_chunk(const ColumnSchema& c, Codec codec, const uint8_t* data, size_t size, int64_t group_rows,
                  ChunkOut& out, ChunkScratch& s);

}  // namespace gpudf::parquet
