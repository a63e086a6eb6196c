// ops/nulls: count_nulls on the test device against a naive reference, for edge lengths and
// offsets, including bitmaps large enough for several CPU chunks and many CUDA blocks.
#include <cstdint>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "ops/nulls/null_count.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

/// A Bool column (values irrelevant) of offset + length rows whose bitmap is `bits`, on the
/// test device, viewed from `offset`.
ColumnPtr column_with_bitmap(const std::vector<uint8_t>& bits, int64_t rows) {
  ColumnPtr c = Column::allocate(cpu_device(), TypeId::Bool, rows, true);
  std::memcpy(c->validity()->data(), bits.data(), std::size_t(bitmap_bytes(rows)));
  return on_test_device(c);
}

}  // namespace

TEST(null_count, count_nulls_matches_reference_for_edge_lengths_and_offsets) {
  for (Pattern p : kPatterns) {
    for (int64_t offset : {0, 3, 13}) {
      for (int64_t len : {1, 31, 32, 33, 64, 65, 100003}) {
        SCOPED_TRACE(std::string(pattern_name(p)) + " offset=" + std::to_string(offset) +
                     " len=" + std::to_string(len));
        std::vector<bool> flags = make_flags(p, len, uint64_t(len + offset));
        // Bits before the offset are set and after the end too, so miscounting them shows.
        std::vector<uint8_t> bits = pack_bits(flags, offset, /*filler=*/true);
        ColumnPtr c = column_with_bitmap(bits, offset + len);
        ColumnPtr s = c->slice(offset, len);
        const int64_t want = count_false(flags);
        EXPECT_EQ(count_nulls(s->view()), want);
        EXPECT_EQ(s->null_count(), want);
        // The same rows through a hand-made view.
        ColumnView v = c->view();
        v.offset = offset;
        v.size = len;
        EXPECT_EQ(count_nulls(v), want);
      }
    }
  }
}

TEST(null_count, random_subranges_of_a_multi_block_bitmap) {
  const int64_t rows = 70001;
  std::vector<bool> flags = make_flags(Pattern::Random, rows, 5);
  ColumnPtr c = column_with_bitmap(pack_bits(flags), rows);
  // Prefix sums give the reference for any range.
  std::vector<int64_t> nulls_before(std::size_t(rows + 1), 0);
  for (int64_t i = 0; i < rows; ++i) nulls_before[std::size_t(i + 1)] = nulls_before[std::size_t(i)] + !flags[std::size_t(i)];
  Rng rng(11);
  for (int k = 0; k < 200; ++k) {
    int64_t a = int64_t(rng.next() % uint64_t(rows + 1));
    int64_t b = int64_t(rng.next() % uint64_t(rows + 1));
    if (a > b) std::swap(a, b);
    int64_t want = nulls_before[std::size_t(b)] - nulls_before[std::size_t(a)];
    int64_t got = count_nulls(c->slice(a, b - a)->view());
    if (got != want) {
      SCOPED_TRACE("range [" + std::to_string(a) + ", " + std::to_string(b) + ")");
      EXPECT_EQ(got, want);
    }
  }
}

TEST(null_count, large_bitmap_spans_several_cpu_chunks_and_grid_strides) {
  // > 3 MiB of bitmap: several 1 MiB parallel_for chunks on the CPU and more bytes than the CUDA
  // kernel's grid covers in one stride (4096 blocks x 256 bytes).
  const int64_t offset = 13;
  const int64_t rows = (int64_t(3) << 23) + 12345;
  std::vector<uint8_t> bits = random_bytes(std::size_t(bitmap_bytes(offset + rows)), 77);
  const int64_t want = rows - ref_count(bits, offset, offset + rows);
  ColumnPtr c = column_with_bitmap(bits, offset + rows);
  EXPECT_EQ(count_nulls(c->slice(offset, rows)->view()), want);
  EXPECT_EQ(count_nulls(c->view()), offset + rows - ref_count(bits, 0, offset + rows));
  // The CPU routine directly, on the host bitmap.
  EXPECT_EQ(detail::count_valid_cpu(bits.data(), offset, offset + rows), rows - want);
  EXPECT_EQ(detail::count_valid_cpu(bits.data(), 1 << 23, (1 << 23) + 17), ref_count(bits, 1 << 23, (1 << 23) + 17));
}

TEST(null_count, no_bitmap_or_no_rows_is_zero) {
  ColumnPtr c = on_test_device(host_column(TypeId::Int32, std::vector<int32_t>(100, 1)));
  EXPECT_EQ(count_nulls(c->view()), 0);
  EXPECT_EQ(count_nulls(c->slice(3, 50)->view()), 0);
  ColumnPtr n = column_with_bitmap(std::vector<uint8_t>(13, 0), 100);  // all null
  EXPECT_EQ(count_nulls(n->view()), 100);
  EXPECT_EQ(count_nulls(n->slice(17, 0)->view()), 0);
  EXPECT_EQ(count_nulls(n->slice(100, 0)->view()), 0);
  ColumnView empty;
  EXPECT_EQ(count_nulls(empty), 0);
}

TEST(null_count, count_valid_cpu_matches_reference_for_every_small_range) {
  std::vector<uint8_t> bits = random_bytes(12, 8);
  for (int64_t a = 0; a < 96; ++a)
    for (int64_t b = a + 1; b <= 96; ++b) {
      int64_t got = detail::count_valid_cpu(bits.data(), a, b);
      if (got != ref_count(bits, a, b)) {
        SCOPED_TRACE("[" + std::to_string(a) + ", " + std::to_string(b) + ")");
        EXPECT_EQ(got, ref_count(bits, a, b));
      }
    }
}
