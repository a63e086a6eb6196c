// What the reductions' CUDA files share (reduce.cu, reduce_sorted.cu).
#pragma once

#include "core/buffer.hpp"

namespace gpudf::reduce_detail {

/// A device buffer's bytes as T (nullptr for none).
template <typename T>
T* typed(const BufferPtr& b) {
  return reinterpret_cast<T*>(b ? b->data() : nullptr);
}

}  // namespace gpudf::reduce_detail
