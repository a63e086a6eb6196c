// Arrow interop: columns from Arrow host buffers (as apache-arrow JS exposes them) and back.
// Import copies once into a compact column (offset 0, bool unpacked to bytes, string offsets
// rebased, dictionaries decoded), then hands it to the target device. Export writes Arrow's
// layout (bit-packed bool, rebased offsets) into caller-provided host memory.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"

namespace gpudf {

/// One chunk of an Arrow array in host memory, in apache-arrow JS's convention: values, string
/// offsets and dictionary indices start at the chunk's first row; the validity bitmap and bool
/// values are bit-addressed from `offset` (Arrow JS slices those buffers without re-basing).
/// Sizes are the byte lengths of the buffers as given, checked before anything is read.
struct ArrowChunk {
  int64_t length = 0;
  int64_t offset = 0;  // bit offset into validity (and bool values)
  const uint8_t* validity = nullptr;  // may be null: no nulls
  int64_t validity_bytes = 0;
  const uint8_t* offsets = nullptr;  // strings only
  int64_t offsets_bytes = 0;
  const uint8_t* values = nullptr;  // values, bits for bool, or dictionary indices
  int64_t values_bytes = 0;
  /// Dictionary-encoded chunk: `values` are indices of `index_type` into `dictionary`
  /// (a host column of the logical type).
  ColumnPtr dictionary;
  TypeId index_type = TypeId::Int32;
};

/// Concatenates the chunks into one column of `type` on `target`.
/// Throws InvalidArgument for buffers too small, bad offsets or out-of-range dictionary indices.
ColumnPtr import_arrow(Device& target, TypeId type, const std::vector<ArrowChunk>& chunks);

struct ArrowExportSizes {
  int64_t validity_bytes = 0;  // 0 when the column has no nulls
  int64_t offsets_bytes = 0;
  int64_t values_bytes = 0;
  int64_t null_count = 0;
};

/// Sizes of the Arrow buffers for a host column (see to_host).
ArrowExportSizes arrow_export_sizes(const Column& host_column);

/// Writes the Arrow buffers (sizes from arrow_export_sizes; null pointers where a size is 0).
void arrow_export(const Column& host_column, uint8_t* validity, uint8_t* offsets, uint8_t* values);

}  // namespace gpudf
