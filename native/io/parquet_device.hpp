// Reading Parquet column chunks on the CUDA device. The host walks each chunk's pages (headers,
// decompression, the headers of the RLE / bit-packed runs) and gathers what the kernels need:
// a pool of stored values (dictionary entries and PLAIN values, as the file has them), the
// bit-packed streams (definition levels, dictionary indices, booleans) and a table of runs.
// parquet_device.cu then expands the runs, scatters the values to their rows, converts them and
// builds validity and string offsets on the device. Taken: PLAIN, PLAIN_DICTIONARY /
// RLE_DICTIONARY, RLE booleans, data pages v1 and v2, flat columns of every dtype but decimals
// stored as byte arrays; a chunk using anything else has its column read by the CPU reader and
// copied over (plan_chunk says so).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "core/host_vector.hpp"
#include "io/parquet_chunk.hpp"
#include "io/parquet_schema.hpp"

namespace gpudf::parquet {

enum RunKind : int32_t {
  kRunRepeat = 0,    // `data` at every position
  kRunPacked = 1,    // bit-packed values at byte `data` of the streams
  kRunSequence = 2,  // 0, 1, 2, ... (PLAIN values: each its own pool entry)
};

/// Positions [begin, next run's begin) of a decoded sequence (levels per row, or pool entries
/// per value); each value, checked below `limit`, plus `base`.
struct DeviceRun {
  int64_t begin;
  int64_t base;
  int64_t data;
  int64_t limit;
  int32_t width;
  int32_t kind;
  int32_t chunk;  // the chunk (of the column's plan) the run came from, for errors
  int32_t pad = 0;
};

/// Byte arrays stored PLAIN in the pool: `count` entries numbered from `entry`, in pool bytes
/// [byte, byte + bytes); each a 4-byte length and its bytes, or `fixed` bytes when fixed > 0.
struct ByteArraySpan {
  int64_t byte;
  int64_t bytes;
  int64_t count;
  int64_t entry;
  int32_t fixed;
  int32_t chunk;
};

/// One column's chunks, in row order, planned for the device.
struct DevicePlan {
  int64_t rows = 0;          // rows wanted
  int64_t level_count = 0;   // rows the level runs cover (some past `rows`)
  int64_t value_count = 0;   // values the index runs cover
  int64_t entries = 0;       // pool entries
  HostVector<uint8_t> pool, streams;
  std::vector<DeviceRun> levels, indices;  // no levels: no row is null
  std::vector<ByteArraySpan> spans;
  std::vector<int64_t> chunk_groups;       // the row group of each chunk
  bool all_plain = true;                   // no dictionary, every value page PLAIN (entry k is value k)
};

/// True when the device decoder takes column `c` at all (its dtype and conversion).
bool device_decodable(const ColumnSchema& c);

/// Plans the first `rows` rows of one column chunk (row group `group`) into `plan`, alone;
/// ERR_PARQUET where decode_chunk would fail on the page structure; false when a page uses
/// an encoding the device decoder does not take.
bool plan_chunk(const ColumnSchema& c, Codec codec, const uint8_t* data, size_t size, int64_t group, int64_t group_rows,
                int64_t rows, ChunkScratch& s, DevicePlan& plan);

/// Appends a chunk's plan after the column's chunks so far.
void append_plan(DevicePlan& column, DevicePlan&& chunk);

#ifdef GPUDF_WITH_CUDA
/// Decodes a column on the CUDA device. Errors found there (an index past the dictionary, a
/// byte array past its page) are ERR_PARQUET naming `where` and the row group.
ColumnPtr decode_on_device(const ColumnSchema& c, const DevicePlan& plan, const std::string& where);
#endif

}  // namespace gpudf::parquet
