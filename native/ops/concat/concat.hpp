// Vertical concatenation of columns of one dtype: values, validity and string bytes of each part
// one after another (string offsets rebased). The per-byte validity rule is shared by the CPU
// loop and the CUDA kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"

namespace gpudf {

/// The rows of `parts`, in order, as one new column on their (common) device. Every part must
/// have the same dtype (else Dtype). A utf8 result over 2^31-1 bytes is InvalidArgument.
ColumnPtr concat(const std::vector<ColumnView>& parts);

/// Output validity byte `byte` after writing the part's rows at [at, at + part.size): bits of
/// that range come from the part (all valid when it has no bitmap), other bits are kept.
GPUDF_HD inline uint8_t concat_validity_byte(uint8_t current, const ColumnView& part, int64_t at,
                                             int64_t byte) {
  uint32_t out = current;
  for (int j = 0; j < 8; ++j) {
    int64_t row = byte * 8 + j - at;
    if (row < 0 || row >= part.size) continue;
    if (part.is_valid(row)) out |= 1u << j;
    else out &= ~(1u << j);
  }
  return static_cast<uint8_t>(out);
}

namespace detail {
/// Bytes of string data of each part (its last offset minus its first).
std::vector<int64_t> string_spans(const std::vector<ColumnView>& parts);
ColumnPtr concat_cpu(const std::vector<ColumnView>& parts, const std::vector<int64_t>& spans);
#ifdef GPUDF_WITH_CUDA
std::vector<int64_t> string_spans_cuda(const std::vector<ColumnView>& parts);
ColumnPtr concat_cuda(const std::vector<ColumnView>& parts, const std::vector<int64_t>& spans);
#endif
}  // namespace detail

}  // namespace gpudf
