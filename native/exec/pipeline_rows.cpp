// The sinks of a morsel pipeline that keep some of the rows (pipeline.cpp has the stages and
// the morsels): a sort with a limit, a topK / bottomK over the whole frame, and a unique that
// keeps the first, last or any row of each key.
//
// Each of them, run over the kept rows of every morsel concatenated in morsel order, gives what
// it gives over the whole input:
// - A sort with a limit L, or a topK of L, keeps the first L rows of a stable order (ties keep
//   the input's order). A row among the whole input's first L has fewer than L rows before it,
//   so fewer than L of its own morsel's rows: it is among its morsel's first L. Ties still fall
//   in input order over the kept rows (each morsel's stable order keeps its tied rows in input
//   order, and the morsels come in input order).
// - A unique keeping the first (or any: the first) row of each key: a key's first row in the
//   input is its first row in its morsel, and the first of the kept rows with that key (morsels
//   in input order); likewise the last. With maintainOrder the kept rows are in input order.
// So each morsel runs the stages and the sink over its own rows and keeps what the sink keeps,
// materialised; then the sink runs again over those rows. The rows and their order are the
// operator's on both backends (a unique without maintainOrder promises no order, and gives
// the order of its grouping of the kept rows). Applies when few rows are kept: L at most a
// sixteenth of a morsel; for unique, the first morsel keeping at most a quarter of its rows
// (otherwise the operator runs). Sort keys and `by` must read only their own row (a
// per-morsel rank or mean would differ); unique keeping no row of a repeated key ("none")
// never applies (a key unique in its morsel may repeat in another).
#include <optional>

#include "exec/pipeline.hpp"

namespace gpudf::exec {

std::optional<Relation> run_rows_pipeline(const PlanNode& node, const std::vector<PipelineStage>& given,
                                          const Relation& in) {
  const int64_t n = in.height();
  const int64_t morsels = morsel_count(n);
  if (morsels < 2) return std::nullopt;
  if (node.kind == NodeKind::Sort || node.kind == NodeKind::TopK) {
    const int64_t limit = node.kind == NodeKind::Sort ? node.sort.limit : node.top_k.n;
    if (limit < 0 || limit * 16 > kMorselRows) return std::nullopt;
  } else if (node.kind != NodeKind::Unique || node.unique.keep == Keep::None) {
    return std::nullopt;
  }
  std::optional<Stages> stages = plan_stages(given, in);
  if (!stages || stages->names.empty()) return std::nullopt;
  build_tables(*stages, in.device());

  auto keep = [&](const Relation& rel) {
    switch (node.kind) {
      case NodeKind::Sort: return run_sort(node, rel);
      case NodeKind::TopK: return run_top_k(node, rel);
      default: return run_unique(node, rel);
    }
  };
  // Each morsel's kept rows, materialised (so nothing holds its stages' columns).
  std::vector<Relation> kept(static_cast<size_t>(morsels));
  auto run = [&](int64_t m) {
    const auto [b, e] = morsel_range(m, n, morsels);
    const Relation rows = keep(run_stages(*stages, in.slice(b, e - b)));
    Relation own(in.device(), rows.height());
    const std::vector<ColumnPtr> values = rows.materialise();
    for (size_t c = 0; c < values.size(); ++c) own.add(rows.names()[c], values[c]);
    kept[size_t(m)] = std::move(own);
  };
  if (!for_morsels(in.device(), 0, 1, run)) return std::nullopt;
  // A unique that keeps most rows would only do its work twice.
  if (node.kind == NodeKind::Unique && kept[0].height() * 4 > morsel_range(0, n, morsels).second) return std::nullopt;
  if (!for_morsels(in.device(), 1, morsels, run)) return std::nullopt;

  std::vector<const Relation*> parts;
  for (const Relation& k : kept) parts.push_back(&k);
  const Relation all = run_union(node, parts);  // the kept rows, in morsel order
  kept.clear();
  return keep(all);
}

}  // namespace gpudf::exec
