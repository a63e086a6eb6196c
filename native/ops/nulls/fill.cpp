#include "ops/nulls/fill.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/gather/gather.hpp"

namespace gpudf {

namespace detail {

// Two passes over the same blocks: each block's last (first, backward) valid row, carried
// across the blocks in order, then each row's source.
void fill_source_rows_cpu(const ColumnView& c, bool backward, int64_t limit, int64_t* out) {
  const int64_t n = c.size;
  const int64_t max_blocks = int64_t(cpu_pool().size()) * 4;
  std::vector<int64_t> edge(size_t(max_blocks), -1);
  const int64_t blocks = parallel_blocks(n, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t found = -1;
    if (!backward) {
      for (int64_t i = end - 1; i >= begin && found < 0; --i) if (c.is_valid(i)) found = i;
    } else {
      for (int64_t i = begin; i < end && found < 0; ++i) if (c.is_valid(i)) found = i;
    }
    edge[size_t(b)] = found;
  });
  // carry[b]: the source entering block b from its neighbours.
  std::vector<int64_t> carry(size_t(std::max<int64_t>(blocks, 1)), -1);
  if (!backward) {
    for (int64_t b = 1; b < blocks; ++b) carry[size_t(b)] = edge[size_t(b - 1)] >= 0 ? edge[size_t(b - 1)] : carry[size_t(b - 1)];
  } else {
    for (int64_t b = blocks - 2; b >= 0; --b) carry[size_t(b)] = edge[size_t(b + 1)] >= 0 ? edge[size_t(b + 1)] : carry[size_t(b + 1)];
  }
  parallel_blocks(n, 1 << 15, [&](int64_t b, int64_t begin, int64_t end) {
    int64_t src = carry[size_t(b)];
    if (!backward) {
      for (int64_t i = begin; i < end; ++i) {
        if (c.is_valid(i)) src = i;
        out[i] = limited_source(i, src, limit);
      }
    } else {
      for (int64_t i = end - 1; i >= begin; --i) {
        if (c.is_valid(i)) src = i;
        out[i] = limited_source(i, src, limit);
      }
    }
  });
}

namespace {

struct InterpolateCpu {
  template <TypeId T>
  void operator()(const ColumnView& c, const int64_t* prev, const int64_t* next, Column& out) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S> && T != TypeId::Bool) {
      if (out.type() == TypeId::Float32) run<S, float>(c, prev, next, out);
      else run<S, double>(c, prev, next, out);
    } else {
      GPUDF_FAIL(Dtype, "interpolate needs a numeric column");
    }
  }
  template <typename S, typename O>
  static void run(const ColumnView& c, const int64_t* prev, const int64_t* next, Column& out) {
    const S* v = c.values<S>();
    O* dst = reinterpret_cast<O*>(out.data()->data());
    uint8_t* bits = out.validity()->data();
    const int64_t n = c.size;
    // 64-row blocks, so no two blocks write the same validity byte.
    cpu_pool().parallel_for((n + 63) / 64, 256, [&](int64_t k0, int64_t k1) {
      for (int64_t k = k0; k < k1; ++k) {
        const int64_t end = std::min(n, (k + 1) * 64);
        for (int64_t i = k * 64; i < end; ++i) {
          O value{};
          if (interpolated_value<S, O>(c, v, i, prev[i], next[i], &value)) set_bit(bits, i);
          else clear_bit(bits, i);
          dst[i] = value;
        }
      }
    });
  }
};

}  // namespace

void interpolate_cpu(const ColumnView& c, const int64_t* prev, const int64_t* next, Column& out) {
  type_dispatch(c.type, InterpolateCpu{}, c, prev, next, out);
}

void scatter_cells_cpu(const ColumnView& row_of, const ColumnView& col_of, int64_t rows, int64_t cols, int64_t* out) {
  const int64_t total = rows * cols;
  cpu_pool().parallel_for(total, 1 << 16, [&](int64_t a, int64_t b) { std::fill(out + a, out + b, int64_t(-1)); });
  IndexReader r{row_of.data, row_of.offset, row_of.type}, c{col_of.data, col_of.offset, col_of.type};
  const int64_t n = row_of.size;
  cpu_pool().parallel_for(n, 1 << 16, [&](int64_t a, int64_t b) {
    for (int64_t k = a; k < b; ++k) out[c(k) * rows + r(k)] = k;
  });
}

}  // namespace detail

ColumnPtr fill_source_rows(const ColumnView& column, bool backward, int64_t limit) {
  ColumnPtr out = Column::allocate(*column.device, TypeId::Int64, column.size, false);
  if (column.size == 0) return out;
  auto* dst = reinterpret_cast<int64_t*>(out->data()->data());
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(column)) {
    detail::fill_source_rows_cuda(column, backward, limit, dst);
    return out;
  }
#endif
  detail::fill_source_rows_cpu(column, backward, limit, dst);
  return out;
}

ColumnPtr fill_directional(const ColumnPtr& column, bool backward, int64_t limit) {
  if (column->null_count() == 0) return column;
  ColumnPtr src = fill_source_rows(column->view(), backward, limit);
  return gather_or_null(column->view(), src->view(), true);
}

ColumnPtr interpolate(const ColumnPtr& column) {
  const TypeId t = column->type();
  GPUDF_EXPECTS(t >= TypeId::Int8 && t <= TypeId::Float64, Dtype,
                "interpolate needs a numeric column, got " + std::string(type_name(t)));
  const TypeId out_type = t == TypeId::Float32 ? TypeId::Float32 : TypeId::Float64;
  ColumnView v = column->view();
  ColumnPtr prev = fill_source_rows(v, false, -1);
  ColumnPtr next = fill_source_rows(v, true, -1);
  ColumnPtr out = Column::allocate(column->device(), out_type, v.size, true);
  if (v.size == 0) return out;
  const auto* p = reinterpret_cast<const int64_t*>(prev->data()->data());
  const auto* q = reinterpret_cast<const int64_t*>(next->data()->data());
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(v)) {
    detail::interpolate_cuda(v, p, q, *out);
    return out;
  }
#endif
  detail::interpolate_cpu(v, p, q, *out);
  return out;
}

ColumnPtr scatter_cells(const ColumnView& row_of, const ColumnView& col_of, int64_t rows, int64_t cols) {
  GPUDF_EXPECTS(row_of.size == col_of.size && row_of.device == col_of.device && is_index_type(row_of.type) &&
                    is_index_type(col_of.type) && row_of.validity == nullptr && col_of.validity == nullptr,
                InvalidArgument, "scatter_cells: two null-free integer columns of one length on one device");
  GPUDF_EXPECTS(rows >= 0 && cols >= 0 && (cols == 0 || rows <= INT64_MAX / std::max<int64_t>(cols, 1)), InvalidArgument,
                "scatter_cells: bad grid size");
  ColumnPtr out = Column::allocate(*row_of.device, TypeId::Int64, rows * cols, false);
  if (rows * cols == 0) return out;
  auto* dst = reinterpret_cast<int64_t*>(out->data()->data());
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(row_of)) {
    detail::scatter_cells_cuda(row_of, col_of, rows, cols, dst);
    return out;
  }
#endif
  detail::scatter_cells_cpu(row_of, col_of, rows, cols, dst);
  return out;
}

}  // namespace gpudf
