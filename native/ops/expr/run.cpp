// Running a compiled program: backend dispatch, the result column's allocation, and the
// materialisation of string results (views -> offsets -> bytes) on the CPU.
#include <atomic>
#include <cstring>
#include <vector>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/expr/expr.hpp"
#include "ops/window/over_cache.hpp"

namespace gpudf::expr {
namespace {

/// Drops an all-valid result's bitmap (later ops then skip null handling).
ColumnPtr without_empty_bitmap(const ColumnPtr& c) {
  if (!c->has_validity() || c->null_count() != 0) return c;
  return std::make_shared<Column>(c->device(), c->type(), c->size(), c->data(), c->offsets(), nullptr, 0,
                                  c->offset());
}

template <typename O>
ColumnPtr gather_views_cpu(TypeId type, const HostVector<Slot>& views, const HostVector<uint8_t>& valid) {
  const int64_t n = int64_t(views.size());
  int64_t bytes = 0;
  for (int64_t i = 0; i < n; ++i) bytes += valid[size_t(i)] ? views[size_t(i)].n : 0;
  ColumnPtr out = Column::allocate(cpu_device(), type, n, true, bytes);
  O* off = reinterpret_cast<O*>(out->offsets()->data());
  uint8_t* bits = out->validity()->data();
  int64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    off[i] = O(pos);
    if (valid[size_t(i)]) {
      pos += views[size_t(i)].n;
      set_bit(bits, i);
    }
  }
  off[n] = O(pos);
  char* dst = reinterpret_cast<char*>(out->data()->data());
  cpu_pool().parallel_for(n, 4096, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i)
      if (valid[size_t(i)] && views[size_t(i)].n) std::memcpy(dst + off[i], views[size_t(i)].s, size_t(views[size_t(i)].n));
  });
  return out;
}

}  // namespace

ColumnPtr run(const Program& p, Device& device) {
  const Node& root = p.nodes.back();
  // A bare column reference: the column itself (shared buffers, no copy).
  if (root.op == Op::Column && p.inputs[size_t(root.p0)]->type() == root.type) return p.inputs[size_t(root.p0)];
#ifdef GPUDF_WITH_CUDA
  if (device.kind() == DeviceKind::Cuda) return without_empty_bitmap(detail::run_cuda(p));
#endif
  std::vector<ColumnView> inputs;
  for (const ColumnPtr& c : p.inputs) inputs.push_back(c->view());
  std::vector<Slot> consts = p.bound_consts(p.text.data());
  ProgramView view{p.nodes.data(), int32_t(p.nodes.size()), inputs.data(), consts.data(), p.const_types.data()};
  if (is_string(root.type)) {
    HostVector<Slot> views(size_t(p.rows));
    HostVector<uint8_t> valid(size_t(p.rows));
    detail::run_views_cpu(p, view, views.data(), valid.data());
    ColumnPtr out = root.type == TypeId::Utf8 ? gather_views_cpu<int32_t>(root.type, views, valid)
                                              : gather_views_cpu<int64_t>(root.type, views, valid);
    return without_empty_bitmap(out);
  }
  ColumnPtr out = Column::allocate(cpu_device(), root.type, p.rows, true);
  detail::run_fixed_cpu(p, view, *out);
  return without_empty_bitmap(out);
}

ColumnPtr evaluate(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device) {
  const window::OverCacheScope overs;  // the expression's overs share their partitions
  return run(compile(specs, frame, device), device);
}

ColumnPtr evaluate_predicate(const std::vector<NodeSpec>& specs, const Frame& frame, Device& device) {
  const window::OverCacheScope overs;
  Program p = compile(specs, frame, device);
  if (device.kind() == DeviceKind::Cpu && p.result_type() == TypeId::Bool && p.nodes.back().op != Op::Column) {
    std::vector<ColumnView> inputs;
    for (const ColumnPtr& c : p.inputs) inputs.push_back(c->view());
    std::vector<Slot> consts = p.bound_consts(p.text.data());
    ProgramView view{p.nodes.data(), int32_t(p.nodes.size()), inputs.data(), consts.data(), p.const_types.data()};
    ColumnPtr out = Column::allocate(cpu_device(), TypeId::Bool, p.rows, false);
    if (detail::conjunction_mask_cpu(p, view, *out)) return out;
  }
  return run(p, device);
}

ColumnPtr case_map(const ColumnPtr& strings, CaseMode mode) {
#ifdef GPUDF_WITH_CUDA
  if (strings->device().kind() == DeviceKind::Cuda) return detail::case_map_cuda(strings, mode);
#endif
  return detail::case_map_cpu(strings, mode);
}

}  // namespace gpudf::expr
