// GroupBy: hash grouping of rows by key columns (group_rows), then per-group aggregations over
// the group ids (group_aggregate, group_corr) and per-group row selections (group_head_rows).
// Other ops (unique, value counts) can build on group_rows: it returns one id per row plus each
// group's first row; group_sizes / group_last_rows give counts and last rows in one pass.
//
// Key rules (ops/hash/row_hash.hpp): nulls equal each other (a group of their own, unless
// drop_nulls), every NaN equals every NaN, -0.0 equals 0.0, strings compare byte-wise.
// Aggregation rules (dtypes, nulls, NaN) are those of the ungrouped reduce() of each kind
// (ops/reduce/reduce.hpp, docs/semantics.md "GroupBy (native)").
//
// Strategy. CPU: every row is hashed once. Unless nearly every row starts a group, each pool
// thread fills one table over a contiguous range of rows (a batch of rows hashed and their slots
// prefetched before probing) and the tables are merged in range order; nearly-unique keys are
// radix-partitioned by high hash bits into cache-sized tables, whose local ids a bitmap of the
// groups' first rows turns into global ones. Either way ids come out in first-appearance order.
// Table slots keep the full hash and the key (fixed-width bits, short strings inline, other keys
// encoded in a per-table arena), so a probe never reads the key columns at a group's first row.
// Aggregations fold rows into per-chunk partial accumulators merged in chunk order when groups
// average >= 8 rows, else each pool thread folds the rows of its own run of group ids (every
// group in row order); median and quantile of numbers select ranks among order keys
// counting-sorted by group; nUnique and string extremes sort each group's rows (segments from a
// counting sort). Host scratch that scales with rows or groups is a HostVector (reused blocks).
// CUDA: an open-addressing table of row indices filled with atomicCAS (equality: rows_equal),
// ids numbered by first appearance with a scan; the aggregations exact in any order (counts,
// integer sums and products, first/last, min/max, argMin/argMax) as atomics on per-group words,
// pre-aggregated in shared memory per block when the groups are few; float sums, means and
// variances in the CPU's fixed shape with the same GPUDF_HD folds (so they round as the CPU's);
// median, quantile and nUnique over a sort by (group, value).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "ops/reduce/reduce.hpp"

namespace gpudf {

struct GroupIds {
  /// One id per input row: int32 while rows < 2^31, else int64; in [0, count), or -1 for a row
  /// dropped because a key is null and drop_nulls. Same device as the keys.
  ColumnPtr ids;
  /// int64, `count` rows: the first row of each group (ascending when maintain_order).
  ColumnPtr first_rows;
  int64_t count = 0;
};

/// Groups the rows of `keys` (>= 1 column, equal lengths, one device). maintain_order: ids are
/// numbered by first appearance; else in any order (the fastest the backend has).
GroupIds group_rows(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order);

/// One row per group: `kind` over the values of `values` whose id (in `ids`, from group_rows)
/// is that group; rows with id -1 are ignored. Result dtypes and nulls as reduce(): sum of no
/// values 0, mean/min/max/std of none null, count = non-null values, len = rows, first/last =
/// the first/last row's value (null if that row is null), argMin/argMax = position of the
/// extreme within its group, nullCount = nulls of the group.
ColumnPtr group_aggregate(const ColumnView& values, const ColumnView& ids, int64_t count,
                          ReduceKind kind, const ReduceOptions& options = {});

/// group_aggregate of each values[i] by kinds[i] with options[i], over the same ids: the CPU
/// runs the aggregations that are one fold each (sum, mean, min/max of numbers, count, len,
/// nullCount, first, last, product) in one pass over the rows; results equal group_aggregate's.
std::vector<ColumnPtr> group_aggregate_many(const std::vector<ColumnView>& values, const ColumnView& ids, int64_t count,
                                            const std::vector<ReduceKind>& kinds,
                                            const std::vector<ReduceOptions>& options);

/// Pearson correlation (cov false) or covariance with divisor n - ddof of a and b per group,
/// over the rows where both are non-null; float64; null when n <= ddof (cov) or n < 2 (corr).
ColumnPtr group_corr(const ColumnView& a, const ColumnView& b, const ColumnView& ids, int64_t count,
                     bool cov, int64_t ddof);

/// int64 row indices: for each group (ascending id) its first n rows (from_end: its last n), in
/// ascending row order within the group.
ColumnPtr group_head_rows(const ColumnView& ids, int64_t count, int64_t n, bool from_end);

/// The most frequent value of each group (null counts as a value); among equally frequent ones
/// the smallest, null last (as pandas' mode()[0]). The values' dtype; needs an order (as min).
ColumnPtr group_mode(const ColumnView& values, const ColumnView& ids, int64_t count);

/// str.join per group: the string values of each group joined by `sep` in row order; nulls are
/// skipped, or with !ignore_nulls make their group null; a group without values gives "". The
/// values' dtype (ERR_DTYPE for a column that is not strings).
ColumnPtr group_join_strings(const ColumnView& values, const ColumnView& ids, int64_t count, const std::string& sep,
                             bool ignore_nulls);

/// group_join_strings of the whole column as one group: one row.
ColumnPtr join_strings(const ColumnView& values, const std::string& sep, bool ignore_nulls);

/// int64 rows per group (group_aggregate's Len without a values column).
ColumnPtr group_sizes(const ColumnView& ids, int64_t count);

/// int64 last row of each group (-1 never occurs: every group has a row).
ColumnPtr group_last_rows(const ColumnView& ids, int64_t count);

namespace detail {
/// Throws InvalidArgument unless `ids` is an int32/int64 column without nulls of `rows` rows and
/// 0 <= count <= rows. Ids outside [0, count) are ignored (they come from group_rows: -1 or in range).
void check_group_ids(const ColumnView& ids, int64_t rows, int64_t count);

GroupIds group_rows_cpu(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order);
ColumnPtr group_aggregate_cpu(const ColumnView& values, const ColumnView& ids, int64_t count,
                              ReduceKind kind, const ReduceOptions& options);
std::vector<ColumnPtr> group_aggregate_many_cpu(const std::vector<ColumnView>& values, const ColumnView& ids,
                                               int64_t count, const std::vector<ReduceKind>& kinds,
                                               const std::vector<ReduceOptions>& options);
ColumnPtr group_corr_cpu(const ColumnView& a, const ColumnView& b, const ColumnView& ids, int64_t count,
                         bool cov, int64_t ddof);
ColumnPtr group_head_rows_cpu(const ColumnView& ids, int64_t count, int64_t n, bool from_end);
#ifdef GPUDF_WITH_CUDA
GroupIds group_rows_cuda(const std::vector<ColumnView>& keys, bool drop_nulls, bool maintain_order);
ColumnPtr group_aggregate_cuda(const ColumnView& values, const ColumnView& ids, int64_t count,
                               ReduceKind kind, const ReduceOptions& options);
ColumnPtr group_corr_cuda(const ColumnView& a, const ColumnView& b, const ColumnView& ids, int64_t count,
                          bool cov, int64_t ddof);
ColumnPtr group_head_rows_cuda(const ColumnView& ids, int64_t count, int64_t n, bool from_end);
ColumnPtr group_last_rows_cuda(const ColumnView& ids, int64_t count);
#endif
}  // namespace detail

}  // namespace gpudf
