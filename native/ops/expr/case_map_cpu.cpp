// str.toUpperCase / toLowerCase / toTitleCase on the CPU: full Unicode mappings change byte
// lengths, so one pass sizes every row and a second writes them; a chunk of rows that is all
// ASCII keeps its lengths and skips the sizing (the common case).
#include <cstring>
#include <limits>
#include <vector>

#include "core/bitmask.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/expr/expr.hpp"
#include "ops/expr/unicode_case.hpp"

namespace gpudf::expr::detail {
namespace {

constexpr int64_t kGrain = 4096;

bool all_ascii(const char* s, int64_t n) {
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint64_t w;
    std::memcpy(&w, s + k, 8);
    if (w & 0x8080808080808080ull) return false;
  }
  for (; k < n; ++k)
    if (static_cast<unsigned char>(s[k]) >= 0x80) return false;
  return true;
}

template <typename O>
ColumnPtr case_map_typed(const ColumnView& v, CaseMode mode) {
  const O* off = v.string_offsets<O>();
  const int64_t n = v.size;
  const char* src = reinterpret_cast<const char*>(v.data);
  // Pass 1: the mapped length of every row (its own when the row's chunk is ASCII).
  HostVector<int64_t> size(size_t(n) + 1, 0);
  cpu_pool().parallel_for(n, kGrain, [&](int64_t i0, int64_t i1) {
    const bool ascii = all_ascii(src + off[i0], int64_t(off[i1] - off[i0]));
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t len = int64_t(off[i + 1] - off[i]);
      size[size_t(i)] = ascii ? len : utf8_case_convert(src + off[i], len, mode, nullptr);
    }
  });
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = size[size_t(i)];
    size[size_t(i)] = total;
    total += len;
  }
  size[size_t(n)] = total;
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the case-mapped strings exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  ColumnPtr out = Column::allocate(cpu_device(), v.type, n, v.validity != nullptr, total);
  O* out_off = reinterpret_cast<O*>(out->offsets()->data());
  char* dst = total ? reinterpret_cast<char*>(out->data()->data()) : nullptr;
  // Pass 2: write.
  cpu_pool().parallel_for(n, kGrain, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      out_off[i] = O(size[size_t(i)]);
      utf8_case_convert(src + off[i], int64_t(off[i + 1] - off[i]), mode, dst ? dst + size[size_t(i)] : nullptr);
    }
  });
  out_off[n] = O(total);
  if (v.validity) copy_bits(out->validity()->data(), 0, v.validity, v.offset, n);
  return out;
}

}  // namespace

ColumnPtr case_map_cpu(const ColumnPtr& strings, CaseMode mode) {
  ColumnView v = strings->view();
  return v.type == TypeId::Utf8 ? case_map_typed<int32_t>(v, mode) : case_map_typed<int64_t>(v, mode);
}

}  // namespace gpudf::expr::detail
