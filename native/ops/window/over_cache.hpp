// The partition groupings and (partition, orderBy) sorts of `over` nodes, shared by the overs of
// one expression list (a select / withColumns / lazy projection, or one expression): an over whose
// partition keys (and order spec) match an earlier one's reuses its group ids, permutation and
// inverse instead of grouping and sorting again. The entries are device columns on the frame's
// device, held only while the outermost OverCacheScope of the thread is open.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/column.hpp"
#include "ops/expr/expr.hpp"

namespace gpudf::window {

/// A partition grouping: int32 ids in first-appearance order, per row.
struct OverGrouping {
  ColumnPtr ids;
  int64_t groups = 0;
};

/// The rows sorted stably by (partition id, order keys): the permutation, the ids in that order
/// and the inverse permutation (sorted position of each row back to row order).
struct OverSort {
  ColumnPtr order, ids, back;
};

/// Opens the thread's over cache for its lifetime when none is open (nested scopes share it).
class OverCacheScope {
 public:
  OverCacheScope();
  ~OverCacheScope();
  OverCacheScope(const OverCacheScope&) = delete;
  OverCacheScope& operator=(const OverCacheScope&) = delete;

 private:
  bool owner_ = false;
};

/// The identity of subtrees `roots` of `specs` over `frame`: their serialised nodes, the columns
/// of `frame` they read (by identity, pinned so no other column takes their address while the
/// cache holds the key), its segments and height. Equal identities give equal values.
struct OverKey {
  std::string text;
  std::vector<ColumnPtr> pinned;
};
OverKey over_identity(const std::vector<expr::NodeSpec>& specs, const std::vector<int32_t>& roots, const expr::Frame& frame);

/// The grouping (sort) stored under `key`, or the one `make` gives, stored while a scope is open.
OverGrouping cached_grouping(const OverKey& key, const std::function<OverGrouping()>& make);
OverSort cached_sort(const OverKey& key, const std::function<OverSort()>& make);

/// Grouping and sort passes run by `over` since the process started (tests count them).
struct OverPasses {
  int64_t groupings = 0;
  int64_t sorts = 0;
};
OverPasses over_passes();

/// An OverCacheScope opened and closed by two calls on the same thread (the addon's, around one
/// eager select / withColumns, whose expressions are evaluated one native call each). Closing
/// with none open does nothing.
void open_over_cache();
void close_over_cache();

}  // namespace gpudf::window
