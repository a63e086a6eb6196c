// ops/dynamic: group_by_dynamic and rolling windows on the test device against a naive
// reference that steps every window and scans every row (fixed and calendar durations, all four
// closed rules, offsets, overlapping and gapped periods, several segments), plus the errors.
#include <climits>
#include <cstdint>
#include <tuple>
#include <vector>

#include "core/calendar.hpp"
#include "ops/dynamic/dynamic.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;
using namespace gpudf::dynamic;

namespace {

struct RefWindow {
  int64_t lower, upper;
  std::vector<int64_t> rows;
};

int64_t ref_add(int64_t t, Span s, int64_t k, int64_t tpd) {
  if (s.months != 0 && k != 0) {
    const int64_t days = floor_div_i64(t, tpd);
    t = add_months(days, k * s.months) * tpd + (t - days * tpd);
  }
  return t + k * s.ticks;
}

bool ref_holds(int64_t lo, int64_t hi, int64_t t, Closed c) {
  const bool lc = c == Closed::Left || c == Closed::Both, uc = c == Closed::Right || c == Closed::Both;
  return (lc ? t >= lo : t > lo) && (uc ? t <= hi : t < hi);
}

int64_t ref_truncate(int64_t t, const WindowSpec& w) {
  if (w.align == Align::DataPoint) return t;
  if (w.align == Align::Weekday) {
    // Step back day by day to a Monday (day 4 since 1970-01-01 was one), then forward to the weekday.
    int64_t day = floor_div_i64(t, w.ticks_per_day);
    while (floor_mod_i64(day - 4, 7) != 0) --day;
    return (day + w.weekday) * w.ticks_per_day;
  }
  if (w.align == Align::Months) {
    const CivilDate c = civil_from_days(floor_div_i64(t, w.ticks_per_day));
    int64_t m = (c.year - 1970) * 12 + c.month - 1;
    m -= floor_mod_i64(m, w.every.months);
    return days_from_civil(1970 + floor_div_i64(m, 12), unsigned(floor_mod_i64(m, 12) + 1), 1) * w.ticks_per_day;
  }
  const int64_t base = w.align == Align::Weeks ? 4 * w.ticks_per_day : 0;
  return t - floor_mod_i64(t - base, w.every.ticks);
}

std::vector<RefWindow> ref_dynamic(const std::vector<int64_t>& t, const std::vector<int32_t>& seg, const WindowSpec& w) {
  std::vector<RefWindow> out;
  const int64_t n = int64_t(t.size());
  const bool lc = w.closed == Closed::Left || w.closed == Closed::Both;
  for (int64_t b = 0; b < n;) {
    int64_t e = b;
    while (e < n && seg[size_t(e)] == seg[size_t(b)]) ++e;
    const int64_t t0 = t[size_t(b)];
    int64_t anchor = t0;
    if (w.align != Align::DataPoint) {
      anchor = ref_add(ref_truncate(t0, w), w.offset, 1, w.ticks_per_day);
      const int64_t start = anchor;
      for (int64_t m = 1; lc ? anchor > t0 : anchor >= t0; ++m) anchor = ref_add(start, w.every, -m, w.ticks_per_day);
    }
    for (int64_t j = 0;; ++j) {
      const int64_t lo = ref_add(anchor, w.every, j, w.ticks_per_day), hi = ref_add(lo, w.period, 1, w.ticks_per_day);
      if (lo > t[size_t(e - 1)]) break;
      RefWindow win{lo, hi, {}};
      for (int64_t i = b; i < e; ++i)
        if (ref_holds(lo, hi, t[size_t(i)], w.closed)) win.rows.push_back(i);
      if (!win.rows.empty()) out.push_back(win);
    }
    b = e;
  }
  return out;
}

/// Sorted ticks in `segments` runs, with duplicates and gaps.
std::tuple<std::vector<int64_t>, std::vector<int32_t>> random_index(Rng& rng, int64_t n, int32_t segments, int64_t base,
                                                                    int64_t step) {
  std::vector<int64_t> t(static_cast<size_t>(n));
  std::vector<int32_t> seg(static_cast<size_t>(n));
  int64_t cur = base;
  int32_t s = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0 && s + 1 < segments && rng.next() % uint64_t(n / segments + 1) == 0) {
      ++s;
      cur = base + int64_t(rng.next() % uint64_t(step * 4));
    }
    const uint64_t r = rng.next() % 10;
    cur += r < 2 ? 0 : r < 9 ? int64_t(rng.next() % uint64_t(step)) : step * int64_t(5 + rng.next() % 20);
    t[size_t(i)] = cur;
    seg[size_t(i)] = s;
  }
  return {t, seg};
}

void expect_matches(const std::vector<int64_t>& t, const std::vector<int32_t>& seg, TypeId type, const WindowSpec& w) {
  const std::vector<RefWindow> ref = ref_dynamic(t, seg, w);
  ColumnPtr index = type == TypeId::Date32 || type == TypeId::Int32
                        ? on_test_device(host_column(type, std::vector<int32_t>(t.begin(), t.end())))
                        : on_test_device(host_column(type, t));
  DynamicWindows got = dynamic_windows(index, on_test_device(host_column(TypeId::Int32, seg)), w);
  ASSERT_EQ(got.members.count, int64_t(ref.size()));
  std::vector<std::optional<int64_t>> lower, upper, first;
  if (type == TypeId::Date32 || type == TypeId::Int32) {
    for (auto v : read_values<int32_t>(got.lower)) lower.push_back(v ? std::optional<int64_t>(*v) : std::nullopt);
    for (auto v : read_values<int32_t>(got.upper)) upper.push_back(v ? std::optional<int64_t>(*v) : std::nullopt);
  } else {
    lower = read_values<int64_t>(got.lower);
    upper = read_values<int64_t>(got.upper);
  }
  first = read_values<int64_t>(got.first_row);
  std::vector<std::optional<int32_t>> ids = read_values<int32_t>(got.members.windows);
  std::vector<std::optional<int64_t>> want_rows;
  std::vector<std::optional<int32_t>> want_ids;
  // Rows in place (no row in two windows): one window id per index row, -1 for none.
  std::vector<std::optional<int32_t>> in_place(t.size(), int32_t(-1));
  bool shared = false;
  for (size_t k = 0; k < ref.size(); ++k) {
    EXPECT_EQ(lower[k], std::optional<int64_t>(ref[k].lower));
    EXPECT_EQ(upper[k], std::optional<int64_t>(ref[k].upper));
    EXPECT_EQ(first[k], std::optional<int64_t>(ref[k].rows.front()));
    for (int64_t r : ref[k].rows) {
      want_rows.push_back(r);
      want_ids.push_back(int32_t(k));
      shared = shared || in_place[size_t(r)] != int32_t(-1);
      in_place[size_t(r)] = int32_t(k);
    }
  }
  ASSERT_EQ(got.members.rows == nullptr, !shared);  // rows in place exactly when no row lies in two windows
  if (shared) {
    EXPECT_EQ(read_values<int64_t>(got.members.rows), want_rows);
    EXPECT_EQ(ids, want_ids);
  } else {
    EXPECT_EQ(ids, in_place);
  }
}

constexpr int64_t kNsPerDay = 86400LL * 1000000000LL;

}  // namespace

TEST(dynamic, hand_computed_int_windows) {
  WindowSpec w;
  w.every = {0, 3};
  w.period = {0, 3};
  std::vector<int64_t> t = {0, 1, 2, 5, 9, 10};
  DynamicWindows got = dynamic_windows(on_test_device(host_column(TypeId::Int64, t)), nullptr, w);
  EXPECT_EQ(got.members.count, int64_t(3));
  EXPECT_EQ(read_values<int64_t>(got.lower), (std::vector<std::optional<int64_t>>{0, 3, 9}));
  EXPECT_EQ(read_values<int64_t>(got.upper), (std::vector<std::optional<int64_t>>{3, 6, 12}));
  EXPECT_EQ(read_values<int32_t>(got.members.windows), (std::vector<std::optional<int32_t>>{0, 0, 0, 1, 2, 2}));
}

TEST(dynamic, fixed_windows_match_reference) {
  const Closed closes[] = {Closed::Left, Closed::Right, Closed::Both, Closed::None};
  const int64_t hour = 3600LL * 1000000000LL;
  int round = 0;
  for (int64_t n : {int64_t(1), int64_t(9), int64_t(300), int64_t(5000)}) {
    for (Closed c : closes) {
      for (int64_t period : {hour / 2, hour, 5 * hour / 2}) {
        for (int64_t offset : {int64_t(0), -hour / 3, hour / 3}) {
          Rng rng(uint64_t(n * 7 + ++round));
          // Rows about 6 an hour (most windows found row by row), or about 80 an hour (few
          // windows for the rows: disjoint windows are numbered directly).
          auto [t, seg] = random_index(rng, n, 4, 1700000000LL * 1000000000LL, round % 2 == 0 ? hour / 3 : hour / 40);
          WindowSpec w;
          w.every = {0, hour};
          w.period = {0, period};
          w.offset = {0, offset};
          w.closed = c;
          w.align = round % 5 == 0 ? Align::DataPoint : Align::Fixed;
          w.ticks_per_day = kNsPerDay;
          expect_matches(t, seg, TypeId::TimestampNs, w);
        }
      }
    }
  }
}

TEST(dynamic, weekly_and_monthly_windows_match_reference) {
  int round = 0;
  for (Closed c : {Closed::Left, Closed::Right, Closed::Both, Closed::None}) {
    Rng rng(uint64_t(++round));
    auto [t, seg] = random_index(rng, 400, 3, 10950, 9);  // days from 2000-01-01, gaps across month ends
    WindowSpec w;
    w.every = {1, 0};
    w.period = {round % 2 == 0 ? 2 : 1, 0};
    w.offset = {0, round % 3 == 0 ? 3 : 0};
    w.closed = c;
    w.align = Align::Months;
    w.ticks_per_day = 1;
    expect_matches(t, seg, TypeId::Date32, w);
    w.every = {0, 7};
    w.period = {0, 10};
    w.align = Align::Weeks;
    expect_matches(t, seg, TypeId::Date32, w);
  }
}

TEST(dynamic, weekday_starts_match_reference) {
  const int64_t hour = 3600LL * 1000000000LL;
  int round = 0;
  for (Closed c : {Closed::Left, Closed::Right, Closed::Both, Closed::None}) {
    for (int32_t weekday = 0; weekday < 7; ++weekday) {
      Rng rng(uint64_t(++round * 31));
      auto [t, seg] = random_index(rng, 300, 3, 1700000000LL * 1000000000LL, 11 * hour);
      WindowSpec w;
      w.every = {0, round % 3 == 0 ? 2 * 7 * 24 * hour : round % 3 == 1 ? 7 * 24 * hour : 3 * 24 * hour};
      w.period = {0, round % 2 == 0 ? 7 * 24 * hour : 2 * 24 * hour};
      w.offset = {0, round % 4 == 0 ? 6 * hour : round % 4 == 1 ? -30 * hour : 0};
      w.closed = c;
      w.align = Align::Weekday;
      w.weekday = weekday;
      w.ticks_per_day = kNsPerDay;
      expect_matches(t, seg, TypeId::TimestampNs, w);
      // Dates, with a calendar period.
      auto [d, dseg] = random_index(rng, 200, 2, 19000 + weekday, 5);
      w.ticks_per_day = 1;
      w.every = {0, 7};
      w.period = weekday % 2 == 0 ? Span{0, 10} : Span{1, 0};
      w.offset = {0, weekday % 3 == 0 ? -1 : 0};
      expect_matches(d, dseg, TypeId::Date32, w);
    }
  }
  // Hand-computed: 2024-01-03 (a Wednesday, day 19725) with start on Friday: the Friday before is
  // 2023-12-29 (day 19720); start on Wednesday: the day itself.
  WindowSpec w;
  w.every = {0, 7};
  w.period = {0, 7};
  w.align = Align::Weekday;
  w.ticks_per_day = 1;
  w.weekday = 4;
  ColumnPtr days = on_test_device(host_column(TypeId::Date32, std::vector<int32_t>{19725, 19727, 19733}));
  EXPECT_EQ(read_values<int32_t>(dynamic_windows(days, nullptr, w).lower), (std::vector<std::optional<int32_t>>{19720, 19727}));
  w.weekday = 2;
  EXPECT_EQ(read_values<int32_t>(dynamic_windows(days, nullptr, w).lower), (std::vector<std::optional<int32_t>>{19725, 19732}));
  w.weekday = 7;
  EXPECT_THROW_CODE(dynamic_windows(days, nullptr, w), ErrorCode::InvalidArgument);
  w.weekday = 0;
  w.every = {1, 0};  // months from a weekday would clamp to different days: refused
  EXPECT_THROW_CODE(dynamic_windows(days, nullptr, w), ErrorCode::InvalidArgument);
  w.every = {0, 7};
  w.weekday = 0;
  w.ticks_per_day = 0;  // an integer index has no weekdays
  EXPECT_THROW_CODE(dynamic_windows(on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{1})), nullptr, w),
                    ErrorCode::InvalidArgument);
}

TEST(dynamic, rolling_matches_reference) {
  const int64_t s = 1000000000LL;
  for (Closed c : {Closed::Left, Closed::Right, Closed::Both, Closed::None}) {
    for (int64_t offset : {-10 * s, int64_t(0), -3 * s}) {
      Rng rng(uint64_t(offset + int64_t(c) * 11 + 5));
      auto [t, seg] = random_index(rng, 700, 5, 1600000000LL * s, 4 * s);
      WindowSpec w;
      w.period = {0, 10 * s};
      w.offset = {0, offset};
      w.closed = c;
      w.ticks_per_day = kNsPerDay;
      WindowRows got = rolling_windows(on_test_device(host_column(TypeId::TimestampNs, t)),
                                       on_test_device(host_column(TypeId::Int32, seg)), w);
      std::vector<std::optional<int64_t>> want_rows;
      std::vector<std::optional<int32_t>> want_ids;
      for (size_t i = 0; i < t.size(); ++i) {
        const int64_t lo = t[i] + offset, hi = lo + 10 * s;
        for (size_t r = 0; r < t.size(); ++r) {
          if (seg[r] == seg[i] && ref_holds(lo, hi, t[r], c)) {
            want_rows.push_back(int64_t(r));
            want_ids.push_back(int32_t(i));
          }
        }
      }
      while (want_rows.size() < t.size()) {  // padding: ignored rows up to one per window
        want_rows.push_back(int64_t(0));
        want_ids.push_back(int32_t(-1));
      }
      EXPECT_EQ(got.count, int64_t(t.size()));
      EXPECT_EQ(read_values<int64_t>(got.rows), want_rows);
      EXPECT_EQ(read_values<int32_t>(got.windows), want_ids);
    }
  }
}

TEST(dynamic, errors_are_typed) {
  WindowSpec w;
  w.every = {0, 2};
  w.period = {0, 2};
  EXPECT_THROW_CODE(dynamic_windows(on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{1, 3, 2})), nullptr, w),
                    ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(dynamic_windows(on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{1, 2}, {true, false})),
                                    nullptr, w),
                    ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(dynamic_windows(on_test_device(host_column(TypeId::Float64, std::vector<double>{1, 2})), nullptr, w),
                    ErrorCode::Dtype);
  // Sorted within each segment is enough; across a segment boundary the index may fall.
  DynamicWindows ok = dynamic_windows(on_test_device(host_column(TypeId::Int32, std::vector<int32_t>{5, 6, 1})),
                                      on_test_device(host_column(TypeId::Int32, std::vector<int32_t>{0, 0, 1})), w);
  EXPECT_EQ(read_values<int32_t>(ok.lower), (std::vector<std::optional<int32_t>>{4, 6, 0}));
  WindowSpec months = w;
  months.period = {1, 0};
  EXPECT_THROW_CODE(rolling_windows(on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{1})), nullptr, months),
                    ErrorCode::InvalidArgument);
  // A window end past int32's range for an int32 index.
  WindowSpec wide;
  wide.every = {0, 1000};
  wide.period = {0, 1000};
  EXPECT_THROW_CODE(dynamic_windows(on_test_device(host_column(TypeId::Int32, std::vector<int32_t>{INT32_MAX - 5})), nullptr, wide),
                    ErrorCode::InvalidArgument);
  DynamicWindows none = dynamic_windows(on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{})), nullptr, w);
  EXPECT_EQ(none.members.count, int64_t(0));
}

TEST(dynamic, rolling_pads_empty_windows) {
  WindowSpec w;
  w.period = {0, 1};
  w.offset = {0, -1};
  w.closed = Closed::None;  // (t - 1, t): always empty for integers
  WindowRows got = rolling_windows(on_test_device(host_column(TypeId::Int64, std::vector<int64_t>{1, 2, 3})), nullptr, w);
  EXPECT_EQ(got.count, int64_t(3));
  EXPECT_EQ(read_values<int32_t>(got.windows), (std::vector<std::optional<int32_t>>{-1, -1, -1}));
}
