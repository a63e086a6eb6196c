#include "exec/grouping.hpp"

#include <set>

#include "core/error.hpp"
#include "exec/expr_eval.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf::exec {

Grouping group_by(const std::vector<NamedExpr>& keys, const Relation& in, bool drop_nulls, bool maintain_order,
                  bool sort) {
  GPUDF_EXPECTS(!keys.empty(), InvalidArgument, "groupBy needs at least one key");
  Grouping g;
  std::vector<ColumnView> views;
  for (const NamedExpr& k : keys) {
    g.keys.push_back(evaluate_column(k.expr, in));
    views.push_back(g.keys.back()->view());
  }
  g.groups = group_rows(views, drop_nulls, maintain_order && !sort);
  return g;
}

Relation sort_by_keys(const Relation& rel, size_t key_count) {
  std::vector<ColumnPtr> keys;
  std::vector<SortKey> sk;
  for (size_t k = 0; k < key_count; ++k) {
    keys.push_back(rel.cell(k)->values());
    sk.push_back(SortKey{keys.back()->view(), false, true});
  }
  return rel.take(sorted_order(sk), TakeRows::Permuted);
}

Relation keys_then_rest(const Relation& in, const std::vector<NamedExpr>& key_specs, const Grouping& g,
                        const ColumnPtr& rows) {
  Relation out(in.device(), rows->size());
  std::set<std::string> key_names;
  for (size_t k = 0; k < key_specs.size(); ++k) {
    key_names.insert(key_specs[k].name);
    out.add(key_specs[k].name, gather(g.keys[k]->view(), rows->view()));
  }
  Relation picked = in.take(rows, TakeRows::Permuted);
  for (size_t c = 0; c < picked.width(); ++c)
    if (!key_names.count(picked.names()[c])) out.add(picked.names()[c], picked.cell(c));
  return out;
}

}  // namespace gpudf::exec
