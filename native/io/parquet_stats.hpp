// Min/max statistics of a run of values in the dtype's own order (unsigned for uints; NaN
// skipped for floats), stored PLAIN-encoded as the physical type P.
#pragma once

#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "io/parquet_format.hpp"

namespace gpudf::parquet {

template <typename S, typename P>
struct MinMax {
  S lo = std::is_floating_point_v<S> ? std::numeric_limits<S>::infinity() : std::numeric_limits<S>::max();
  S hi = std::is_floating_point_v<S> ? -std::numeric_limits<S>::infinity() : std::numeric_limits<S>::lowest();
  bool any = false;

  // Branch-free, so loops over it vectorise; NaN never compares less or greater.
  void add(S x) {
    lo = x < lo ? x : lo;
    hi = x > hi ? x : hi;
  }
  /// Stores min and max in `st` when at least one non-NaN value was added (`count` values were).
  void store(Statistics& st, int64_t count) {
    if (count == 0 || !(lo <= hi)) return;
    if constexpr (std::is_floating_point_v<S>) {
      // The format's rule for zeros: a zero min is written -0.0, a zero max +0.0.
      if (lo == 0) lo = -S(0);
      if (hi == 0) hi = S(0);
    }
    st.has_min_max = true;
    st.min = bytes(P(lo));
    st.max = bytes(P(hi));
  }
  static std::string bytes(P v) {
    std::string s(sizeof(P), '\0');
    std::memcpy(s.data(), &v, sizeof(P));
    return s;
  }
};

}  // namespace gpudf::parquet
