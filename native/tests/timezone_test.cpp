// core/timezone and ops/timezone: POSIX TZ rules, TZif files of the system tz database (tzdata
// 2025b here), zone names and errors, and to_local / from_local on the test device (the CUDA
// kernel under the simulator) in every timestamp unit.
//
// Expected instants and offsets were computed outside this code: rule transitions with Python's
// calendar module (the n-th weekday of a month at the rule's local time, minus the offset in
// effect), zone offsets with Python 3.11's zoneinfo (datetime.fromtimestamp(t, UTC)
// .astimezone(ZoneInfo(zone)).utcoffset()), local times with calendar.timegm, and the two
// instants of a repeated local time with zoneinfo's fold=0 / fold=1.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "core/timezone.hpp"
#include "ops/expr/expr.hpp"
#include "ops/timezone/timezone.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

namespace {

using OffsetAt = std::pair<int64_t, int32_t>;  // (UTC seconds, expected offset)

void expect_offsets(const TimeZone& z, const std::vector<OffsetAt>& cases) {
  for (const auto& [t, off] : cases) {
    SCOPED_TRACE(z.name() + " at " + std::to_string(t));
    EXPECT_EQ(z.offset_at(t), off);
  }
}

/// Offsets one second before and at each transition instant.
void expect_switches(const TimeZone& z, const std::vector<int64_t>& at, int32_t a, int32_t b) {
  for (size_t k = 0; k < at.size(); ++k) {
    const int32_t before = k % 2 == 0 ? a : b, after = k % 2 == 0 ? b : a;
    expect_offsets(z, {{at[k] - 1, before}, {at[k], after}});
  }
}

/// The code and message of what f throws (code Internal, empty message: nothing thrown).
template <typename F>
std::pair<ErrorCode, std::string> error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return {e.code(), e.what()};
  }
  return {ErrorCode::Internal, ""};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

void put32(std::string& b, uint32_t v) {
  for (int k = 3; k >= 0; --k) b += char((v >> (8 * k)) & 0xFF);
}
void put64(std::string& b, uint64_t v) {
  for (int k = 7; k >= 0; --k) b += char((v >> (8 * k)) & 0xFF);
}

/// A TZif file: version '\0' (v1 data only) or '2'..'4' (a v1 block, then the 64-bit block and
/// the footer). Types are (utoff, isdst); abbreviations are one "X\0".
std::string tzif(char version, const std::vector<int64_t>& times, const std::vector<uint8_t>& index,
                 const std::vector<std::pair<int32_t, bool>>& types, const std::string& footer, uint32_t leaps = 0) {
  std::string b;
  auto block = [&](size_t time_size) {
    b += "TZif";
    b += version;
    b += std::string(15, '\0');
    for (uint32_t c : {0u, 0u, leaps, uint32_t(times.size()), uint32_t(types.size()), 2u}) put32(b, c);
    for (int64_t t : times) time_size == 8 ? put64(b, uint64_t(t)) : put32(b, uint32_t(int32_t(t)));
    for (uint8_t i : index) b += char(i);
    for (const auto& [off, dst] : types) {
      put32(b, uint32_t(off));
      b += char(dst), b += '\0';
    }
    b += std::string("X\0", 2);
    for (uint32_t k = 0; k < leaps; ++k) {
      time_size == 8 ? put64(b, 0) : put32(b, 0);
      put32(b, 1);
    }
  };
  block(4);
  if (version != '\0') {
    block(8);
    b += "\n" + footer + "\n";
  }
  return b;
}

/// A fresh directory under /tmp holding `files` (name -> bytes; names may contain '/').
std::string temp_db(const std::vector<std::pair<std::string, std::string>>& files) {
  char dir[] = "/tmp/gpudf_tz_XXXXXX";
  GPUDF_EXPECTS(::mkdtemp(dir) != nullptr, Internal, "mkdtemp failed");
  for (const auto& [name, bytes] : files) {
    const std::string path = std::string(dir) + "/" + name;
    const size_t slash = name.find('/');
    if (slash != std::string::npos) ::mkdir((std::string(dir) + "/" + name.substr(0, slash)).c_str(), 0700);
    std::ofstream(path, std::ios::binary) << bytes;
  }
  return dir;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const TypeId kUnits[] = {TypeId::TimestampS, TypeId::TimestampMs, TypeId::TimestampUs, TypeId::TimestampNs};

/// A timestamp column on the test device; nullopt rows are null.
ColumnPtr stamps(TypeId t, const std::vector<std::optional<int64_t>>& v) {
  std::vector<int64_t> raw;
  std::vector<bool> valid;
  for (const auto& x : v) raw.push_back(x.value_or(0)), valid.push_back(x.has_value());
  return on_test_device(host_column<int64_t>(t, raw, valid));
}

}  // namespace

TEST(timezone, posix_rules_northern_and_southern) {
  // Europe/Berlin's rule: CET/CEST, last Sunday of March and of October at 01:00 UTC.
  const TimeZone berlin = time_zone_from_posix("berlin", "CET-1CEST,M3.5.0,M10.5.0/3");
  expect_switches(berlin, {1711846800, 1729990800}, 3600, 7200);  // 2024, the known instants
  expect_switches(berlin, {4109878800, 4128627600}, 3600, 7200);  // 2100
  expect_switches(berlin, {16732659600, 16751408400}, 3600, 7200);  // 2500
  expect_switches(berlin, {-2201814000, -2183065200}, 3600, 7200);  // 1900 (the rule alone holds everywhere)
  expect_switches(berlin, {-23929200, -5785200}, 3600, 7200);  // 1969
  // 8000 years later: the 400-year period of the Gregorian calendar.
  expect_switches(berlin, {1711846800 + 20 * kZoneCycleSeconds, 1729990800 + 20 * kZoneCycleSeconds}, 3600, 7200);
  expect_switches(berlin, {1711846800 - 20 * kZoneCycleSeconds}, 3600, 7200);

  const TimeZone ny = time_zone_from_posix("ny", "EST5EDT,M3.2.0,M11.1.0");
  expect_switches(ny, {1710054000, 1730613600}, -18000, -14400);  // 2024-03-10 07:00, 2024-11-03 06:00 UTC
  expect_switches(ny, {-309373200, -288813600}, -18000, -14400);  // 1960
  expect_switches(ny, {16731471600, 16752031200}, -18000, -14400);  // 2500
  // Without rules, the POSIX default (the US rules).
  expect_switches(time_zone_from_posix("us", "EST5EDT"), {1710054000, 1730613600}, -18000, -14400);

  // Southern hemisphere: DST over the new year; AEDT -> AEST 2024-04-06 16:00 UTC.
  const TimeZone sydney = time_zone_from_posix("sydney", "AEST-10AEDT,M10.1.0,M4.1.0/3");
  expect_switches(sydney, {1712419200, 1728144000}, 39600, 36000);
  expect_switches(sydney, {16733232000, 16748956800}, 39600, 36000);  // 2500
  expect_offsets(sydney, {{1704067200, 39600}, {1719792000, 36000}});  // 2024-01-01, 2024-07-01
}

TEST(timezone, posix_rule_forms) {
  // Fixed offsets, quoted names, minutes.
  for (const char* tz : {"<+0330>-3:30", "IRST-3:30"}) {
    const TimeZone z = time_zone_from_posix("fixed", tz);
    expect_offsets(z, {{-100000000000, 12600}, {0, 12600}, {100000000000, 12600}});
    EXPECT_TRUE(z.transitions().empty());
  }
  expect_offsets(time_zone_from_posix("gmt5", "<-05>5"), {{0, -18000}, {16740864000, -18000}});
  expect_offsets(time_zone_from_posix("odd", "<+0545>-5:45:10"), {{0, 20710}});
  // Jn counts no February 29 (J60 is March 1 in every year); n counts it (59: Feb 29 in 2024).
  const TimeZone j = time_zone_from_posix("j", "ABC-2DEF,J60,J300");
  expect_switches(j, {1677628800, 1698361200, 1709251200, 1729983600}, 7200, 10800);  // 2023, 2024
  const TimeZone n = time_zone_from_posix("n", "ABC-2DEF,59,299/3");
  expect_switches(n, {1677628800, 1698364800, 1709164800, 1729900800}, 7200, 10800);
  // Version 3 times: past 24 hours (Asia/Jerusalem) and negative (America/Nuuk).
  const TimeZone jerusalem = time_zone_from_posix("jerusalem", "IST-2IDT,M3.4.4/26,M10.5.0");
  expect_switches(jerusalem, {1711670400, 1729983600, 4109702400, 4128620400}, 7200, 10800);
  const TimeZone nuuk = time_zone_from_posix("nuuk", "<-02>2<-01>,M3.5.0/-1,M10.5.0/0");
  expect_switches(nuuk, {1711846800, 1729990800, 4109878800, 4128627600}, -7200, -3600);
  // DST all year (RFC 8536 section 3.3.1): no transition is left.
  const TimeZone always = time_zone_from_posix("always", "EST5EDT,0/0,J365/25");
  EXPECT_TRUE(always.transitions().empty());
  expect_offsets(always, {{0, -14400}, {1719792000, -14400}, {1704067200, -14400}});

  for (const char* tz : {"", "CE-1", "CET", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.7,M10.5.0",
                         "CET-1CEST,M3.0.0,M10.5.0", "CET-1CEST,J0,J300", "CET-1CEST,M3.5.0/168,M10.5.0", "<+03-3",
                         "CET-1CEST,M3.5.0,M10.5.0x", "CET-25"}) {
    SCOPED_TRACE(tz);
    EXPECT_THROW_CODE(time_zone_from_posix("bad", tz), ErrorCode::TimeZone);
  }
}

TEST(timezone, tzif_of_the_system_database) {
  expect_offsets(*time_zone("Europe/Berlin"),
                 {{-3029443200, 3208},  // 1874: local mean time, time type 0
                  {-775872000, 10800},  // 1945-06-01: double summer time
                  {0, 3600},
                  {1711846799, 3600},
                  {1711846800, 7200},
                  {1729990799, 7200},
                  {1729990800, 3600},
                  {4118083200, 7200},  // 2100-07-01, the footer rule
                  {16725225600, 3600},  // 2500-01-01, 400-year periods back into the table
                  {16740864000, 7200}});
  expect_switches(*time_zone("Europe/Berlin"), {16732659600, 16751408400}, 3600, 7200);  // 2500
  expect_offsets(*time_zone("America/New_York"), {{-3155673600, -17762},
                                                  {-615513600, -14400},
                                                  {1710053999, -18000},
                                                  {1710054000, -14400},
                                                  {1730613599, -14400},
                                                  {1730613600, -18000},
                                                  {4102444800, -18000},
                                                  {16740864000, -14400}});
  expect_switches(*time_zone("America/New_York"), {-21488400, -5767200}, -18000, -14400);  // 1969
  expect_switches(*time_zone("America/New_York"), {16731471600, 16752031200}, -18000, -14400);  // 2500
  expect_offsets(*time_zone("Australia/Sydney"),
                 {{-5364662400, 36292}, {1712419199, 39600}, {1712419200, 36000}, {16725225600, 39600}, {16740864000, 36000}});
  expect_offsets(*time_zone("Asia/Kolkata"),
                 {{-5364662400, 21208}, {-852076800, 23400}, {1704067200, 19800}, {16725225600, 19800}});
  expect_offsets(*time_zone("UTC"), {{-5364662400, 0}, {0, 0}, {16740864000, 0}});
  expect_offsets(*time_zone("Etc/GMT+5"), {{-5364662400, -18000}, {0, -18000}, {16740864000, -18000}});
  // Loaded once: the same zone object again.
  EXPECT_TRUE(time_zone("Europe/Berlin").get() == time_zone("Europe/Berlin").get());
}

TEST(timezone, tzif_versions_and_malformed_files) {
  // Version 1: 32-bit data, no footer (the last offset holds on).
  const std::string v1 = tzif('\0', {-100, 1000}, {1, 0}, {{3600, false}, {7200, true}}, "");
  expect_offsets(time_zone_from_tzif("v1", v1), {{-101, 3600}, {-100, 7200}, {999, 7200}, {1000, 3600}, {1 << 30, 3600}});
  // Version 2 with a rule: the rule takes over after the last transition.
  const std::string v2 = tzif('2', {0}, {1}, {{0, false}, {3600, false}}, "CET-1CEST,M3.5.0,M10.5.0/3");
  expect_offsets(time_zone_from_tzif("v2", v2), {{-1, 0}, {0, 3600}, {1711846800, 7200}, {16740864000, 7200}});
  // Versions 3 and 4 without transitions: the footer holds everywhere (RFC 8536 section 3.2).
  for (char v : {'3', '4'}) {
    const TimeZone z = time_zone_from_tzif("v3", tzif(v, {}, {}, {{0, false}}, "IST-2IDT,M3.4.4/26,M10.5.0"));
    expect_switches(z, {1711670400, 1729983600}, 7200, 10800);
    expect_offsets(time_zone_from_tzif("fixed", tzif(v, {}, {}, {{0, false}}, "<+0330>-3:30")), {{0, 12600}});
  }
  // An empty footer: the table alone.
  expect_offsets(time_zone_from_tzif("empty", tzif('2', {5}, {1}, {{0, false}, {60, false}}, "")), {{4, 0}, {1 << 30, 60}});

  const std::string berlin = read_file("/usr/share/zoneinfo/Europe/Berlin");
  ASSERT_TRUE(berlin.size() > 100);
  std::string bad_version = berlin;
  bad_version[4] = '9';
  std::string bad_footer = berlin.substr(0, berlin.rfind('\n', berlin.size() - 2)) + "\nCET-1CEST,M13.5.0,M10.5.0/3\n";
  const std::vector<std::string> bad = {
      "",
      "TZif",
      "NOTZ" + berlin.substr(4),
      berlin.substr(0, 100),
      berlin.substr(0, berlin.size() - 1),  // the footer's newline missing
      bad_version,
      bad_footer,
      tzif('2', {}, {}, {}, ""),                                // no time type
      tzif('2', {10, 5}, {0, 0}, {{0, false}}, ""),              // out of order
      tzif('2', {10}, {3}, {{0, false}}, ""),                    // a missing type
      tzif('2', {}, {}, {{0, false}}, "UTC0", 1),                // leap seconds
      tzif('2', {}, {}, {{int32_t(-2147483647 - 1), false}}, ""),  // offset out of range
  };
  for (size_t k = 0; k < bad.size(); ++k) {
    SCOPED_TRACE("malformed file " + std::to_string(k));
    EXPECT_THROW_CODE(time_zone_from_tzif("bad", bad[k]), ErrorCode::TimeZone);
  }
  const std::string dir = temp_db({{"Bad/Zone", berlin.substr(0, 60)}, {"Good/Zone", v2}});
  EXPECT_EQ(time_zone_in(dir, "Good/Zone")->offset_at(1711846800), int32_t(7200));
  EXPECT_THROW_CODE(time_zone_in(dir, "Bad/Zone"), ErrorCode::TimeZone);
  EXPECT_THROW_CODE(time_zone_in(dir, "Bad"), ErrorCode::TimeZone);  // a directory
  std::remove((dir + "/Bad/Zone").c_str());
  std::remove((dir + "/Good/Zone").c_str());
  ::rmdir((dir + "/Bad").c_str());
  ::rmdir((dir + "/Good").c_str());
  ::rmdir(dir.c_str());
}

TEST(timezone, names_and_unknown_zones) {
  for (const char* name : {"", "../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "Europe/", "Europe//Berlin",
                           "Europe/Berlin ", "Europe\\Berlin", ".", "Europe/.hidden"}) {
    SCOPED_TRACE(name);
    EXPECT_THROW_CODE(time_zone(name), ErrorCode::TimeZone);
  }
  const auto [code, message] = error_of([] { time_zone("Mars/Base"); });
  EXPECT_EQ(code, ErrorCode::TimeZone);
  EXPECT_EQ(message, std::string("unknown time zone \"Mars/Base\" (not in /usr/share/zoneinfo)"));
  EXPECT_EQ(std::string(error_code_name(ErrorCode::TimeZone)), std::string("ERR_TIME_ZONE"));
  // No database: UTC still works, anything else is ERR_TIME_ZONE; TZDIR chooses the directory.
  EXPECT_EQ(time_zone_in("/nonexistent/zoneinfo", "UTC")->offset_at(1711846800), int32_t(0));
  EXPECT_THROW_CODE(time_zone_in("/nonexistent/zoneinfo", "Europe/Berlin"), ErrorCode::TimeZone);
  ::setenv("TZDIR", "/nonexistent/zoneinfo", 1);
  const auto missing = error_of([] { time_zone("Europe/Berlin"); });
  ::unsetenv("TZDIR");
  EXPECT_EQ(missing.first, ErrorCode::TimeZone);
  EXPECT_TRUE(contains(missing.second, "no time zone database at /nonexistent/zoneinfo"));
  // Loaded from many threads at once: one zone object for all.
  std::vector<const TimeZone*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t k = 0; k < seen.size(); ++k) threads.emplace_back([&, k] { seen[k] = time_zone("America/Chicago").get(); });
  for (auto& t : threads) t.join();
  for (const TimeZone* z : seen) EXPECT_TRUE(z == seen[0] && z != nullptr);
}

TEST(timezone, to_local_in_every_unit) {
  const TimeZone& berlin = *time_zone("Europe/Berlin");
  const TimeZone& ny = *time_zone("America/New_York");
  // (UTC second, offset): around Berlin's 2024 switches, and New York's 1969 ones (before 1970).
  const std::vector<OffsetAt> berlin_cases = {
      {1711846799, 3600}, {1711846800, 7200}, {1729990799, 7200}, {1729990800, 3600}, {16740864000, 7200}};
  const std::vector<OffsetAt> ny_cases = {
      {-21488401, -18000}, {-21488400, -14400}, {-5767201, -14400}, {-5767200, -18000}, {-1, -18000}, {0, -18000}};
  for (TypeId t : kUnits) {
    SCOPED_TRACE(std::string(type_name(t)));
    const int64_t ps = ticks_per_second(t);
    for (const auto* cases : {&berlin_cases, &ny_cases}) {
      const TimeZone& zone = cases == &berlin_cases ? berlin : ny;
      // Each second at its start and (finer units) its last tick; a null and a slice too.
      std::vector<std::optional<int64_t>> in, want;
      in.push_back(std::nullopt), want.push_back(std::nullopt);
      for (const auto& [s, off] : *cases) {
        if (t == TypeId::TimestampNs && (s > 9223372036 || s < -9223372036)) continue;
        for (int64_t frac : {int64_t(0), ps - 1}) {
          in.push_back(s * ps + frac);
          want.push_back((s + off) * ps + frac);
        }
      }
      const ColumnPtr col = stamps(t, in);
      const ColumnPtr out = to_local(col, zone);
      EXPECT_EQ(out->type(), t);
      EXPECT_EQ(read_values<int64_t>(out), want);
      EXPECT_EQ(read_values<int64_t>(to_local(col->slice(3, int64_t(in.size()) - 3), zone)),
                sub(want, 3, int64_t(want.size()) - 3));
    }
  }
  // A local time beyond int64: null (1677, the earliest nanosecond, is in Berlin's local mean
  // time, +0:53:28).
  EXPECT_EQ(read_values<int64_t>(to_local(stamps(TypeId::TimestampNs, {INT64_MAX, INT64_MIN}), berlin)),
            (std::vector<std::optional<int64_t>>{std::nullopt, INT64_MIN + 3208000000000LL}));
  EXPECT_EQ(read_values<int64_t>(to_local(stamps(TypeId::TimestampNs, {}), berlin)).size(), size_t(0));
  EXPECT_THROW_CODE(to_local(on_test_device(host_column<int64_t>(TypeId::Int64, {1})), berlin), ErrorCode::Dtype);
  EXPECT_THROW_CODE(to_local(on_test_device(host_column<int32_t>(TypeId::Date32, {1})), berlin), ErrorCode::Dtype);
}

TEST(timezone, from_local_modes) {
  const TimeZone& berlin = *time_zone("Europe/Berlin");
  // Local (naive) seconds, Berlin 2024: 02:30 on Oct 27 (twice: 00:30 and 01:30 UTC), 02:30 on
  // Mar 31 (skipped: 02:00 -> 03:00 at 01:00 UTC), July 1 12:00, Jan 15 08:00, and the edges of
  // both switches.
  const int64_t amb = 1729996200, gap = 1711852200;
  const std::vector<std::optional<int64_t>> local = {
      amb, gap, 1719835200, std::nullopt, 1705305600,
      1729994400 /* Oct 27 02:00, ambiguous */, 1729998000 /* 03:00 */, 1711850400 /* Mar 31 02:00, skipped */,
      1711853999 /* 02:59:59, skipped */, 1711854000 /* 03:00 */, 1711850399 /* 01:59:59 */};
  const int64_t earliest = 1729989000, latest = 1729992600, switch_on = 1711846800;
  for (TypeId t : kUnits) {
    SCOPED_TRACE(std::string(type_name(t)));
    const int64_t ps = ticks_per_second(t);
    const int64_t frac = ps - 1;  // the last tick of each second, kept exactly
    std::vector<std::optional<int64_t>> in;
    for (const auto& v : local) in.push_back(v ? std::optional<int64_t>(*v * ps + frac) : std::nullopt);
    const ColumnPtr col = stamps(t, in);
    auto at = [&](int64_t s) { return std::optional<int64_t>(s * ps + frac); };
    for (int a = 1; a <= 3; ++a) {
      for (int g = 1; g <= 3; ++g) {
        SCOPED_TRACE("ambiguous " + std::to_string(a) + ", nonExistent " + std::to_string(g));
        const std::optional<int64_t> amb_want = a == 1 ? at(earliest) : a == 2 ? at(latest) : std::nullopt;
        const std::optional<int64_t> amb_edge = a == 1 ? at(1729987200) : a == 2 ? at(1729990800) : std::nullopt;
        const std::optional<int64_t> gap_want =
            g == 1 ? std::nullopt : std::optional<int64_t>(g == 2 ? switch_on * ps : switch_on * ps - 1);
        const std::vector<std::optional<int64_t>> want = {
            amb_want, gap_want, at(1719828000), std::nullopt, at(1705302000), amb_edge, at(1729994400),
            gap_want, gap_want, at(1711846800), at(1711846799)};
        EXPECT_EQ(read_values<int64_t>(from_local(col, berlin, Ambiguous(a), NonExistent(g))), want);
      }
    }
    // Raise: ERR_TIME_ZONE at the first such row, on both backends.
    const auto amb_err = error_of([&] { from_local(col, berlin, Ambiguous::Raise, NonExistent::Null); });
    EXPECT_EQ(amb_err.first, ErrorCode::TimeZone);
    EXPECT_TRUE(contains(amb_err.second, "row 0 (2024-10-27 02:30:00"));
    EXPECT_TRUE(contains(amb_err.second, "ambiguous in Europe/Berlin"));
    const auto gap_err = error_of([&] { from_local(col, berlin, Ambiguous::Earliest, NonExistent::Raise); });
    EXPECT_EQ(gap_err.first, ErrorCode::TimeZone);
    EXPECT_TRUE(contains(gap_err.second, "row 1 (2024-03-31 02:30:00"));
    EXPECT_TRUE(contains(gap_err.second, "does not exist in Europe/Berlin"));
    // Rows past the first bad ones: the slice from row 2 fails first at its row 3 (Oct 27 02:00).
    const auto later = error_of([&] { from_local(col->slice(2, 9), berlin, Ambiguous::Raise, NonExistent::Raise); });
    EXPECT_EQ(later.first, ErrorCode::TimeZone);
    EXPECT_TRUE(contains(later.second, "row 3 (2024-10-27 02:00:00"));
    const auto gap_first = error_of([&] { from_local(col->slice(5, 6), berlin, Ambiguous::Null, NonExistent::Raise); });
    EXPECT_TRUE(contains(gap_first.second, "row 2 (2024-03-31 02:00:00"));
  }
  EXPECT_THROW_CODE(from_local(on_test_device(host_column<int32_t>(TypeId::Date32, {1})), berlin, Ambiguous::Raise,
                               NonExistent::Raise),
                    ErrorCode::Dtype);
}

TEST(timezone, from_local_before_1970_and_southern) {
  // New York, 1969: Oct 26 01:30 twice (05:30 and 06:30 UTC), Apr 27 02:30 skipped (07:00 UTC).
  const TimeZone& ny = *time_zone("America/New_York");
  const ColumnPtr ny_in = stamps(TypeId::TimestampS, {-5783400, -21504600});
  EXPECT_EQ(read_values<int64_t>(from_local(ny_in, ny, Ambiguous::Earliest, NonExistent::ShiftForward)),
            (std::vector<std::optional<int64_t>>{-5769000, -21488400}));
  EXPECT_EQ(read_values<int64_t>(from_local(ny_in, ny, Ambiguous::Latest, NonExistent::ShiftBackward)),
            (std::vector<std::optional<int64_t>>{-5765400, -21488401}));
  // Milliseconds before 1970 with a sub-second part: -5783400.5 s local.
  const ColumnPtr ny_ms = stamps(TypeId::TimestampMs, {-5783400500, -5783400LL * 1000 + 500});
  EXPECT_EQ(read_values<int64_t>(from_local(ny_ms, ny, Ambiguous::Latest, NonExistent::Raise)),
            (std::vector<std::optional<int64_t>>{-5765400500, -5765400LL * 1000 + 500}));
  // Sydney: Apr 7 2024 02:30 twice (AEDT, then AEST), Oct 6 2024 02:30 skipped.
  const TimeZone& sydney = *time_zone("Australia/Sydney");
  const ColumnPtr syd = stamps(TypeId::TimestampUs, {1712457000000000, 1728181800000000});
  EXPECT_EQ(read_values<int64_t>(from_local(syd, sydney, Ambiguous::Earliest, NonExistent::ShiftForward)),
            (std::vector<std::optional<int64_t>>{1712417400000000, 1728144000000000}));
  EXPECT_EQ(read_values<int64_t>(from_local(syd, sydney, Ambiguous::Latest, NonExistent::ShiftBackward)),
            (std::vector<std::optional<int64_t>>{1712421000000000, 1728143999999999}));
  // Fixed zones: one instant each; out of range: null.
  const ColumnPtr fixed = stamps(TypeId::TimestampS, {0, INT64_MAX, INT64_MIN});
  EXPECT_EQ(read_values<int64_t>(from_local(fixed, *time_zone("Asia/Kolkata"), Ambiguous::Raise, NonExistent::Raise)),
            (std::vector<std::optional<int64_t>>{-19800, std::nullopt, std::nullopt}));
  EXPECT_EQ(read_values<int64_t>(from_local(fixed, *time_zone("UTC"), Ambiguous::Raise, NonExistent::Raise)),
            (std::vector<std::optional<int64_t>>{0, std::nullopt, std::nullopt}));
  // The int64 ends in nanoseconds: the earliest is before 1677 in Berlin's local mean time (UTC
  // would be earlier still: null); the latest, in April 2262 (summer time, +2:00), is two hours
  // earlier in UTC. The sub-second part is taken without overflow (UBSan checks that here).
  const int64_t berlin_max = INT64_MAX - 7200LL * 1000000000LL;
  EXPECT_EQ(read_values<int64_t>(from_local(stamps(TypeId::TimestampNs, {INT64_MIN, INT64_MAX}), *time_zone("Europe/Berlin"),
                                            Ambiguous::Raise, NonExistent::Raise)),
            (std::vector<std::optional<int64_t>>{std::nullopt, berlin_max}));
}

TEST(timezone, round_trip_across_sizes) {
  // Random instants from 1800 to 2600 in zones of each kind: to_local, then from_local of the
  // result gives the instant back as its earliest or latest reading; and to_local agrees with
  // the zone's offset at each instant (read on the host).
  Rng rng(7);
  for (const char* name : {"America/New_York", "Australia/Sydney", "Asia/Kolkata", "Europe/Berlin"}) {
    const TimeZone& zone = *time_zone(name);
    for (int64_t n : edge_lengths()) {
      SCOPED_TRACE(std::string(name) + ", " + std::to_string(n) + " rows");
      std::vector<std::optional<int64_t>> in, want;
      for (int64_t i = 0; i < n; ++i) {
        const int64_t s = -5364662400 + int64_t(rng.next() % uint64_t(25245561600));
        const int64_t ms = s * 1000 + int64_t(rng.next() % 1000);
        in.push_back(i % 11 == 5 ? std::nullopt : std::optional<int64_t>(ms));
        want.push_back(in.back() ? std::optional<int64_t>(ms + int64_t(zone.offset_at(s)) * 1000) : std::nullopt);
      }
      const ColumnPtr col = stamps(TypeId::TimestampMs, in);
      const ColumnPtr local = to_local(col, zone);
      EXPECT_EQ(read_values<int64_t>(local), want);
      const auto early = read_values<int64_t>(from_local(local, zone, Ambiguous::Earliest, NonExistent::Raise));
      const auto late = read_values<int64_t>(from_local(local, zone, Ambiguous::Latest, NonExistent::Raise));
      for (int64_t i = 0; i < n; ++i) EXPECT_TRUE(early[size_t(i)] == in[size_t(i)] || late[size_t(i)] == in[size_t(i)]);
    }
  }
}

TEST(timezone, expression_ops) {
  using namespace gpudf::expr;
  auto col = [](const char* name) {
    NodeSpec s;
    s.op = "col";
    s.name = name;
    return s;
  };
  auto zoned = [](const char* op, const char* zone, std::vector<int64_t> params = {}) {
    NodeSpec s;
    s.op = op;
    s.args = {0};
    s.value.kind = LiteralSpec::Kind::String;
    s.value.text = zone;
    s.params = std::move(params);
    return s;
  };
  Frame f;
  f.names = {"t", "i", "d"};
  f.columns = {stamps(TypeId::TimestampUs, {1711846799000000, std::nullopt, 1711846800000001}),
               on_test_device(host_column<int64_t>(TypeId::Int64, {1, 2, 3})),
               on_test_device(host_column<int32_t>(TypeId::Date32, {1, 2, 3}))};
  f.rows = 3;
  Device& dev = test_device();
  const ColumnPtr local = evaluate({col("t"), zoned("dt.toLocal", "Europe/Berlin")}, f, dev);
  EXPECT_EQ(local->type(), TypeId::TimestampUs);
  EXPECT_EQ(read_values<int64_t>(local),
            (std::vector<std::optional<int64_t>>{1711850399000000, std::nullopt, 1711854000000001}));
  // Local 2024-03-31 02:30 (skipped) and 03:00:00.000001 in Berlin.
  Frame g = f;
  g.columns[0] = stamps(TypeId::TimestampUs, {1711852200000000, std::nullopt, 1711854000000001});
  const ColumnPtr utc = evaluate({col("t"), zoned("dt.fromLocal", "Europe/Berlin", {0, 2})}, g, dev);
  EXPECT_EQ(read_values<int64_t>(utc),
            (std::vector<std::optional<int64_t>>{1711846800000000, std::nullopt, 1711846800000001}));
  EXPECT_THROW_CODE(evaluate({col("t"), zoned("dt.fromLocal", "Europe/Berlin", {0, 0})}, g, dev), ErrorCode::TimeZone);
  EXPECT_THROW_CODE(evaluate({col("i"), zoned("dt.toLocal", "Europe/Berlin")}, f, dev), ErrorCode::Dtype);
  EXPECT_THROW_CODE(evaluate({col("d"), zoned("dt.toLocal", "Europe/Berlin")}, f, dev), ErrorCode::Dtype);
  EXPECT_THROW_CODE(evaluate({col("d"), zoned("dt.fromLocal", "Europe/Berlin", {0, 0})}, f, dev), ErrorCode::Dtype);
  EXPECT_THROW_CODE(evaluate({col("t"), zoned("dt.toLocal", "Mars/Base")}, f, dev), ErrorCode::TimeZone);
  EXPECT_THROW_CODE(evaluate({col("t"), zoned("dt.toLocal", "../etc/passwd")}, f, dev), ErrorCode::TimeZone);
  for (const std::vector<int64_t>& p : {std::vector<int64_t>{}, {0}, {4, 0}, {0, 4}, {-1, 0}, {0, 0, 0}}) {
    EXPECT_THROW_CODE(evaluate({col("t"), zoned("dt.fromLocal", "Europe/Berlin", p)}, f, dev),
                      ErrorCode::InvalidArgument);
  }
  NodeSpec no_zone = zoned("dt.toLocal", "");
  no_zone.value.kind = LiteralSpec::Kind::Null;
  EXPECT_THROW_CODE(evaluate({col("t"), no_zone}, f, dev), ErrorCode::InvalidArgument);
}
