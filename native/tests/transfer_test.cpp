// core/transfer: copy_to_device onto the test device and back with to_host gives the same rows
// (on the cpu both are the identity); to_host of a device column is compact.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/transfer.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {
using Strings = std::vector<std::optional<std::string>>;

Strings sample(int64_t n) {
  static const char* pool[] = {"", "x", "h\xC3\xA9llo", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x98\x80!", "abcdefghijklmnopqrstuvwxyz"};
  Strings out;
  Rng rng{uint64_t(n)};
  for (int64_t i = 0; i < n; ++i) {
    if (rng.coin(20)) out.push_back(std::nullopt);
    else out.push_back(std::string(pool[rng.next() % 6]));
  }
  return out;
}
}  // namespace

TEST(transfer, copy_to_the_same_device_is_the_identity) {
  ColumnPtr h = host_column(TypeId::Int32, std::vector<int32_t>{1, 2, 3});
  EXPECT_EQ(copy_to_device(h, cpu_device()).get(), h.get());
  EXPECT_EQ(to_host(h).get(), h.get());
  ColumnPtr d = on_test_device(h);
  EXPECT_EQ(copy_to_device(d, test_device()).get(), d.get());
  if (test_device().kind() == DeviceKind::Cpu) EXPECT_EQ(d.get(), h.get());
  else EXPECT_NE(d.get(), h.get());
}

TEST(transfer, fixed_width_round_trip_keeps_values_validity_and_counts) {
  for (int64_t n : {0, 1, 31, 32, 33, 64, 65, 5000}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    std::vector<int64_t> vals(static_cast<std::size_t>(n));
    Rng rng{uint64_t(n)};
    for (auto& v : vals) v = int64_t(rng.next());
    if (n >= 2) {
      vals[0] = std::numeric_limits<int64_t>::min();
      vals[1] = std::numeric_limits<int64_t>::max();
    }
    std::vector<bool> flags = make_flags(Pattern::Random, n, uint64_t(n) + 1);
    ColumnPtr h = host_column(TypeId::Int64, vals, flags);
    ColumnPtr d = on_test_device(h);
    EXPECT_EQ(&d->device(), &test_device());
    EXPECT_EQ(d->size(), n);
    EXPECT_EQ(d->type(), TypeId::Int64);
    EXPECT_EQ(d->null_count(), count_false(flags));
    ColumnPtr back = to_host(d);
    EXPECT_EQ(back->device().kind(), DeviceKind::Cpu);
    EXPECT_EQ(read_values<int64_t>(back), masked(vals, flags));
    EXPECT_EQ(back->null_count(), count_false(flags));
  }
}

TEST(transfer, every_fixed_type_survives_bitwise) {
  const TypeId types[] = {TypeId::Bool, TypeId::Int8, TypeId::UInt16, TypeId::Int32, TypeId::Float32,
                          TypeId::Float64, TypeId::UInt64, TypeId::Date32, TypeId::TimestampMs};
  for (TypeId t : types) {
    SCOPED_TRACE(std::string(type_name(t)));
    const int64_t n = 77;
    std::vector<uint8_t> raw = random_bytes(std::size_t(n * value_width(t)), uint64_t(t));
    if (t == TypeId::Bool)
      for (auto& b : raw) b &= 1;
    ColumnPtr h = Column::allocate(cpu_device(), t, n, false);
    std::memcpy(h->data()->data(), raw.data(), raw.size());
    ColumnPtr back = to_host(on_test_device(h)->slice(0, n));
    ColumnView v = back->view();
    std::vector<uint8_t> got(v.data + v.offset * value_width(t), v.data + (v.offset + n) * value_width(t));
    EXPECT_EQ(got, raw);
    EXPECT_FALSE(back->has_validity());
  }
}

TEST(transfer, special_doubles_are_bitwise_identical) {
  std::vector<double> vals = {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                              -0.0, 0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max()};
  vals.push_back(std::bit_cast<double>(0x7FF0000000000ABCull));  // NaN with a payload
  std::vector<uint64_t> want;
  for (double d : vals) want.push_back(bits_of(d));
  ColumnPtr d = on_test_device(host_column(TypeId::Float64, vals));
  EXPECT_EQ(read_values<uint64_t>(d), masked(want, {}));
}

TEST(transfer, sliced_columns_at_unaligned_offsets) {
  const int64_t n = 1000;
  std::vector<int32_t> vals(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) vals[std::size_t(i)] = int32_t(i * 31 - 7);
  std::vector<bool> flags = make_flags(Pattern::Random, n, 9);
  Strings strs = sample(n);
  ColumnPtr hi = host_column(TypeId::Int32, vals, flags);
  ColumnPtr hs = host_strings(TypeId::Utf8, strs);
  ColumnPtr hl = host_strings(TypeId::LargeUtf8, strs);
  for (int64_t off : {0, 1, 3, 7, 9, 13, 17, 100}) {
    for (int64_t len : {0, 1, 31, 32, 33, 64, 65, 500}) {
      SCOPED_TRACE("off=" + std::to_string(off) + " len=" + std::to_string(len));
      // Slice on the host, then move: the device copy keeps the offset.
      ColumnPtr di = on_test_device(hi->slice(off, len));
      EXPECT_EQ(di->offset(), off);
      EXPECT_EQ(read_values<int32_t>(di), masked(sub(vals, off, len), sub(flags, off, len)));
      EXPECT_EQ(di->null_count(), count_false(sub(flags, off, len)));
      // Move, then slice on the device.
      ColumnPtr ds = on_test_device(hs)->slice(off, len);
      ColumnPtr dl = on_test_device(hl)->slice(off, len);
      EXPECT_EQ(read_strings(ds), sub(strs, off, len));
      EXPECT_EQ(read_strings(dl), sub(strs, off, len));
      ColumnPtr back = to_host(ds);
      if (test_device().kind() == DeviceKind::Cpu) {
        EXPECT_EQ(back.get(), ds.get());  // host columns come back as they are
      } else {
        // A device column comes back compact: offset 0, offsets rebased, bitmap re-based.
        EXPECT_EQ(back->offset(), 0);
        EXPECT_EQ(reinterpret_cast<const int32_t*>(back->offsets()->data())[0], 0);
        EXPECT_EQ(back->offsets()->size(), std::size_t((len + 1) * 4));
        EXPECT_EQ(back->validity()->size(), std::size_t(bitmap_bytes(len)));
        ColumnPtr backi = to_host(di);
        EXPECT_EQ(backi->offset(), 0);
        EXPECT_EQ(backi->data()->size(), std::size_t(len * 4));
      }
    }
  }
}

TEST(transfer, device_to_host_with_copy_to_device_keeps_the_offset) {
  std::vector<int16_t> vals = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  std::vector<bool> flags = {true, true, false, true, true, true, true, true, true, false, true};
  ColumnPtr d = on_test_device(host_column(TypeId::Int16, vals, flags))->slice(3, 8);
  ColumnPtr h = copy_to_device(d, cpu_device());
  EXPECT_EQ(&h->device(), &cpu_device());
  EXPECT_EQ(h->offset(), 3);
  EXPECT_EQ(read_values<int16_t>(h), masked(sub(vals, 3, 8), sub(flags, 3, 8)));
  EXPECT_EQ(h->null_count(), 1);
}

TEST(transfer, empty_and_all_null_columns) {
  ColumnPtr e = on_test_device(host_strings(TypeId::Utf8, {}));
  EXPECT_EQ(e->size(), 0);
  EXPECT_EQ(read_strings(e), Strings{});
  ColumnPtr all_null = on_test_device(host_strings(TypeId::LargeUtf8, Strings(65)));
  EXPECT_EQ(all_null->null_count(), 65);
  EXPECT_EQ(read_strings(all_null), Strings(65));
  EXPECT_EQ(read_strings(all_null->slice(13, 40)), Strings(40));
  ColumnPtr nulls = on_test_device(host_column(TypeId::Float64, std::vector<double>(33, 1.0),
                                               std::vector<bool>(33, false)));
  EXPECT_EQ(nulls->null_count(), 33);
  EXPECT_EQ(read_validity(nulls->slice(3, 30)), std::vector<bool>(30, false));
}

TEST(transfer, round_trips_do_not_leak) {
  LiveBytes before;
  {
    ColumnPtr h = host_strings(TypeId::Utf8, sample(300));
    ColumnPtr d = on_test_device(h);
    ColumnPtr back = to_host(d->slice(17, 200));
    EXPECT_EQ(read_strings(back), sub(sample(300), 17, 200));
  }
  EXPECT_EQ(LiveBytes(), before);
}
