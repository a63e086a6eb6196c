// Joins: a hash join produces gather maps (int64 left and right row indices, -1 = "no row":
// its columns are null there), then every output column is one gather of its side.
//
// The hash table (both backends, the layout below): open addressing with linear probing over
// `Slot` words, one slot per distinct key, and a chain through `next` of the build rows with
// that key. A slot word packs (hash tag << 32 | head row + 1); 0 is an empty slot. The head row
// also represents the key (every row of the chain has the same key). The CPU radix-partitions
// the build rows by the top hash bits and fills one table region per partition in parallel (no
// locks; rows inserted in descending order, so chains are ascending); CUDA fills one region
// with atomicCAS (chain order is then arbitrary). Probing is the same GPUDF_HD code on both:
// find the slot, walk the chain; a count pass sizes the output, a fill pass writes it.
//
// Which side is built: semi/anti/left/full build the right side (full: the probe side's order,
// then the build rows nobody matched); right builds the left; inner builds the smaller side
// unless an order is asked for (then the side whose order is kept is probed). Orders that the
// probe does not give (e.g. "right" for a left join, or the chain order on CUDA) are made by a
// stable sort of the maps.
#pragma once

#include <cstdint>
#include <vector>

#include "core/column.hpp"
#include "core/hd.hpp"
#include "ops/hash/row_hash.hpp"

namespace gpudf {

enum class JoinHow : int32_t { Inner = 0, Left = 1, Right = 2, Full = 3, Semi = 4, Anti = 5, Cross = 6 };

/// Row order of the result. None: whatever is fastest (documented per how in
/// docs/semantics.md). Left / Right: by that side's row; LeftRight / RightLeft: then by the
/// other side's row. Rows without a partner on the ordering side come last.
enum class JoinOrder : int32_t { None = 0, Left = 1, Right = 2, LeftRight = 3, RightLeft = 4 };

/// Gather maps: `left` and `right` int64 columns of the output's height on the keys' device.
/// -1 marks "no row" (outer joins). Semi/anti have no right map (nullptr).
struct JoinMaps {
  ColumnPtr left;
  ColumnPtr right;
  bool left_has_missing = false;   // some left index is -1
  bool right_has_missing = false;  // some right index is -1
};

/// The key columns cast to one common dtype per pair (the expression cast; Polars' supertype:
/// int32 with int64 -> int64, utf8 with large_utf8 -> large_utf8, ...). ERR_DTYPE when a pair
/// has none (e.g. utf8 with int64), ERR_INVALID_ARGUMENT when the counts differ or are zero.
void promote_join_keys(std::vector<ColumnPtr>& left, std::vector<ColumnPtr>& right);

/// Gather maps of the join of two key sets (same count, same dtypes pairwise, as
/// promote_join_keys leaves them). Nulls never match unless `nulls_equal`; NaN matches NaN,
/// -0.0 matches 0.0 (row_hash.hpp). Cross ignores the keys (pass empty key sets and the sizes).
JoinMaps join_maps(const std::vector<ColumnView>& left_keys,
                   const std::vector<ColumnView>& right_keys, JoinHow how, bool nulls_equal,
                   JoinOrder order);

/// A hash table over a join's build-side keys, probed any number of times (the query engine's
/// morsel pipelines probe one per morsel). It holds views of the keys: their columns must
/// outlive it. Backend-specific (ops/join/join_cpu.cpp, join.cu).
class JoinTable {
 public:
  virtual ~JoinTable() = default;
};

/// The table of `build` (>= 1 key column, one device). Nulls never match unless `nulls_equal`.
std::shared_ptr<const JoinTable> build_join_table(const std::vector<ColumnView>& build, bool nulls_equal);

/// Gather maps of probe keys `probe` (the build keys' dtypes pairwise, the same device) against
/// the table, `how` Inner, Left (the probe side outer), Semi or Anti: the probe rows in order,
/// each with its matches in chain order (ascending build rows on the CPU, any order on CUDA).
/// `left` is the probe side's map, `right` the build side's (none for semi / anti). Probing the
/// rows in pieces and concatenating the pieces' maps (build rows as they are, probe rows offset
/// by the piece's start) gives the maps of the whole on the CPU.
JoinMaps probe_join_table(const JoinTable& table, const std::vector<ColumnView>& probe, JoinHow how);

/// Every pair of rows, left-major: left = i / right_rows, right = i % right_rows.
JoinMaps cross_maps(Device& device, int64_t left_rows, int64_t right_rows);

/// One key column from both sides: the left key where the left map has a row, else the right
/// key (the coalesced key of an outer join). Keys of one dtype.
ColumnPtr coalesce_keys(const ColumnView& left_key, const ColumnView& right_key,
                        const JoinMaps& maps);

// ---- the hash table layout and per-row rules shared by the CPU loops and the CUDA kernels -----

inline constexpr uint32_t kNoRow = 0xFFFFFFFFu;

/// A table region: slots [base, base + size).
struct SlotRange {
  int64_t base = 0;
  int64_t size = 0;
};

GPUDF_HD inline uint64_t pack_slot(uint64_t hash, uint32_t row) {
  return (hash & 0xFFFFFFFF00000000ULL) | (uint64_t(row) + 1);
}
GPUDF_HD inline uint32_t slot_row(uint64_t slot) { return uint32_t(slot) - 1; }

/// First slot to probe for `hash` in a region of `size` slots (low 32 bits, scaled).
GPUDF_HD inline int64_t slot_start(uint64_t hash, int64_t size) {
  return int64_t(((hash & 0xFFFFFFFFULL) * uint64_t(size)) >> 32);
}

/// True when occupied slot word `slot` holds the key of row `row` of `keys` (tag, then keys).
GPUDF_HD inline bool slot_holds(uint64_t slot, uint64_t hash, const ColumnView* build_keys,
                                const ColumnView* keys, int32_t nkeys, int64_t row) {
  return (slot >> 32) == (hash >> 32) &&
         rows_equal(build_keys, slot_row(slot), keys, row, nkeys);
}

/// The slot word holding the key of row `row` of `keys` (hash `hash`), or 0 when none does.
GPUDF_HD inline uint64_t find_slot(const uint64_t* slots, SlotRange r, uint64_t hash,
                                   const ColumnView* build_keys, const ColumnView* keys,
                                   int32_t nkeys, int64_t row) {
  int64_t pos = slot_start(hash, r.size);
  while (true) {
    uint64_t s = slots[r.base + pos];
    if (s == 0 || slot_holds(s, hash, build_keys, keys, nkeys, row)) return s;
    if (++pos == r.size) pos = 0;
  }
}

/// Output rows a probe row produces: its chain length (walked), or for the outer side at least
/// one; semi/anti 1 when (not) matched.
GPUDF_HD inline int64_t probe_count(uint32_t head, const uint32_t* next, JoinHow kind) {
  if (kind == JoinHow::Semi) return head != kNoRow ? 1 : 0;
  if (kind == JoinHow::Anti) return head == kNoRow ? 1 : 0;
  int64_t n = 0;
  for (uint32_t r = head; r != kNoRow; r = next[r]) ++n;
  if (n == 0 && kind != JoinHow::Inner) return 1;
  return n;
}

/// Writes probe row `row`'s output rows at `at` (probe side map `pm`, build side map `bm`):
/// its matches in chain order, or (row, -1) when an outer probe row has none.
GPUDF_HD inline void probe_fill(uint32_t head, const uint32_t* next, JoinHow kind, int64_t row,
                                int64_t at, int64_t* pm, int64_t* bm) {
  if (kind == JoinHow::Semi || kind == JoinHow::Anti) {
    if ((head != kNoRow) == (kind == JoinHow::Semi)) pm[at] = row;
    return;
  }
  if (head == kNoRow) {
    if (kind != JoinHow::Inner) {
      pm[at] = row;
      bm[at] = -1;
    }
    return;
  }
  for (uint32_t r = head; r != kNoRow; r = next[r], ++at) {
    pm[at] = row;
    bm[at] = r;
  }
}

/// Index into concat(left key, right key) for output row i of an outer join.
GPUDF_HD inline int64_t coalesce_index(int64_t l, int64_t r, int64_t left_rows) {
  return l >= 0 ? l : left_rows + r;
}

namespace detail {

/// Probe-side results before the maps are oriented: probe and build indices (build -1 = none).
struct ProbeResult {
  ColumnPtr probe;
  ColumnPtr build;  // nullptr for semi/anti
  bool build_missing = false;
  bool probe_missing = false;
};

/// kind: Inner, Left (outer probe side), Full (outer both), Semi, Anti.
ProbeResult hash_join_cpu(const std::vector<ColumnView>& build, const std::vector<ColumnView>& probe,
                          JoinHow kind, bool nulls_equal);
std::shared_ptr<const JoinTable> build_table_cpu(const std::vector<ColumnView>& build, bool nulls_equal);
/// The probe of hash_join_cpu against a built table (Full too: a table probed once).
ProbeResult probe_table_cpu(const JoinTable& table, const std::vector<ColumnView>& probe, JoinHow kind);
/// Left join (no order asked for) of a left side much smaller than the right, built on the left:
/// every match, then the left rows without one (right -1).
JoinMaps left_join_building_left_cpu(const std::vector<ColumnView>& left, const std::vector<ColumnView>& right,
                                     bool nulls_equal);
/// Semi (anti: false) join of a left side much smaller than the right: the left side is built,
/// the right side's probes mark the left rows they reach; the left rows with (anti: without) a
/// mark, ascending.
ColumnPtr semi_join_by_marking_cpu(const std::vector<ColumnView>& left, const std::vector<ColumnView>& right, bool anti,
                                   bool nulls_equal);
JoinMaps cross_maps_cpu(int64_t left_rows, int64_t right_rows);
ColumnPtr coalesce_map_cpu(const ColumnView& left, const ColumnView& right, int64_t left_rows);
#ifdef GPUDF_WITH_CUDA
ProbeResult hash_join_cuda(const std::vector<ColumnView>& build, const std::vector<ColumnView>& probe,
                           JoinHow kind, bool nulls_equal);
std::shared_ptr<const JoinTable> build_table_cuda(const std::vector<ColumnView>& build, bool nulls_equal);
ProbeResult probe_table_cuda(const JoinTable& table, const std::vector<ColumnView>& probe, JoinHow kind);
JoinMaps cross_maps_cuda(Device& device, int64_t left_rows, int64_t right_rows);
ColumnPtr coalesce_map_cuda(const ColumnView& left, const ColumnView& right, int64_t left_rows);
#endif

}  // namespace detail
}  // namespace gpudf
