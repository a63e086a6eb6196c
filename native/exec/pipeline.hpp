// What the morsel pipelines share (pipeline.cpp): the stages below a sink made ready to run on
// morsels, the morsels' shape, and the loop that runs them. The sinks: pipeline_aggregate.cpp
// (an aggregation folded into partials) and pipeline_rows.cpp (a sort with a limit, a topK, a
// unique: each morsel's kept rows kept again).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/operators.hpp"

namespace gpudf::exec {

constexpr int64_t kMorselRows = int64_t(1) << 16;

/// A stage ready to run on morsels: a projection or a filter, or a join whose build side's
/// table is built once (its key columns, cast to the key pairs' common dtypes, held with it).
struct Stage {
  const PlanNode* node = nullptr;
  const Relation* build = nullptr;
  std::vector<TypeId> key_types;  // Join: each key pair's common dtype
  std::vector<ColumnPtr> build_keys;
  std::shared_ptr<const JoinTable> table;
};

/// The stages of a pipeline and the schema they leave.
struct Stages {
  std::vector<Stage> stages;
  std::vector<std::string> names;
  std::vector<TypeId> types;
  /// A filter or a join among them (the rows of a morsel's output are not its source rows).
  bool moves_rows = false;
};

/// The stages `given` (bottom first) over a source `in` of `n` rows, with the schema they leave
/// (no table built yet); nullopt when one cannot run on morsels (a join that would build its
/// larger side, keys of no common dtype: the operators then run, and raise what they raise).
std::optional<Stages> plan_stages(const std::vector<PipelineStage>& given, const Relation& in);
/// Builds the joins' tables (once, before the morsels).
void build_tables(Stages& s, Device& device);
/// Stage `st` over a morsel's rows `rel`.
Relation run_stage(const Stage& st, const Relation& rel);
/// All the stages over `rel`.
Relation run_stages(const Stages& s, Relation rel);

/// How many morsels `n` rows make: ceil(n / kMorselRows), a shape fixed by n alone.
inline int64_t morsel_count(int64_t n) { return (n + kMorselRows - 1) / kMorselRows; }
/// Morsel `m`'s rows [begin, end) of `n` rows cut into `morsels` equal ranges.
inline std::pair<int64_t, int64_t> morsel_range(int64_t m, int64_t n, int64_t morsels) {
  return {m * n / morsels, (m + 1) * n / morsels};
}
/// Runs `body(m)` for each m in [first, last): over the thread pool on the CPU, each morsel's
/// ops inline on its thread (a single morsel's ops use the pool), one after another on other
/// devices. False when a morsel raised a
/// typed error (the rest then skip): the caller runs the operators, which raise it naming the
/// rows of the whole input, as without a pipeline.
bool for_morsels(Device& device, int64_t first, int64_t last, const std::function<void(int64_t)>& body);

/// The sinks (nullopt: the caller runs the nodes one by one).
std::optional<Relation> run_aggregate_pipeline(const PlanNode& node, const std::vector<PipelineStage>& stages,
                                               const Relation& in);
std::optional<Relation> run_rows_pipeline(const PlanNode& node, const std::vector<PipelineStage>& stages,
                                          const Relation& in);

}  // namespace gpudf::exec
