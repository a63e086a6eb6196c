// Calendar arithmetic shared by the expression kernels, the CSV reader/writer and the JS value
// conversions: floor division, and days since 1970-01-01 <-> proleptic Gregorian (y, m, d)
// (H. Hinnant's algorithms). GPUDF_HD so the kernels and the CPU loops share them.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace gpudf {

/// a / b rounded toward negative infinity.
GPUDF_HD inline int64_t floor_div_i64(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// a mod b with the sign of b.
GPUDF_HD inline int64_t floor_mod_i64(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

struct CivilDate {
  int64_t year;
  int32_t month, day;
};

/// Days since 1970-01-01 -> (year, month, day).
GPUDF_HD inline CivilDate civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  CivilDate out;
  out.year = yoe + era * 400 + (m <= 2);
  out.month = int32_t(m);
  out.day = int32_t(d);
  return out;
}

/// (year, month, day) -> days since 1970-01-01.
GPUDF_HD inline int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

GPUDF_HD inline bool is_leap_year(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/// Days in month m (1..12) of year y.
GPUDF_HD inline int64_t days_in_month(int64_t y, int64_t m) {
  constexpr int8_t d[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap_year(y) ? 29 : d[m - 1];
}

/// The day `months` calendar months after `days` (both days since 1970-01-01), the day of the
/// month clamped to the target month's length (Jan 31 + 1 month = Feb 28 or 29).
GPUDF_HD inline int64_t add_months(int64_t days, int64_t months) {
  const CivilDate c = civil_from_days(days);
  const int64_t m0 = c.year * 12 + (c.month - 1) + months;
  const int64_t y = floor_div_i64(m0, 12);
  const int64_t m = floor_mod_i64(m0, 12) + 1;
  const int64_t dim = days_in_month(y, m);
  return days_from_civil(y, unsigned(m), unsigned(c.day < dim ? c.day : dim));
}

}  // namespace gpudf
