// The simulator's CUDA runtime: one simulated device, device memory as tracked host allocations
// (poisoned when allocated, so code that assumes zeroed memory shows), copies and memsets that
// check each side is the memory their kind says, streams and events executed eagerly, CUDA's
// error state, the launch counter and its report (GPUDF_CUDA_SIM_REPORT).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "cuda_sim/internal.hpp"

namespace cuda_sim::detail {
namespace {

thread_local cudaError_t t_last = cudaSuccess;     // cudaGetLastError
thread_local cudaError_t t_pending = cudaSuccess;  // an execution error, for synchronising calls

struct Memory {
  std::mutex mu;
  std::map<uintptr_t, std::size_t> live;  // base -> bytes
  std::size_t used = 0;
};
Memory& memory() {
  static Memory* m = new Memory;  // never destroyed: frees may come during static destruction
  return *m;
}

struct Streams {
  std::mutex mu;
  std::set<cudaStream_t> live;
};
Streams& streams() {
  static Streams* s = new Streams;
  return *s;
}

/// Launch counts, appended to $GPUDF_CUDA_SIM_REPORT as "count kernel" lines: "1 kernel" at a
/// kernel's first launch in the process, the rest of its launches at exit. The lines of a kernel
/// add up to its launches in every process that exited normally, and a process ended by a
/// signal (a test runner's worker) still leaves the kernels it launched.
struct Counter {
  std::mutex mu;
  std::map<std::string, uint64_t> launches;
  static void append(const std::map<std::string, uint64_t>& lines) {
    const char* path = std::getenv("GPUDF_CUDA_SIM_REPORT");
    if (!path || !*path) return;
    FILE* f = std::fopen(path, "a");
    if (!f) return;
    for (const auto& [name, n] : lines)
      if (n > 0) std::fprintf(f, "%llu %s\n", (unsigned long long)n, name.c_str());
    std::fclose(f);
  }
  ~Counter() {
    std::lock_guard<std::mutex> lock(mu);
    std::map<std::string, uint64_t> rest;
    for (const auto& [name, n] : launches) rest[name] = n - 1;  // the first is written already
    append(rest);
  }
};
Counter& counter() {
  static Counter c;
  return c;
}

std::size_t total_memory() {
  static const std::size_t bytes = std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGESIZE)) / 2;
  return bytes;
}

/// The live device allocation starting at or below `a` (its start and size), if any.
std::optional<std::pair<uintptr_t, std::size_t>> allocation_below(uintptr_t a) {
  Memory& m = memory();
  std::lock_guard<std::mutex> lock(m.mu);
  auto it = m.live.upper_bound(a);
  if (it == m.live.begin()) return std::nullopt;
  --it;
  return *it;
}

bool device_memory(const void* p, std::size_t bytes) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto al = allocation_below(a);
  return al && a + bytes <= al->first + al->second;
}

/// True when p lies inside a live device allocation: not just past its end, where an unrelated
/// host allocation may start (allocators without redzones pack them so).
bool inside_device_memory(const void* p) {
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto al = allocation_below(a);
  return al && a - al->first < std::max<std::size_t>(al->second, 1);
}

cudaError_t report(cudaError_t e, const char* call, const std::string& what) {
  std::fprintf(stderr, "cuda_sim: %s: %s\n", call, what.c_str());
  t_last = e;
  return e;
}

std::string hex(const void* p) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", p);
  return b;
}

}  // namespace

void set_last_error(cudaError_t e) { t_last = e; }

void fail_execution(cudaError_t e, const std::string& message) {
  std::fprintf(stderr, "cuda_sim: kernel failed: %s\n", message.c_str());
  t_last = e;
  t_pending = e;
}

bool is_device_range(const void* p, std::size_t bytes) { return device_memory(p, bytes); }

bool valid_stream(cudaStream_t s) {
  if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread) return true;
  Streams& st = streams();
  std::lock_guard<std::mutex> lock(st.mu);
  return st.live.count(s) != 0;
}

void count_launch(const char* kernel) {
  Counter& c = counter();
  std::lock_guard<std::mutex> lock(c.mu);
  if (++c.launches[kernel] == 1) Counter::append({{kernel, 1}});
}

namespace {
bool parse_schedule(const std::string& v, Schedule& out) {
  if (v == "forward" || v.empty()) {
    out = Schedule{Order::Forward, 1};
  } else if (v == "reverse") {
    out = Schedule{Order::Reverse, 1};
  } else if (v.rfind("random", 0) == 0 && (v.size() == 6 || v[6] == ':')) {
    out.order = Order::Random;
    if (v.size() > 7) {
      out.seed = std::strtoull(v.c_str() + 7, nullptr, 10);
    } else {
      out.seed = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
      std::fprintf(stderr, "cuda_sim: GPUDF_CUDA_SIM_SCHEDULE=random:%llu\n", (unsigned long long)out.seed);
    }
  } else {
    return false;
  }
  return true;
}

Schedule& current_schedule() {
  static Schedule s = [] {
    Schedule r{Order::Forward, 1};
    const char* env = std::getenv("GPUDF_CUDA_SIM_SCHEDULE");
    if (!parse_schedule(env ? env : "", r)) {
      std::fprintf(stderr, "cuda_sim: GPUDF_CUDA_SIM_SCHEDULE must be forward, reverse or random[:seed], got '%s'\n", env);
      std::exit(2);
    }
    return r;
  }();
  return s;
}
}  // namespace

const Schedule& schedule() { return current_schedule(); }

}  // namespace cuda_sim::detail

using namespace cuda_sim::detail;

struct CUstream_st {
  unsigned flags;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point at;
  bool recorded;
};
struct CUmemPoolHandle_st {
  uint64_t release_threshold;
};

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define CUDA_SIM_NAME(x) case x: return #x;
    CUDA_SIM_NAME(cudaSuccess) CUDA_SIM_NAME(cudaErrorInvalidValue) CUDA_SIM_NAME(cudaErrorMemoryAllocation)
    CUDA_SIM_NAME(cudaErrorInitializationError) CUDA_SIM_NAME(cudaErrorInvalidConfiguration)
    CUDA_SIM_NAME(cudaErrorInvalidDevice) CUDA_SIM_NAME(cudaErrorInvalidMemcpyDirection)
    CUDA_SIM_NAME(cudaErrorInsufficientDriver) CUDA_SIM_NAME(cudaErrorNoDevice)
    CUDA_SIM_NAME(cudaErrorInvalidResourceHandle) CUDA_SIM_NAME(cudaErrorNotReady)
    CUDA_SIM_NAME(cudaErrorIllegalAddress) CUDA_SIM_NAME(cudaErrorLaunchOutOfResources)
    CUDA_SIM_NAME(cudaErrorLaunchFailure) CUDA_SIM_NAME(cudaErrorNotSupported) CUDA_SIM_NAME(cudaErrorUnknown)
#undef CUDA_SIM_NAME
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    default: return "unknown error";
  }
}

cudaError_t cudaGetLastError() {
  cudaError_t e = t_last;
  t_last = cudaSuccess;
  t_pending = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return t_last; }

cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return report(cudaErrorInvalidValue, "cudaGetDeviceCount", "null count");
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : (t_last = cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (device != 0) return t_last = cudaErrorInvalidDevice;
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "gpudf CUDA simulator");
  p->totalGlobalMem = total_memory();
  p->sharedMemPerBlock = 48 * 1024;
  p->sharedMemPerBlockOptin = 48 * 1024;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = 1024;
  p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = 65535;
  p->maxGridSize[2] = 65535;
  p->clockRate = 1000000;
  p->major = 9;  // the sources' target (sm_90); blocks and threads run in software
  p->minor = 0;
  p->multiProcessorCount = 1;
  p->maxThreadsPerMultiProcessor = 2048;
  p->memoryPoolsSupported = 1;
  p->concurrentKernels = 0;
  p->unifiedAddressing = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (device != 0) return t_last = cudaErrorInvalidDevice;
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMemoryPoolsSupported: *value = 1; break;
    default: return t_last = cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return t_pending; }
cudaError_t cudaDriverGetVersion(int* v) { *v = 13000; return cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int* v) { *v = 13000; return cudaSuccess; }
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  Memory& m = memory();
  std::lock_guard<std::mutex> lock(m.mu);
  *total_bytes = total_memory();
  *free_bytes = m.used < *total_bytes ? *total_bytes - m.used : 0;
  return cudaSuccess;
}

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
  if (!ptr) return report(cudaErrorInvalidValue, "cudaMallocAsync", "null result pointer");
  if (!valid_stream(stream)) return report(cudaErrorInvalidResourceHandle, "cudaMallocAsync", "unknown stream");
  if (bytes > total_memory()) {  // more than the simulated device has, as a GPU would refuse
    *ptr = nullptr;
    return t_last = cudaErrorMemoryAllocation;
  }
  void* p = nullptr;
  // Exact size (no rounding), so AddressSanitizer's redzones sit right after the last byte.
  if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0 || !p) {
    *ptr = nullptr;
    return t_last = cudaErrorMemoryAllocation;
  }
  std::memset(p, kPoisonFresh, bytes);
  Memory& m = memory();
  std::lock_guard<std::mutex> lock(m.mu);
  m.live[reinterpret_cast<uintptr_t>(p)] = bytes;
  m.used += bytes;
  *ptr = p;
  return cudaSuccess;
}
cudaError_t cudaMalloc(void** ptr, std::size_t bytes) { return cudaMallocAsync(ptr, bytes, nullptr); }

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t) {
  if (!ptr) return cudaSuccess;
  std::size_t bytes = 0;
  {
    Memory& m = memory();
    std::lock_guard<std::mutex> lock(m.mu);
    auto it = m.live.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == m.live.end()) {
      return report(cudaErrorInvalidValue, "cudaFreeAsync", hex(ptr) + " is not a live device allocation");
    }
    bytes = it->second;
    m.used -= bytes;
    m.live.erase(it);
  }
  std::memset(ptr, kPoisonFreed, bytes);  // stale reads through a kept pointer see garbage
  std::free(ptr);
  return cudaSuccess;
}
cudaError_t cudaFree(void* ptr) { return cudaFreeAsync(ptr, nullptr); }

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  static CUmemPoolHandle_st the_pool{0};
  if (device != 0) return t_last = cudaErrorInvalidDevice;
  *pool = &the_pool;
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (!pool || !value) return t_last = cudaErrorInvalidValue;
  if (attr == cudaMemPoolAttrReleaseThreshold) pool->release_threshold = *static_cast<uint64_t*>(value);
  return cudaSuccess;
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (!pool || !value) return t_last = cudaErrorInvalidValue;
  uint64_t v = 0;
  if (attr == cudaMemPoolAttrReleaseThreshold) v = pool->release_threshold;
  if (attr == cudaMemPoolAttrUsedMemCurrent || attr == cudaMemPoolAttrReservedMemCurrent) {
    std::lock_guard<std::mutex> lock(memory().mu);
    v = memory().used;
  }
  *static_cast<uint64_t*>(value) = v;
  return cudaSuccess;
}
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t, std::size_t) { return cudaSuccess; }

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (!valid_stream(stream)) return report(cudaErrorInvalidResourceHandle, "cudaMemcpyAsync", "unknown stream");
  if (!dst || !src) return report(cudaErrorInvalidValue, "cudaMemcpyAsync", "null pointer");
  const bool dst_dev = device_memory(dst, n), src_dev = device_memory(src, n);
  const bool dst_in = inside_device_memory(dst), src_in = inside_device_memory(src);
  auto side = [](bool want_dev, bool whole, bool starts) {
    return want_dev ? whole : !starts;  // device: all n bytes in one allocation; host: not device
  };
  bool ok = true;
  switch (kind) {
    case cudaMemcpyHostToHost: ok = side(false, dst_dev, dst_in) && side(false, src_dev, src_in); break;
    case cudaMemcpyHostToDevice: ok = side(true, dst_dev, dst_in) && side(false, src_dev, src_in); break;
    case cudaMemcpyDeviceToHost: ok = side(false, dst_dev, dst_in) && side(true, src_dev, src_in); break;
    case cudaMemcpyDeviceToDevice: ok = side(true, dst_dev, dst_in) && side(true, src_dev, src_in); break;
    case cudaMemcpyDefault:  // any direction, but a range that starts in device memory must end there
      ok = (dst_in == dst_dev) && (src_in == src_dev);
      break;
    default: return report(cudaErrorInvalidMemcpyDirection, "cudaMemcpyAsync", "bad kind");
  }
  if (!ok) {
    return report(cudaErrorInvalidValue, "cudaMemcpyAsync",
                  "kind " + std::to_string(int(kind)) + " from " + hex(src) + (src_in ? " (device)" : " (host)") +
                      " to " + hex(dst) + (dst_in ? " (device)" : " (host)") + " of " + std::to_string(n) +
                      " bytes: a side is not the memory the kind names, or the range leaves its allocation");
  }
  std::memmove(dst, src, n);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t n, cudaMemcpyKind kind) {
  cudaError_t e = cudaMemcpyAsync(dst, src, n, kind, nullptr);
  return e != cudaSuccess ? e : t_pending;
}

cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t n, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (!valid_stream(stream)) return report(cudaErrorInvalidResourceHandle, "cudaMemsetAsync", "unknown stream");
  if (!device_memory(dst, n)) {
    return report(cudaErrorInvalidValue, "cudaMemsetAsync",
                  hex(dst) + " + " + std::to_string(n) + " bytes is not inside one device allocation");
  }
  std::memset(dst, value, n);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* dst, int value, std::size_t n) { return cudaMemsetAsync(dst, value, n, nullptr); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  auto* s = new CUstream_st{flags};
  Streams& st = streams();
  std::lock_guard<std::mutex> lock(st.mu);
  st.live.insert(s);
  *stream = s;
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  Streams& st = streams();
  std::lock_guard<std::mutex> lock(st.mu);
  if (!st.live.erase(stream)) return t_last = cudaErrorInvalidResourceHandle;
  delete stream;
  return cudaSuccess;
}
// Work runs eagerly when issued, so a synchronise only reports a pending execution error.
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!valid_stream(stream)) return t_last = cudaErrorInvalidResourceHandle;
  return t_pending;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  if (!valid_stream(stream) || !event) return t_last = cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  *event = new CUevent_st{{}, false};
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!event || !valid_stream(stream)) return t_last = cudaErrorInvalidResourceHandle;
  event->at = std::chrono::steady_clock::now();
  event->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) { return event ? t_pending : cudaErrorInvalidResourceHandle; }
cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (!start || !end || !start->recorded || !end->recorded) return t_last = cudaErrorInvalidResourceHandle;
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}

namespace cuda_sim::detail {
bool radix_result_in_alternate() {
  switch (schedule().order) {
    case Order::Forward: return true;
    case Order::Reverse: return false;
    default: {
      thread_local uint64_t state = schedule().seed;
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return (state >> 63) != 0;
    }
  }
}
}  // namespace cuda_sim::detail

namespace cuda_sim {
bool set_schedule(const char* spec) { return detail::parse_schedule(spec, detail::current_schedule()); }
}  // namespace cuda_sim
