#include "exec/executor.hpp"

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

}  // namespace

Result execute(const Plan& plan, Device& device, bool profile) {
  GPUDF_EXPECTS(!plan.nodes.empty(), InvalidArgument, "empty plan");
  const size_t n = plan.nodes.size();
  // The last reader of each node, so its relation can go as soon as that reader ran.
  std::vector<size_t> last_use(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const PlanNode& node = plan.nodes[i];
    const size_t want = arity(node.kind);
    GPUDF_EXPECTS(want == SIZE_MAX ? !node.inputs.empty() : node.inputs.size() == want, InvalidArgument,
                  "plan node " + std::to_string(i) + " has the wrong number of inputs");
    for (int32_t k : node.inputs) {
      GPUDF_EXPECTS(k >= 0 && size_t(k) < i, InvalidArgument, "plan node " + std::to_string(i) + " reads forward");
      last_use[size_t(k)] = i;
    }
  }
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto since = [&](Clock::time_point t) {
    return int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count());
  };
  std::vector<std::optional<Relation>> results(n);
  Result out;
  for (size_t i = 0; i < n; ++i) {
    const PlanNode& node = plan.nodes[i];
    std::vector<const Relation*> in;
    int64_t rows_in = 0;
    for (int32_t k : node.inputs) {
      in.push_back(&*results[size_t(k)]);
      rows_in += results[size_t(k)]->height();
    }
    const auto start = Clock::now();
    const int64_t copied = device.copied_bytes();
    results[i] = run_node(node, plan, device, in);
    if (profile)
      out.profile.push_back({node.label, rows_in, results[i]->height(), since(start), since(Clock::now()), device.copied_bytes() - copied});
    for (int32_t k : node.inputs)
      if (last_use[size_t(k)] == i) results[size_t(k)].reset();
  }
  const Relation& root = *results[n - 1];
  const auto start = Clock::now();
  const int64_t copied = device.copied_bytes();
  out.names = root.names();
  out.columns = root.materialise();
  out.rows = root.height();
  if (profile)
    out.profile.push_back({"materialise", root.height(), root.height(), since(start), since(Clock::now()), device.copied_bytes() - copied});
  return out;
}

}  // namespace gpudf::exec
