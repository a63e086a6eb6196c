// Sort: the stable order of the rows by the key expressions (ops/sort), kept as a row map; with
// a limit only the first rows of the order are kept.
#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "exec/operators.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf::exec {

Relation run_sort(const PlanNode& node, const Relation& in) {
  const SortSpec& s = node.sort;
  GPUDF_EXPECTS(!s.keys.empty() && s.keys.size() == s.descending.size() && s.keys.size() == s.nulls_last.size(),
                InvalidArgument, "sort: keys and flags differ in length");
  std::vector<ColumnPtr> keys;
  std::vector<SortKey> sk;
  for (size_t k = 0; k < s.keys.size(); ++k) {
    keys.push_back(evaluate_column(s.keys[k], in));
    sk.push_back(SortKey{keys.back()->view(), s.descending[k], s.nulls_last[k]});
  }
  ColumnPtr order = sorted_order(sk);
  if (s.limit >= 0 && s.limit < order->size()) order = order->slice(0, s.limit);
  return in.take(order, TakeRows::Permuted);
}

}  // namespace gpudf::exec
