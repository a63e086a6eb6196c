// Loading time zones: TZif files (RFC 8536), their POSIX TZ footers, the 400-year expansion of a
// footer's DST rule, and the per-name cache.
#include "core/timezone.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

#include "core/error.hpp"

namespace gpudf {

TimeZone::TimeZone(std::string name, std::vector<int64_t> transitions, std::vector<int32_t> offsets, bool cyclic,
                   bool cycle_all, int64_t cycle_start)
    : name_(std::move(name)), transitions_(std::move(transitions)), offsets_(std::move(offsets)) {
  GPUDF_EXPECTS(offsets_.size() == transitions_.size() + 1, Internal, "time zone table: offsets do not match");
  shape_.cyclic = cyclic;
  shape_.cycle_all = cyclic && cycle_all;
  shape_.cycle_start = shape_.cycle_all ? 0 : cycle_start;
  for (int32_t o : offsets_) shape_.max_abs_offset = std::max<int64_t>(shape_.max_abs_offset, o < 0 ? -int64_t(o) : o);
}

ZoneView TimeZone::view() const noexcept {
  ZoneView v = shape_;
  v.transitions = transitions_.data();
  v.offsets = offsets_.data();
  v.count = int64_t(transitions_.size());
  return v;
}

namespace {

constexpr const char* kDefaultTzDir = "/usr/share/zoneinfo";
// Transition instants beyond this (about 146 billion years) are refused: keeps every sum of an
// instant, an offset and a 400-year shift inside int64.
constexpr int64_t kMaxInstant = int64_t(1) << 61;

[[noreturn]] void zone_fail(const std::string& message) { GPUDF_FAIL(TimeZone, message); }

// ---- POSIX TZ strings ------------------------------------------------------------------------

/// When a rule's DST starts or ends: a day of the year and a local time of day (seconds).
struct RuleDate {
  enum class Kind { Julian1, Julian0, MonthWeekDay } kind = Kind::MonthWeekDay;
  int32_t day = 0;  // Jn: 1..365 (Feb 29 never counted); n: 0..365
  int32_t month = 0, week = 0, weekday = 0;  // Mm.w.d
  int64_t time = 7200;
};

struct PosixRule {
  int32_t std_offset = 0;  // UTC offsets (seconds east of UTC), not POSIX's sign
  bool has_dst = false;
  int32_t dst_offset = 0;
  RuleDate start, end;
};

class PosixParser {
 public:
  PosixParser(const std::string& name, const std::string& tz) : name_(name), s_(tz) {}

  PosixRule parse() {
    PosixRule r;
    zone_name();
    r.std_offset = int32_t(-hms(24));
    if (at_end()) return r;
    r.has_dst = true;
    zone_name();
    r.dst_offset = r.std_offset + 3600;
    if (!at_end() && peek() != ',') r.dst_offset = int32_t(-hms(24));
    if (at_end()) {
      // POSIX leaves the default rule to the implementation; the US rules, as glibc and tzcode.
      r.start = month_week_day(3, 2, 0);
      r.end = month_week_day(11, 1, 0);
      return r;
    }
    expect(',');
    r.start = rule_date();
    expect(',');
    r.end = rule_date();
    if (!at_end()) bad("unexpected text after the rules");
    return r;
  }

 private:
  const std::string& name_;
  const std::string& s_;
  size_t i_ = 0;

  [[noreturn]] void bad(const std::string& why) const {
    zone_fail("time zone \"" + name_ + "\": malformed POSIX TZ rule \"" + s_ + "\" (" + why + ")");
  }
  bool at_end() const { return i_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[i_]; }
  void expect(char c) {
    if (peek() != c) bad(std::string("expected '") + c + "' at position " + std::to_string(i_));
    ++i_;
  }
  static bool alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
  static bool digit(char c) { return c >= '0' && c <= '9'; }

  /// An abbreviation: three or more letters, or <...> of letters, digits, '+' and '-'.
  void zone_name() {
    size_t n = 0;
    if (peek() == '<') {
      ++i_;
      while (!at_end() && peek() != '>') {
        const char c = peek();
        if (!alpha(c) && !digit(c) && c != '+' && c != '-') bad("bad character in a quoted abbreviation");
        ++i_, ++n;
      }
      expect('>');
    } else {
      while (alpha(peek())) ++i_, ++n;
    }
    if (n < 3) bad("an abbreviation needs three or more characters");
  }

  int64_t number(int64_t max) {
    if (!digit(peek())) bad("expected a number at position " + std::to_string(i_));
    int64_t v = 0;
    while (digit(peek())) {
      v = v * 10 + (peek() - '0');
      if (v > max) bad("number out of range at position " + std::to_string(i_));
      ++i_;
    }
    return v;
  }

  /// [+-]hh[:mm[:ss]] in seconds; hours up to max_hours.
  int64_t hms(int64_t max_hours) {
    int64_t sign = 1;
    if (peek() == '+' || peek() == '-') {
      if (peek() == '-') sign = -1;
      ++i_;
    }
    int64_t v = number(max_hours) * 3600;
    if (peek() == ':') {
      ++i_;
      v += number(59) * 60;
      if (peek() == ':') {
        ++i_;
        v += number(59);
      }
    }
    return sign * v;
  }

  static RuleDate month_week_day(int32_t m, int32_t w, int32_t d) {
    RuleDate r;
    r.kind = RuleDate::Kind::MonthWeekDay;
    r.month = m, r.week = w, r.weekday = d;
    return r;
  }

  RuleDate rule_date() {
    RuleDate r;
    if (peek() == 'J') {
      ++i_;
      r.kind = RuleDate::Kind::Julian1;
      r.day = int32_t(number(365));
      if (r.day < 1) bad("Jn needs 1 <= n <= 365");
    } else if (peek() == 'M') {
      ++i_;
      r.kind = RuleDate::Kind::MonthWeekDay;
      r.month = int32_t(number(12));
      expect('.');
      r.week = int32_t(number(5));
      expect('.');
      r.weekday = int32_t(number(6));
      if (r.month < 1 || r.week < 1) bad("Mm.w.d needs 1 <= m <= 12 and 1 <= w <= 5");
    } else {
      r.kind = RuleDate::Kind::Julian0;
      r.day = int32_t(number(365));
    }
    // RFC 8536 (version 3): the time of day may be negative or exceed 24 hours, up to 167.
    if (peek() == '/') {
      ++i_;
      r.time = hms(167);
    }
    return r;
  }
};

/// Local seconds since the epoch at which `d` falls in year y (its local time of day added).
int64_t rule_local_seconds(const RuleDate& d, int64_t y) {
  int64_t days = 0;
  switch (d.kind) {
    case RuleDate::Kind::Julian1:
      days = days_from_civil(y, 1, 1) + d.day - 1 + (is_leap_year(y) && d.day >= 60 ? 1 : 0);
      break;
    case RuleDate::Kind::Julian0: days = days_from_civil(y, 1, 1) + d.day; break;
    case RuleDate::Kind::MonthWeekDay: {
      const int64_t first = days_from_civil(y, unsigned(d.month), 1);
      const int64_t first_weekday = floor_mod_i64(first + 4, 7);  // 1970-01-01 was a Thursday (4)
      int64_t day = 1 + floor_mod_i64(d.weekday - first_weekday, 7) + int64_t(d.week - 1) * 7;
      while (day > days_in_month(y, d.month)) day -= 7;  // week 5: the last such weekday
      days = first + day - 1;
      break;
    }
  }
  return days * 86400 + d.time;
}

/// A change of offset: from `at` (UTC seconds) on, `offset`.
struct Change {
  int64_t at;
  int32_t offset;
};

/// The rule's transitions in years [y0, y1], ascending; of changes at one instant the later
/// year's wins (a rule whose DST never ends: "EST5EDT,0/0,J365/25").
std::vector<Change> rule_changes(const PosixRule& r, int64_t y0, int64_t y1) {
  std::vector<Change> out;
  out.reserve(size_t(y1 - y0 + 1) * 2);
  for (int64_t y = y0; y <= y1; ++y) {
    // DST starts at a local standard time and ends at a local daylight time.
    const Change start{rule_local_seconds(r.start, y) - r.std_offset, r.dst_offset};
    const Change end{rule_local_seconds(r.end, y) - r.dst_offset, r.std_offset};
    out.push_back(start);
    out.push_back(end);
  }
  std::stable_sort(out.begin(), out.end(), [](const Change& a, const Change& b) { return a.at < b.at; });
  return out;
}

/// Builds the table: `explicit_changes` (ascending), `first` the offset before them, and the
/// footer rule (if any) from the last explicit change on (or everywhere, with none).
TimeZone build_zone(const std::string& name, const std::vector<Change>& explicit_changes, int32_t first,
                    const PosixRule* rule) {
  std::vector<int64_t> at;
  std::vector<int32_t> off{first};
  auto push = [&](int64_t t, int32_t o) {
    if (!at.empty() && at.back() == t) {
      off.back() = o;  // two changes at one instant: the later one holds
      if (off.size() >= 2 && off[off.size() - 2] == o) at.pop_back(), off.pop_back();
      return;
    }
    if (off.back() == o) return;  // no change of offset (an abbreviation or isdst change)
    at.push_back(t);
    off.push_back(o);
  };
  for (const Change& c : explicit_changes) push(c.at, c.offset);
  if (!rule) return TimeZone(name, std::move(at), std::move(off), false, false, 0);

  const bool all = explicit_changes.empty();
  const int64_t start = all ? 0 : explicit_changes.back().at;
  if (!rule->has_dst) {
    // RFC 8536: the footer governs from the last transition on (everywhere without one).
    if (all) off.back() = rule->std_offset;
    else push(start, rule->std_offset);
    return TimeZone(name, std::move(at), std::move(off), false, false, 0);
  }
  // The rule's transitions from a year before the cycle starts to about a year past its
  // 400-year window (local-time searches near the window's end read a few days beyond it). The
  // table stops at `end`; the rule is generated a year further, so that changes at one instant
  // (the end of one year's DST and the start of the next) are never cut apart.
  const int64_t y0 = civil_from_days(floor_div_i64(start, 86400)).year;
  const int64_t end = start + kZoneCycleSeconds + 400 * 86400;
  const std::vector<Change> rules = rule_changes(*rule, y0 - 1, y0 + 402);
  int32_t at_start = rule->std_offset;
  for (const Change& c : rules)
    if (c.at <= start) at_start = c.offset;
  if (all) off.back() = at_start;
  else push(start, at_start);
  for (const Change& c : rules)
    if (c.at > start && c.at <= end) push(c.at, c.offset);
  return TimeZone(name, std::move(at), std::move(off), true, all, start);
}

// ---- TZif ------------------------------------------------------------------------------------

class TzifReader {
 public:
  TzifReader(const std::string& name, const std::string& bytes) : name_(name), b_(bytes) {}

  TimeZone read() {
    const Header h1 = header();
    if (h1.version == 0) return block(h1, 4, nullptr);
    // Version 2+: skip the 32-bit block; the 64-bit block and the footer follow.
    skip(h1.data_bytes(4));
    const Header h2 = header();
    const size_t data_at = pos_;
    skip(h2.data_bytes(8));
    if (byte() != '\n') bad("the footer does not start with a newline");
    const size_t nl = b_.find('\n', pos_);
    if (nl == std::string::npos) bad("the footer does not end with a newline");
    const std::string footer = b_.substr(pos_, nl - pos_);
    pos_ = data_at;
    if (footer.empty()) return block(h2, 8, nullptr);
    const PosixRule rule = PosixParser(name_, footer).parse();
    return block(h2, 8, &rule);
  }

 private:
  struct Header {
    int version = 0;
    uint32_t isutcnt = 0, isstdcnt = 0, leapcnt = 0, timecnt = 0, typecnt = 0, charcnt = 0;
    size_t data_bytes(size_t time_size) const {
      return size_t(timecnt) * time_size + timecnt + size_t(typecnt) * 6 + charcnt +
             size_t(leapcnt) * (time_size + 4) + isstdcnt + isutcnt;
    }
  };

  const std::string& name_;
  const std::string& b_;
  size_t pos_ = 0;

  [[noreturn]] void bad(const std::string& why) const {
    zone_fail("time zone \"" + name_ + "\": malformed TZif file (" + why + ")");
  }
  void need(size_t n) const {
    if (b_.size() - pos_ < n) bad("truncated");
  }
  void skip(size_t n) {
    need(n);
    pos_ += n;
  }
  uint8_t byte() {
    need(1);
    return uint8_t(b_[pos_++]);
  }
  uint32_t u32() {
    need(4);
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = (v << 8) | uint8_t(b_[pos_++]);
    return v;
  }
  int64_t i64() {
    need(8);
    uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v = (v << 8) | uint8_t(b_[pos_++]);
    return int64_t(v);
  }

  Header header() {
    need(44);
    if (b_.compare(pos_, 4, "TZif") != 0) bad("no \"TZif\" magic");
    pos_ += 4;
    const uint8_t v = byte();
    Header h;
    if (v == 0) h.version = 0;
    else if (v >= '2' && v <= '4') h.version = v - '0';
    else bad("unknown version");
    skip(15);
    h.isutcnt = u32(), h.isstdcnt = u32(), h.leapcnt = u32();
    h.timecnt = u32(), h.typecnt = u32(), h.charcnt = u32();
    if (h.typecnt == 0 || h.typecnt > 256) bad("bad time type count");
    if (h.charcnt == 0) bad("no abbreviations");
    if ((h.isutcnt != 0 && h.isutcnt != h.typecnt) || (h.isstdcnt != 0 && h.isstdcnt != h.typecnt))
      bad("bad indicator counts");
    // Counts as large as the file could hold at least (1 byte a transition): no huge allocation.
    if (h.timecnt > b_.size() || h.charcnt > b_.size()) bad("truncated");
    return h;
  }

  /// The data block at pos_ with `time_size`-byte times, and the footer rule if any.
  TimeZone block(const Header& h, size_t time_size, const PosixRule* rule) {
    if (h.leapcnt != 0) {
      zone_fail("time zone \"" + name_ +
                "\" counts leap seconds (a \"right/\" zone); timestamps here are POSIX time, use the zone without them");
    }
    need(h.data_bytes(time_size));
    std::vector<int64_t> times(h.timecnt);
    for (auto& t : times) {
      t = time_size == 8 ? i64() : int64_t(int32_t(u32()));
      if (t > kMaxInstant || t < -kMaxInstant) bad("a transition out of range");
    }
    for (size_t k = 1; k < times.size(); ++k)
      if (times[k] <= times[k - 1]) bad("transitions out of order");
    std::vector<uint8_t> index(h.timecnt);
    for (auto& i : index) {
      i = byte();
      if (i >= h.typecnt) bad("a transition names a missing time type");
    }
    std::vector<int32_t> utoff(h.typecnt);
    for (auto& o : utoff) {
      o = int32_t(u32());
      skip(2);  // isdst, abbreviation index
      // RFC 8536: -89999..93599 is what software should expect; allow a week either way.
      if (o < -7 * 86400 || o > 7 * 86400) bad("a UTC offset out of range");
    }
    std::vector<Change> changes(h.timecnt);
    for (size_t k = 0; k < changes.size(); ++k) changes[k] = Change{times[k], utoff[index[k]]};
    // Before the first transition: time type 0, as RFC 8536 section 3.2 specifies for version 2+
    // data (older readers chose the first standard-time type; files written since 2018 make
    // type 0 that type anyway).
    return build_zone(name_, changes, utoff[0], rule);
  }
};

// ---- names and the cache ---------------------------------------------------------------------

void check_name(const std::string& name) {
  bool ok = !name.empty() && name.front() != '/' && name.back() != '/';
  for (char c : name) {
    const bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                         c == '+' || c == '-' || c == '/';
    ok = ok && allowed;
  }
  // Letters, digits and _+-/ only: no "." or ".." component can occur; no empty component.
  ok = ok && name.find("//") == std::string::npos;
  if (!ok) zone_fail("invalid time zone name \"" + name + "\" (expected an IANA name such as \"Europe/Berlin\")");
}

TimeZonePtr load(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  struct stat st {};
  const bool file = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (!file) {
    if (name == "UTC") return std::make_shared<TimeZone>(name, std::vector<int64_t>{}, std::vector<int32_t>{0}, false, false, 0);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
      zone_fail("unknown time zone \"" + name + "\" (no time zone database at " + dir + "; set TZDIR)");
    zone_fail("unknown time zone \"" + name + "\" (not in " + dir + ")");
  }
  if (st.st_size > (int64_t(1) << 22)) zone_fail("time zone \"" + name + "\": " + path + " is too large for a TZif file");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) zone_fail("time zone \"" + name + "\": cannot read " + path);
  return std::make_shared<TimeZone>(time_zone_from_tzif(name, bytes.str()));
}

}  // namespace

TimeZone time_zone_from_posix(const std::string& name, const std::string& tz) {
  const PosixRule rule = PosixParser(name, tz).parse();
  return build_zone(name, {}, rule.std_offset, &rule);
}

TimeZone time_zone_from_tzif(const std::string& name, const std::string& bytes) {
  return TzifReader(name, bytes).read();
}

TimeZonePtr time_zone_in(const std::string& dir, const std::string& name) {
  check_name(name);
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, TimeZonePtr> cache;
  const auto key = std::make_pair(dir, name);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  // Loaded outside the lock (two threads may both load a zone; the first stored wins).
  TimeZonePtr zone = load(dir, name);
  std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(key, std::move(zone)).first->second;
}

TimeZonePtr time_zone(const std::string& name) {
  const char* dir = std::getenv("TZDIR");
  return time_zone_in(dir && *dir ? std::string(dir) : std::string(kDefaultTzDir), name);
}

}  // namespace gpudf
