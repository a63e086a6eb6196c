// The physical operators, one file each. Each takes its node and its inputs' relations and
// returns its output relation; none moves a column it only passes through (see relation.hpp).
#pragma once

#include <optional>
#include <vector>

#include "exec/plan.hpp"
#include "exec/relation.hpp"
#include "ops/join/join.hpp"

namespace gpudf::exec {

Relation run_scan(const PlanNode& node, const Plan& plan, Device& device);
Relation run_csv_scan(const PlanNode& node, Device& device);
Relation run_filter(const PlanNode& node, const Relation& in);
Relation run_project(const PlanNode& node, const Relation& in);
Relation run_aggregate(const PlanNode& node, const Relation& in);
/// An aggregation's result from its per-group key columns and slot values (`count` rows): the
/// outputs evaluated over the slots, sorted by the keys when the spec asks (aggregate.cpp).
Relation aggregate_result(const AggregateSpec& a, Device& device, const std::vector<ColumnPtr>& keys,
                          const std::vector<ColumnPtr>& per_group, int64_t count);
/// A stage of a morsel pipeline below its sink: a row-wise Project or Filter, or a Join
/// whose left input is the pipeline's flow and whose right input (`build`) was computed before.
struct PipelineStage {
  const PlanNode* node = nullptr;
  const Relation* build = nullptr;  // Join only
};
/// Whether `node` may end a morsel pipeline: the lowering allowed it, its expressions are
/// row-wise, and it is an Aggregate with keys, a Sort with a limit, a TopK over the whole frame
/// or a Unique keeping a row of each key (pipeline.cpp).
bool pipeline_sink(const PlanNode& node);
/// Sink `node` fed by `stages` (bottom first) over `in`, as one morsel pipeline; nullopt when it
/// does not apply, and the caller runs the nodes one by one (pipeline*.cpp).
std::optional<Relation> run_pipeline(const PlanNode& node, const std::vector<PipelineStage>& stages, const Relation& in);
/// Whether the executor may put `node` inside a pipeline below a sink: a row-wise Project or
/// Filter, or a Join of a kind and order a probe per morsel gives, with no reducer.
bool pipeline_stage(const PlanNode& node);
Relation run_join(const PlanNode& node, const Relation& left, const Relation& right);
/// A join's output from its gather maps and the key columns (as promoted): each output column
/// of either side passed through its map, outer joins' coalesced keys built (join.cpp).
Relation join_result(const JoinSpec& j, const Relation& left, const Relation& right, const JoinMaps& maps,
                     const std::vector<ColumnPtr>& lk, const std::vector<ColumnPtr>& rk);
Relation run_sort(const PlanNode& node, const Relation& in);
Relation run_slice(const PlanNode& node, const Relation& in);
Relation run_top_k(const PlanNode& node, const Relation& in);
Relation run_group_slice(const PlanNode& node, const Relation& in);
Relation run_unique(const PlanNode& node, const Relation& in);
Relation run_union(const PlanNode& node, const std::vector<const Relation*>& inputs);

}  // namespace gpudf::exec
