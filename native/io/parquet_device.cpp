#include "io/parquet_device.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"

namespace gpudf::parquet {
namespace {

void append_bytes(HostVector<uint8_t>& to, const uint8_t* p, size_t n) {
  const size_t at = to.size();
  to.resize(at + n);
  if (n) std::memcpy(to.data() + at, p, n);
}

/// Appends to `table` the runs of the hybrid stream [in.p, in.end) of `width` bits that cover n
/// values from position `begin`, each value checked below `limit` and offset by `base`; packed
/// runs' bytes go to plan.streams. Returns how many of the n values are 1 (for width 1: the
/// valid rows of definition levels).
int64_t add_runs(ByteReader in, int width, int64_t n, int64_t begin, int64_t base, int64_t limit, int32_t chunk,
                 const char* what, DevicePlan& plan, std::vector<DeviceRun>& table) {
  HybridDecoder dec(in.p, in.end, width, what);
  int64_t ones = 0, at = 0;
  while (at < n) {
    const HybridDecoder::Run r = dec.take_run();
    const int64_t k = std::min<int64_t>(r.count, n - at);
    DeviceRun run{begin + at, base, 0, limit, width, kRunRepeat, chunk};
    if (r.repeat) {
      run.data = int64_t(r.value);
      if (r.value == 1) ones += k;
    } else {
      run.kind = kRunPacked;
      run.data = int64_t(plan.streams.size());
      append_bytes(plan.streams, r.packed, size_t(r.packed_end - r.packed));
      if (width == 1) {
        for (int64_t i = 0; i < k / 8; ++i) ones += __builtin_popcount(r.packed[i]);
        if (k % 8) ones += __builtin_popcount(r.packed[k / 8] & ((1u << (k % 8)) - 1));
      }
    }
    table.push_back(run);
    at += k;
  }
  return ones;
}

}  // namespace

bool device_decodable(const ColumnSchema& c) {
  return !c.nested && c.max_def <= 1 && c.conv != Conv::DecBytes;
}

bool plan_chunk(const ColumnSchema& c, Codec codec, const uint8_t* data, size_t size, int64_t group, int64_t group_rows,
                int64_t rows, ChunkScratch& s, DevicePlan& plan) {
  const int32_t chunk = 0;  // the chunk's own plan; append_plan renumbers
  plan.rows = rows;
  plan.chunk_groups = {group};
  const bool bytes = c.conv == Conv::Bytes;
  const int32_t sw = stored_width(c);  // FIXED_LEN_BYTE_ARRAY strings: their length
  bool supported = true;
  bool have_dict = false;
  int64_t dict_base = 0, dict_count = 0;
  auto put_plain_bytes = [&](ByteReader in, int64_t n) {
    if (c.physical == Physical::FixedLenByteArray) {
      GPUDF_EXPECTS(uint64_t(n) <= in.left() / uint64_t(sw), Parquet, "PLAIN values run past the end of the page");
      plan.spans.push_back({int64_t(plan.pool.size()), n * sw, n, plan.entries, sw, chunk});
      append_bytes(plan.pool, in.p, size_t(n * sw));
    } else {
      plan.spans.push_back({int64_t(plan.pool.size()), int64_t(in.left()), n, plan.entries, 0, chunk});
      append_bytes(plan.pool, in.p, in.left());
    }
    plan.entries += n;
  };
  // n fixed-width values as stored, appended to the pool as entries; `short_page` names the
  // error when the page holds fewer.
  auto put_plain_fixed = [&](ByteReader in, int64_t n, const char* short_page) {
    GPUDF_EXPECTS(uint64_t(n) <= in.left() / uint64_t(sw), Parquet, short_page);
    append_bytes(plan.pool, in.p, size_t(n * sw));
    plan.entries += n;
  };
  auto on_dictionary = [&](const PageHeader& h, ByteReader in) {
    GPUDF_EXPECTS(c.physical != Physical::Boolean, Parquet, "a dictionary page for a BOOLEAN column");
    const int64_t n = h.num_values;
    dict_base = plan.entries;
    dict_count = n;
    have_dict = true;
    plan.all_plain = false;  // the entries lie in the pool before any PLAIN value
    if (bytes) {
      if (c.physical == Physical::ByteArray)
        GPUDF_EXPECTS(uint64_t(n) * 4 <= in.left(), Parquet, "a dictionary page shorter than its entries");
      put_plain_bytes(in, n);
      return;
    }
    put_plain_fixed(in, n, "a dictionary page shorter than its entries");
  };
  auto on_data = [&](const DataPage& page) {
    if (!supported) return;
    const int64_t n = page.values;
    int64_t valid = n;
    if (page.levels.p) {
      valid = add_runs(page.levels, 1, n, plan.level_count, 0, 2, chunk, "definition levels", plan, plan.levels);
      check_page_nulls(page, valid);
    }
    plan.level_count += n;
    const int64_t at = plan.value_count;
    plan.value_count += valid;
    ByteReader in = page.data;
    switch (page.header->encoding) {
      case kPlain:
        if (c.physical == Physical::Boolean) {
          in.need(size_t((valid + 7) / 8), "BOOLEAN values");
          plan.indices.push_back({at, 0, int64_t(plan.streams.size()), 2, 1, kRunPacked, chunk});
          append_bytes(plan.streams, in.p, size_t((valid + 7) / 8));
          return;
        }
        plan.indices.push_back({at, plan.entries, 0, 0, 0, kRunSequence, chunk});
        if (bytes) {
          put_plain_bytes(in, valid);
          return;
        }
        put_plain_fixed(in, valid, "PLAIN values run past the end of the page");
        return;
      case kRle: {
        if (c.physical != Physical::Boolean) break;
        in.need(4, "RLE booleans");
        uint32_t len;
        std::memcpy(&len, in.p, 4);
        in.p += 4;
        in.need(len, "RLE booleans");
        plan.all_plain = false;
        add_runs(ByteReader{in.p, in.p + len}, 1, valid, at, 0, 2, chunk, "RLE booleans", plan, plan.indices);
        return;
      }
      case kPlainDictionary:
      case kRleDictionary: {
        GPUDF_EXPECTS(have_dict, Parquet, "a dictionary-encoded page without a dictionary page");
        plan.all_plain = false;
        if (valid == 0) return;
        in.need(1, "dictionary indices");
        const int width = *in.p++;
        add_runs(in, width, valid, at, dict_base, dict_count, chunk, "dictionary indices", plan, plan.indices);
        return;
      }
      default: break;
    }
    supported = false;
  };
  walk_chunk(c, codec, data, size, group_rows, rows, s, on_dictionary, on_data);
  return supported;
}

void append_plan(DevicePlan& col, DevicePlan&& chunk) {
  if (col.chunk_groups.empty()) {
    col = std::move(chunk);
    return;
  }
  const int32_t chunk_base = int32_t(col.chunk_groups.size());
  const int64_t pool_base = int64_t(col.pool.size()), stream_base = int64_t(col.streams.size());
  for (DeviceRun r : chunk.levels) {
    r.begin += col.level_count;
    if (r.kind == kRunPacked) r.data += stream_base;
    r.chunk += chunk_base;
    col.levels.push_back(r);
  }
  for (DeviceRun r : chunk.indices) {
    r.begin += col.value_count;
    if (r.kind == kRunPacked) r.data += stream_base;
    r.base += col.entries;
    r.chunk += chunk_base;
    col.indices.push_back(r);
  }
  for (ByteArraySpan sp : chunk.spans) {
    sp.byte += pool_base;
    sp.entry += col.entries;
    sp.chunk += chunk_base;
    col.spans.push_back(sp);
  }
  append_bytes(col.pool, chunk.pool.data(), chunk.pool.size());
  append_bytes(col.streams, chunk.streams.data(), chunk.streams.size());
  col.rows += chunk.rows;
  col.level_count += chunk.level_count;
  col.value_count += chunk.value_count;
  col.entries += chunk.entries;
  col.chunk_groups.insert(col.chunk_groups.end(), chunk.chunk_groups.begin(), chunk.chunk_groups.end());
  col.all_plain = col.all_plain && chunk.all_plain;
}

}  // namespace gpudf::parquet
