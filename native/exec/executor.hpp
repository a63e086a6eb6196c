// The executor: runs a physical plan (plan.hpp) node by node, inputs first, each operator on
// the relations its inputs produced (native/exec/<operator>.cpp), and materialises the root.
// A node read by several others runs once; a node's relation is released after its last
// reader. With `profile`, every operator's wall time and rows in and out are recorded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/plan.hpp"

namespace gpudf::exec {

struct OperatorProfile {
  std::string name;
  int64_t rows_in = 0;
  int64_t rows_out = 0;
  int64_t start_ns = 0;  // since execution began
  int64_t end_ns = 0;
  int64_t copied_bytes = 0;  // host <-> device bytes the device copied meanwhile (CUDA)
};

struct Result {
  std::vector<std::string> names;
  std::vector<ColumnPtr> columns;
  int64_t rows = 0;
  std::vector<OperatorProfile> profile;
};

/// Runs `plan` on `device` (the frames' columns live there). Throws the operators' typed
/// errors; ERR_INVALID_ARGUMENT for a malformed plan.
Result execute(const Plan& plan, Device& device, bool profile = false);

}  // namespace gpudf::exec
