// core/column: allocation sizes, O(1) slicing that shares buffers, slice bounds, null counts of
// slices at unaligned offsets (on the test device), and Table.
#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "core/error.hpp"
#include "core/transfer.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {
const TypeId kAllTypes[] = {TypeId::Bool,       TypeId::Int8,        TypeId::Int16,
                            TypeId::Int32,      TypeId::Int64,       TypeId::UInt8,
                            TypeId::UInt16,     TypeId::UInt32,      TypeId::UInt64,
                            TypeId::Float32,    TypeId::Float64,     TypeId::Utf8,
                            TypeId::LargeUtf8,  TypeId::Date32,      TypeId::TimestampS,
                            TypeId::TimestampMs, TypeId::TimestampUs, TypeId::TimestampNs};
}  // namespace

TEST(column, allocate_sizes_every_type) {
  Device& d = test_device();
  for (TypeId t : kAllTypes) {
    for (int64_t n : {int64_t(0), int64_t(1), int64_t(33), int64_t(1000)}) {
      for (bool nullable : {false, true}) {
        SCOPED_TRACE(std::string(type_name(t)) + " n=" + std::to_string(n) +
                     (nullable ? " nullable" : ""));
        ColumnPtr c = Column::allocate(d, t, n, nullable, is_string(t) ? 77 : 0);
        EXPECT_EQ(c->type(), t);
        EXPECT_EQ(c->size(), n);
        EXPECT_EQ(c->offset(), 0);
        EXPECT_EQ(&c->device(), &d);
        EXPECT_EQ(c->has_validity(), nullable);
        ASSERT_TRUE(c->data() != nullptr);
        if (is_string(t)) {
          ASSERT_TRUE(c->offsets() != nullptr);
          EXPECT_EQ(c->offsets()->size(), std::size_t((n + 1) * offset_width(t)));
          EXPECT_EQ(c->data()->size(), std::size_t(77));
        } else {
          EXPECT_TRUE(c->offsets() == nullptr);
          EXPECT_EQ(c->data()->size(), std::size_t(n * value_width(t)));
        }
        if (nullable) {
          EXPECT_EQ(c->validity()->size(), std::size_t(bitmap_bytes(n)));
          // The bitmap starts cleared: every row null.
          EXPECT_EQ(c->null_count(), n);
        } else {
          EXPECT_TRUE(c->validity() == nullptr);
          EXPECT_EQ(c->null_count(), 0);
        }
        std::size_t want_bytes = c->data()->capacity() +
                                 (c->offsets() ? c->offsets()->capacity() : 0) +
                                 (c->validity() ? c->validity()->capacity() : 0);
        EXPECT_EQ(c->buffer_bytes(), want_bytes);
        for (const BufferPtr* b : {&c->data(), &c->offsets(), &c->validity()})
          if (*b && (*b)->data())
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>((*b)->data()) % 64, std::uintptr_t(0));
      }
    }
  }
}

TEST(column, allocate_rejects_bad_sizes) {
  EXPECT_THROW_CODE(Column::allocate(test_device(), TypeId::Int32, -1, false), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(Column::allocate(test_device(), TypeId::Utf8, 1, false, -1), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(Column::allocate(test_device(), TypeId::Utf8, 1, false, int64_t(INT32_MAX) + 1),
                    ErrorCode::InvalidArgument);
}

TEST(column, constructor_rejects_negative_size_or_offset) {
  EXPECT_THROW_CODE(std::make_shared<Column>(cpu_device(), TypeId::Int32, -1, nullptr, nullptr, nullptr, 0),
                    ErrorCode::Internal);
  EXPECT_THROW_CODE(std::make_shared<Column>(cpu_device(), TypeId::Int32, 0, nullptr, nullptr, nullptr, 0, -2),
                    ErrorCode::Internal);
}

TEST(column, view_reflects_the_column) {
  std::vector<int32_t> vals = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  std::vector<bool> valid = {true, false, true, true, false, true, true, true, true, false};
  ColumnPtr c = on_test_device(host_column(TypeId::Int32, vals, valid));
  ColumnPtr s = c->slice(3, 5);
  ColumnView v = s->view();
  EXPECT_EQ(v.type, TypeId::Int32);
  EXPECT_EQ(v.size, 5);
  EXPECT_EQ(v.offset, 3);
  EXPECT_TRUE(v.data == c->data()->data());
  EXPECT_TRUE(v.validity == c->validity()->data());
  EXPECT_TRUE(v.offsets == nullptr);
  EXPECT_EQ(v.device, &test_device());
  EXPECT_EQ(v.null_count, kUnknownNullCount);  // not counted yet
  EXPECT_EQ(s->null_count(), 1);
  EXPECT_EQ(s->view().null_count, 1);  // cached
  if (test_device().kind() == DeviceKind::Cpu) {
    EXPECT_EQ(v.values<int32_t>()[0], 40);
    EXPECT_FALSE(v.is_valid(1));
    EXPECT_TRUE(v.is_valid(0));
  }
  ColumnView none = host_column(TypeId::Int32, vals)->view();
  EXPECT_TRUE(none.validity == nullptr);
  EXPECT_EQ(none.null_count, 0);
  EXPECT_TRUE(none.is_valid(3));
}

TEST(column, slice_is_o1_and_shares_buffers) {
  std::vector<std::optional<std::string>> strs;
  for (int i = 0; i < 100; ++i) strs.push_back(i % 7 == 0 ? std::nullopt : std::optional(std::string(i % 5, 'x')));
  for (ColumnPtr c : {on_test_device(host_column(TypeId::Int64, std::vector<int64_t>(100, 5),
                                                 make_flags(Pattern::Random, 100))),
                      on_test_device(host_strings(TypeId::Utf8, strs))}) {
    SCOPED_TRACE(std::string(type_name(c->type())));
    LiveBytes before;
    long uses = c->data().use_count();
    ColumnPtr s = c->slice(13, 50);
    EXPECT_EQ(LiveBytes(), before);  // nothing allocated
    EXPECT_EQ(s->data().get(), c->data().get());
    EXPECT_TRUE(s->data()->data() == c->data()->data());
    EXPECT_EQ(s->validity().get(), c->validity().get());
    EXPECT_EQ(s->offsets().get(), c->offsets().get());
    EXPECT_EQ(c->data().use_count(), uses + 1);
    EXPECT_EQ(s->size(), 50);
    EXPECT_EQ(s->offset(), 13);
    EXPECT_EQ(s->type(), c->type());
    EXPECT_EQ(&s->device(), &c->device());
    EXPECT_EQ(s->buffer_bytes(), c->buffer_bytes());
    // Shared buffers are owned by neither column alone (what the JS handles report to the GC).
    EXPECT_EQ(s->owned_bytes(), size_t(0));
    EXPECT_EQ(c->owned_bytes(), size_t(0));
    // Slices of slices accumulate offsets.
    ColumnPtr ss = s->slice(3, 40);
    EXPECT_EQ(ss->offset(), 16);
    EXPECT_EQ(ss->size(), 40);
    EXPECT_EQ(ss->data().get(), c->data().get());
    ColumnPtr empty = s->slice(50, 0);
    EXPECT_EQ(empty->size(), 0);
    EXPECT_EQ(empty->null_count(), 0);
    s.reset();
    ss.reset();
    empty.reset();
    EXPECT_EQ(c->owned_bytes(), c->buffer_bytes());  // the slices gone, c owns its buffers again
    // The slice keeps the buffers alive on its own.
    ColumnPtr keep = c->slice(1, 2);
    const Buffer* buf = c->data().get();
    c.reset();
    EXPECT_EQ(keep->data().get(), buf);
  }
}

TEST(column, slice_values_match_the_parent) {
  std::vector<int16_t> vals(300);
  for (int i = 0; i < 300; ++i) vals[std::size_t(i)] = int16_t(i * 7 - 1000);
  std::vector<bool> valid = make_flags(Pattern::Random, 300, 42);
  ColumnPtr c = on_test_device(host_column(TypeId::Int16, vals, valid));
  for (int64_t off : {0, 1, 3, 7, 8, 9, 13, 17, 64, 65}) {
    for (int64_t len : {0, 1, 31, 32, 33, 64, 65}) {
      SCOPED_TRACE("off=" + std::to_string(off) + " len=" + std::to_string(len));
      ColumnPtr s = c->slice(off, len);
      EXPECT_EQ(read_values<int16_t>(s), masked(sub(vals, off, len), sub(valid, off, len)));
    }
  }
}

TEST(column, slice_bounds_are_checked) {
  ColumnPtr c = host_column(TypeId::Int32, std::vector<int32_t>(10, 1));
  EXPECT_THROW_CODE(c->slice(-1, 1), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(0, 11), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(10, 1), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(11, 0), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(5, 6), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(1, -1), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(INT64_MAX, 1), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(1, INT64_MAX), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(c->slice(INT64_MIN, 0), ErrorCode::InvalidArgument);
  EXPECT_EQ(c->slice(10, 0)->size(), 0);
  EXPECT_EQ(c->slice(0, 10)->size(), 10);
  // A slice is bounded by its own length, not the parent's.
  ColumnPtr s = c->slice(2, 5);
  EXPECT_THROW_CODE(s->slice(0, 6), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(s->slice(3, 3), ErrorCode::InvalidArgument);
  EXPECT_EQ(s->slice(3, 2)->offset(), 5);
}

TEST(column, null_count_of_slices_at_unaligned_offsets_matches_reference) {
  const int64_t total = 1200;
  for (Pattern p : kPatterns) {
    std::vector<bool> valid = make_flags(p, total, 99);
    ColumnPtr c = on_test_device(host_column(TypeId::UInt8, std::vector<uint8_t>(total, 1), valid));
    EXPECT_EQ(c->null_count(), count_false(valid));
    for (int64_t off = 0; off <= 17; ++off) {
      for (int64_t len : edge_lengths()) {
        ColumnPtr s = c->slice(off, len);
        int64_t want = count_false(sub(valid, off, len));
        if (s->null_count() != want) {
          SCOPED_TRACE(std::string(pattern_name(p)) + " off=" + std::to_string(off) +
                       " len=" + std::to_string(len));
          EXPECT_EQ(s->null_count(), want);
        }
        // Slicing the slice again at another unaligned offset.
        if (len > 5) {
          ColumnPtr ss = s->slice(5, len - 5);
          EXPECT_EQ(ss->null_count(), count_false(sub(valid, off + 5, len - 5)));
        }
      }
    }
  }
}

TEST(column, null_count_is_known_or_counted) {
  std::vector<bool> valid = make_flags(Pattern::Alternating, 20);
  ColumnPtr c = host_column(TypeId::Int32, std::vector<int32_t>(20, 0), valid);
  EXPECT_EQ(c->view().null_count, kUnknownNullCount);
  EXPECT_EQ(c->null_count(), 10);
  // A full-length slice inherits the known count; a partial one starts unknown.
  EXPECT_EQ(c->slice(0, 20)->view().null_count, 10);
  EXPECT_EQ(c->slice(1, 19)->view().null_count, kUnknownNullCount);
  EXPECT_EQ(c->slice(1, 19)->null_count(), 10);  // rows 1, 3, ..., 19
  EXPECT_EQ(c->slice(2, 17)->null_count(), 8);
  // A column constructed with a known count reports it without counting.
  ColumnPtr k = std::make_shared<Column>(cpu_device(), TypeId::Int32, 20, c->data(), nullptr,
                                         c->validity(), 10);
  EXPECT_EQ(k->view().null_count, 10);
  // Without a bitmap the count is 0 whatever was passed.
  ColumnPtr nv = std::make_shared<Column>(cpu_device(), TypeId::Int32, 20, c->data(), nullptr,
                                          nullptr, kUnknownNullCount);
  EXPECT_EQ(nv->view().null_count, 0);
  EXPECT_EQ(nv->null_count(), 0);
  EXPECT_EQ(nv->slice(3, 4)->null_count(), 0);
}

TEST(table, columns_must_have_equal_lengths) {
  ColumnPtr a = on_test_device(host_column(TypeId::Int32, std::vector<int32_t>(10, 1)));
  ColumnPtr b = on_test_device(host_column(TypeId::Float64, std::vector<double>(10, 2.5)));
  ColumnPtr c = on_test_device(host_column(TypeId::Int32, std::vector<int32_t>(9, 1)));
  Table t({a, b});
  EXPECT_EQ(t.num_rows(), 10);
  EXPECT_EQ(t.num_columns(), std::size_t(2));
  EXPECT_EQ(t.column(1).get(), b.get());
  EXPECT_EQ(t.columns().size(), std::size_t(2));
  EXPECT_THROW_CODE(Table({a, c}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(Table({c, a, b}), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(Table({a, nullptr}), ErrorCode::InvalidArgument);
  bool out_of_range = false;
  try {
    t.column(2);
  } catch (const std::out_of_range&) {
    out_of_range = true;
  }
  EXPECT_TRUE(out_of_range);
  // A slice of a column has its own length.
  Table sliced({a->slice(1, 9), c});
  EXPECT_EQ(sliced.num_rows(), 9);
  Table empty;
  EXPECT_EQ(empty.num_rows(), 0);
  EXPECT_EQ(empty.num_columns(), std::size_t(0));
  Table none(std::vector<ColumnPtr>{});
  EXPECT_EQ(none.num_rows(), 0);
}

TEST(table, slice_slices_every_column) {
  std::vector<int32_t> ints(40);
  for (int i = 0; i < 40; ++i) ints[std::size_t(i)] = i;
  ColumnPtr a = on_test_device(host_column(TypeId::Int32, ints, make_flags(Pattern::Alternating, 40)));
  ColumnPtr b = on_test_device(host_strings(TypeId::LargeUtf8, std::vector<std::optional<std::string>>(40, "ab")));
  Table t({a, b});
  Table s = t.slice(13, 20);
  EXPECT_EQ(s.num_rows(), 20);
  EXPECT_EQ(s.num_columns(), std::size_t(2));
  EXPECT_EQ(s.column(0)->offset(), 13);
  EXPECT_EQ(s.column(1)->offset(), 13);
  EXPECT_EQ(s.column(0)->data().get(), a->data().get());
  EXPECT_EQ(s.column(0)->null_count(), 10);
  EXPECT_EQ(read_values<int32_t>(s.column(0)), masked(sub(ints, 13, 20), sub(make_flags(Pattern::Alternating, 40), 13, 20)));
  EXPECT_EQ(read_strings(s.column(1)), std::vector<std::optional<std::string>>(20, "ab"));
  EXPECT_EQ(t.slice(40, 0).num_rows(), 0);
  EXPECT_THROW_CODE(t.slice(30, 11), ErrorCode::InvalidArgument);
  EXPECT_EQ(Table().slice(0, 0).num_rows(), 0);
}
