// Joins: key promotion, the choice of build side, orientation and ordering of the gather maps
// (both backends); the CPU hash join is join_cpu.cpp, the CUDA one join.cu.
#include "ops/join/join.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/concat/concat.hpp"
#include "ops/expr/expr.hpp"
#include "ops/expr/typing.hpp"
#include "ops/gather/gather.hpp"
#include "ops/sort/sort.hpp"

namespace gpudf {
namespace {

/// `column` cast to `to` with the expression cast (the one cast machinery).
ColumnPtr cast_column(const ColumnPtr& column, TypeId to) {
  expr::NodeSpec c;
  c.op = "col";
  c.name.push_back('k');  // not `= "k"`: GCC 12 warns falsely (-Wrestrict) on that assignment here
  expr::NodeSpec k;
  k.op = "cast";
  k.args = {0};
  k.dtype = static_cast<int32_t>(to);
  expr::Frame frame{{"k"}, {column}, column->size(), nullptr};
  return expr::evaluate({c, k}, frame, column->device());
}

/// The same int64 map read as uint64, so -1 ("no row") sorts after every row.
SortKey unsigned_key(const ColumnPtr& map) {
  ColumnView v = map->view();
  v.type = TypeId::UInt64;
  return SortKey{v, false, true};
}

}  // namespace

void promote_join_keys(std::vector<ColumnPtr>& left, std::vector<ColumnPtr>& right) {
  GPUDF_EXPECTS(!left.empty() && left.size() == right.size(), InvalidArgument,
                "join needs the same number (at least one) of left and right keys");
  for (size_t k = 0; k < left.size(); ++k) {
    TypeId a = left[k]->type(), b = right[k]->type();
    if (a == b) continue;
    std::optional<TypeId> to = expr::value_supertype(a, b);
    GPUDF_EXPECTS(to.has_value(), Dtype,
                  "join keys of dtypes " + std::string(type_name(a)) + " and " + std::string(type_name(b)) +
                      " cannot be compared (key " + std::to_string(k) + ")");
    if (a != *to) left[k] = cast_column(left[k], *to);
    if (b != *to) right[k] = cast_column(right[k], *to);
  }
}

JoinMaps join_maps(const std::vector<ColumnView>& left_keys,
                   const std::vector<ColumnView>& right_keys, JoinHow how, bool nulls_equal,
                   JoinOrder order) {
  GPUDF_EXPECTS(how != JoinHow::Cross, InvalidArgument, "a cross join has no keys: use cross_maps");
  GPUDF_EXPECTS(!left_keys.empty() && left_keys.size() == right_keys.size(), InvalidArgument,
                "join needs the same number (at least one) of left and right keys");
  for (size_t k = 0; k < left_keys.size(); ++k) {
    GPUDF_EXPECTS(left_keys[k].type == right_keys[k].type, Dtype, "join keys must share a dtype");
    GPUDF_EXPECTS(left_keys[k].size == left_keys[0].size && right_keys[k].size == right_keys[0].size,
                  InvalidArgument, "join keys of one side must have the same length");
    GPUDF_EXPECTS(left_keys[k].device == left_keys[0].device && right_keys[k].device == left_keys[0].device,
                  InvalidArgument, "join keys must live on one device");
  }
  const bool left_order = order == JoinOrder::Left || order == JoinOrder::LeftRight;
  const bool right_order = order == JoinOrder::Right || order == JoinOrder::RightLeft;
  // Probe the side whose order is kept (the build side's order is only the chain order).
  bool probe_left = true;
  JoinHow kind = how;
  switch (how) {
    case JoinHow::Inner:
      probe_left = left_order ? true : right_order ? false : left_keys[0].size >= right_keys[0].size;
      break;
    case JoinHow::Right: probe_left = false; kind = JoinHow::Left; break;
    case JoinHow::Full: probe_left = !right_order; break;
    default: break;  // left, semi, anti: probe left
  }
  // A semi / anti join of a small left side builds the left side and marks it (CPU): a table
  // of the few left rows instead of one of the many right rows. Left order either way.
  // So does a left join with no order asked for (every match, then the unmatched left rows).
  const bool semi = how == JoinHow::Semi || how == JoinHow::Anti;
  const bool small_left = !on_cuda(left_keys[0]) && left_keys[0].size > 0 && right_keys[0].size > 4 * left_keys[0].size;
  if (small_left && semi) {
    JoinMaps maps;
    maps.left = detail::semi_join_by_marking_cpu(left_keys, right_keys, how == JoinHow::Anti, nulls_equal);
    return maps;
  }
  if (small_left && how == JoinHow::Left && order == JoinOrder::None)
    return detail::left_join_building_left_cpu(left_keys, right_keys, nulls_equal);
  const auto& probe = probe_left ? left_keys : right_keys;
  const auto& build = probe_left ? right_keys : left_keys;
  detail::ProbeResult pr;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(probe[0])) pr = detail::hash_join_cuda(build, probe, kind, nulls_equal);
  else
#endif
    pr = detail::hash_join_cpu(build, probe, kind, nulls_equal);

  JoinMaps maps;
  if (kind == JoinHow::Semi || kind == JoinHow::Anti) {
    maps.left = pr.probe;  // left order, always
    return maps;
  }
  maps.left = probe_left ? pr.probe : pr.build;
  maps.right = probe_left ? pr.build : pr.probe;
  maps.left_has_missing = probe_left ? pr.probe_missing : pr.build_missing;
  maps.right_has_missing = probe_left ? pr.build_missing : pr.probe_missing;

  // The probe gives (probe row, then chain order); the CPU's chains are ascending, CUDA's not.
  if (order == JoinOrder::None) return maps;
  const bool by_probe = probe_left ? left_order : right_order;
  const bool two_level = order == JoinOrder::LeftRight || order == JoinOrder::RightLeft;
  if (by_probe && (!two_level || !on_cuda(probe[0]))) return maps;
  const ColumnPtr& first = left_order ? maps.left : maps.right;
  const ColumnPtr& second = left_order ? maps.right : maps.left;
  std::vector<SortKey> keys{unsigned_key(first)};
  if (two_level) keys.push_back(unsigned_key(second));
  ColumnPtr perm = sorted_order(keys);
  maps.left = detail::gather_unchecked(maps.left->view(), perm->view());
  maps.right = detail::gather_unchecked(maps.right->view(), perm->view());
  return maps;
}

std::shared_ptr<const JoinTable> build_join_table(const std::vector<ColumnView>& build, bool nulls_equal) {
  GPUDF_EXPECTS(!build.empty(), InvalidArgument, "a join table needs at least one key");
  for (const ColumnView& k : build)
    GPUDF_EXPECTS(k.size == build[0].size && k.device == build[0].device, InvalidArgument,
                  "join keys of one side must have the same length and device");
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(build[0])) return detail::build_table_cuda(build, nulls_equal);
#endif
  return detail::build_table_cpu(build, nulls_equal);
}

JoinMaps probe_join_table(const JoinTable& table, const std::vector<ColumnView>& probe, JoinHow how) {
  GPUDF_EXPECTS(how == JoinHow::Inner || how == JoinHow::Left || how == JoinHow::Semi || how == JoinHow::Anti,
                InvalidArgument, "a join table is probed for inner, left, semi or anti joins");
  GPUDF_EXPECTS(!probe.empty(), InvalidArgument, "a probe needs at least one key");
  detail::ProbeResult pr;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(probe[0])) pr = detail::probe_table_cuda(table, probe, how);
  else
#endif
    pr = detail::probe_table_cpu(table, probe, how);
  JoinMaps maps;
  maps.left = pr.probe;
  maps.right = pr.build;
  maps.left_has_missing = pr.probe_missing;
  maps.right_has_missing = pr.build_missing;
  return maps;
}

JoinMaps cross_maps(Device& device, int64_t left_rows, int64_t right_rows) {
  GPUDF_EXPECTS(left_rows >= 0 && right_rows >= 0, InvalidArgument, "row counts must be >= 0");
  GPUDF_EXPECTS(right_rows == 0 || left_rows <= INT64_MAX / std::max<int64_t>(right_rows, 1) / 16,
                InvalidArgument, "cross join result too large");
#ifdef GPUDF_WITH_CUDA
  if (device.kind() == DeviceKind::Cuda) return detail::cross_maps_cuda(device, left_rows, right_rows);
#endif
  return detail::cross_maps_cpu(left_rows, right_rows);
}

ColumnPtr coalesce_keys(const ColumnView& left_key, const ColumnView& right_key,
                        const JoinMaps& maps) {
  if (!maps.left_has_missing) return detail::gather_unchecked(left_key, maps.left->view());
  if (!maps.right_has_missing) return detail::gather_unchecked(right_key, maps.right->view());
  ColumnPtr both = concat({left_key, right_key});
  ColumnPtr idx;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(left_key)) idx = detail::coalesce_map_cuda(maps.left->view(), maps.right->view(), left_key.size);
  else
#endif
    idx = detail::coalesce_map_cpu(maps.left->view(), maps.right->view(), left_key.size);
  return detail::gather_unchecked(both->view(), idx->view());
}

}  // namespace gpudf
