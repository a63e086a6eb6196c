// value_counts(), the CPU grouping it (and nUnique) rests on, and gather_rows(), which builds
// result columns from rows of the input on any device.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <span>
#include <string_view>
#include <unordered_map>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/transfer.hpp"
#include "ops/nulls/null_count.hpp"
#include "ops/reduce/reduce.hpp"
#include "ops/reduce/reduce_internal.hpp"

namespace gpudf {
namespace reduce_detail {
namespace {

/// Hash-based counting on the CPU; groups come out in value order.
struct GroupCpu {
  template <TypeId T>
  Groups operator()(const ColumnView& v, bool with_values, int64_t* num_groups) const {
    using S = storage_t<T>;
    Groups g;
    if constexpr (std::is_arithmetic_v<S>) {
      std::unordered_map<uint64_t, int64_t> counts;
      const S* x = v.values<S>();
      for (int64_t i = 0; i < v.size; ++i)
        if (v.is_valid(i)) ++counts[order_key(x[i])];
      *num_groups = int64_t(counts.size());
      if (!with_values) return g;
      std::vector<std::pair<uint64_t, int64_t>> items(counts.begin(), counts.end());
      std::sort(items.begin(), items.end());
      for (const auto& [key, count] : items) {
        g.keys.push_back(key);
        g.counts.push_back(count);
      }
    } else {
      using O = typename S::offset_type;
      const StringRows<O> s{v};
      std::unordered_map<std::string_view, std::pair<int64_t, int64_t>> counts;  // count, row
      for (int64_t i = 0; i < v.size; ++i) {
        if (!v.is_valid(i)) continue;
        std::string_view str(reinterpret_cast<const char*>(v.data) + s.begin(i), size_t(s.len(i)));
        auto [it, fresh] = counts.try_emplace(str, 0, i);
        ++it->second.first;
      }
      *num_groups = int64_t(counts.size());
      if (!with_values) return g;
      // string_view compares bytes as unsigned char: byte-wise lexicographic order.
      std::vector<std::pair<std::string_view, std::pair<int64_t, int64_t>>> items(counts.begin(), counts.end());
      std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [str, cr] : items) {
        g.rows.push_back(cr.second);
        g.counts.push_back(cr.first);
      }
    }
    return g;
  }
};

/// Writes the values of order keys into a fixed-width host column.
struct DecodeKeys {
  template <TypeId T>
  void operator()(const HostVector<uint64_t>& keys, uint8_t* out) const {
    using S = storage_t<T>;
    if constexpr (std::is_arithmetic_v<S>) {
      S* dst = reinterpret_cast<S*>(out);
      for (size_t i = 0; i < keys.size(); ++i) dst[i] = from_order_key<S>(keys[i]);
    } else {
      GPUDF_FAIL(Internal, "keys of a string column");
    }
  }
};

template <typename O>
ColumnPtr gather_strings_host(const ColumnView& src, std::span<const int64_t> rows, int64_t shift,
                              TypeId type, bool nullable) {
  const StringRows<O> s{src};
  int64_t bytes = 0;
  for (int64_t r : rows)
    if (r >= 0) bytes += s.len(r - shift);
  ColumnPtr out = Column::allocate(cpu_device(), type, int64_t(rows.size()), nullable, bytes);
  O* offs = reinterpret_cast<O*>(out->offsets()->data());
  int64_t pos = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    offs[i] = O(pos);
    if (rows[i] < 0) continue;
    int64_t len = s.len(rows[i] - shift);
    if (len) std::memcpy(out->data()->data() + pos, src.data + s.begin(rows[i] - shift), size_t(len));
    pos += len;
  }
  offs[rows.size()] = O(pos);
  return out;
}

}  // namespace

Groups group_values_cpu(const ColumnView& v, bool with_values, int64_t* num_groups) {
  return type_dispatch(v.type, GroupCpu{}, v, with_values, num_groups);
}

ColumnPtr gather_rows(const ColumnView& v, const int64_t* row_ptr, int64_t row_count) {
  const std::span<const int64_t> rows(row_ptr, size_t(row_count));
  // A device column: copy only the span of the wanted rows to the host first.
  ColumnView src = v;
  ColumnPtr host_copy;
  int64_t shift = 0;
  if (v.device->kind() != DeviceKind::Cpu) {
    int64_t lo = v.size, hi = 0;
    for (int64_t r : rows)
      if (r >= 0) lo = std::min(lo, r), hi = std::max(hi, r + 1);
    ColumnView span = v;
    span.offset = v.offset + std::min(lo, hi);
    span.size = std::max<int64_t>(hi - lo, 0);
    span.null_count = kUnknownNullCount;
    host_copy = to_host(span);
    src = host_copy->view();
    shift = std::min(lo, hi);
  }
  const auto n = int64_t(rows.size());
  HostVector<bool> valid(rows.size());
  int64_t nulls = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    valid[i] = rows[i] >= 0 && src.is_valid(rows[i] - shift);
    nulls += !valid[i];
  }
  ColumnPtr out;
  if (v.type == TypeId::Utf8) out = gather_strings_host<int32_t>(src, rows, shift, v.type, nulls > 0);
  else if (v.type == TypeId::LargeUtf8) out = gather_strings_host<int64_t>(src, rows, shift, v.type, nulls > 0);
  else {
    const int64_t w = value_width(v.type);
    out = Column::allocate(cpu_device(), v.type, n, nulls > 0);
    uint8_t* dst = out->data()->data();
    for (int64_t i = 0; i < n; ++i) {
      if (rows[size_t(i)] >= 0) std::memcpy(dst + i * w, src.data + (src.offset + rows[size_t(i)] - shift) * w, size_t(w));
      else std::memset(dst + i * w, 0, size_t(w));
    }
  }
  if (nulls)
    for (int64_t i = 0; i < n; ++i)
      if (valid[size_t(i)]) set_bit(out->validity()->data(), i);
  auto host = std::make_shared<Column>(cpu_device(), v.type, n, out->data(), out->offsets(),
                                       out->validity(), nulls);
  return copy_to_device(host, *v.device);
}

}  // namespace reduce_detail

Table value_counts(const ColumnView& v, bool sorted) {
  using namespace reduce_detail;
  const int64_t nulls = count_nulls(v);
  int64_t num_groups = 0;
  Groups g;
  if (v.size > nulls) {
#ifdef GPUDF_WITH_CUDA
    if (v.device->kind() == DeviceKind::Cuda) g = group_values_cuda(v, true, &num_groups);
    else
#endif
      g = group_values_cpu(v, true, &num_groups);
  }
  // Groups arrive in value order; a stable sort by count keeps value order among equal counts.
  HostVector<int64_t> order(g.counts.size());
  std::iota(order.begin(), order.end(), 0);
  if (sorted)
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return g.counts[size_t(a)] > g.counts[size_t(b)]; });
  // The null group goes last among the groups with its count (or last of all when unsorted).
  HostVector<int64_t> counts;
  counts.reserve(order.size() + 1);
  for (int64_t i : order) counts.push_back(g.counts[size_t(i)]);
  if (nulls) {
    size_t at = sorted ? size_t(std::upper_bound(counts.begin(), counts.end(), nulls, std::greater<>()) - counts.begin())
                       : counts.size();
    order.insert(order.begin() + int64_t(at), -1);
    counts.insert(counts.begin() + int64_t(at), nulls);
  }
  const auto n = int64_t(order.size());

  ColumnPtr values;
  if (is_string(v.type)) {
    HostVector<int64_t> rows(order.size());
    for (size_t i = 0; i < order.size(); ++i) rows[i] = order[i] < 0 ? -1 : g.rows[size_t(order[i])];
    values = gather_rows(v, rows);
  } else {
    HostVector<uint64_t> keys;
    keys.reserve(order.size());
    for (int64_t i : order) keys.push_back(i < 0 ? 0 : g.keys[size_t(i)]);
    ColumnPtr host = Column::allocate(cpu_device(), v.type, n, nulls > 0);
    type_dispatch(v.type, DecodeKeys{}, keys, host->data() ? host->data()->data() : nullptr);
    for (int64_t i = 0; i < n; ++i) {
      if (order[size_t(i)] >= 0 && nulls) set_bit(host->validity()->data(), i);
      // The null group's slot holds zero bytes, not a decoded key.
      if (order[size_t(i)] < 0) std::memset(host->data()->data() + i * value_width(v.type), 0, size_t(value_width(v.type)));
    }
    values = copy_to_device(std::make_shared<Column>(cpu_device(), v.type, n, host->data(), nullptr,
                                                     host->validity(), nulls ? 1 : 0),
                            *v.device);
  }
  ColumnPtr count_col = Column::allocate(cpu_device(), TypeId::Int64, n, false);
  if (n) std::memcpy(count_col->data()->data(), counts.data(), size_t(n) * sizeof(int64_t));
  return Table({values, copy_to_device(count_col, *v.device)});
}

}  // namespace gpudf
