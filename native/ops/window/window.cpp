// Window ops: dtype rules, dispatch on the columns' device, the CPU backend and the compositions
// (rank's sort, distinct flags over group_rows) both backends share.
#include "ops/window/window.hpp"

#include <algorithm>
#include <vector>

#include "core/bitmask.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "ops/expr/expr.hpp"
#include "ops/gather/gather.hpp"
#include "ops/groupby/groupby.hpp"
#include "ops/sort/sort.hpp"
#include "ops/window/window_functors.hpp"

namespace gpudf::window {
namespace {


const int32_t* segment_ids(const ColumnPtr& segments, const ColumnPtr& values) {
  if (!segments) return nullptr;
  GPUDF_EXPECTS(segments->type() == TypeId::Int32 && !segments->has_validity() && segments->size() == values->size() &&
                    &segments->device() == &values->device(),
                InvalidArgument, "window segments must be int32 ids of the same rows");
  return segments->view().values<int32_t>();
}

template <typename S>
void scan_typed_cpu(const ColumnView& in, ScanOp op, bool reverse, const int32_t* seg, S* out) {
  const int64_t n = in.size;
  const S* v = in.values<S>();
  auto row = [&](int64_t k) { return reverse ? n - 1 - k : k; };
  auto boundary = [&](int64_t k) { return seg != nullptr && k > 0 && seg[row(k)] != seg[row(k - 1)]; };
  const int64_t blocks = detail::block_count(n, 1 << 16);
  const int64_t per = (n + blocks - 1) / blocks;
  std::vector<S> tail(size_t(blocks), scan_identity<S>(op));
  std::vector<uint8_t> cut(size_t(blocks), 0);
  auto pass = [&](bool second, const std::vector<S>& carry) {
    cpu_pool().parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t b = b0; b < b1; ++b) {
        const int64_t begin = b * per, end = std::min(n, begin + per);
        S acc = second ? carry[size_t(b)] : scan_identity<S>(op);
        for (int64_t k = begin; k < end; ++k) {
          if (boundary(k)) {
            acc = scan_identity<S>(op);
            if (!second) cut[size_t(b)] = 1;
          }
          const int64_t r = row(k);
          if (in.is_valid(r)) acc = scan_combine<S>(op, acc, v[r]);
          if (second) out[r] = acc;
        }
        if (!second) tail[size_t(b)] = acc;
      }
    });
  };
  pass(false, tail);
  std::vector<S> carry(size_t(blocks), scan_identity<S>(op));
  for (int64_t b = 1; b < blocks; ++b)
    carry[size_t(b)] = cut[size_t(b - 1)] ? tail[size_t(b - 1)] : scan_combine<S>(op, carry[size_t(b - 1)], tail[size_t(b - 1)]);
  pass(true, carry);
}

/// `a op b` as a tiny expression (a composition that runs on either backend); b nullptr: the
/// literal 1.
ColumnPtr eval_binary(const std::string& op, const ColumnPtr& a, const ColumnPtr& b) {
  expr::Frame f;
  f.names = {"a", "b"};
  f.columns = {a, b ? b : a};
  f.rows = a->size();
  std::vector<expr::NodeSpec> specs(3);
  specs[0].op = "col";
  specs[0].name = "a";
  specs[1].op = b ? "col" : "lit";
  specs[1].name = "b";
  specs[1].value.kind = expr::LiteralSpec::Kind::Number;
  specs[1].value.number = 1;
  specs[2].op = op;
  specs[2].args = {0, 1};
  return expr::evaluate(specs, f, a->device());
}

}  // namespace

TypeId cum_sum_type(TypeId t) {
  switch (t) {
    case TypeId::Bool: return TypeId::UInt32;
    case TypeId::Int8: case TypeId::Int16: case TypeId::UInt8: case TypeId::UInt16: return TypeId::Int64;
    case TypeId::Int32: case TypeId::Int64: case TypeId::UInt32: case TypeId::UInt64:
    case TypeId::Float32: case TypeId::Float64: return t;
    case TypeId::DurationS: case TypeId::DurationMs: case TypeId::DurationUs: case TypeId::DurationNs: return t;
    default: GPUDF_FAIL(Dtype, "'cumSum' is not supported for dtype " + std::string(type_name(t)));
  }
}

TypeId cum_prod_type(TypeId t) {
  switch (t) {
    case TypeId::Bool: case TypeId::Int8: case TypeId::Int16: case TypeId::Int32: case TypeId::UInt8:
    case TypeId::UInt16: case TypeId::UInt32: return TypeId::Int64;
    case TypeId::Int64: case TypeId::UInt64: case TypeId::Float32: case TypeId::Float64: return t;
    default: GPUDF_FAIL(Dtype, "'cumProd' is not supported for dtype " + std::string(type_name(t)));
  }
}

TypeId diff_type(TypeId t) {
  switch (t) {
    case TypeId::UInt8: return TypeId::Int16;
    case TypeId::UInt16: return TypeId::Int32;
    case TypeId::UInt32: case TypeId::UInt64: return TypeId::Int64;
    case TypeId::Int8: case TypeId::Int16: case TypeId::Int32: case TypeId::Int64: case TypeId::Float32:
    case TypeId::Float64: return t;
    // Dates and timestamps stay as they are: their difference (sub) is a duration.
    case TypeId::Date32: case TypeId::TimestampS: case TypeId::TimestampMs: case TypeId::TimestampUs:
    case TypeId::TimestampNs: case TypeId::DurationS: case TypeId::DurationMs: case TypeId::DurationUs:
    case TypeId::DurationNs: return t;
    default: GPUDF_FAIL(Dtype, "'diff' is not supported for dtype " + std::string(type_name(t)));
  }
}

TypeId rank_type(RankMethod m) { return m == RankMethod::Average ? TypeId::Float64 : TypeId::UInt32; }

namespace detail {

int64_t block_count(int64_t n, int64_t grain) {
  int64_t most = int64_t(cpu_pool().size()) * 4;
  return std::max<int64_t>(1, std::min<int64_t>(most, (n + grain - 1) / grain));
}

BufferPtr copy_validity(const ColumnPtr& values) {
  if (!values->has_validity()) return nullptr;
  const ColumnView v = values->view();
  BufferPtr out = Buffer::allocate(values->device(), size_t(std::max<int64_t>(1, bitmap_bytes(v.size))));
  if (v.size == 0) return out;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(values->device())) {
    copy_bits_cuda(v.validity, v.offset, out->data(), v.size);
    return out;
  }
#endif
  copy_bits_cpu(v.validity, v.offset, out->data(), v.size);
  return out;
}

void copy_bits_cpu(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t n) {
  // Whole 64-row blocks per chunk, so no two chunks write one byte.
  const int64_t words = (n + 63) / 64;
  cpu_pool().parallel_for(words, 1 << 12, [&](int64_t w0, int64_t w1) {
    const int64_t lo = w0 * 64, hi = std::min(n, w1 * 64);
    copy_bits(dst, lo, src, src_offset + lo, hi - lo);
  });
}

void scan_cpu(const ColumnView& in, ScanOp op, bool reverse, const int32_t* seg, Column& out) {
  const ColumnView o = out.view();
  type_dispatch(in.type, [&]<TypeId T>() {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S> && T != TypeId::Bool) {
      scan_typed_cpu<S>(in, op, reverse, seg, const_cast<S*>(o.values<S>()));
    } else {
      GPUDF_FAIL(Dtype, "scan is not supported for dtype " + std::string(type_name(in.type)));
    }
  });
}

void row_index_cpu(Column& out, int64_t offset) {
  const ColumnView o = out.view();
  type_dispatch(o.type, [&]<TypeId T>() {
    using S = storage_t<T>;
    if constexpr (std::is_integral_v<S> && T != TypeId::Bool) {
      S* p = const_cast<S*>(o.values<S>());
      cpu_pool().parallel_for(o.size, 1 << 16, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) p[i] = S(offset + i);
      });
    } else {
      GPUDF_FAIL(Dtype, "a row index must be an integer dtype");
    }
  });
}

void shift_rows_cpu(int64_t rows, int64_t n, const int32_t* seg, int64_t* out) {
  cpu_pool().parallel_for(rows, 1 << 16, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t j = i - n;
      out[i] = (j >= 0 && j < rows && (seg == nullptr || seg[j] == seg[i])) ? j : -1;
    }
  });
}

void rank_sorted_cpu(const ColumnView& sv, const int32_t* seg, const int64_t* order, RankMethod method, Column& out) {
  const int64_t n = sv.size;
  const ColumnView o = out.view();
  auto same = [&](int64_t p) -> bool {
    return type_dispatch(sv.type, [&]<TypeId T>() -> bool {
      if constexpr (T == TypeId::Utf8) return same_string<int32_t>(sv, p);
      else if constexpr (T == TypeId::LargeUtf8) return same_string<int64_t>(sv, p);
      else return same_value<storage_t<T>>(sv, p);
    });
  };
  auto write = [&](int64_t at, double r) {
    if (method == RankMethod::Average) const_cast<double*>(o.values<double>())[at] = r;
    else const_cast<uint32_t*>(o.values<uint32_t>())[at] = uint32_t(r);
  };
  int64_t seg_start = 0, dense = 0, p = 0;
  while (p < n) {
    if (p > 0 && seg != nullptr && seg[p] != seg[p - 1]) {
      seg_start = p;
      dense = 0;
    }
    if (!sv.is_valid(p)) {
      write(order[p], 0);
      ++p;
      continue;
    }
    int64_t q = p + 1;
    while (q < n && (seg == nullptr || seg[q] == seg[p]) && sv.is_valid(q) && same(q)) ++q;
    ++dense;
    for (int64_t k = p; k < q; ++k) write(order[k], rank_value(method, k, seg_start, p, q, dense));
    p = q;
  }
}

}  // namespace detail

ColumnPtr scan(const ColumnPtr& values, ScanOp op, bool reverse, const ColumnPtr& segments) {
  const int32_t* seg = segment_ids(segments, values);
  const ColumnView in = values->view();
  GPUDF_EXPECTS(!is_string(in.type) && in.type != TypeId::Bool, Dtype,
                "cumulative ops are not supported for dtype " + std::string(type_name(in.type)));
  ColumnPtr data = Column::allocate(values->device(), in.type, in.size, false);
  if (in.size > 0) {
#ifdef GPUDF_WITH_CUDA
    if (on_cuda(values->device())) detail::scan_cuda(in, op, reverse, seg, *data);
    else
#endif
      detail::scan_cpu(in, op, reverse, seg, *data);
  }
  BufferPtr valid = detail::copy_validity(values);
  return std::make_shared<Column>(values->device(), in.type, in.size, data->data(), nullptr, valid,
                                  valid ? values->null_count() : 0);
}

ColumnPtr row_index(Device& device, int64_t rows, int64_t offset, TypeId type) {
  ColumnPtr out = Column::allocate(device, type, rows, false);
  if (rows == 0) return out;
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(device)) detail::row_index_cuda(*out, offset);
  else
#endif
    detail::row_index_cpu(*out, offset);
  return out;
}

ColumnPtr shift_rows(Device& device, int64_t rows, int64_t n, const ColumnPtr& segments) {
  ColumnPtr out = Column::allocate(device, TypeId::Int64, rows, false);
  if (rows == 0) return out;
  const int32_t* seg = segments ? segments->view().values<int32_t>() : nullptr;
  int64_t* o = const_cast<int64_t*>(out->view().values<int64_t>());
#ifdef GPUDF_WITH_CUDA
  if (on_cuda(device)) detail::shift_rows_cuda(rows, n, seg, o);
  else
#endif
    detail::shift_rows_cpu(rows, n, seg, o);
  return out;
}

ColumnPtr rank(const ColumnPtr& values, RankMethod method, bool descending, const ColumnPtr& segments) {
  const int32_t* seg = segment_ids(segments, values);
  const int64_t n = values->size();
  ColumnPtr data = Column::allocate(values->device(), rank_type(method), n, false);
  const bool bucketed = seg != nullptr && !on_cuda(values->device()) &&
                        detail::rank_partitioned_cpu(values->view(), seg, method, descending, *data);
  if (n > 0 && !bucketed) {
    std::vector<SortKey> keys;
    if (segments) keys.push_back(SortKey{segments->view(), false, true});
    keys.push_back(SortKey{values->view(), descending, true});
    ColumnPtr order = sorted_order(keys);
    ColumnPtr sorted = gather(values->view(), order->view());
    ColumnPtr sorted_seg = segments ? gather(segments->view(), order->view()) : nullptr;
    const int32_t* ss = sorted_seg ? sorted_seg->view().values<int32_t>() : nullptr;
    const int64_t* ord = order->view().values<int64_t>();
#ifdef GPUDF_WITH_CUDA
    if (on_cuda(values->device())) detail::rank_sorted_cuda(sorted->view(), ss, ord, method, *data);
    else
#endif
      detail::rank_sorted_cpu(sorted->view(), ss, ord, method, *data);
  }
  BufferPtr valid = detail::copy_validity(values);
  return std::make_shared<Column>(values->device(), data->type(), n, data->data(), nullptr, valid,
                                  valid ? values->null_count() : 0);
}

ColumnPtr distinct_flags(const ColumnPtr& values, DistinctFlag flag, const ColumnPtr& segments) {
  segment_ids(segments, values);
  const int64_t n = values->size();
  if (n == 0) return Column::allocate(values->device(), TypeId::Bool, 0, false);
  std::vector<ColumnView> keys;
  if (segments) keys.push_back(segments->view());
  keys.push_back(values->view());
  GroupIds g = group_rows(keys, false, true);
  if (flag == DistinctFlag::First) {
    ColumnPtr first = gather(g.first_rows->view(), g.ids->view());
    return eval_binary("eq", first, row_index(values->device(), n, 0, TypeId::Int64));
  }
  ColumnPtr sizes = gather(group_sizes(g.ids->view(), g.count)->view(), g.ids->view());
  return eval_binary(flag == DistinctFlag::Duplicated ? "gt" : "eq", sizes, nullptr);
}

}  // namespace gpudf::window
