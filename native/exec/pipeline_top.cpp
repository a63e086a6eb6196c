// The sink of a morsel pipeline that keeps the first rows of an order: a sort with a limit, or
// a topK / bottomK over the whole frame (pipeline.cpp has the stages and the morsels).
//
// Both give the first L rows of a stable order (ties keep the input's order). A row among the
// whole input's first L has fewer than L rows before it in that order, so fewer than L of its
// own morsel's rows come before it: it is among its morsel's first L. So each morsel runs the
// stages and the sort / topK over its own rows and keeps its first L rows, materialised; then
// the kept rows, concatenated in morsel order, are sorted / topK'd again. Ties still fall in
// input order there (each morsel's stable order keeps its tied rows in input order, and the
// morsels come in input order), so the rows and their order are the operator's, on both
// backends. Applies when L is at most a sixteenth of a morsel, so the kept rows are few, and
// the sort keys / `by` read only their own row (a per-morsel rank or mean would differ).
#include <optional>

#include "exec/pipeline.hpp"
#include "ops/concat/concat.hpp"

namespace gpudf::exec {

std::optional<Relation> run_top_pipeline(const PlanNode& node, const std::vector<PipelineStage>& given,
                                         const Relation& in) {
  const int64_t limit = node.kind == NodeKind::Sort ? node.sort.limit : node.top_k.n;
  const int64_t n = in.height();
  const int64_t morsels = morsel_count(n);
  if (morsels < 2 || limit < 0 || limit * 16 > kMorselRows) return std::nullopt;
  std::optional<Stages> stages = plan_stages(given, in);
  if (!stages || stages->names.empty()) return std::nullopt;
  build_tables(*stages, in.device());

  auto first_rows = [&](const Relation& rel) { return node.kind == NodeKind::Sort ? run_sort(node, rel) : run_top_k(node, rel); };
  std::vector<std::vector<ColumnPtr>> kept(static_cast<size_t>(morsels));
  const bool ok = for_morsels(in.device(), 0, morsels, [&](int64_t m) {
    const auto [b, e] = morsel_range(m, n, morsels);
    kept[size_t(m)] = first_rows(run_stages(*stages, in.slice(b, e - b))).materialise();
  });
  if (!ok) return std::nullopt;

  int64_t rows = 0;
  for (const std::vector<ColumnPtr>& k : kept) rows += k.at(0)->size();
  Relation all(in.device(), rows);
  for (size_t c = 0; c < stages->names.size(); ++c) {
    std::vector<ColumnView> parts;
    for (const std::vector<ColumnPtr>& k : kept) parts.push_back(k[c]->view());
    all.add(stages->names[c], concat(parts));
  }
  kept.clear();
  return first_rows(all);
}

}  // namespace gpudf::exec
