#include "exec/executor.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "core/error.hpp"
#include "exec/operators.hpp"

namespace gpudf::exec {
namespace {

size_t arity(NodeKind k) {
  switch (k) {
    case NodeKind::Scan:
    case NodeKind::CsvScan: return 0;
    case NodeKind::Join: return 2;
    case NodeKind::Union: return SIZE_MAX;
    default: return 1;
  }
}

Relation run_node(const PlanNode& node, const Plan& plan, Device& device, const std::vector<const Relation*>& in) {
  switch (node.kind) {
    case NodeKind::Scan: return run_scan(node, plan, device);
    case NodeKind::CsvScan: return run_csv_scan(node, device);
    case NodeKind::Filter: return run_filter(node, *in[0]);
    case NodeKind::Project: return run_project(node, *in[0]);
    case NodeKind::Aggregate: return run_aggregate(node, *in[0]);
    case NodeKind::Join: return run_join(node, *in[0], *in[1]);
    case NodeKind::Sort: return run_sort(node, *in[0]);
    case NodeKind::Slice: return run_slice(node, *in[0]);
    case NodeKind::TopK: return run_top_k(node, *in[0]);
    case NodeKind::GroupSlice: return run_group_slice(node, *in[0]);
    case NodeKind::Unique: return run_unique(node, *in[0]);
    case NodeKind::Union: return run_union(node, in);
  }
  GPUDF_FAIL(InvalidArgument, "unknown plan node");
}

/// A sink node that may run as a morsel pipeline (pipeline_sink: an aggregation, a sort with a
/// limit, a topK): the row-wise projections and filters and the joins (through their left
/// input) directly below it that nothing else reads, bottom first, and the node the lowest of
/// them reads.
struct PipelineShape {
  std::vector<int32_t> stages;
  int32_t input = -1;
};

/// The pipelines of the plan by sink node, and for each node the node whose run it is
/// part of (itself unless it is a stage inside a pipeline).
void find_pipelines(const Plan& plan, std::vector<std::optional<PipelineShape>>& shapes, std::vector<size_t>& owner) {
  const size_t n = plan.nodes.size();
  std::vector<int32_t> readers(n, 0);
  for (const PlanNode& node : plan.nodes)
    for (int32_t k : node.inputs) ++readers[size_t(k)];
  shapes.assign(n, std::nullopt);
  owner.resize(n);
  for (size_t i = 0; i < n; ++i) owner[i] = i;
  for (size_t i = 0; i < n; ++i) {
    const PlanNode& node = plan.nodes[i];
    if (!pipeline_sink(node)) continue;
    PipelineShape s;
    int32_t j = node.inputs[0];
    for (;;) {
      const PlanNode& below = plan.nodes[size_t(j)];
      if (!pipeline_stage(below) || readers[size_t(j)] != 1) break;
      s.stages.insert(s.stages.begin(), j);
      j = below.inputs[0];
    }
    s.input = j;
    for (int32_t p : s.stages) owner[size_t(p)] = i;
    shapes[i] = std::move(s);
  }
}

/// One run of a plan: each node's relation until its last reader is done, and the profile.
class Executor {
 public:
  Executor(const Plan& plan, Device& device, bool profile) : plan_(plan), device_(device), profile_(profile) {
    const size_t n = plan.nodes.size();
    find_pipelines(plan, pipelines_, owner_);
    // The last run that reads each node, so its relation can go as soon as that run is over (a
    // stage inside a pipeline runs with its sink).
    last_use_.assign(n, 0);
    for (size_t i = 0; i < n; ++i)
      for (int32_t k : plan.nodes[i].inputs) last_use_[size_t(k)] = std::max(last_use_[size_t(k)], owner_[i]);
    results_.resize(n);
  }

  Result run() {
    const size_t n = plan_.nodes.size();
    for (size_t i = 0; i < n; ++i) {
      if (owner_[i] != i) continue;  // runs inside its pipeline
      if (pipelines_[i]) run_pipelined(i, *pipelines_[i]);
      else run_one(i);
    }
    const Relation& root = *results_[n - 1];
    const auto start = Clock::now();
    const int64_t copied = device_.copied_bytes();
    out_.names = root.names();
    out_.columns = root.materialise();
    out_.rows = root.height();
    if (profile_)
      out_.profile.push_back({"materialise", root.height(), root.height(), since(start), since(Clock::now()), device_.copied_bytes() - copied});
    return std::move(out_);
  }

 private:
  using Clock = std::chrono::steady_clock;

  int64_t since(Clock::time_point t) const {
    return int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0_).count());
  }

  /// `run()`'s relation, with a profile row under `label` when profiling.
  template <typename Run>
  Relation timed(const std::string& label, int64_t rows_in, const Run& run) {
    const auto start = Clock::now();
    const int64_t copied = device_.copied_bytes();
    Relation r = run();
    if (profile_) out_.profile.push_back({label, rows_in, r.height(), since(start), since(Clock::now()), device_.copied_bytes() - copied});
    return r;
  }

  /// Node i as its operator over its inputs' relations.
  void run_one(size_t i) {
    const PlanNode& node = plan_.nodes[i];
    std::vector<const Relation*> in;
    int64_t rows_in = 0;
    for (int32_t k : node.inputs) {
      in.push_back(&*results_[size_t(k)]);
      rows_in += results_[size_t(k)]->height();
    }
    results_[i] = timed(node.label, rows_in, [&] { return run_node(node, plan_, device_, in); });
    for (int32_t k : node.inputs)
      if (last_use_[size_t(k)] == i) results_[size_t(k)].reset();
  }

  /// Stage k's right input, once no other node and no later stage of sink i's pipeline reads it.
  void release_build(size_t i, const PipelineShape& s, size_t k) {
    const PlanNode& st = plan_.nodes[size_t(s.stages[k])];
    if (st.kind != NodeKind::Join || last_use_[size_t(st.inputs[1])] != i) return;
    for (size_t later = k + 1; later < s.stages.size(); ++later)
      if (plan_.nodes[size_t(s.stages[later])].inputs.back() == st.inputs[1]) return;
    results_[size_t(st.inputs[1])].reset();
  }

  /// Sink i with the stages below it: as one morsel pipeline, or one operator after another
  /// when the pipeline declines.
  void run_pipelined(size_t i, const PipelineShape& s) {
    const PlanNode& node = plan_.nodes[i];
    std::vector<PipelineStage> stages;
    for (int32_t p : s.stages) {
      const PlanNode& st = plan_.nodes[size_t(p)];
      stages.push_back({&st, st.kind == NodeKind::Join ? &*results_[size_t(st.inputs[1])] : nullptr});
    }
    auto run_stage = [&](const PipelineStage& st, const Relation& rel) {
      return timed(st.node->label, rel.height() + (st.build ? st.build->height() : 0),
                   [&] { return run_node(*st.node, plan_, device_, {&rel, st.build}); });
    };
    // A join whose build side is larger than the flow (the source's height, as far as it can be
    // told before running) is no probe for a pipeline: the stages up to the last such join run
    // one by one, the pipeline starts above it.
    Relation source = *results_[size_t(s.input)];
    size_t first = 0;
    for (size_t k = 0; k < stages.size(); ++k)
      if (stages[k].build && stages[k].build->height() > source.height()) first = k + 1;
    // The source is held by `source` from here (unless a stage also builds from it).
    bool source_builds = false;
    for (int32_t p : s.stages)
      source_builds |= plan_.nodes[size_t(p)].kind == NodeKind::Join && plan_.nodes[size_t(p)].inputs[1] == s.input;
    if (!source_builds && last_use_[size_t(s.input)] == i) results_[size_t(s.input)].reset();
    for (size_t k = 0; k < first; ++k) {
      source = run_stage(stages[k], source);
      release_build(i, s, k);
    }
    stages.erase(stages.begin(), stages.begin() + int64_t(first));
    int projects = 0, filters = 0, joins = 0;
    for (const PipelineStage& st : stages) (st.build ? joins : st.node->kind == NodeKind::Filter ? filters : projects) += 1;
    std::vector<std::string> parts;  // "1 projection(s), 2 filter(s) and 1 join probe(s)"
    for (auto [count, what] : {std::pair{projects, " projection(s)"}, {filters, " filter(s)"}, {joins, " join probe(s)"}})
      if (count) parts.push_back(std::to_string(count) + what);
    std::string below;
    for (size_t k = 0; k < parts.size(); ++k) below += (k == 0 ? "" : k + 1 == parts.size() ? " and " : ", ") + parts[k];
    const std::string label = node.label + " (morsel pipeline" + (below.empty() ? std::string() : " with the " + below + " below") + ")";
    std::optional<Relation> piped;
    Relation r = timed(label, source.height(), [&] {
      piped = run_pipeline(node, stages, source);
      return piped ? *piped : Relation(device_, 0);
    });
    if (piped) {
      results_[i] = std::move(r);
    } else {
      if (profile_) out_.profile.pop_back();
      // Not a pipeline after all: the stages, then the sink, one after another.
      Relation rel = source;
      for (size_t k = 0; k < stages.size(); ++k) {
        rel = run_stage(stages[k], rel);
        release_build(i, s, first + k);
      }
      results_[i] = timed(node.label, rel.height(), [&] { return run_node(node, plan_, device_, {&rel}); });
    }
    for (size_t k = first; k < s.stages.size(); ++k) release_build(i, s, k);
    if (last_use_[size_t(s.input)] == i) results_[size_t(s.input)].reset();
  }

  const Plan& plan_;
  Device& device_;
  const bool profile_;
  const Clock::time_point t0_ = Clock::now();
  std::vector<std::optional<PipelineShape>> pipelines_;
  std::vector<size_t> owner_;
  std::vector<size_t> last_use_;
  std::vector<std::optional<Relation>> results_;
  Result out_;
};

}  // namespace

Result execute(const Plan& plan, Device& device, bool profile) {
  GPUDF_EXPECTS(!plan.nodes.empty(), InvalidArgument, "empty plan");
  const size_t n = plan.nodes.size();
  for (size_t i = 0; i < n; ++i) {
    const PlanNode& node = plan.nodes[i];
    const size_t want = arity(node.kind);
    GPUDF_EXPECTS(want == SIZE_MAX ? !node.inputs.empty() : node.inputs.size() == want, InvalidArgument,
                  "plan node " + std::to_string(i) + " has the wrong number of inputs");
    for (int32_t k : node.inputs)
      GPUDF_EXPECTS(k >= 0 && size_t(k) < i, InvalidArgument, "plan node " + std::to_string(i) + " reads forward");
  }
  return Executor(plan, device, profile).run();
}

}  // namespace gpudf::exec
