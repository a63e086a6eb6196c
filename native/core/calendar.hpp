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

}  // namespace gpudf
