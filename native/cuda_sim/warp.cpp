// The simulator's warp operations (__shfl*_sync, votes, __reduce_*_sync, __syncwarp): each is a
// barrier of the lanes its mask names. Each lane parks with its operand until the last named lane
// arrives, which computes every lane's result; see scheduler.cpp for the blocks they run in.
#include <algorithm>
#include <string>

#include "block.hpp"

namespace cuda_sim::detail {
namespace {

/// The value lane `src` contributed, or poison when that lane is not in the operation's mask
/// (reading an inactive lane is undefined on the GPU).
uint64_t lane_value(const uint64_t* in, uint32_t mask, unsigned src) {
  return mask >> src & 1 ? in[src] : 0xA5A5A5A5A5A5A5A5ull;
}

/// Every named lane's result, once all of them have arrived (operands are read from a copy:
/// the results overwrite them lane by lane).
void complete_warp(Run& r, unsigned w) {
  Warp& wp = r.warps[w];
  const unsigned base = w * 32;
  const uint32_t mask = wp.mask;
  uint64_t in[32];
  for (unsigned l = 0; l < 32; ++l) in[l] = mask >> l & 1 ? r.slots[base + l].value : 0;
  uint32_t ballot = 0;
  for (unsigned l = 0; l < 32; ++l) ballot |= uint32_t(mask >> l & 1 && in[l] != 0) << l;
  uint32_t red = 0;
  bool first = true;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    const uint32_t u = uint32_t(in[l]);
    switch (wp.op) {
      case kWarpReduceAdd: red += u; break;
      case kWarpReduceMinU: red = first || u < red ? u : red; break;
      case kWarpReduceMaxU: red = first || u > red ? u : red; break;
      case kWarpReduceMinI: red = first || int32_t(u) < int32_t(red) ? u : red; break;
      case kWarpReduceMaxI: red = first || int32_t(u) > int32_t(red) ? u : red; break;
      case kWarpReduceAnd: red = first ? u : red & u; break;
      case kWarpReduceOr: red |= u; break;
      case kWarpReduceXor: red ^= u; break;
      default: break;
    }
    first = false;
  }
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    const uint32_t arg = r.slots[base + l].arg;
    const unsigned width = arg >> 8, delta = arg & 0xff;
    const unsigned seg = l & ~(width - 1), pos = l & (width - 1);
    uint64_t out = 0;
    switch (wp.op) {
      case kWarpShfl: out = lane_value(in, mask, seg + (delta & (width - 1))); break;
      case kWarpShflUp: out = pos >= delta ? lane_value(in, mask, l - delta) : in[l]; break;
      case kWarpShflDown: out = pos + delta < width ? lane_value(in, mask, l + delta) : in[l]; break;
      case kWarpShflXor: {
        const unsigned src = l ^ delta;
        out = src >= seg + width ? in[l] : lane_value(in, mask, src);
        break;
      }
      case kWarpBallot: out = ballot; break;
      case kWarpAny: out = ballot != 0; break;
      case kWarpAll: out = ballot == mask; break;
      case kWarpMatchAny: {
        uint32_t m = 0;
        for (unsigned k = 0; k < 32; ++k) m |= uint32_t(mask >> k & 1 && in[k] == in[l]) << k;
        out = m;
        break;
      }
      case kWarpSync: break;
      default: out = red; break;
    }
    r.slots[base + l].value = out;
  }
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned t = base + l;
    if (mask >> l & 1 && t != r.current) {
      r.slots[t].state = State::Ready;
      r.ready.push_back(t);
      --r.at_warp;
    }
  }
  wp = Warp{};
  r.tsan.warp_completed(w);
}

/// Parks the failing thread so the block ends (its frame is abandoned like a barrier's).
uint64_t fail_warp(Run& r, const std::string& what) {
  fail(r, what);
  r.slots[r.current].state = State::AtBarrier;
  park(r);
  return 0;
}

}  // namespace

namespace {

uint64_t run_warp_op(Run* r, int op, uint32_t mask, uint64_t value, uint32_t arg) {
  const unsigned t = r->current, lane = t & 31, w = t >> 5;
  const unsigned lanes = std::min(32u, r->threads - w * 32);
  const uint32_t present = lanes == 32 ? ~0u : (1u << lanes) - 1;
  const std::string where = " (warp " + std::to_string(w) + ", lane " + std::to_string(lane) + ")";
  if (!(mask >> lane & 1)) return fail_warp(*r, "a warp operation's mask does not name the calling lane" + where);
  if (mask & ~present) return fail_warp(*r, "a warp operation's mask names lanes that do not exist" + where);
  const unsigned width = arg >> 8;
  if (width == 0 || width > 32 || (width & (width - 1)) != 0)
    return fail_warp(*r, "a shuffle's width is not a power of two up to 32" + where);
  Warp& wp = r->warps[w];
  if (wp.arrived == 0) {
    wp.op = op;
    wp.mask = mask;
  } else if (wp.op != op || wp.mask != mask) {
    return fail_warp(*r, "divergent warp operation: lanes of a warp wait in different operations or masks" + where);
  }
  Thread& th = r->slots[t];
  th.value = value;
  th.arg = arg;
  wp.arrived |= 1u << lane;
  if (wp.arrived == mask) {
    complete_warp(*r, w);
    return th.value;
  }
  th.state = State::AtWarp;
  ++r->at_warp;
  park(*r);
  return th.value;
}

}  // namespace

uint64_t warp_op(int op, uint32_t mask, uint64_t value, uint32_t arg) {
  Run* r = t_run;
  if (!r) {
    std::fprintf(stderr, "cuda_sim: a warp operation was called outside a kernel\n");
    std::abort();
  }
  char* sync = r->tsan.warp_sync(r->current >> 5);
  r->tsan.arrive(sync);
  const uint64_t result = run_warp_op(r, op, mask, value, arg);
  r->tsan.depart(r->current, sync);
  return result;
}

uint32_t active_mask() {
  Run* r = t_run;
  if (!r) return 0;
  const unsigned w = r->current >> 5;
  uint32_t m = 0;
  for (unsigned l = 0; l < 32 && w * 32 + l < r->threads; ++l)
    m |= uint32_t(r->slots[w * 32 + l].state != State::Done) << l;
  return m;
}

}  // namespace cuda_sim::detail
