// Hash join: the key columns materialised and promoted to common dtypes, gather maps from the
// hash join (ops/join), and every output column of either side passed through the maps
// (composed, not moved: only the columns a later operator or the result reads are gathered).
// Outer joins' coalesced keys are built from both sides' keys.
#include "core/error.hpp"
#include "exec/operators.hpp"

namespace gpudf::exec {

Relation run_join(const PlanNode& node, const Relation& left, const Relation& right) {
  const JoinSpec& j = node.join;
  GPUDF_EXPECTS(j.left_on.size() == j.right_on.size(), InvalidArgument, "join: key counts differ");
  // A reducer whose right side is not much smaller would cost more than it saves: the rows pass.
  if (j.reducer_ratio > 0 && right.height() > left.height() / j.reducer_ratio) {
    Relation out(left.device(), left.height());
    for (const JoinOutput& o : j.outputs) {
      GPUDF_EXPECTS(o.from == JoinOutput::From::Left, InvalidArgument, "join: a semi join has left columns only");
      out.add(o.name, left.cell(o.column));
    }
    return out;
  }
  std::vector<ColumnPtr> lk, rk;
  for (const std::string& n : j.left_on) lk.push_back(left.cell(n)->values());
  for (const std::string& n : j.right_on) rk.push_back(right.cell(n)->values());
  JoinMaps maps;
  if (j.how == JoinHow::Cross) {
    maps = cross_maps(left.device(), left.height(), right.height());
  } else {
    promote_join_keys(lk, rk);
    std::vector<ColumnView> lv, rv;
    for (const ColumnPtr& c : lk) lv.push_back(c->view());
    for (const ColumnPtr& c : rk) rv.push_back(c->view());
    maps = join_maps(lv, rv, j.how, j.nulls_equal, j.order);
  }
  return join_result(j, left, right, maps, lk, rk);
}

Relation join_result(const JoinSpec& j, const Relation& left, const Relation& right, const JoinMaps& maps,
                     const std::vector<ColumnPtr>& lk, const std::vector<ColumnPtr>& rk) {
  const int64_t rows = maps.left->size();
  // Semi / anti joins keep left rows in left order: an ascending selection of the left side.
  const bool semi = j.how == JoinHow::Semi || j.how == JoinHow::Anti;
  Relation l = left.take(maps.left, semi ? TakeRows::Ascending : maps.left_has_missing ? TakeRows::WithMissing : TakeRows::Permuted);
  Relation r = maps.right ? right.take(maps.right, maps.right_has_missing ? TakeRows::WithMissing : TakeRows::Permuted) : Relation(right.device(), rows);
  Relation out(left.device(), rows);
  for (const JoinOutput& o : j.outputs) {
    switch (o.from) {
      case JoinOutput::From::Left: out.add(o.name, l.cell(o.column)); break;
      case JoinOutput::From::Right:
        GPUDF_EXPECTS(maps.right != nullptr, InvalidArgument, "join: a semi/anti join has no right columns");
        out.add(o.name, r.cell(o.column));
        break;
      case JoinOutput::From::Key:
        GPUDF_EXPECTS(o.key >= 0 && size_t(o.key) < lk.size() && maps.right != nullptr, InvalidArgument,
                      "join: bad coalesced key");
        out.add(o.name, coalesce_keys(lk[size_t(o.key)]->view(), rk[size_t(o.key)]->view(), maps));
        break;
    }
  }
  return out;
}

}  // namespace gpudf::exec
