// Sort: the stable order of rows by one or more keys (per key: descending, nulls first/last),
// returned as int64 row indices; callers gather the columns they need with it.
//
// Strategy (both backends): stable passes from the last key to the first. A fixed-width key is
// normalised to order-preserving unsigned bits (order_bits below) and radix sorted together with
// the current permutation (LSD, stable); a string key sorts the permutation with a byte-wise
// comparator (stable merge sort). After a key's pass, a stable partition moves that key's nulls
// to the front or the back, keeping their order from the later keys. Null rows normalise to 0 so
// they are equal among themselves in the value pass.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/column.hpp"

namespace gpudf {

struct SortKey {
  ColumnView column;
  bool descending = false;
  bool nulls_last = true;
};

/// The stable permutation (an int64 column, on the keys' device) that orders the rows by `keys`.
/// Every key must have the same length and device. Floats: -0.0 equals 0.0; NaN is greater than
/// +inf and all NaNs are equal. Strings: byte-wise (UTF-8 code point order), a prefix before its
/// extensions.
ColumnPtr sorted_order(const std::vector<SortKey>& keys);

// ---- per-element rules shared by the CPU loops and the CUDA kernels ---------------------------

template <typename T> struct order_type { using type = T; };
template <> struct order_type<int8_t> { using type = uint8_t; };
template <> struct order_type<int16_t> { using type = uint16_t; };
template <> struct order_type<int32_t> { using type = uint32_t; };
template <> struct order_type<int64_t> { using type = uint64_t; };
template <> struct order_type<float> { using type = uint32_t; };
template <> struct order_type<double> { using type = uint64_t; };

/// Unsigned bits whose unsigned order is the ascending order of the values (Polars' order).
template <typename T>
GPUDF_HD inline typename order_type<T>::type order_bits(T v) {
  using U = typename order_type<T>::type;
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  if constexpr (sizeof(T) == sizeof(U) && (T(-1) > T(0))) {
    return v;  // unsigned (and bool bytes)
  } else if constexpr (T(1) / T(2) == T(0)) {
    return static_cast<U>(static_cast<U>(v) ^ sign);  // signed integer: flip the sign bit
  } else {
    if (v != v) return U(~U(0));  // every NaN: above +inf
    if (v == T(0)) return sign;   // -0.0 == 0.0
    U bits;
    memcpy(&bits, &v, sizeof(U));
    return (bits & sign) ? U(~bits) : U(bits | sign);
  }
}

/// The normalised key of row `row` (0 for a null row; complemented when descending).
template <typename T>
GPUDF_HD inline typename order_type<T>::type order_key(const ColumnView& c, int64_t row,
                                                       bool descending) {
  using U = typename order_type<T>::type;
  if (!c.is_valid(row)) return U(0);
  U k = order_bits<T>(c.values<T>()[row]);
  return descending ? U(~k) : k;
}

/// Byte-wise three-way comparison of strings `a` and `b` of a string column (null rows compare
/// as empty strings: the null pass places them afterwards).
template <typename O>
GPUDF_HD inline int compare_strings(const ColumnView& c, int64_t a, int64_t b) {
  const O* offs = c.string_offsets<O>();
  int64_t la = c.is_valid(a) ? int64_t(offs[a + 1] - offs[a]) : 0;
  int64_t lb = c.is_valid(b) ? int64_t(offs[b + 1] - offs[b]) : 0;
  const uint8_t* pa = c.data + offs[a];
  const uint8_t* pb = c.data + offs[b];
  int64_t m = la < lb ? la : lb;
  for (int64_t i = 0; i < m; ++i)
    if (pa[i] != pb[i]) return pa[i] < pb[i] ? -1 : 1;
  return la < lb ? -1 : (la > lb ? 1 : 0);
}

/// The sort-order value of a null flag: rows with a smaller flag come first.
GPUDF_HD inline uint8_t null_flag(const ColumnView& c, int64_t row, bool nulls_last) {
  bool valid = c.is_valid(row);
  return nulls_last ? uint8_t(!valid) : uint8_t(valid);
}

namespace detail {
void validate_keys(const std::vector<SortKey>& keys);
ColumnPtr sorted_order_cpu(const std::vector<SortKey>& keys);
#ifdef GPUDF_WITH_CUDA
ColumnPtr sorted_order_cuda(const std::vector<SortKey>& keys);
#endif
}  // namespace detail

}  // namespace gpudf
