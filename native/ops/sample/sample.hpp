// Random row indices for DataFrame.sample, generated on the host (so a seed gives the same rows
// on both backends) and then moved to the target device.
//
// PRNG: splitmix64 (Steele, Lea, Flood 2014) seeded with `seed`. A bounded draw in [0, m) takes
// the next output x and uses x % m, redrawing while x >= 2^64 - (2^64 mod m) (no modulo bias).
// Without replacement: a partial Fisher-Yates shuffle of 0..rows-1, run for n steps (swaps kept
// in a hash map when n is small against rows, so memory is O(n)); the sample comes out in the
// shuffle's (random) order. With replacement: n independent bounded draws.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"
#include "core/host_vector.hpp"

namespace gpudf {

struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, m), m > 0.
  uint64_t below(uint64_t m) {
    const uint64_t limit = UINT64_MAX - (UINT64_MAX % m + 1) % m;  // largest multiple of m, minus 1
    uint64_t x;
    do x = next(); while (x > limit);
    return x % m;
  }
};

/// `n` row indices in [0, rows) as described above. Without replacement n > rows is
/// InvalidArgument; n < 0 always is.
HostVector<int64_t> sample_indices(int64_t rows, int64_t n, bool with_replacement, uint64_t seed);

/// The same indices as an int64 column on `device`.
ColumnPtr sample_index_column(Device& device, int64_t rows, int64_t n, bool with_replacement,
                              uint64_t seed);

}  // namespace gpudf
