// Unique: the rows distinct_indices keeps (hash grouping of the subset's columns), as a row map.
#include "exec/operators.hpp"

namespace gpudf::exec {

Relation run_unique(const PlanNode& node, const Relation& in) {
  std::vector<ColumnPtr> keys;
  if (node.unique.subset.empty()) keys = in.materialise();
  else
    for (const std::string& n : node.unique.subset) keys.push_back(in.cell(n)->values());
  std::vector<ColumnView> views;
  for (const ColumnPtr& k : keys) views.push_back(k->view());
  if (views.empty()) return in;
  return in.take(distinct_indices(views, node.unique.keep, node.unique.maintain_order),
                 node.unique.maintain_order ? TakeRows::Ascending : TakeRows::Permuted);
}

}  // namespace gpudf::exec
