// The regex string functions: result dtypes, backend dispatch, and the CPU backend: 64-row
// blocks over cpu_pool() (validity bytes are never shared between workers), one Pike VM scratch
// buffer per block run. String results take two passes: every row's length, then the bytes at
// the scanned offsets.
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "core/bitmask.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "core/thread_pool.hpp"
#include "ops/regex/regex_ops.hpp"
#include "ops/regex/regex_row.hpp"

namespace gpudf::regex {

TypeId regex_result_type(RegexFn fn, TypeId in) {
  switch (fn) {
    case RegexFn::Contains: return TypeId::Bool;
    case RegexFn::Count:
    case RegexFn::Find: return TypeId::UInt32;
    default: return in;
  }
}

int32_t regex_slots(const RegexCall& call) {
  switch (call.fn) {
    case RegexFn::Contains: return 0;
    case RegexFn::Extract: return 2 * (call.group + 1);
    case RegexFn::Replace: return call.tmpl->max_group >= 1 ? 2 * (call.tmpl->max_group + 1) : 2;
    default: return 2;
  }
}

ColumnPtr regex_apply(const ColumnPtr& strings, const RegexCall& call) {
  GPUDF_EXPECTS(is_string(strings->type()), Dtype, "regex functions need a string column");
#ifdef GPUDF_WITH_CUDA
  if (strings->device().kind() == DeviceKind::Cuda) return detail::regex_apply_cuda(strings, call);
#endif
  return detail::regex_apply_cpu(strings, call);
}

namespace detail {
namespace {

constexpr int64_t kBlockRows = 64;
/// Rows where instructions x (length + 1) stays under this go to the backtracker (pike.hpp):
/// 32 Kbit of visited states, about 0.5 MB of scratch per worker.
constexpr int64_t kBacktrackBudget = 1 << 15;

/// fn(vm, first_row, end_row) over 64-row blocks on the pool, each with its own scratch.
template <typename F>
void blocks(const RegexCall& call, int64_t n, F&& fn) {
  const RegexView rv = call.rx->view();
  const int32_t k = regex_slots(call);
  const int64_t words = pike_scratch_bytes(rv.num_insts, k) / 8 + 1;
  const int64_t bt_words = backtrack_scratch_bytes(kBacktrackBudget) / 8 + 1;
  const int64_t nblocks = (n + kBlockRows - 1) / kBlockRows;
  cpu_pool().parallel_for(nblocks, 4, [&](int64_t b0, int64_t b1) {
    std::vector<int64_t> scratch(size_t(words), 0);
    // Not initialised: the backtracker clears the visited bits it uses on each search.
    HostBuffer<int64_t> bt_scratch{size_t(bt_words)};
    PikeVM vm(rv, k, scratch.data());
    vm.use_backtracker(bt_scratch.data(), kBacktrackBudget);
    fn(vm, b0 * kBlockRows, std::min(n, b1 * kBlockRows));
  });
}

template <typename O>
ColumnPtr apply_typed(const ColumnView& v, const RegexCall& call) {
  const int64_t n = v.size;
  const O* off = v.string_offsets<O>();
  const char* src = reinterpret_cast<const char*>(v.data);
  const uint8_t* in_bits = v.validity;
  auto valid_in = [&](int64_t i) { return !in_bits || bit_is_set(in_bits, v.offset + i); };
  const TypeId type = regex_result_type(call.fn, v.type);
  if (!is_string(type)) {
    ColumnPtr out = Column::allocate(cpu_device(), type, n, true);
    uint8_t* bits = out->validity()->data();
    uint8_t* bools = type == TypeId::Bool ? out->data()->data() : nullptr;
    uint32_t* ints = type == TypeId::UInt32 ? reinterpret_cast<uint32_t*>(out->data()->data()) : nullptr;
    blocks(call, n, [&](PikeVM& vm, int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; ++i) {
        if (bools) bools[i] = 0;
        if (ints) ints[i] = 0;
        if (!valid_in(i)) continue;
        uint32_t r;
        if (!rx_fixed(vm, call.fn, src + off[i], int64_t(off[i + 1] - off[i]), &r)) continue;
        if (bools) bools[i] = uint8_t(r);
        else ints[i] = r;
        set_bit(bits, i);
      }
    });
    return out;
  }
  TemplateView tv;
  if (call.tmpl) tv = TemplateView{call.tmpl->pieces.data(), int32_t(call.tmpl->pieces.size()), call.tmpl->text.data()};
  // Pass 1: lengths (-1: a null result); extract keeps where its group begins for pass 2.
  HostVector<int64_t> size(size_t(n) + 1, 0);
  HostVector<int64_t> begin(call.fn == RegexFn::Replace ? 0 : size_t(n));
  blocks(call, n, [&](PikeVM& vm, int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      int64_t& out = size[size_t(i)];
      out = -1;
      if (!valid_in(i)) continue;
      const char* s = src + off[i];
      const int64_t len = int64_t(off[i + 1] - off[i]);
      if (call.fn == RegexFn::Replace) {
        out = rx_replace(vm, s, len, tv, call.limit, nullptr);
      } else {
        int64_t b, e;
        if (rx_extract(vm, s, len, call.group, &b, &e)) out = e - b, begin[size_t(i)] = b;
      }
    }
  });
  int64_t total = 0;
  HostVector<int64_t> start(size_t(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) {
    start[size_t(i)] = total;
    total += std::max<int64_t>(size[size_t(i)], 0);
  }
  start[size_t(n)] = total;
  GPUDF_EXPECTS(total <= int64_t(std::numeric_limits<O>::max()), InvalidArgument,
                "the regex results exceed the 2 GiB a utf8 column holds; cast to large_utf8 first");
  ColumnPtr out = Column::allocate(cpu_device(), type, n, true, total);
  O* out_off = reinterpret_cast<O*>(out->offsets()->data());
  char* dst = total ? reinterpret_cast<char*>(out->data()->data()) : nullptr;
  uint8_t* bits = out->validity()->data();
  // Pass 2: bytes.
  blocks(call, n, [&](PikeVM& vm, int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      out_off[i] = O(start[size_t(i)]);
      if (size[size_t(i)] < 0) continue;
      set_bit(bits, i);
      const char* s = src + off[i];
      const int64_t len = int64_t(off[i + 1] - off[i]);
      char* d = dst ? dst + start[size_t(i)] : nullptr;
      if (call.fn == RegexFn::Replace) {
        if (d) rx_replace(vm, s, len, tv, call.limit, d);
      } else if (d) {
        std::copy_n(s + begin[size_t(i)], size[size_t(i)], d);
      }
    }
  });
  out_off[n] = O(total);
  return out;
}

}  // namespace

ColumnPtr regex_apply_cpu(const ColumnPtr& strings, const RegexCall& call) {
  ColumnView v = strings->view();
  return v.type == TypeId::Utf8 ? apply_typed<int32_t>(v, call) : apply_typed<int64_t>(v, call);
}

}  // namespace detail
}  // namespace gpudf::regex
