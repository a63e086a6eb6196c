// to_local / from_local on CUDA: the zone's table copied to the device once per call, then one
// thread per row (grid-stride) running timezone.hpp's GPUDF_HD per-value rule. Validity bits are
// set with atomicOr; the first row a raise mode rejects is found with atomicMax of n - row.
#include "core/cuda/cuda_utils.cuh"
#include "ops/timezone/timezone.hpp"

namespace gpudf::detail {
namespace {

struct ToLocal {
  ZoneView z;
  int64_t per_sec;
  __device__ LocalStatus operator()(int64_t x, int64_t& out) const {
    return to_local_value(z, per_sec, x, out) ? LocalStatus::Ok : LocalStatus::Null;
  }
};

struct FromLocal {
  ZoneView z;
  int64_t per_sec;
  Ambiguous amb;
  NonExistent gap;
  __device__ LocalStatus operator()(int64_t x, int64_t& out) const {
    return from_local_value(z, per_sec, x, amb, gap, out);
  }
};

/// bad holds n - (first rejected row), so the largest is the first; 0: none.
template <typename F>
__global__ void zone_kernel(F value, const int64_t* in, const uint8_t* bits, int64_t bit_offset, int64_t n,
                            int64_t* out, uint32_t* out_bits, unsigned long long* bad) {
  GPUDF_GRID_STRIDE(i, n) {
    int64_t x = 0;
    LocalStatus s = LocalStatus::Null;
    if (!bits || bit_is_set(bits, bit_offset + i)) s = value(in[i], x);
    if (s == LocalStatus::Ambiguous || s == LocalStatus::NonExistent)
      atomicMax(bad, static_cast<unsigned long long>(n - i));
    out[i] = s == LocalStatus::Ok ? x : 0;
    if (s == LocalStatus::Ok) atomicOr(out_bits + (i >> 5), 1u << (i & 31));
  }
}

/// The zone's table on the device: `buffer` owns it, the view points into it.
struct DeviceZone {
  BufferPtr buffer;
  ZoneView view;
};

DeviceZone upload(Device& dev, const TimeZone& zone) {
  DeviceZone d;
  d.view = zone.view();
  const size_t tb = zone.transitions().size() * sizeof(int64_t), ob = zone.offsets().size() * sizeof(int32_t);
  d.buffer = Buffer::allocate(dev, tb + ob);
  uint8_t* base = d.buffer->data();
  if (tb) dev.copy(base, zone.transitions().data(), tb, CopyKind::HostToDevice);
  dev.copy(base + tb, zone.offsets().data(), ob, CopyKind::HostToDevice);
  d.view.transitions = reinterpret_cast<const int64_t*>(base);
  d.view.offsets = reinterpret_cast<const int32_t*>(base + tb);
  return d;
}

template <typename F>
ColumnPtr run_zone(const ColumnView& v, const F& value, int64_t& first_bad) {
  Device& dev = cuda_device();
  cudaStream_t stream = cuda_current_stream();
  const int64_t n = v.size;
  ColumnPtr out = Column::allocate(dev, v.type, n, true);
  first_bad = -1;
  if (n == 0) return out;
  DeviceScalar<unsigned long long> bad(stream);
  zone_kernel<<<grid_for(n), kBlockThreads, 0, stream>>>(
      value, v.values<int64_t>(), v.validity, v.offset, n, reinterpret_cast<int64_t*>(out->data()->data()),
      reinterpret_cast<uint32_t*>(out->validity()->data()), bad.get());
  GPUDF_CUDA_TRY(cudaGetLastError());
  const unsigned long long b = bad.value(stream);  // also waits for the kernel
  if (b) first_bad = n - int64_t(b);
  return out;
}

}  // namespace

ColumnPtr to_local_cuda(const ColumnView& v, const TimeZone& zone) {
  const DeviceZone d = upload(cuda_device(), zone);
  int64_t unused = -1;
  return run_zone(v, ToLocal{d.view, ticks_per_second(v.type)}, unused);
}

ColumnPtr from_local_cuda(const ColumnView& v, const TimeZone& zone, Ambiguous amb, NonExistent gap,
                          int64_t& first_bad) {
  const DeviceZone d = upload(cuda_device(), zone);
  return run_zone(v, FromLocal{d.view, ticks_per_second(v.type), amb, gap}, first_bad);
}

}  // namespace gpudf::detail
