// `expr.over(partitionBy, { orderBy })`: the inner expression per partition, in row order.
//
// over node: args = [inner, partition keys..., order keys...], params = [keys, orders,
// descending per order key..., nulls_last]. The keys are grouped once (group_rows, ids in
// first-appearance order). When the inner expression is order-dependent (a sequence op other
// than rank and the distinct flags, or an orderBy was given) the rows are sorted stably by
// (partition id, order keys), so each partition is one contiguous segment in its order;
// otherwise the rows stay where they are (rank and the distinct flags take segments in any
// layout). The inner expression runs with the ids as the frame's segments (sequence ops restart
// at each partition), every aggregation in it
// is computed per partition and gathered back to the partition's rows, and the result is put
// back in row order through the inverse permutation. The grouping, the permutation and its
// inverse come from the over cache (over_cache.hpp) when an earlier over of the same expression
// list had the same partition keys (and order spec) over the same columns.
#include <set>

#include "core/error.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/group_input.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/reduce/reduce.hpp"
#include "ops/sort/sort.hpp"
#include "ops/window/over_cache.hpp"
#include "ops/window/window.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::window {


namespace {

using expr::LiteralSpec;
using expr::NodeSpec;

/// Window ops whose value at a row depends only on the values of the row's partition and their
/// row order, not on the partition's rows being contiguous: rank sorts by (segment, value) and
/// the distinct flags group by (segment, value) themselves, both stably in row order.
bool layout_free(const std::string& op) {
  return op == "rank" || op == "isFirstDistinct" || op == "isDuplicated" || op == "isUnique";
}

/// True when the inner expression needs each partition's rows contiguous and in order: it has a
/// window op other than the layout-free ones (an orderBy always sorts).
bool order_dependent(const std::vector<NodeSpec>& inner) {
  for (const NodeSpec& n : inner)
    if (is_window_op(n.op) && !layout_free(n.op)) return true;
  return false;
}

bool chooses_rows(const NodeSpec& n) { return n.op == "filter" || n.op == "sortBy"; }

/// The node an aggregation folds: its input, or a filter / sortBy input's values.
int32_t folded_arg(const std::vector<NodeSpec>& inner, const NodeSpec& n) {
  GPUDF_EXPECTS(n.args.size() == 1, InvalidArgument, n.agg_kind + " takes one input");
  const NodeSpec& a = inner.at(size_t(n.args[0]));
  return chooses_rows(a) ? a.args.at(0) : n.args[0];
}

/// Aggregation `n` over the rows its filter / sortBy input chooses in each partition
/// (ops/groupby/group_input.hpp), one value per partition.
ColumnPtr aggregate_chosen(const std::vector<NodeSpec>& inner, const NodeSpec& n, const expr::Frame& frame,
                           const ColumnPtr& ids, int64_t groups, Device& device) {
  const NodeSpec& a = inner.at(size_t(n.args[0]));
  std::vector<ColumnPtr> extra;
  for (size_t k = 1; k < a.args.size(); ++k) extra.push_back(expr::evaluate(subtree_of(inner, a.args[k]), frame, device));
  std::vector<bool> descending, nulls_last;
  if (a.op == "sortBy") {
    GPUDF_EXPECTS(a.params.size() == 2 * extra.size(), InvalidArgument, "sortBy needs a descending and a nullsLast flag per key");
    for (size_t k = 0; k < extra.size(); ++k) {
      descending.push_back(a.params[k] != 0);
      nulls_last.push_back(a.params[extra.size() + k] != 0);
    }
  }
  const ColumnPtr values = expr::evaluate(subtree_of(inner, a.args.at(0)), frame, device);
  const ChosenRows c = choose_rows(a.op == "filter" ? RowChoice::Filter : RowChoice::SortBy, values, ids, extra, descending, nulls_last);
  ReduceOptions o;
  o.ddof = n.ddof;
  o.q = n.q;
  const ReduceKind kind = reduce_kind_named(n.agg_kind);
  return group_aggregate(kind == ReduceKind::Len ? c.ids->view() : c.values->view(), c.ids->view(), groups, kind, o);
}

/// Per-partition value of aggregation node `n` (inputs evaluated over `frame`), one per row.
ColumnPtr aggregate_per_row(const std::vector<NodeSpec>& inner, const NodeSpec& n, const expr::Frame& frame,
                            const ColumnPtr& ids, int64_t groups, Device& device) {
  if (n.args.size() == 1 && chooses_rows(inner.at(size_t(n.args[0]))))
    return gather(aggregate_chosen(inner, n, frame, ids, groups, device)->view(), ids->view());
  std::vector<ColumnPtr> in;
  for (int32_t a : n.args) in.push_back(expr::evaluate(subtree_of(inner, a), frame, device));
  ColumnPtr per_group;
  if (n.agg_kind == "len") {
    per_group = group_sizes(ids->view(), groups);
  } else if (n.agg_kind == "corr" || n.agg_kind == "cov") {
    GPUDF_EXPECTS(in.size() == 2, InvalidArgument, n.agg_kind + " takes two inputs");
    per_group = group_corr(in[0]->view(), in[1]->view(), ids->view(), groups, n.agg_kind == "cov", n.ddof);
  } else {
    GPUDF_EXPECTS(in.size() == 1, InvalidArgument, n.agg_kind + " takes one input");
    ReduceOptions o;
    o.ddof = n.ddof;
    o.q = n.q;
    per_group = group_aggregate(in[0]->view(), ids->view(), groups, reduce_kind_named(n.agg_kind), o);
  }
  return gather(per_group->view(), ids->view());
}

/// A null literal of the aggregation's result dtype (an empty frame's aggregations).
NodeSpec typed_null(const std::vector<NodeSpec>& inner, const NodeSpec& n, const expr::Frame& frame, Device& device) {
  TypeId t = TypeId::Float64;
  if (n.agg_kind == "len") t = TypeId::Int64;
  else if (n.agg_kind != "corr" && n.agg_kind != "cov") {
    t = reduce_result_type(expr::evaluate(subtree_of(inner, folded_arg(inner, n)), frame, device)->type(), reduce_kind_named(n.agg_kind));
  }
  NodeSpec lit;
  lit.op = "lit";
  lit.value.kind = LiteralSpec::Kind::Null;
  lit.dtype = int32_t(t);
  return lit;
}

}  // namespace

ColumnPtr evaluate_over(const std::vector<NodeSpec>& specs, int32_t at, const expr::Frame& frame, Device& device) {
  const NodeSpec& s = specs.at(size_t(at));
  GPUDF_EXPECTS(s.params.size() >= 2, InvalidArgument, "malformed over");
  const int64_t nkeys = s.params[0], norder = s.params[1];
  GPUDF_EXPECTS(nkeys >= 1 && norder >= 0 && int64_t(s.args.size()) == 1 + nkeys + norder &&
                    int64_t(s.params.size()) >= 2 + norder + 1,
                InvalidArgument, "malformed over");
  const bool nulls_last = s.params[size_t(2 + norder)] != 0;
  const int64_t rows = frame.rows;
  GPUDF_EXPECTS(rows < (int64_t(1) << 31), InvalidArgument, "over supports fewer than 2^31 rows");

  std::vector<NodeSpec> inner = subtree_of(specs, s.args[0]);

  // The frame the inner expression runs over: the columns it reads, in partition order if needed.
  std::set<std::string> reads;
  for (const NodeSpec& n : inner)
    if (n.op == "col") reads.insert(n.name);
  expr::Frame sub;
  sub.rows = rows;
  for (size_t c = 0; c < frame.names.size(); ++c) {
    if (!reads.count(frame.names[c])) continue;
    sub.names.push_back(frame.names[c]);
    sub.columns.push_back(frame.columns[c]);
  }

  // Keys and order keys are evaluated only when the cache has no grouping (sort) for them.
  ColumnPtr ids, order, back;
  int64_t groups = 0;
  if (rows > 0) {
    std::vector<int32_t> key_roots(s.args.begin() + 1, s.args.begin() + 1 + nkeys);
    const OverKey partition = over_identity(specs, key_roots, frame);
    const OverGrouping g = cached_grouping(partition, [&] {
      std::vector<ColumnPtr> keys;
      std::vector<ColumnView> kv;
      for (int32_t r : key_roots) {
        keys.push_back(expr::evaluate(subtree_of(specs, r), frame, device));
        kv.push_back(keys.back()->view());
      }
      GroupIds gi = group_rows(kv, false, true);
      return OverGrouping{gi.ids, gi.count};
    });
    ids = g.ids;
    groups = g.groups;
    if (norder > 0 || order_dependent(inner)) {
      std::vector<int32_t> order_roots(s.args.begin() + 1 + nkeys, s.args.end());
      OverKey sorted = over_identity(specs, order_roots, frame);
      sorted.text = partition.text + "|" + sorted.text + "|" + std::to_string(nulls_last);
      for (int64_t k = 0; k < norder; ++k) sorted.text += std::to_string(s.params[size_t(2 + k)] != 0);
      sorted.pinned.insert(sorted.pinned.end(), partition.pinned.begin(), partition.pinned.end());
      const OverSort o = cached_sort(sorted, [&] {
        std::vector<ColumnPtr> order_cols;
        std::vector<SortKey> sk{SortKey{ids->view(), false, true}};
        for (int64_t k = 0; k < norder; ++k) {
          order_cols.push_back(expr::evaluate(subtree_of(specs, order_roots[size_t(k)]), frame, device));
          sk.push_back(SortKey{order_cols.back()->view(), s.params[size_t(2 + k)] != 0, nulls_last});
        }
        OverSort out;
        out.order = sorted_order(sk);
        out.ids = gather(ids->view(), out.order->view());
        out.back = sorted_order({SortKey{out.order->view(), false, true}});
        return out;
      });
      order = o.order;
      back = o.back;
      ids = o.ids;
      for (ColumnPtr& c : sub.columns) c = gather(c->view(), order->view());
    }
  } else {
    for (int64_t k = 0; k < nkeys; ++k) expr::evaluate(subtree_of(specs, s.args[size_t(1 + k)]), frame, device);
    ids = Column::allocate(device, TypeId::Int32, 0, false);
  }
  sub.segments = ids;

  // Aggregations (outside nested overs) become per-row columns of the partition's value.
  const std::vector<uint8_t> live = outside_over(inner);
  for (size_t j = 0; j < inner.size(); ++j) {
    if (inner[j].op != "agg" || !live[j]) continue;
    if (rows == 0) {
      inner[j] = typed_null(inner, inner[j], sub, device);
      continue;
    }
    ColumnPtr v = aggregate_per_row(inner, inner[j], sub, ids, groups, device);
    NodeSpec c;
    c.op = "col";
    c.name = std::string("\x01over#") + std::to_string(j);
    sub.names.push_back(c.name);
    sub.columns.push_back(v);
    inner[j] = std::move(c);
  }
  ColumnPtr out = expr::evaluate(subtree_of(inner, int32_t(inner.size()) - 1), sub, device);
  if (!order) return out;
  return gather(out->view(), back->view());
}

}  // namespace gpudf::window
