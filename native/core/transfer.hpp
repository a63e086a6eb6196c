// Moving columns between devices. The CPU backend never copies here; the CUDA backend copies
// each buffer once on the way in, and only a column's own rows on the way out.
#pragma once

#include "core/column.hpp"

namespace gpudf {

/// The column on `target`: itself when already there, else a copy of its whole buffers.
ColumnPtr copy_to_device(const ColumnPtr& column, Device& target);

/// A host-resident column holding exactly `column`'s rows. A host column is returned as is
/// (possibly sliced: readers must honour its offset); a device column is copied compactly
/// (offset 0, string offsets rebased to 0, bitmap re-based).
ColumnPtr to_host(const ColumnPtr& column);

/// A compact host copy (offset 0, offsets rebased, bitmap re-based) of a view's rows, from any
/// device (always copies).
ColumnPtr to_host(const ColumnView& view);

}  // namespace gpudf
