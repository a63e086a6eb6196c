// Test helpers: a deterministic PRNG, naive bit references, host column builders that do not go
// through the code under test (import_arrow), and readers that go through to_host.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/bitmask.hpp"
#include "core/column.hpp"
#include "core/device.hpp"
#include "core/transfer.hpp"
#include "core/types.hpp"
#include "tests/testing.hpp"

namespace gpudf::testing {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// splitmix64: deterministic, seedable.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint8_t byte() { return static_cast<uint8_t>(next() >> 56); }
  bool coin(int percent_true = 50) { return int(next() % 100) < percent_true; }
};

inline std::vector<uint8_t> random_bytes(std::size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = rng.byte();
  return out;
}

/// Naive references, one bit at a time.
inline bool ref_get(const std::vector<uint8_t>& bits, int64_t i) {
  return (bits[std::size_t(i / 8)] >> (i % 8)) & 1;
}
inline void ref_put(std::vector<uint8_t>& bits, int64_t i, bool v) {
  uint8_t m = uint8_t(1u << (i % 8));
  if (v) bits[std::size_t(i / 8)] |= m;
  else bits[std::size_t(i / 8)] &= uint8_t(~m);
}
inline int64_t ref_count(const std::vector<uint8_t>& bits, int64_t begin, int64_t end) {
  int64_t n = 0;
  for (int64_t i = begin; i < end; ++i) n += ref_get(bits, i);
  return n;
}

/// A bitmap holding `flags` starting at bit `offset`; bits before (and the tail) are `filler`.
inline std::vector<uint8_t> pack_bits(const std::vector<bool>& flags, int64_t offset = 0,
                                      bool filler = false) {
  int64_t n = int64_t(flags.size());
  std::vector<uint8_t> bits(std::size_t(bitmap_bytes(offset + n)), filler ? 0xFF : 0x00);
  for (int64_t i = 0; i < n; ++i) ref_put(bits, offset + i, flags[std::size_t(i)]);
  return bits;
}

inline std::vector<bool> unpack_bits(const uint8_t* bits, int64_t offset, int64_t n) {
  std::vector<bool> out(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[std::size_t(i)] = (bits[(offset + i) >> 3] >> ((offset + i) & 7)) & 1;
  return out;
}

/// Validity patterns used across tests.
enum class Pattern { AllValid, AllNull, Alternating, Random, FirstNull, LastNull };
inline const char* pattern_name(Pattern p) {
  switch (p) {
    case Pattern::AllValid: return "all-valid";
    case Pattern::AllNull: return "all-null";
    case Pattern::Alternating: return "alternating";
    case Pattern::Random: return "random";
    case Pattern::FirstNull: return "first-null";
    case Pattern::LastNull: return "last-null";
  }
  return "?";
}
inline constexpr Pattern kPatterns[] = {Pattern::AllValid, Pattern::AllNull, Pattern::Alternating,
                                        Pattern::Random, Pattern::FirstNull, Pattern::LastNull};

inline std::vector<bool> make_flags(Pattern p, int64_t n, uint64_t seed = 1) {
  std::vector<bool> out(std::size_t(n), true);
  Rng rng(seed);
  for (int64_t i = 0; i < n; ++i) {
    bool v = true;
    switch (p) {
      case Pattern::AllValid: v = true; break;
      case Pattern::AllNull: v = false; break;
      case Pattern::Alternating: v = (i % 2) == 0; break;
      case Pattern::Random: v = rng.coin(70); break;
      case Pattern::FirstNull: v = i != 0; break;
      case Pattern::LastNull: v = i != n - 1; break;
    }
    out[std::size_t(i)] = v;
  }
  return out;
}

inline int64_t count_false(const std::vector<bool>& flags) {
  int64_t n = 0;
  for (bool f : flags) n += !f;
  return n;
}

/// A host column of a fixed-width type from raw storage values; `valid` empty: no bitmap.
/// Built with Column::allocate and plain stores (not import_arrow).
template <typename T>
ColumnPtr host_column(TypeId type, const std::vector<T>& values, const std::vector<bool>& valid = {}) {
  GPUDF_EXPECTS(sizeof(T) == std::size_t(value_width(type)), Internal, "host_column: width mismatch");
  GPUDF_EXPECTS(valid.empty() || valid.size() == values.size(), Internal, "host_column: validity size");
  int64_t n = int64_t(values.size());
  ColumnPtr c = Column::allocate(cpu_device(), type, n, !valid.empty());
  if (n) std::memcpy(c->data()->data(), values.data(), values.size() * sizeof(T));
  for (int64_t i = 0; i < int64_t(valid.size()); ++i)
    if (valid[std::size_t(i)]) set_bit(c->validity()->data(), i);
  return c;
}

/// A host string column; nullopt entries are null (stored as empty strings). Any nullopt makes
/// the column nullable; `force_validity` adds a bitmap even when there is none.
inline ColumnPtr host_strings(TypeId type, const std::vector<std::optional<std::string>>& values,
                              bool force_validity = false) {
  int64_t n = int64_t(values.size());
  int64_t bytes = 0;
  bool nullable = force_validity;
  for (const auto& v : values) {
    if (v) bytes += int64_t(v->size());
    else nullable = true;
  }
  ColumnPtr c = Column::allocate(cpu_device(), type, n, nullable, bytes);
  int64_t pos = 0;
  for (int64_t i = 0; i <= n; ++i) {
    if (offset_width(type) == 4) reinterpret_cast<int32_t*>(c->offsets()->data())[i] = int32_t(pos);
    else reinterpret_cast<int64_t*>(c->offsets()->data())[i] = pos;
    if (i == n) break;
    const auto& v = values[std::size_t(i)];
    if (v) {
      if (!v->empty()) std::memcpy(c->data()->data() + pos, v->data(), v->size());
      pos += int64_t(v->size());
      if (nullable) set_bit(c->validity()->data(), i);
    }
  }
  return c;
}

/// The column on the test device (itself when that is the cpu).
inline ColumnPtr on_test_device(const ColumnPtr& c) { return copy_to_device(c, test_device()); }

/// Row validity read through to_host.
inline std::vector<bool> read_validity(const ColumnPtr& c) {
  ColumnPtr h = to_host(c);
  ColumnView v = h->view();
  std::vector<bool> out(std::size_t(v.size));
  for (int64_t i = 0; i < v.size; ++i) out[std::size_t(i)] = v.is_valid(i);
  return out;
}

/// Raw storage values read through to_host (U must have the type's width); null rows: nullopt.
template <typename U>
std::vector<std::optional<U>> read_values(const ColumnPtr& c) {
  ColumnPtr h = to_host(c);
  ColumnView v = h->view();
  GPUDF_EXPECTS(sizeof(U) == std::size_t(value_width(v.type)), Internal, "read_values: width mismatch");
  std::vector<std::optional<U>> out(std::size_t(v.size));
  for (int64_t i = 0; i < v.size; ++i) {
    if (!v.is_valid(i)) continue;
    U x;
    std::memcpy(&x, v.data + (v.offset + i) * int64_t(sizeof(U)), sizeof(U));
    out[std::size_t(i)] = x;
  }
  return out;
}

/// Strings read through to_host; null rows: nullopt.
inline std::vector<std::optional<std::string>> read_strings(const ColumnPtr& c) {
  ColumnPtr h = to_host(c);
  ColumnView v = h->view();
  GPUDF_EXPECTS(is_string(v.type), Internal, "read_strings: not a string column");
  std::vector<std::optional<std::string>> out(std::size_t(v.size));
  for (int64_t i = 0; i < v.size; ++i) {
    if (!v.is_valid(i)) continue;
    int64_t b, e;
    if (offset_width(v.type) == 4) {
      b = v.string_offsets<int32_t>()[i];
      e = v.string_offsets<int32_t>()[i + 1];
    } else {
      b = v.string_offsets<int64_t>()[i];
      e = v.string_offsets<int64_t>()[i + 1];
    }
    out[std::size_t(i)] = std::string(reinterpret_cast<const char*>(v.data) + b, std::size_t(e - b));
  }
  return out;
}

/// `values` with the rows where `valid` is false replaced by nullopt.
template <typename T>
std::vector<std::optional<T>> masked(const std::vector<T>& values, const std::vector<bool>& valid) {
  std::vector<std::optional<T>> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (valid.empty() || valid[i]) out[i] = values[i];
  return out;
}

template <typename T>
std::vector<T> sub(const std::vector<T>& v, int64_t offset, int64_t length) {
  return std::vector<T>(v.begin() + offset, v.begin() + offset + length);
}

inline uint64_t bits_of(double d) { return std::bit_cast<uint64_t>(d); }
inline uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

/// Live bytes on the cpu and the test device, to check that nothing leaks.
struct LiveBytes {
  int64_t cpu = cpu_device().stats().live_bytes;
  int64_t dev = test_device().stats().live_bytes;
  bool operator==(const LiveBytes&) const = default;
};
inline std::ostream& operator<<(std::ostream& os, const LiveBytes& l) {
  return os << "{cpu " << l.cpu << " B, test device " << l.dev << " B}";
}

/// Sorted segment ids (window partitions) with runs of 1..max_run rows.
inline std::vector<int32_t> segments_of(int64_t n, uint64_t seed, int64_t max_run) {
  Rng rng(seed);
  std::vector<int32_t> seg(static_cast<size_t>(n));
  int32_t id = 0;
  int64_t left = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (left == 0) {
      left = 1 + int64_t(rng.next() % uint64_t(max_run));
      if (i > 0) ++id;
    }
    seg[size_t(i)] = id;
    --left;
  }
  return seg;
}

inline const std::vector<int64_t>& edge_lengths() {
  static const std::vector<int64_t> v = {0, 1, 7, 8, 9, 31, 32, 33, 64, 65, 1000};
  return v;
}

}  // namespace gpudf::testing
