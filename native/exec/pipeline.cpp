// Morsel pipelines: a sink and the stages directly below it (row-wise projections and filters,
// and joins probed by the flow through their left input) run morsel by morsel.
//
// The source's rows (the input of the lowest stage) are cut into morsels of about kMorselRows
// (ceil(n / kMorselRows) equal ranges: a shape fixed by n alone, never by the thread count).
// Each morsel runs the whole pipeline on its own rows while they are in cache: the source
// sliced (row maps sliced, nothing gathered), each projection evaluated over the slice, each
// filter's selection composed into the row maps (nothing gathered), each join's hash table
// (built once, before the morsels) probed with the slice's keys; then the sink takes the
// morsel's rows. On the CPU the morsels spread over the thread pool, each morsel's ops running
// inline on its thread; on CUDA they run one after another through the same device ops. The
// projections' columns and the joins' outputs never exist at their full height.
//
// The sinks:
// - an aggregation whose partials merge exactly (pipeline_aggregate.cpp): each morsel's rows
//   grouped and folded into partials, merged in morsel order at the end;
// - a sort with a limit, a topK over the whole frame, or a unique keeping the first, last or any
//   row of each key (pipeline_rows.cpp): each morsel's kept rows kept, and the sink run again
//   over them in morsel order.
//
// Joins: inner, left, semi and anti, in no order or the left side's, whose right side is no
// larger than the source (the executor runs the stages up to the last join with a larger
// right side one by one, below the pipeline). When a sink does not apply, and when a morsel
// raises a typed error, the caller runs the stages and the sink one after another (so an error
// names the rows of the whole input, as without a pipeline).
#include "exec/pipeline.hpp"

#include <algorithm>
#include <atomic>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "exec/expr_eval.hpp"
#include "ops/expr/typing.hpp"
#include "ops/window/window_expr.hpp"

namespace gpudf::exec {

bool pipeline_stage(const PlanNode& node) {
  if (node.kind == NodeKind::Project || node.kind == NodeKind::Filter) return node.row_wise;
  if (node.kind != NodeKind::Join) return false;
  const JoinSpec& j = node.join;
  // The probe gives the left side's order; a two-level order needs a sort on CUDA.
  return (j.how == JoinHow::Inner || j.how == JoinHow::Left || j.how == JoinHow::Semi || j.how == JoinHow::Anti) &&
         j.reducer_ratio == 0 && (j.order == JoinOrder::None || j.order == JoinOrder::Left) && !j.left_on.empty();
}

bool pipeline_sink(const PlanNode& node) {
  if (!node.pipeline) return false;
  switch (node.kind) {
    case NodeKind::Aggregate: return node.row_wise && !node.aggregate.keys.empty();
    case NodeKind::Sort: return node.row_wise && node.sort.limit >= 0;
    case NodeKind::TopK: return node.row_wise && node.top_k.keys.empty();
    case NodeKind::Unique: return node.unique.keep != Keep::None;
    default: return false;
  }
}

std::optional<Relation> run_pipeline(const PlanNode& node, const std::vector<PipelineStage>& stages, const Relation& in) {
  if (!pipeline_sink(node)) return std::nullopt;
  return node.kind == NodeKind::Aggregate ? run_aggregate_pipeline(node, stages, in) : run_rows_pipeline(node, stages, in);
}

std::optional<Stages> plan_stages(const std::vector<PipelineStage>& given, const Relation& in) {
  const int64_t n = in.height();
  Stages s;
  s.names = in.names();
  for (const CellPtr& c : in.cells()) s.types.push_back(c->type());
  auto type_of = [&](const std::string& name) {
    return s.types[size_t(std::find(s.names.begin(), s.names.end(), name) - s.names.begin())];
  };
  for (const PipelineStage& g : given) {
    Stage st{g.node, g.build, {}, {}, nullptr};
    std::vector<std::string> next_names;
    std::vector<TypeId> next_types;
    if (!pipeline_stage(*g.node) || (g.node->kind == NodeKind::Join) != (g.build != nullptr)) return std::nullopt;
    if (g.node->kind == NodeKind::Filter) {
      next_names = s.names;  // the schema stays
      next_types = s.types;
      s.moves_rows = true;
    } else if (g.node->kind == NodeKind::Project) {
      for (const NamedExpr& e : g.node->exprs) {
        next_names.push_back(e.name);
        next_types.push_back(expr_type(e.expr, s.names, s.types));
      }
    } else {
      const JoinSpec& j = g.node->join;
      // The side join_maps would build: the right one, unless it is much the larger.
      if (g.build->height() > (j.how == JoinHow::Inner ? n : 4 * n)) return std::nullopt;
      for (const std::string& k : j.left_on)
        if (std::find(s.names.begin(), s.names.end(), k) == s.names.end()) return std::nullopt;
      for (size_t k = 0; k < j.right_on.size(); ++k) {
        const std::optional<TypeId> t = expr::value_supertype(type_of(j.left_on[k]), g.build->cell(j.right_on[k])->type());
        if (!t) return std::nullopt;  // the operators raise the dtype error
        st.key_types.push_back(*t);
      }
      for (const JoinOutput& o : j.outputs) {
        next_names.push_back(o.name);
        if (o.from == JoinOutput::From::Left) next_types.push_back(type_of(o.column));
        else if (o.from == JoinOutput::From::Right) next_types.push_back(g.build->cell(o.column)->type());
        else if (o.key >= 0 && size_t(o.key) < st.key_types.size()) next_types.push_back(st.key_types[size_t(o.key)]);
        else return std::nullopt;
      }
      s.moves_rows = true;
    }
    s.names = std::move(next_names);
    s.types = std::move(next_types);
    s.stages.push_back(std::move(st));
  }
  return s;
}

void build_tables(Stages& s, Device& device) {
  for (Stage& st : s.stages) {
    if (!st.build || st.table) continue;
    const JoinSpec& j = st.node->join;
    std::vector<ColumnView> views;
    for (size_t k = 0; k < j.right_on.size(); ++k) {
      st.build_keys.push_back(window::cast_column(st.build->cell(j.right_on[k])->values(), st.key_types[k], device));
      views.push_back(st.build_keys.back()->view());
    }
    st.table = build_join_table(views, j.nulls_equal);
  }
}

Relation run_stage(const Stage& st, const Relation& rel) {
  if (st.node->kind == NodeKind::Filter) return run_filter(*st.node, rel);
  if (!st.build) return run_project(*st.node, rel);
  const JoinSpec& j = st.node->join;
  std::vector<ColumnPtr> lk;
  std::vector<ColumnView> views;
  for (size_t k = 0; k < j.left_on.size(); ++k) {
    lk.push_back(window::cast_column(rel.cell(j.left_on[k])->values(), st.key_types[k], rel.device()));
    views.push_back(lk.back()->view());
  }
  return join_result(j, rel, *st.build, probe_join_table(*st.table, views, j.how), lk, st.build_keys);
}

Relation run_stages(const Stages& s, Relation rel) {
  for (const Stage& st : s.stages) rel = run_stage(st, rel);
  return rel;
}

bool for_morsels(Device& device, int64_t first, int64_t last, const std::function<void(int64_t)>& body) {
  std::atomic<bool> failed{false};
  auto run = [&](int64_t m) {
    if (failed.load(std::memory_order_relaxed)) return;
    try {
      body(m);
    } catch (const Error&) {
      failed = true;
    }
  };
  if (last - first == 1) {
    run(first);  // one morsel: its ops use the pool themselves
  } else if (device.kind() == DeviceKind::Cpu && last > first) {
    cpu_pool().parallel_for(last - first, 1, [&](int64_t m0, int64_t m1) {
      const InlineScope inline_ops;
      for (int64_t m = m0; m < m1; ++m) run(first + m);
    });
  } else {
    for (int64_t m = first; m < last; ++m) run(m);
  }
  return !failed;
}

}  // namespace gpudf::exec
