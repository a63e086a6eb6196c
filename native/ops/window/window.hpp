// Sequence (window) functions: cumulative scans, shifted row maps, ranks and distinct flags over
// a column, optionally segmented: `segments` (int32, no nulls, nullptr = one segment) gives each
// row a segment id, and the rows of one segment are contiguous (an `over` has sorted them so),
// except for rank and distinct_flags, which take segments in any layout. Nothing crosses a
// segment boundary.
//
// Strategy. CPU: scans are a two-pass block scan over the pool (each block folds the tail
// segment it ends in, the block carries are chained in order, then each block rescans with its
// carry until its first boundary); rank over segments buckets the rows by segment and sorts each
// bucket in cache (rank_cpu.cpp), else runs sorted_order over (segment, value) and one pass over
// the sorted rows. CUDA: scans are Thrust inclusive_scan_by_key (reverse iterators for reverse);
// rank marks run starts in a kernel, scans them with Thrust and scatters in a second kernel.
// The per-element rules (identities, combining, tie tests) are GPUDF_HD in window_functors.hpp.
#pragma once

#include <cstdint>

#include "core/column.hpp"

namespace gpudf::window {

enum class ScanOp : int32_t { Sum, Prod, Min, Max };
enum class RankMethod : int32_t { Average, Min, Max, Dense, Ordinal };
enum class DistinctFlag : int32_t { First, Duplicated, Unique };

/// Polars' result dtypes: cumSum of bool -> uint32, of int8/int16/uint8/uint16 -> int64, others
/// keep theirs; cumProd of bool and integers up to 32 bits -> int64; diff of uint8 -> int16,
/// uint16 -> int32, uint32/uint64 -> int64. ERR_DTYPE for a dtype the op does not take.
TypeId cum_sum_type(TypeId t);
TypeId cum_prod_type(TypeId t);
TypeId diff_type(TypeId t);
/// average: float64; the others: uint32.
TypeId rank_type(RankMethod m);

/// The inclusive scan of `values` (numeric or temporal, already of the result dtype) by `op`
/// within each segment; null rows are skipped and stay null. reverse: from the last row.
/// Min/Max skip NaN unless every value so far is NaN (as reduce's min/max).
ColumnPtr scan(const ColumnPtr& values, ScanOp op, bool reverse, const ColumnPtr& segments);

/// `rows` values offset, offset + 1, ... of integer dtype `type` on `device`, no nulls.
ColumnPtr row_index(Device& device, int64_t rows, int64_t offset, TypeId type);

/// int64: i - n when that row exists and lies in row i's segment, else -1 (shift's gather map).
ColumnPtr shift_rows(Device& device, int64_t rows, int64_t n, const ColumnPtr& segments);

/// The rank of every row within its segment (ties by `method`; nulls rank null and do not
/// count). Values: numeric, bool, temporal or strings; NaN ties with NaN and ranks above +inf.
ColumnPtr rank(const ColumnPtr& values, RankMethod method, bool descending, const ColumnPtr& segments);

/// Bool, no nulls: the first row of each distinct value (First), rows whose value occurs more than
/// once (Duplicated) or exactly once (Unique) within the segment; null equals null, NaN equals NaN.
ColumnPtr distinct_flags(const ColumnPtr& values, DistinctFlag flag, const ColumnPtr& segments);

namespace detail {
/// About four blocks per pool thread, of at least `grain` rows (fixed for a given n): the CPU
/// loops' split of n rows into blocks whose order matters (scans, counting sorts).
int64_t block_count(int64_t n, int64_t grain);
/// A copy of `values`' validity for a new column of the same rows (nullptr when it has none).
BufferPtr copy_validity(const ColumnPtr& values);
void scan_cpu(const ColumnView& in, ScanOp op, bool reverse, const int32_t* seg, Column& out);
void row_index_cpu(Column& out, int64_t offset);
void shift_rows_cpu(int64_t rows, int64_t n, const int32_t* seg, int64_t* out);
/// Ranks from the sorted order: sorted_values / sorted_seg are gathered through `order`.
void rank_sorted_cpu(const ColumnView& sorted_values, const int32_t* sorted_seg, const int64_t* order,
                     RankMethod method, Column& out);
void copy_bits_cpu(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t n);
/// rank over segments on the CPU by bucketing the rows per segment and sorting each bucket
/// (rank_cpu.cpp); false, with nothing decided, when it does not apply (strings, segment ids
/// outside [0, rows), one segment holding most rows): the sorted path ranks then.
bool rank_partitioned_cpu(const ColumnView& values, const int32_t* seg, RankMethod method, bool descending,
                          Column& out);
#ifdef GPUDF_WITH_CUDA
void scan_cuda(const ColumnView& in, ScanOp op, bool reverse, const int32_t* seg, Column& out);
void row_index_cuda(Column& out, int64_t offset);
void shift_rows_cuda(int64_t rows, int64_t n, const int32_t* seg, int64_t* out);
void rank_sorted_cuda(const ColumnView& sorted_values, const int32_t* sorted_seg, const int64_t* order,
                      RankMethod method, Column& out);
void copy_bits_cuda(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t n);
#endif
}  // namespace detail

}  // namespace gpudf::window
