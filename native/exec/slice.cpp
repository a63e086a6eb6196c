// Slice: rows [offset, offset + length), a negative offset counting from the end (head, tail,
// slice, limit); O(1) per column.
#include <algorithm>

#include "exec/operators.hpp"

namespace gpudf::exec {

Relation run_slice(const PlanNode& node, const Relation& in) {
  const int64_t h = in.height();
  const int64_t start = node.offset < 0 ? h + node.offset : node.offset;
  const int64_t end = node.length < 0 ? h : start + node.length;
  const int64_t s = std::clamp<int64_t>(start, 0, h);
  const int64_t e = std::clamp<int64_t>(end, s, h);
  return in.slice(s, e - s);
}

}  // namespace gpudf::exec
