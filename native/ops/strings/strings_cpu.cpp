// The string ops on the CPU: rows split over the thread pool; variable-length results sized in
// one pass and written in a second (temporal_text.hpp, transform.hpp hold the per-row code).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/bitmask.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/float_text.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/strings/strings.hpp"

namespace gpudf::strings::detail {
namespace {

constexpr int64_t kGrain = 4096;

/// Builds a string column of n rows of dtype `type`: valid(i) says whether row i is set,
/// write(i, out) returns row i's byte length and writes it when out is not null.
template <typename O, typename Valid, typename Write>
ColumnPtr build_strings(TypeId type, int64_t n, bool nullable, Valid valid, Write write) {
  HostVector<int64_t> start(size_t(n) + 1, 0);
  cpu_pool().parallel_for(n, kGrain, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) start[size_t(i)] = valid(i) ? write(i, nullptr) : 0;
  });
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = start[size_t(i)];
    start[size_t(i)] = total;
    total += len;
  }
  start[size_t(n)] = total;
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the strings exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  ColumnPtr out = Column::allocate(cpu_device(), type, n, nullable, total);
  O* off = reinterpret_cast<O*>(out->offsets()->data());
  char* dst = total ? reinterpret_cast<char*>(out->data()->data()) : nullptr;
  uint8_t* bits = nullable ? out->validity()->data() : nullptr;
  const int64_t blocks = (n + 63) / 64;
  cpu_pool().parallel_for(blocks, kGrain / 64, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0 * 64; i < std::min(n, b1 * 64); ++i) {
      off[i] = O(start[size_t(i)]);
      if (!valid(i)) continue;
      if (bits) set_bit(bits, i);
      if (dst) write(i, dst + start[size_t(i)]);
    }
  });
  off[n] = O(total);
  return out;
}

template <typename O>
ColumnPtr parse_typed(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad) {
  const O* off = v.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(v.data);
  const int64_t n = v.size;
  ColumnPtr out = Column::allocate(cpu_device(), to, n, true);
  uint8_t* bits = out->validity()->data();
  const bool date = to == TypeId::Date32;
  int32_t* d32 = date ? reinterpret_cast<int32_t*>(out->data()->data()) : nullptr;
  int64_t* d64 = date ? nullptr : reinterpret_cast<int64_t*>(out->data()->data());
  first_bad = parallel_rows_first_bad(n, kGrain, [&](int64_t i) {
    int64_t x = 0;
    const bool valid = v.is_valid(i);
    const bool ok = valid && parse_temporal(f, src + off[i], int64_t(off[i + 1] - off[i]), to, x);
    if (date) d32[i] = ok ? int32_t(x) : 0;
    else d64[i] = ok ? x : 0;
    if (ok) set_bit(bits, i);
    return valid && !ok;
  });
  return out;
}

template <typename O>
ColumnPtr transform_typed(const ColumnView& v, const TransformArgs& t) {
  const O* off = v.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(v.data);
  return build_strings<O>(
      v.type, v.size, v.validity != nullptr, [&](int64_t i) { return v.is_valid(i); },
      [&](int64_t i, char* out) { return apply_transform(t, src + off[i], int64_t(off[i + 1] - off[i]), out); });
}

/// The correctly rounded float of a row whose syntax scan_float accepted: the paths the CUDA
/// kernel takes where they decide (for float32: unless the double lies halfway between two
/// floats), else std::from_chars.
template <typename F>
F parse_float_exact(const char* s, int64_t n, const FloatText& t) {
  double fast;
  if (float_from_text(t, fast, kPow5Table) == FloatParse::Ok) {
    if constexpr (std::is_same_v<F, double>) return fast;
    else if (!float_midpoint(fast)) return F(fast);
  }
  if (t.special == 1) return t.neg ? -INFINITY : INFINITY;
  if (t.special == 2) return F(NAN);
  const char* b = s;
  if (*b == '+') ++b;
  F v = 0;
  auto r = std::from_chars(b, s + n, v);
  if (r.ec == std::errc::result_out_of_range) {
    const int64_t m = std::min<int64_t>(t.digits, 19) + t.exp10;
    const F mag = m > 0 ? F(INFINITY) : F(0);
    return (*s == '-') ? -mag : mag;
  }
  return v;
}

template <typename O>
ColumnPtr parse_number_typed(const ColumnView& v, TypeId to) {
  const O* off = v.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(v.data);
  const int64_t n = v.size;
  ColumnPtr out = Column::allocate(cpu_device(), to, n, true);
  uint8_t* bits = out->validity()->data();
  uint8_t* data = out->data()->data();
  const int64_t blocks = (n + 63) / 64;
  cpu_pool().parallel_for(blocks, kGrain / 64, [&](int64_t b0, int64_t b1) {
    for (int64_t i = b0 * 64; i < std::min(n, b1 * 64); ++i) {
      const char* s = src + off[i];
      const int64_t len = int64_t(off[i + 1] - off[i]);
      bool ok = false;
      if (v.is_valid(i)) {
        switch (to) {
          case TypeId::Int64: {
            int64_t x = 0;
            ok = parse_int64(s, len, x);
            reinterpret_cast<int64_t*>(data)[i] = ok ? x : 0;
            break;
          }
          case TypeId::UInt64: {
            uint64_t x = 0;
            ok = parse_uint64(s, len, x);
            reinterpret_cast<uint64_t*>(data)[i] = ok ? x : 0;
            break;
          }
          case TypeId::Bool: {
            int64_t x = 0;
            ok = parse_bool(s, len, x);
            data[i] = ok ? uint8_t(x) : 0;
            break;
          }
          default: {
            FloatText t;
            ok = scan_float(s, len, t);
            if (to == TypeId::Float32) reinterpret_cast<float*>(data)[i] = ok ? parse_float_exact<float>(s, len, t) : 0.f;
            else reinterpret_cast<double*>(data)[i] = ok ? parse_float_exact<double>(s, len, t) : 0.0;
            break;
          }
        }
      } else if (to == TypeId::Bool) {
        data[i] = 0;
      }
      if (ok) set_bit(bits, i);
    }
  });
  return out;
}

}  // namespace

namespace {

template <typename O>
ColumnPtr join_segments_typed(const ColumnView& v, const ColumnView& sizes, int64_t count, const std::string& sep,
                              bool ignore_nulls) {
  const O* off = v.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(v.data);
  const int64_t* size = sizes.values<int64_t>();
  HostVector<int64_t> begin(size_t(count) + 1, 0);
  for (int64_t g = 0; g < count; ++g) begin[size_t(g + 1)] = begin[size_t(g)] + size[g];
  GPUDF_EXPECTS(begin[size_t(count)] == v.size, Internal, "join_segments: the sizes do not add up to the rows");
  auto has_null = [&](int64_t g) {
    if (v.validity == nullptr) return false;
    for (int64_t i = begin[size_t(g)]; i < begin[size_t(g + 1)]; ++i)
      if (!v.is_valid(i)) return true;
    return false;
  };
  return build_strings<O>(
      v.type, count, !ignore_nulls, [&](int64_t g) { return ignore_nulls || !has_null(g); },
      [&](int64_t g, char* out) -> int64_t {
        int64_t at = 0;
        bool first = true;
        for (int64_t i = begin[size_t(g)]; i < begin[size_t(g + 1)]; ++i) {
          if (!v.is_valid(i)) continue;
          if (!first) {
            if (out) std::memcpy(out + at, sep.data(), sep.size());
            at += int64_t(sep.size());
          }
          first = false;
          const int64_t len = int64_t(off[i + 1] - off[i]);
          if (out) std::memcpy(out + at, src + off[i], size_t(len));
          at += len;
        }
        return at;
      });
}

}  // namespace

ColumnPtr join_segments_cpu(const ColumnView& v, const ColumnView& sizes, int64_t count, const std::string& sep,
                            bool ignore_nulls) {
  return v.type == TypeId::Utf8 ? join_segments_typed<int32_t>(v, sizes, count, sep, ignore_nulls)
                                : join_segments_typed<int64_t>(v, sizes, count, sep, ignore_nulls);
}

ColumnPtr parse_number_cpu(const ColumnView& v, TypeId to) {
  return v.type == TypeId::Utf8 ? parse_number_typed<int32_t>(v, to) : parse_number_typed<int64_t>(v, to);
}

ColumnPtr format_number_cpu(const ColumnView& v) {
  return type_dispatch(v.type, [&]<TypeId ID>() -> ColumnPtr {
    using T = storage_t<ID>;
    if constexpr (std::is_arithmetic_v<T> && ID != TypeId::Date32 && ID < TypeId::Utf8) {
      const T* x = v.values<T>();
      return build_strings<int32_t>(
          TypeId::Utf8, v.size, v.validity != nullptr, [&](int64_t i) { return v.is_valid(i); },
          [&](int64_t i, char* out) -> int64_t {
            if constexpr (ID == TypeId::Bool) {
              if (out) std::memcpy(out, x[i] ? "true" : "false", x[i] ? 4 : 5);
              return x[i] ? 4 : 5;
            } else if constexpr (std::is_floating_point_v<T>) {
              char buf[64];
              const int len = format_float_shortest(x[i], buf);
              if (out) std::memcpy(out, buf, size_t(len));
              return len;
            } else {
              return format_int(int64_t(x[i]), std::is_unsigned_v<T>, out);
            }
          });
    } else {
      GPUDF_FAIL(Dtype, "number formatting of a non-numeric column");
    }
  });
}

ColumnPtr concat_cpu(const ConcatArgs& a, int64_t rows) {
  bool nullable = false;
  for (int32_t j = 0; j < a.k && !a.skip_nulls; ++j) nullable = nullable || a.cols[j].validity != nullptr;
  return build_strings<int32_t>(
      TypeId::Utf8, rows, nullable, [&](int64_t i) { return concat_valid(a, i); },
      [&](int64_t i, char* out) { return concat_row(a, i, out); });
}

ColumnPtr parse_temporal_cpu(const ColumnView& v, TypeId to, const Format& f, int64_t& first_bad) {
  return v.type == TypeId::Utf8 ? parse_typed<int32_t>(v, to, f, first_bad) : parse_typed<int64_t>(v, to, f, first_bad);
}

ColumnPtr format_temporal_cpu(const ColumnView& v, const Format& f) {
  const bool date = v.type == TypeId::Date32;
  return build_strings<int32_t>(
      TypeId::Utf8, v.size, v.validity != nullptr, [&](int64_t i) { return v.is_valid(i); },
      [&](int64_t i, char* out) {
        const int64_t x = date ? int64_t(v.values<int32_t>()[i]) : v.values<int64_t>()[i];
        return format_temporal(f, v.type, x, out);
      });
}

ColumnPtr transform_cpu(const ColumnView& v, const TransformArgs& t) {
  return v.type == TypeId::Utf8 ? transform_typed<int32_t>(v, t) : transform_typed<int64_t>(v, t);
}

}  // namespace gpudf::strings::detail
