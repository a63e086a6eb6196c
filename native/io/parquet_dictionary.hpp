// Dictionary encoding of column chunks: each distinct value once in a PLAIN dictionary page,
// the rows as RLE / bit-packed indices into it (RLE_DICTIONARY data pages). Low-cardinality
// columns (ids, categories, small integer codes) shrink several-fold before compression even
// starts. Every dtype but bool; fixed-width values are told apart by their bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "core/host_vector.hpp"
#include "io/parquet_format.hpp"

namespace gpudf::parquet {

struct Dictionary {
  HostVector<int64_t> entries;    // the row of each distinct value's first appearance
  HostVector<uint32_t> indices;   // per row of the chunk (0 for null rows)
  int64_t begin = 0;              // the chunk's first row
  int bit_width = 1;              // bits per index (at least 1)
  int64_t min_entry = -1;         // strings: row of the byte-wise smallest / largest value
  int64_t max_entry = -1;
};

/// The dictionary of rows [begin, end) of a host column, or nullopt for bool and when most
/// values are distinct (PLAIN is then as small and cheaper).
std::optional<Dictionary> build_dictionary(const ColumnView& v, int64_t begin, int64_t end);

/// The dictionary page's body (the entries, PLAIN) and the chunk's min/max into `stats`
/// (strings: only when both are at most 64 bytes, as they are copied into the footer).
void put_dictionary_page(std::string& out, const ColumnView& v, const Dictionary& d, Statistics& stats);

/// A data page's values: the bit width byte, then the indices of the non-null rows of
/// [begin, end) in the RLE / bit-packed hybrid.
void put_dictionary_indices(std::string& out, const ColumnView& v, const Dictionary& d, int64_t begin,
                            int64_t end);

/// Appends `n` values of `bit_width` bits in the RLE / bit-packed hybrid (no length prefix):
/// runs of 16 or more equal values as RLE runs, the rest bit-packed in groups of 8.
void put_hybrid(std::string& out, const uint32_t* values, int64_t n, int bit_width);

}  // namespace gpudf::parquet
