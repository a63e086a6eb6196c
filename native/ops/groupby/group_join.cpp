// str.join per group, composed so that it runs wherever its steps run (CPU pool or CUDA kernels):
// the rows listed group by group in row order (group_head_rows), the strings and their group ids
// gathered in that order, then each group's run joined (strings::join_segments).
#include <string>

#include "core/error.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/strings/strings.hpp"

namespace gpudf {

ColumnPtr group_join_strings(const ColumnView& values, const ColumnView& ids, int64_t count, const std::string& sep,
                             bool ignore_nulls) {
  GPUDF_EXPECTS(values.size == ids.size, InvalidArgument, "str.join: the values and the group ids differ in length");
  GPUDF_EXPECTS(values.device == ids.device, InvalidArgument, "str.join: the values and the group ids are on different devices");
  GPUDF_EXPECTS(is_string(values.type), Dtype, "str.join does not accept a " + std::string(type_name(values.type)) + " column");
  if (values.size == 0) {
    // No rows (a whole empty column in a select): every group is "".
    GPUDF_EXPECTS(count >= 0, InvalidArgument, "group count must be >= 0");
    Device& dev = *values.device;
    ColumnPtr sizes = Column::allocate(dev, TypeId::Int64, count, false);
    if (count > 0) dev.memset(sizes->data()->data(), 0, size_t(count) * sizeof(int64_t));
    ColumnPtr none = Column::allocate(dev, values.type, 0, false, 0);
    dev.memset(none->offsets()->data(), 0, none->offsets()->size());
    return strings::join_segments(none, Column::allocate(dev, ids.type, 0, false), sizes, count, sep, ignore_nulls);
  }
  detail::check_group_ids(ids, ids.size, count);
  const ColumnPtr rows = group_head_rows(ids, count, values.size, false);
  const ColumnPtr strings = gather(values, rows->view());
  const ColumnPtr segment_of = gather(ids, rows->view());
  return strings::join_segments(strings, segment_of, group_sizes(ids, count), count, sep, ignore_nulls);
}

ColumnPtr join_strings(const ColumnView& values, const std::string& sep, bool ignore_nulls) {
  Device& dev = *values.device;
  ColumnPtr zeros = Column::allocate(dev, TypeId::Int32, values.size, false);
  if (values.size > 0) dev.memset(zeros->data()->data(), 0, size_t(values.size) * sizeof(int32_t));
  return group_join_strings(values, zeros->view(), 1, sep, ignore_nulls);
}

}  // namespace gpudf
