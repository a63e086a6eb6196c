// ops/interop/arrow: import_arrow from host buffers (onto the test device) and the export round
// trip (to_host + arrow_export_sizes + arrow_export) against the Arrow layout built by hand.
//
// Chunk convention (arrow.hpp): values, string offsets and dictionary indices start at the
// chunk's first row; validity and bool bits are addressed from `offset`. The bits outside a
// chunk's rows are random junk here, so reading them shows up.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/dispatch.hpp"
#include "core/transfer.hpp"
#include "ops/interop/arrow.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

using Strings = std::vector<std::optional<std::string>>;

/// Owns the buffers an ArrowChunk points into.
struct ChunkData {
  int64_t length = 0;
  int64_t offset = 0;
  std::optional<std::vector<uint8_t>> validity;
  std::vector<uint8_t> offsets;
  std::vector<uint8_t> values;
  ColumnPtr dictionary;
  TypeId index_type = TypeId::Int32;

  ArrowChunk chunk() const {
    ArrowChunk c;
    c.length = length;
    c.offset = offset;
    if (validity) {
      c.validity = validity->empty() ? nullptr : validity->data();
      c.validity_bytes = int64_t(validity->size());
    }
    c.offsets = offsets.empty() ? nullptr : offsets.data();
    c.offsets_bytes = int64_t(offsets.size());
    c.values = values.empty() ? nullptr : values.data();
    c.values_bytes = int64_t(values.size());
    c.dictionary = dictionary;
    c.index_type = index_type;
    return c;
  }
};

std::vector<ArrowChunk> chunks_of(const std::vector<ChunkData>& data) {
  std::vector<ArrowChunk> out;
  for (const auto& d : data) out.push_back(d.chunk());
  return out;
}

/// `flags` at bit `offset` of a bitmap whose other bits are random.
std::vector<uint8_t> bits_with_junk(const std::vector<bool>& flags, int64_t offset, uint64_t seed) {
  int64_t n = int64_t(flags.size());
  std::vector<uint8_t> bits = random_bytes(std::size_t(bitmap_bytes(offset + n)), seed);
  for (int64_t i = 0; i < n; ++i) ref_put(bits, offset + i, flags[std::size_t(i)]);
  return bits;
}

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

/// A fixed-width chunk: `raw` holds length * width bytes starting at the first row.
ChunkData fixed_chunk(std::vector<uint8_t> raw, int64_t length, const std::vector<bool>& flags,
                      int64_t offset, uint64_t seed = 1) {
  ChunkData c;
  c.length = length;
  c.offset = offset;
  c.values = std::move(raw);
  if (!flags.empty()) c.validity = bits_with_junk(flags, offset, seed);
  return c;
}

ChunkData bool_chunk(const std::vector<bool>& vals, const std::vector<bool>& flags, int64_t offset,
                     uint64_t seed = 2) {
  ChunkData c;
  c.length = int64_t(vals.size());
  c.offset = offset;
  c.values = bits_with_junk(vals, offset, seed);
  if (!flags.empty()) c.validity = bits_with_junk(flags, offset, seed + 1);
  return c;
}

void put_offset(std::vector<uint8_t>& out, int width, int64_t v) {
  if (width == 4) {
    int32_t x = int32_t(v);
    out.insert(out.end(), reinterpret_cast<uint8_t*>(&x), reinterpret_cast<uint8_t*>(&x) + 4);
  } else {
    out.insert(out.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 8);
  }
}

/// A string chunk: `raw` are the stored strings (null rows may hold bytes, as Arrow allows);
/// the first offset is `first_offset` (junk before it and after the end of the data).
ChunkData string_chunk(TypeId type, const std::vector<std::string>& raw, const std::vector<bool>& flags,
                       int64_t offset, int64_t first_offset, uint64_t seed = 3) {
  ChunkData c;
  c.length = int64_t(raw.size());
  c.offset = offset;
  c.values = random_bytes(std::size_t(first_offset), seed);
  int64_t pos = first_offset;
  for (const auto& s : raw) {
    put_offset(c.offsets, offset_width(type), pos);
    c.values.insert(c.values.end(), s.begin(), s.end());
    pos += int64_t(s.size());
  }
  put_offset(c.offsets, offset_width(type), pos);
  std::vector<uint8_t> tail = random_bytes(3, seed + 1);
  c.values.insert(c.values.end(), tail.begin(), tail.end());
  if (!flags.empty()) c.validity = bits_with_junk(flags, offset, seed + 2);
  return c;
}

/// The buffers arrow_export writes, poisoned first so bytes it fails to write show.
struct Exported {
  ArrowExportSizes sizes;
  std::vector<uint8_t> validity, offsets, values;
};

Exported export_column(const ColumnPtr& column) {
  ColumnPtr h = to_host(column);
  Exported e;
  e.sizes = arrow_export_sizes(*h);
  e.validity.assign(std::size_t(e.sizes.validity_bytes), 0xCD);
  e.offsets.assign(std::size_t(e.sizes.offsets_bytes), 0xCD);
  e.values.assign(std::size_t(e.sizes.values_bytes), 0xCD);
  arrow_export(*h, e.validity.empty() ? nullptr : e.validity.data(),
               e.offsets.empty() ? nullptr : e.offsets.data(),
               e.values.empty() ? nullptr : e.values.data());
  return e;
}

/// Arrow's compact layout of a logical array.
struct ArrowLayout {
  int64_t null_count = 0;
  std::vector<uint8_t> validity, offsets, values;
};

std::vector<uint8_t> validity_layout(const std::vector<bool>& flags) {
  return count_false(flags) ? pack_bits(flags) : std::vector<uint8_t>{};
}

ArrowLayout fixed_layout(std::vector<uint8_t> raw, const std::vector<bool>& flags) {
  return ArrowLayout{count_false(flags), validity_layout(flags), {}, std::move(raw)};
}

ArrowLayout bool_layout(const std::vector<bool>& vals, const std::vector<bool>& flags) {
  return ArrowLayout{count_false(flags), validity_layout(flags), {}, pack_bits(vals)};
}

ArrowLayout string_layout(TypeId type, const std::vector<std::string>& raw, const std::vector<bool>& flags) {
  ArrowLayout l{count_false(flags), validity_layout(flags), {}, {}};
  int64_t pos = 0;
  for (const auto& s : raw) {
    put_offset(l.offsets, offset_width(type), pos);
    l.values.insert(l.values.end(), s.begin(), s.end());
    pos += int64_t(s.size());
  }
  put_offset(l.offsets, offset_width(type), pos);
  return l;
}

void expect_export(const ColumnPtr& column, const ArrowLayout& want) {
  Exported got = export_column(column);
  EXPECT_EQ(got.sizes.null_count, want.null_count);
  EXPECT_EQ(got.sizes.validity_bytes, int64_t(want.validity.size()));
  EXPECT_EQ(got.sizes.offsets_bytes, int64_t(want.offsets.size()));
  EXPECT_EQ(got.sizes.values_bytes, int64_t(want.values.size()));
  EXPECT_EQ(got.validity, want.validity);
  EXPECT_EQ(got.offsets, want.offsets);
  EXPECT_EQ(got.values, want.values);
}

/// Raw storage bytes of a fixed-width column's rows (null rows included), through to_host.
std::vector<uint8_t> raw_bytes(const ColumnPtr& column) {
  ColumnPtr h = to_host(column);
  ColumnView v = h->view();
  int64_t w = value_width(v.type);
  if (v.size == 0) return {};
  return std::vector<uint8_t>(v.data + v.offset * w, v.data + (v.offset + v.size) * w);
}

Strings masked_strings(const std::vector<std::string>& raw, const std::vector<bool>& flags) {
  Strings out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i)
    if (flags.empty() || flags[i]) out[i] = raw[i];
  return out;
}

/// Strings with non-ASCII bytes, empties and a range of lengths.
std::vector<std::string> sample_strings(int64_t n, uint64_t seed) {
  static const std::vector<std::string> pool = {
      "", "a", "hello", "h\xC3\xA9llo",                  // héllo
      "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",               // 日本語
      "\xF0\x9F\x98\x80",                                   // 😀 (4-byte UTF-8)
      std::string("nul\0byte", 8), "\xFF\xFE raw bytes",   // embedded NUL, non-UTF-8 bytes
      std::string(100, 'z')};
  Rng rng(seed);
  std::vector<std::string> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(pool[rng.next() % pool.size()]);
  return out;
}

/// Null rows' stored bytes: Arrow allows garbage in null slots; keep some non-empty.
std::vector<std::string> with_null_garbage(std::vector<std::string> raw, const std::vector<bool>& flags) {
  for (std::size_t i = 0; i < raw.size(); ++i)
    if (!flags.empty() && !flags[i]) raw[i] = (i % 3 == 0) ? std::string("GARBAGE") : std::string();
  return raw;
}

const std::vector<int64_t>& lengths() {
  static const std::vector<int64_t> v = {1, 7, 8, 9, 31, 32, 33, 64, 65, 1000, 4099};
  return v;
}

const TypeId kFixedTypes[] = {TypeId::Int8,       TypeId::Int16,       TypeId::Int32,
                              TypeId::Int64,      TypeId::UInt8,       TypeId::UInt16,
                              TypeId::UInt32,     TypeId::UInt64,      TypeId::Float32,
                              TypeId::Float64,    TypeId::Date32,      TypeId::TimestampS,
                              TypeId::TimestampMs, TypeId::TimestampUs, TypeId::TimestampNs};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Fixed-width types

TEST(arrow, import_int32_with_validity_at_unaligned_offsets) {
  for (int64_t offset : {0, 3, 13}) {
    for (int64_t n : lengths()) {
      for (Pattern p : kPatterns) {
        SCOPED_TRACE("offset=" + std::to_string(offset) + " n=" + std::to_string(n) + " " + pattern_name(p));
        std::vector<int32_t> vals(static_cast<std::size_t>(n));
        Rng rng{uint64_t(n)};
        for (auto& v : vals) v = int32_t(rng.next());
        vals[0] = std::numeric_limits<int32_t>::min();
        vals[std::size_t(n - 1)] = std::numeric_limits<int32_t>::max();
        std::vector<bool> flags = make_flags(p, n, uint64_t(offset + n));
        ChunkData c = fixed_chunk(bytes_of(vals), n, flags, offset, uint64_t(n));
        ColumnPtr col = import_arrow(test_device(), TypeId::Int32, {c.chunk()});
        ASSERT_TRUE(col != nullptr);
        EXPECT_EQ(&col->device(), &test_device());
        EXPECT_EQ(col->type(), TypeId::Int32);
        EXPECT_EQ(col->size(), n);
        EXPECT_EQ(col->offset(), 0);
        EXPECT_EQ(col->null_count(), count_false(flags));
        EXPECT_EQ(col->has_validity(), count_false(flags) > 0);
        EXPECT_EQ(read_values<int32_t>(col), masked(vals, flags));
        EXPECT_EQ(raw_bytes(col), bytes_of(vals));
        expect_export(col, fixed_layout(bytes_of(vals), flags));
      }
    }
  }
}

TEST(arrow, every_fixed_width_type_round_trips_bitwise) {
  for (TypeId t : kFixedTypes) {
    for (int64_t n : {1, 33, 65, 1000}) {
      SCOPED_TRACE(std::string(type_name(t)) + " n=" + std::to_string(n));
      std::vector<uint8_t> raw = random_bytes(std::size_t(n * value_width(t)), uint64_t(t) * 1000 + uint64_t(n));
      std::vector<bool> flags = make_flags(Pattern::Random, n, uint64_t(n));
      ChunkData c = fixed_chunk(raw, n, flags, 5);
      ColumnPtr col = import_arrow(test_device(), t, {c.chunk()});
      EXPECT_EQ(col->type(), t);
      EXPECT_EQ(col->size(), n);
      EXPECT_EQ(raw_bytes(col), raw);
      EXPECT_EQ(read_validity(col), flags);
      expect_export(col, fixed_layout(raw, flags));
      // Without a bitmap.
      ChunkData d = fixed_chunk(raw, n, {}, 0);
      ColumnPtr dense = import_arrow(test_device(), t, {d.chunk()});
      EXPECT_FALSE(dense->has_validity());
      expect_export(dense, fixed_layout(raw, std::vector<bool>(std::size_t(n), true)));
    }
  }
}

TEST(arrow, float64_nan_infinity_and_signed_zero_are_bitwise_preserved) {
  const std::vector<uint64_t> bits = {
      0x7FF8000000000000ull,                                   // quiet NaN
      0x7FF8000000000123ull,                                   // NaN with payload
      0xFFF8000000000000ull,                                   // negative NaN
      0x7FF0000000000001ull,                                   // signalling NaN
      bits_of(std::numeric_limits<double>::infinity()),
      bits_of(-std::numeric_limits<double>::infinity()),
      bits_of(0.0), bits_of(-0.0),
      bits_of(std::numeric_limits<double>::denorm_min()),
      bits_of(-std::numeric_limits<double>::denorm_min()),
      bits_of(std::numeric_limits<double>::max()),
      bits_of(std::numeric_limits<double>::lowest()),
      bits_of(std::numeric_limits<double>::min()),
      bits_of(1.0 / 3.0)};
  const int64_t n = int64_t(bits.size());
  std::vector<bool> flags(std::size_t(n), true);
  flags[5] = false;  // a null in the middle (its -Inf bits are still stored)
  for (int64_t offset : {0, 3}) {
    ChunkData c = fixed_chunk(bytes_of(bits), n, flags, offset);
    ColumnPtr col = import_arrow(test_device(), TypeId::Float64, {c.chunk()});
    EXPECT_EQ(read_values<uint64_t>(col), masked(bits, flags));
    EXPECT_EQ(raw_bytes(col), bytes_of(bits));
    expect_export(col, fixed_layout(bytes_of(bits), flags));
    auto doubles = read_values<double>(col);
    EXPECT_TRUE(std::isnan(*doubles[0]) && std::isnan(*doubles[1]) && std::isnan(*doubles[2]));
    EXPECT_TRUE(std::signbit(*doubles[2]));
    EXPECT_TRUE(std::isinf(*doubles[4]) && *doubles[4] > 0);
    EXPECT_FALSE(doubles[5].has_value());
    EXPECT_TRUE(std::signbit(*doubles[7]) && *doubles[7] == 0.0);
  }
  // float32 too.
  const std::vector<uint32_t> fbits = {0x7FC00000u, 0x7FC00123u, 0xFFC00000u,
                                       bits_of(std::numeric_limits<float>::infinity()),
                                       bits_of(-std::numeric_limits<float>::infinity()),
                                       bits_of(-0.0f), bits_of(std::numeric_limits<float>::denorm_min())};
  ChunkData f = fixed_chunk(bytes_of(fbits), int64_t(fbits.size()), {}, 0);
  ColumnPtr fcol = import_arrow(test_device(), TypeId::Float32, {f.chunk()});
  EXPECT_EQ(read_values<uint32_t>(fcol), masked(fbits, {}));
  expect_export(fcol, fixed_layout(bytes_of(fbits), std::vector<bool>(fbits.size(), true)));
}

TEST(arrow, int64_and_uint64_extremes) {
  const std::vector<int64_t> vals = {std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::min() + 1,
                                     -1, 0, 1,
                                     std::numeric_limits<int64_t>::max() - 1,
                                     std::numeric_limits<int64_t>::max(),
                                     int64_t(1) << 53, (int64_t(1) << 53) + 1};
  for (TypeId t : {TypeId::Int64, TypeId::TimestampNs, TypeId::TimestampS}) {
    SCOPED_TRACE(std::string(type_name(t)));
    ChunkData c = fixed_chunk(bytes_of(vals), int64_t(vals.size()), {}, 0);
    ColumnPtr col = import_arrow(test_device(), t, {c.chunk()});
    EXPECT_EQ(read_values<int64_t>(col), masked(vals, {}));
    expect_export(col, fixed_layout(bytes_of(vals), std::vector<bool>(vals.size(), true)));
  }
  const std::vector<uint64_t> uvals = {0, 1, uint64_t(1) << 63, std::numeric_limits<uint64_t>::max()};
  ChunkData u = fixed_chunk(bytes_of(uvals), 4, {true, false, true, true}, 7);
  ColumnPtr ucol = import_arrow(test_device(), TypeId::UInt64, {u.chunk()});
  EXPECT_EQ(read_values<uint64_t>(ucol), masked(uvals, {true, false, true, true}));
  expect_export(ucol, fixed_layout(bytes_of(uvals), {true, false, true, true}));
}

// ---------------------------------------------------------------------------------------------
// Bool

TEST(arrow, bool_bit_packed_input_with_offset) {
  for (int64_t offset : {0, 3, 13}) {
    for (int64_t n : lengths()) {
      for (Pattern p : {Pattern::AllValid, Pattern::Random, Pattern::AllNull, Pattern::LastNull}) {
        SCOPED_TRACE("offset=" + std::to_string(offset) + " n=" + std::to_string(n) + " " + pattern_name(p));
        std::vector<bool> vals = make_flags(Pattern::Random, n, uint64_t(n) * 3);
        std::vector<bool> flags = make_flags(p, n, uint64_t(n) * 5);
        ChunkData c = bool_chunk(vals, flags, offset, uint64_t(offset * 31 + n));
        ColumnPtr col = import_arrow(test_device(), TypeId::Bool, {c.chunk()});
        EXPECT_EQ(col->size(), n);
        EXPECT_EQ(col->null_count(), count_false(flags));
        // Stored one byte per value, exactly 0 or 1 (null rows included).
        std::vector<uint8_t> stored = raw_bytes(col);
        std::vector<uint8_t> want_stored(static_cast<std::size_t>(n));
        for (int64_t i = 0; i < n; ++i) want_stored[std::size_t(i)] = vals[std::size_t(i)] ? 1 : 0;
        EXPECT_EQ(stored, want_stored);
        EXPECT_EQ(read_validity(col), flags);
        expect_export(col, bool_layout(vals, flags));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Strings

TEST(arrow, utf8_and_large_utf8_with_nulls_and_non_ascii) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    for (int64_t offset : {0, 3, 13}) {
      for (int64_t n : lengths()) {
        for (Pattern p : {Pattern::AllValid, Pattern::Random, Pattern::AllNull, Pattern::FirstNull}) {
          for (int64_t first : {0, 5}) {
            SCOPED_TRACE(std::string(type_name(t)) + " offset=" + std::to_string(offset) + " n=" +
                         std::to_string(n) + " " + pattern_name(p) + " first_offset=" + std::to_string(first));
            std::vector<bool> flags = make_flags(p, n, uint64_t(n + offset));
            std::vector<std::string> raw = with_null_garbage(sample_strings(n, uint64_t(n)), flags);
            ChunkData c = string_chunk(t, raw, flags, offset, first, uint64_t(n * 7 + offset));
            ColumnPtr col = import_arrow(test_device(), t, {c.chunk()});
            EXPECT_EQ(col->type(), t);
            EXPECT_EQ(col->size(), n);
            EXPECT_EQ(col->null_count(), count_false(flags));
            EXPECT_EQ(read_strings(col), masked_strings(raw, flags));
            // Null rows keep their stored bytes: the export is the input, rebased.
            expect_export(col, string_layout(t, raw, flags));
          }
        }
      }
    }
  }
}

TEST(arrow, strings_without_validity_and_all_empty) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    SCOPED_TRACE(std::string(type_name(t)));
    std::vector<std::string> raw(33, "");
    ChunkData c = string_chunk(t, raw, {}, 0, 9);
    ColumnPtr col = import_arrow(test_device(), t, {c.chunk()});
    EXPECT_FALSE(col->has_validity());
    EXPECT_EQ(read_strings(col), masked_strings(raw, {}));
    expect_export(col, string_layout(t, raw, std::vector<bool>(33, true)));
    Exported e = export_column(col);
    EXPECT_EQ(e.sizes.values_bytes, 0);
    EXPECT_EQ(e.sizes.offsets_bytes, 34 * offset_width(t));
  }
}

// ---------------------------------------------------------------------------------------------
// Several chunks

TEST(arrow, several_int32_chunks_are_concatenated) {
  std::vector<int32_t> a = {1, 2, 3, 4, 5, 6, 7};
  std::vector<int32_t> b(33);
  for (int i = 0; i < 33; ++i) b[std::size_t(i)] = -i * 1000;
  std::vector<int32_t> d = {std::numeric_limits<int32_t>::min()};
  std::vector<bool> fb = make_flags(Pattern::Random, 33, 4);
  std::vector<ChunkData> data = {fixed_chunk(bytes_of(a), 7, {}, 0),
                                 fixed_chunk(bytes_of(b), 33, fb, 5),
                                 ChunkData{},  // empty chunk, all pointers null
                                 fixed_chunk(bytes_of(d), 1, {false}, 13)};
  ColumnPtr col = import_arrow(test_device(), TypeId::Int32, chunks_of(data));
  std::vector<int32_t> all = a;
  all.insert(all.end(), b.begin(), b.end());
  all.insert(all.end(), d.begin(), d.end());
  std::vector<bool> flags(7, true);
  flags.insert(flags.end(), fb.begin(), fb.end());
  flags.push_back(false);
  EXPECT_EQ(col->size(), 41);
  EXPECT_EQ(col->null_count(), count_false(flags));
  EXPECT_EQ(read_values<int32_t>(col), masked(all, flags));
  expect_export(col, fixed_layout(bytes_of(all), flags));
}

TEST(arrow, several_bool_chunks_land_at_unaligned_positions) {
  std::vector<bool> vals, flags;
  std::vector<ChunkData> data;
  int64_t k = 0;
  for (int64_t n : {5, 9, 13, 1, 64, 3, 100}) {
    std::vector<bool> v = make_flags(Pattern::Random, n, uint64_t(n + 100));
    std::vector<bool> f = (k % 2) ? make_flags(Pattern::Random, n, uint64_t(n)) : std::vector<bool>{};
    data.push_back(bool_chunk(v, f, (k * 3) % 11, uint64_t(k)));
    vals.insert(vals.end(), v.begin(), v.end());
    if (f.empty()) f.assign(std::size_t(n), true);
    flags.insert(flags.end(), f.begin(), f.end());
    ++k;
  }
  ColumnPtr col = import_arrow(test_device(), TypeId::Bool, chunks_of(data));
  EXPECT_EQ(col->size(), int64_t(vals.size()));
  EXPECT_EQ(read_validity(col), flags);
  expect_export(col, bool_layout(vals, flags));
}

TEST(arrow, several_string_chunks_rebase_their_offsets) {
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    SCOPED_TRACE(std::string(type_name(t)));
    std::vector<std::string> raw;
    std::vector<bool> flags;
    std::vector<ChunkData> data;
    int64_t k = 0;
    for (int64_t n : {3, 0, 31, 1, 65}) {
      std::vector<bool> f = (k == 2) ? std::vector<bool>{} : make_flags(Pattern::Random, n, uint64_t(k));
      std::vector<std::string> r = with_null_garbage(sample_strings(n, uint64_t(k + 50)), f);
      data.push_back(string_chunk(t, r, f, k * 5, 3 * k, uint64_t(k)));
      raw.insert(raw.end(), r.begin(), r.end());
      if (f.empty()) f.assign(std::size_t(n), true);
      flags.insert(flags.end(), f.begin(), f.end());
      ++k;
    }
    ColumnPtr col = import_arrow(test_device(), t, chunks_of(data));
    EXPECT_EQ(col->size(), int64_t(raw.size()));
    EXPECT_EQ(read_strings(col), masked_strings(raw, flags));
    expect_export(col, string_layout(t, raw, flags));
  }
}

TEST(arrow, chunks_whose_bitmaps_have_no_nulls_give_no_bitmap) {
  std::vector<int32_t> a = {1, 2, 3};
  ChunkData c0 = fixed_chunk(bytes_of(a), 3, {true, true, true}, 6);
  ChunkData c1 = fixed_chunk(bytes_of(a), 3, {}, 0);
  ColumnPtr col = import_arrow(test_device(), TypeId::Int32, chunks_of({c0, c1}));
  EXPECT_FALSE(col->has_validity());
  EXPECT_EQ(col->null_count(), 0);
  Exported e = export_column(col);
  EXPECT_EQ(e.sizes.validity_bytes, 0);
  EXPECT_EQ(e.sizes.null_count, 0);
}

// ---------------------------------------------------------------------------------------------
// Dictionaries

namespace {

/// Index bytes of `index_type` for `idx`.
std::vector<uint8_t> index_bytes(TypeId index_type, const std::vector<int64_t>& idx) {
  return type_dispatch(index_type, [&]<TypeId I>() {
    using T = storage_t<I>;
    if constexpr (std::is_integral_v<T>) {
      std::vector<T> v;
      for (int64_t x : idx) v.push_back(static_cast<T>(x));
      return bytes_of(v);
    } else {
      return std::vector<uint8_t>{};
    }
  });
}

ChunkData dict_chunk(ColumnPtr dictionary, TypeId index_type, const std::vector<int64_t>& idx,
                     const std::vector<bool>& flags, int64_t offset) {
  ChunkData c = fixed_chunk(index_bytes(index_type, idx), int64_t(idx.size()), flags, offset);
  c.dictionary = std::move(dictionary);
  c.index_type = index_type;
  return c;
}

ColumnPtr host_dictionary(TypeId t, const std::vector<std::string>& raw, const std::vector<bool>& flags) {
  ChunkData c = string_chunk(t, raw, flags, 0, 0);
  return import_arrow(cpu_device(), t, {c.chunk()});
}

}  // namespace

TEST(arrow, dictionary_encoded_strings_are_decoded) {
  const std::vector<std::string> dict_raw = {"a", "b\xC3\xA9", "", "", "\xE6\x97\xA5\xF0\x9F\x98\x80"};
  const std::vector<bool> dict_flags = {true, true, true, false, true};  // entry 3 is null
  // Null index slots hold out-of-range junk (99): Arrow does not define them, so no error.
  const std::vector<int64_t> idx = {0, 1, 2, 3, 4, 99, 1, 4, 0, 2};
  const std::vector<bool> flags = {true, true, true, true, true, false, true, true, true, true};
  const Strings want = {"a", "b\xC3\xA9", "", std::nullopt, "\xE6\x97\xA5\xF0\x9F\x98\x80", std::nullopt,
                        "b\xC3\xA9", "\xE6\x97\xA5\xF0\x9F\x98\x80", "a", ""};
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    ColumnPtr dict = host_dictionary(t, dict_raw, dict_flags);
    EXPECT_EQ(&dict->device(), &cpu_device());
    for (TypeId it : {TypeId::Int8, TypeId::Int16, TypeId::Int32, TypeId::Int64, TypeId::UInt8,
                      TypeId::UInt16, TypeId::UInt32, TypeId::UInt64}) {
      for (int64_t offset : {0, 3}) {
        SCOPED_TRACE(std::string(type_name(t)) + " indices " + std::string(type_name(it)) +
                     " offset=" + std::to_string(offset));
        ChunkData c = dict_chunk(dict, it, idx, flags, offset);
        ColumnPtr col = import_arrow(test_device(), t, {c.chunk()});
        EXPECT_EQ(col->type(), t);
        EXPECT_EQ(&col->device(), &test_device());
        EXPECT_EQ(col->null_count(), 2);
        EXPECT_EQ(read_strings(col), want);
        std::vector<std::string> raw;
        std::vector<bool> vflags;
        for (const auto& w : want) {
          raw.push_back(w.value_or(""));
          vflags.push_back(w.has_value());
        }
        expect_export(col, string_layout(t, raw, vflags));
      }
    }
  }
}

TEST(arrow, dictionary_encoded_numbers_and_bools) {
  const std::vector<uint64_t> dbits = {bits_of(1.5), 0x7FF8000000000042ull,
                                       bits_of(-std::numeric_limits<double>::infinity()), 0};
  ChunkData dc = fixed_chunk(bytes_of(dbits), 4, {true, true, true, false}, 0);
  ColumnPtr dict = import_arrow(cpu_device(), TypeId::Float64, {dc.chunk()});
  ChunkData c = dict_chunk(dict, TypeId::Int32, {3, 2, 1, 0, 0, 1}, {}, 0);
  ColumnPtr col = import_arrow(test_device(), TypeId::Float64, {c.chunk()});
  using OU = std::optional<uint64_t>;
  EXPECT_EQ(read_values<uint64_t>(col),
            (std::vector<OU>{std::nullopt, dbits[2], dbits[1], dbits[0], dbits[0], dbits[1]}));
  EXPECT_EQ(col->null_count(), 1);

  ChunkData bd = bool_chunk({true, false}, {}, 0);
  ColumnPtr bdict = import_arrow(cpu_device(), TypeId::Bool, {bd.chunk()});
  ChunkData bc = dict_chunk(bdict, TypeId::UInt8, {1, 0, 0, 1, 1}, {}, 0);
  ColumnPtr bcol = import_arrow(test_device(), TypeId::Bool, {bc.chunk()});
  EXPECT_FALSE(bcol->has_validity());  // no nulls anywhere: the bitmap is dropped
  expect_export(bcol, bool_layout({false, true, true, false, false}, std::vector<bool>(5, true)));
}

TEST(arrow, dictionary_and_plain_chunks_mix) {
  ColumnPtr dict = host_dictionary(TypeId::Utf8, {"red", "green", "blue"}, {});
  std::vector<ChunkData> data = {
      string_chunk(TypeId::Utf8, {"x", "GARB"}, {true, false}, 3, 2),
      dict_chunk(dict, TypeId::Int16, {2, 0, 1, 2}, {}, 0),
      string_chunk(TypeId::Utf8, {"y\xC3\xBF"}, {}, 0, 0),
      dict_chunk(dict, TypeId::Int8, {1, -7}, {true, false}, 6)};
  ColumnPtr col = import_arrow(test_device(), TypeId::Utf8, chunks_of(data));
  EXPECT_EQ(read_strings(col),
            (Strings{"x", std::nullopt, "blue", "red", "green", "blue", "y\xC3\xBF", "green", std::nullopt}));
  EXPECT_EQ(col->null_count(), 2);
  expect_export(col, string_layout(TypeId::Utf8, {"x", "GARB", "blue", "red", "green", "blue", "y\xC3\xBF", "green", ""},
                                   {true, false, true, true, true, true, true, true, false}));
}

// A dictionary is "a host column of the logical type"; a slice of one is such a column. The
// planned character bytes must come from the dictionary's entries at its slice offset, or the
// output's character buffer is too large (first case) or too small, a heap overflow (second).
TEST(arrow, sliced_string_dictionary_sizes_the_character_buffer_exactly) {
  ColumnPtr full = host_dictionary(TypeId::Utf8, {"xxxxxxxxxx", "a", "bb"}, {});
  ColumnPtr dict = full->slice(1, 2);  // {"a", "bb"}
  ChunkData c = dict_chunk(dict, TypeId::Int32, {0, 1, 0}, {}, 0);
  ColumnPtr col = import_arrow(test_device(), TypeId::Utf8, {c.chunk()});
  EXPECT_EQ(read_strings(col), (Strings{"a", "bb", "a"}));
  EXPECT_EQ(col->data()->size(), std::size_t(4));  // "a" + "bb" + "a"

  ColumnPtr full2 = host_dictionary(TypeId::Utf8, {"", std::string(20, 'x'), "y"}, {});
  ColumnPtr dict2 = full2->slice(1, 2);  // {20 x "x", "y"}
  ChunkData c2 = dict_chunk(dict2, TypeId::Int32, {0, 0, 0}, {}, 0);
  ColumnPtr col2 = import_arrow(test_device(), TypeId::Utf8, {c2.chunk()});
  EXPECT_EQ(read_strings(col2), (Strings{std::string(20, 'x'), std::string(20, 'x'), std::string(20, 'x')}));
  EXPECT_EQ(col2->data()->size(), std::size_t(60));
}

TEST(arrow, sliced_numeric_dictionary_is_read_from_its_offset) {
  std::vector<int32_t> dv = {100, 200, 300, 400};
  ColumnPtr full = import_arrow(cpu_device(), TypeId::Int32, {fixed_chunk(bytes_of(dv), 4, {true, false, true, true}, 0).chunk()});
  ColumnPtr dict = full->slice(1, 3);  // {null, 300, 400}
  ChunkData c = dict_chunk(dict, TypeId::Int32, {2, 0, 1}, {}, 0);
  ColumnPtr col = import_arrow(test_device(), TypeId::Int32, {c.chunk()});
  using OI = std::optional<int32_t>;
  EXPECT_EQ(read_values<int32_t>(col), (std::vector<OI>{400, std::nullopt, 300}));
}

// ---------------------------------------------------------------------------------------------
// Errors (all before anything is written; nothing leaks)

TEST(arrow, values_buffer_too_small) {
  LiveBytes before;
  std::vector<uint8_t> raw(15);
  ChunkData c = fixed_chunk(raw, 4, {}, 0);  // 4 int32 need 16 bytes
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Int32, {c.chunk()}), ErrorCode::InvalidArgument);
  ChunkData f = fixed_chunk({}, 1, {}, 0);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Float64, {f.chunk()}), ErrorCode::InvalidArgument);
  // The bad chunk second, after a good one.
  ChunkData good = fixed_chunk(std::vector<uint8_t>(16), 4, {}, 0);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Int32, chunks_of({good, c})), ErrorCode::InvalidArgument);
  // Bool: bits for offset + length.
  ChunkData b = bool_chunk(std::vector<bool>(9, true), {}, 3);
  b.values.resize(1);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Bool, {b.chunk()}), ErrorCode::InvalidArgument);
  EXPECT_EQ(LiveBytes(), before);
}

TEST(arrow, validity_bitmap_too_small) {
  ChunkData c = fixed_chunk(std::vector<uint8_t>(9 * 4), 9, std::vector<bool>(9, true), 3);
  c.validity->resize(1);  // needs bitmap_bytes(3 + 9) = 2
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Int32, {c.chunk()}), ErrorCode::InvalidArgument);
  ChunkData d = fixed_chunk(std::vector<uint8_t>(4), 1, {}, 0);
  d.validity = std::vector<uint8_t>{};  // a bitmap pointer with 0 bytes
  ArrowChunk a = d.chunk();
  uint8_t byte = 0xFF;
  a.validity = &byte;
  a.validity_bytes = 0;
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Int32, {a}), ErrorCode::InvalidArgument);
}

TEST(arrow, negative_length_or_offset) {
  ChunkData c = fixed_chunk(std::vector<uint8_t>(16), 4, {}, 0);
  ArrowChunk a = c.chunk();
  a.length = -1;
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Int32, {a}), ErrorCode::InvalidArgument);
  a = c.chunk();
  a.offset = -3;
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Int32, {a}), ErrorCode::InvalidArgument);
}

TEST(arrow, bad_string_offsets) {
  LiveBytes before;
  for (TypeId t : {TypeId::Utf8, TypeId::LargeUtf8}) {
    SCOPED_TRACE(std::string(type_name(t)));
    const int w = offset_width(t);
    auto with_offsets = [&](std::vector<int64_t> offs, int64_t data_bytes, int64_t length) {
      ChunkData c;
      c.length = length;
      for (int64_t o : offs) put_offset(c.offsets, w, o);
      c.values.assign(std::size_t(data_bytes), 'q');
      return c;
    };
    // Decreasing offsets.
    EXPECT_THROW_CODE(import_arrow(test_device(), t, {with_offsets({0, 3, 2, 5}, 5, 3).chunk()}),
                      ErrorCode::InvalidArgument);
    EXPECT_THROW_CODE(import_arrow(test_device(), t, {with_offsets({4, 3}, 5, 1).chunk()}),
                      ErrorCode::InvalidArgument);
    // Offsets buffer shorter than length + 1 entries.
    EXPECT_THROW_CODE(import_arrow(test_device(), t, {with_offsets({0, 1, 2}, 5, 3).chunk()}),
                      ErrorCode::InvalidArgument);
    // Past the character data.
    EXPECT_THROW_CODE(import_arrow(test_device(), t, {with_offsets({0, 3, 6}, 5, 2).chunk()}),
                      ErrorCode::InvalidArgument);
    // Negative first offset.
    EXPECT_THROW_CODE(import_arrow(test_device(), t, {with_offsets({-1, 2}, 5, 1).chunk()}),
                      ErrorCode::InvalidArgument);
    // A valid chunk, then a decreasing one.
    EXPECT_THROW_CODE(import_arrow(test_device(), t,
                                   chunks_of({with_offsets({0, 1}, 1, 1), with_offsets({2, 1}, 5, 1)})),
                      ErrorCode::InvalidArgument);
    // Equal offsets (empty strings) and offsets exactly at the end are fine.
    ColumnPtr ok = import_arrow(test_device(), t, {with_offsets({1, 1, 5}, 5, 2).chunk()});
    EXPECT_EQ(read_strings(ok), (Strings{"", "qqqq"}));
  }
  EXPECT_EQ(LiveBytes(), before);
}

TEST(arrow, dictionary_errors) {
  LiveBytes before;
  {
  ColumnPtr dict = host_dictionary(TypeId::Utf8, {"a", "b", "c"}, {});
  // Out of range: == size, negative, huge unsigned; in a later chunk.
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Utf8, {dict_chunk(dict, TypeId::Int32, {0, 3}, {}, 0).chunk()}),
                    ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Utf8, {dict_chunk(dict, TypeId::Int8, {-1}, {}, 0).chunk()}),
                    ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Utf8, {dict_chunk(dict, TypeId::Int64, {INT64_MIN}, {}, 0).chunk()}),
                    ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(
      import_arrow(test_device(), TypeId::Utf8, {dict_chunk(dict, TypeId::UInt64, {-1 /* 2^64-1 */}, {}, 0).chunk()}),
      ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(
      import_arrow(test_device(), TypeId::Utf8, {dict_chunk(dict, TypeId::UInt32, {0xFFFFFFFFll}, {}, 0).chunk()}),
      ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Utf8,
                                 chunks_of({dict_chunk(dict, TypeId::Int32, {0, 1, 2}, {}, 0),
                                            dict_chunk(dict, TypeId::Int32, {2, 1000}, {}, 0)})),
                    ErrorCode::InvalidArgument);
  // The index buffer too small.
  ChunkData small = dict_chunk(dict, TypeId::Int32, {0, 1, 2}, {}, 0);
  small.values.resize(11);
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Utf8, {small.chunk()}), ErrorCode::InvalidArgument);
  // Non-integer index types.
  for (TypeId it : {TypeId::Float32, TypeId::Float64, TypeId::Bool, TypeId::Utf8}) {
    SCOPED_TRACE(std::string(type_name(it)));
    ChunkData c = dict_chunk(dict, TypeId::Int32, {0}, {}, 0);
    c.values.assign(8, 0);
    c.index_type = it;
    EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::Utf8, {c.chunk()}), ErrorCode::Dtype);
  }
  // A dictionary of another type.
  EXPECT_THROW_CODE(import_arrow(test_device(), TypeId::LargeUtf8, {dict_chunk(dict, TypeId::Int32, {0}, {}, 0).chunk()}),
                    ErrorCode::Internal);
  if (test_device().kind() != DeviceKind::Cpu) {
    ColumnPtr device_dict = copy_to_device(dict, test_device());
    EXPECT_THROW_CODE(
        import_arrow(test_device(), TypeId::Utf8, {dict_chunk(device_dict, TypeId::Int32, {0}, {}, 0).chunk()}),
        ErrorCode::Internal);
  }
  }
  EXPECT_EQ(LiveBytes(), before);
}

TEST(arrow, unknown_type_id_is_a_dtype_error) {
  ChunkData c = fixed_chunk(std::vector<uint8_t>(16), 4, {}, 0);
  EXPECT_THROW_CODE(import_arrow(test_device(), static_cast<TypeId>(99), {c.chunk()}), ErrorCode::Dtype);
}

// ---------------------------------------------------------------------------------------------
// Empty, all-null, sliced

TEST(arrow, empty_imports) {
  for (TypeId t : {TypeId::Int32, TypeId::Bool, TypeId::Float64, TypeId::Utf8, TypeId::LargeUtf8}) {
    SCOPED_TRACE(std::string(type_name(t)));
    ColumnPtr none = import_arrow(test_device(), t, {});
    ColumnPtr zero = import_arrow(test_device(), t, chunks_of({ChunkData{}, ChunkData{}}));
    for (const ColumnPtr& col : {none, zero}) {
      EXPECT_EQ(col->size(), 0);
      EXPECT_EQ(col->type(), t);
      EXPECT_EQ(col->null_count(), 0);
      Exported e = export_column(col);
      EXPECT_EQ(e.sizes.validity_bytes, 0);
      EXPECT_EQ(e.sizes.values_bytes, 0);
      if (is_string(t)) {
        // One offset entry, 0.
        EXPECT_EQ(e.offsets, std::vector<uint8_t>(std::size_t(offset_width(t)), 0));
      } else {
        EXPECT_EQ(e.sizes.offsets_bytes, 0);
      }
    }
  }
}

TEST(arrow, all_null_columns) {
  for (int64_t n : {1, 31, 32, 33, 64, 65, 1000}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<bool> flags(std::size_t(n), false);
    std::vector<uint8_t> raw = random_bytes(std::size_t(n * 4), uint64_t(n));
    ColumnPtr i = import_arrow(test_device(), TypeId::Int32, {fixed_chunk(raw, n, flags, 3).chunk()});
    EXPECT_EQ(i->null_count(), n);
    EXPECT_EQ(read_values<int32_t>(i), std::vector<std::optional<int32_t>>(std::size_t(n)));
    expect_export(i, fixed_layout(raw, flags));
    std::vector<std::string> empties(static_cast<std::size_t>(n));
    ColumnPtr s = import_arrow(test_device(), TypeId::Utf8, {string_chunk(TypeId::Utf8, empties, flags, 13, 0).chunk()});
    EXPECT_EQ(s->null_count(), n);
    EXPECT_EQ(read_strings(s), Strings(std::size_t(n)));
    expect_export(s, string_layout(TypeId::Utf8, empties, flags));
  }
}

TEST(arrow, sliced_columns_export_only_their_rows) {
  const int64_t n = 300;
  std::vector<int32_t> ints(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) ints[std::size_t(i)] = int32_t(i * 1000003);
  std::vector<bool> flags = make_flags(Pattern::Random, n, 21);
  std::vector<bool> bools = make_flags(Pattern::Random, n, 22);
  std::vector<std::string> raw = with_null_garbage(sample_strings(n, 23), flags);
  std::vector<uint64_t> dbits(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    dbits[std::size_t(i)] = i % 4 == 0 ? 0x7FF8000000000001ull + uint64_t(i) : bits_of(double(i) * -1.25);

  ColumnPtr ci = import_arrow(test_device(), TypeId::Int32, {fixed_chunk(bytes_of(ints), n, flags, 3).chunk()});
  ColumnPtr cb = import_arrow(test_device(), TypeId::Bool, {bool_chunk(bools, flags, 3).chunk()});
  ColumnPtr cd = import_arrow(test_device(), TypeId::Float64, {fixed_chunk(bytes_of(dbits), n, flags, 0).chunk()});
  ColumnPtr cs = import_arrow(test_device(), TypeId::Utf8, {string_chunk(TypeId::Utf8, raw, flags, 3, 7).chunk()});
  ColumnPtr cl = import_arrow(test_device(), TypeId::LargeUtf8, {string_chunk(TypeId::LargeUtf8, raw, flags, 0, 0).chunk()});

  for (int64_t off : {0, 1, 3, 8, 13, 17, 64, 65}) {
    for (int64_t len : {0, 1, 7, 31, 32, 33, 64, 65, 200}) {
      if (off + len > n) continue;
      SCOPED_TRACE("slice off=" + std::to_string(off) + " len=" + std::to_string(len));
      std::vector<bool> f = sub(flags, off, len);
      expect_export(ci->slice(off, len), fixed_layout(bytes_of(sub(ints, off, len)), f));
      expect_export(cb->slice(off, len), bool_layout(sub(bools, off, len), f));
      expect_export(cd->slice(off, len), fixed_layout(bytes_of(sub(dbits, off, len)), f));
      expect_export(cs->slice(off, len), string_layout(TypeId::Utf8, sub(raw, off, len), f));
      expect_export(cl->slice(off, len), string_layout(TypeId::LargeUtf8, sub(raw, off, len), f));
      // Slicing twice lands on the same rows.
      if (len >= 10) {
        expect_export(cs->slice(off, len)->slice(3, len - 5),
                      string_layout(TypeId::Utf8, sub(raw, off + 3, len - 5), sub(flags, off + 3, len - 5)));
      }
    }
  }
}

TEST(arrow, export_of_a_host_column_built_without_import) {
  // Columns built by hand (not by import) export to the same layout.
  std::vector<int16_t> vals = {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11};
  std::vector<bool> flags = {true, false, true, true, true, true, true, true, false, true, true};
  expect_export(on_test_device(host_column(TypeId::Int16, vals, flags))->slice(2, 9),
                fixed_layout(bytes_of(sub(vals, 2, 9)), sub(flags, 2, 9)));
  Strings strs = {"\xC3\xA5", std::nullopt, "", "long string here", "\xF0\x9F\x98\x80\xF0\x9F\x98\x80"};
  expect_export(on_test_device(host_strings(TypeId::LargeUtf8, strs))->slice(1, 4),
                string_layout(TypeId::LargeUtf8, {"", "", "long string here", "\xF0\x9F\x98\x80\xF0\x9F\x98\x80"},
                              {false, true, true, true}));
}

TEST(arrow, export_needs_a_host_column) {
  if (test_device().kind() == DeviceKind::Cpu) return;  // only meaningful with a device column
  ColumnPtr c = on_test_device(host_column(TypeId::Int32, std::vector<int32_t>{1, 2, 3}));
  EXPECT_THROW_CODE(arrow_export_sizes(*c), ErrorCode::Internal);
}

TEST(arrow, import_and_export_do_not_leak) {
  LiveBytes before;
  {
    std::vector<bool> flags = make_flags(Pattern::Random, 500, 1);
    std::vector<std::string> raw = sample_strings(500, 2);
    ColumnPtr s = import_arrow(test_device(), TypeId::Utf8, {string_chunk(TypeId::Utf8, raw, flags, 3, 4).chunk()});
    ColumnPtr dict = host_dictionary(TypeId::Utf8, {"p", "q"}, {});
    ColumnPtr d = import_arrow(test_device(), TypeId::Utf8, {dict_chunk(dict, TypeId::Int8, {0, 1, 1}, {}, 0).chunk()});
    export_column(s->slice(7, 100));
    export_column(d);
  }
  EXPECT_EQ(LiveBytes(), before);
}
