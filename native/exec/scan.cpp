// Scans: an in-memory frame's columns (shared, never copied), or a CSV file parsed natively with
// the plan's projection and dtypes pushed into the reader (only the columns used are parsed).
#include "core/error.hpp"
#include "exec/operators.hpp"

namespace gpudf::exec {

Relation run_scan(const PlanNode& node, const Plan& plan, Device& device) {
  GPUDF_EXPECTS(node.frame >= 0 && size_t(node.frame) < plan.frames.size(), InvalidArgument, "scan: bad frame");
  const Frame& f = plan.frames[size_t(node.frame)];
  GPUDF_EXPECTS(node.columns.size() == node.names.size(), InvalidArgument, "scan: names and columns differ");
  Relation out(device, f.rows);
  for (size_t i = 0; i < node.columns.size(); ++i) {
    const int32_t c = node.columns[i];
    GPUDF_EXPECTS(c >= 0 && size_t(c) < f.columns.size(), InvalidArgument, "scan: bad column index");
    out.add(node.names[i], f.columns[size_t(c)]);
  }
  return out;
}

Relation run_csv_scan(const PlanNode& node, Device& device) {
  csv::MappedFile file(node.path);
  csv::CsvResult r = csv::read_csv(file.data(), file.size(), node.csv, device, {},
                                   [&](int64_t b, int64_t e) { file.release(b, e); });
  const int64_t rows = r.columns.empty() ? 0 : r.columns[0]->size();
  Relation out(device, rows);
  GPUDF_EXPECTS(node.names.empty() || node.names.size() == r.names.size(), InvalidArgument,
                "scan: the file's columns differ from the plan's");
  for (size_t i = 0; i < r.columns.size(); ++i) out.add(node.names.empty() ? r.names[i] : node.names[i], r.columns[i]);
  return out;
}

}  // namespace gpudf::exec
