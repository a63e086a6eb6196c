// Union: the inputs one after another (every input has the first one's names and dtypes; the
// plan checked them), each column concatenated once.
#include "core/error.hpp"
#include "exec/operators.hpp"
#include "ops/concat/concat.hpp"

namespace gpudf::exec {

Relation run_union(const PlanNode& node, const std::vector<const Relation*>& inputs) {
  GPUDF_EXPECTS(!inputs.empty(), InvalidArgument, "union needs inputs");
  const Relation& first = *inputs[0];
  if (inputs.size() == 1) return first;
  int64_t rows = 0;
  for (const Relation* r : inputs) {
    GPUDF_EXPECTS(r->names() == first.names(), InvalidArgument, "union: the inputs' columns differ");
    rows += r->height();
  }
  Relation out(first.device(), rows);
  for (size_t c = 0; c < first.width(); ++c) {
    std::vector<ColumnPtr> parts;
    std::vector<ColumnView> views;
    for (const Relation* r : inputs) {
      parts.push_back(r->cell(c)->values());
      views.push_back(parts.back()->view());
    }
    out.add(first.names()[c], concat(views));
  }
  return out;
}

}  // namespace gpudf::exec
