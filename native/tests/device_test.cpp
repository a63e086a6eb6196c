// core/device, core/buffer, core/error: allocation alignment and padding, memory accounting,
// copies, device selection and the error codes.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/host_vector.hpp"
#include "tests/helpers.hpp"
#include "tests/testing.hpp"

using namespace gpudf;
using namespace gpudf::testing;

TEST(device, padded_size_rounds_up_to_64) {
  EXPECT_EQ(kBufferAlignment, std::size_t(64));
  EXPECT_EQ(padded_size(0), std::size_t(0));
  EXPECT_EQ(padded_size(1), std::size_t(64));
  EXPECT_EQ(padded_size(63), std::size_t(64));
  EXPECT_EQ(padded_size(64), std::size_t(64));
  EXPECT_EQ(padded_size(65), std::size_t(128));
  EXPECT_EQ(padded_size(1000), std::size_t(1024));
}

TEST(device, cpu_device_is_a_process_wide_cpu) {
  EXPECT_EQ(&cpu_device(), &cpu_device());
  EXPECT_EQ(cpu_device().kind(), DeviceKind::Cpu);
  EXPECT_EQ(cpu_device().name(), std::string("cpu"));
}

TEST(device, allocate_is_64_byte_aligned_and_accounted) {
  Device& d = test_device();
  SCOPED_TRACE(d.name());
  for (std::size_t bytes : {std::size_t(1), std::size_t(7), std::size_t(63), std::size_t(64),
                            std::size_t(65), std::size_t(100), std::size_t(4096),
                            std::size_t(4097), std::size_t(1) << 20}) {
    SCOPED_TRACE("bytes=" + std::to_string(bytes));
    MemoryStats before = d.stats();
    void* p = d.allocate(bytes);
    ASSERT_TRUE(p != nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, std::uintptr_t(0));
    MemoryStats during = d.stats();
    EXPECT_EQ(during.live_bytes - before.live_bytes, int64_t(padded_size(bytes)));
    EXPECT_EQ(during.live_allocations - before.live_allocations, 1);
    EXPECT_TRUE(during.peak_bytes >= during.live_bytes);
    d.deallocate(p, bytes);
    MemoryStats after = d.stats();
    EXPECT_EQ(after.live_bytes, before.live_bytes);
    EXPECT_EQ(after.live_allocations, before.live_allocations);
    EXPECT_TRUE(after.peak_bytes >= during.live_bytes);
  }
}

TEST(device, many_live_allocations_are_each_aligned_and_summed) {
  Device& d = test_device();
  MemoryStats before = d.stats();
  std::vector<std::pair<void*, std::size_t>> held;
  int64_t sum = 0;
  for (std::size_t i = 1; i <= 200; ++i) {
    std::size_t bytes = i * 13;
    void* p = d.allocate(bytes);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, std::uintptr_t(0));
    held.emplace_back(p, bytes);
    sum += int64_t(padded_size(bytes));
  }
  EXPECT_EQ(d.stats().live_bytes - before.live_bytes, sum);
  EXPECT_EQ(d.stats().live_allocations - before.live_allocations, 200);
  EXPECT_TRUE(d.stats().peak_bytes >= before.live_bytes + sum);
  for (auto& [p, bytes] : held) d.deallocate(p, bytes);
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes);
  EXPECT_EQ(d.stats().live_allocations, before.live_allocations);
}

TEST(device, zero_bytes_is_nullptr_and_not_counted) {
  Device& d = test_device();
  MemoryStats before = d.stats();
  void* p = d.allocate(0);
  EXPECT_TRUE(p == nullptr);
  d.deallocate(nullptr, 0);
  d.deallocate(nullptr, 128);
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes);
  EXPECT_EQ(d.stats().live_allocations, before.live_allocations);
}

TEST(device, impossible_allocation_throws_out_of_memory_and_is_not_counted) {
  Device& d = test_device();
  MemoryStats before = d.stats();
  const std::size_t huge = std::size_t(1) << 62;
  EXPECT_THROW_CODE(d.allocate(huge), ErrorCode::OutOfMemory);
  bool typed = false;
  try {
    d.allocate(huge);
  } catch (const OutOfMemoryError& e) {
    typed = true;
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    EXPECT_EQ(e.requested_bytes(), padded_size(huge));
  } catch (...) {
  }
  EXPECT_TRUE(typed);
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes);
  EXPECT_EQ(d.stats().live_allocations, before.live_allocations);
}

TEST(device, buffer_owns_padded_memory_and_returns_it) {
  Device& d = test_device();
  MemoryStats before = d.stats();
  {
    BufferPtr b = Buffer::allocate(d, 100);
    EXPECT_EQ(&b->device(), &d);
    EXPECT_EQ(b->size(), std::size_t(100));
    EXPECT_EQ(b->capacity(), std::size_t(128));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b->data()) % 64, std::uintptr_t(0));
    EXPECT_EQ(d.stats().live_bytes - before.live_bytes, 128);
    BufferPtr shared = b;  // sharing does not allocate
    EXPECT_EQ(d.stats().live_bytes - before.live_bytes, 128);
    BufferPtr empty = Buffer::allocate(d, 0);
    EXPECT_TRUE(empty->data() == nullptr);
    EXPECT_EQ(empty->size(), std::size_t(0));
    EXPECT_EQ(empty->capacity(), std::size_t(0));
  }
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes);
  EXPECT_EQ(d.stats().live_allocations, before.live_allocations);
}

TEST(device, copy_and_memset_round_trip_through_the_device) {
  Device& d = test_device();
  SCOPED_TRACE(d.name());
  const std::size_t n = 1000;
  std::vector<uint8_t> host = random_bytes(n, 3);
  BufferPtr a = Buffer::allocate(d, n);
  BufferPtr b = Buffer::allocate(d, n);
  const int64_t copied = d.copied_bytes();
  d.copy(a->data(), host.data(), n, CopyKind::HostToDevice);
  d.copy(b->data(), a->data(), n, CopyKind::DeviceToDevice);
  d.memset(b->data() + 10, 0xAB, 5);
  d.copy(b->data(), a->data(), 0, CopyKind::DeviceToDevice);  // zero bytes: no-op
  d.memset(b->data(), 0, 0);                                  // zero bytes: no-op
  std::vector<uint8_t> back(n, 0);
  d.copy(back.data(), b->data(), n, CopyKind::DeviceToHost);
  std::vector<uint8_t> want = host;
  std::memset(want.data() + 10, 0xAB, 5);
  EXPECT_EQ(back, want);
  // Host <-> device bytes are counted on CUDA (twice n here); the CPU device never copies.
  EXPECT_EQ(d.copied_bytes() - copied, d.kind() == DeviceKind::Cuda ? int64_t(2 * n) : int64_t(0));
}

TEST(device, select_device_modes) {
  const CudaStatus& cuda = cuda_status();
  EXPECT_EQ(&cuda, &cuda_status());  // probed once

  DeviceSelection cpu = select_device("cpu");
  EXPECT_EQ(cpu.device, &cpu_device());
  EXPECT_FALSE(cpu.reason.empty());

  EXPECT_THROW_CODE(select_device("bogus"), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(select_device("CPU"), ErrorCode::InvalidArgument);
  EXPECT_THROW_CODE(select_device("gpu"), ErrorCode::InvalidArgument);

  DeviceSelection autos = select_device("auto");
  DeviceSelection empty = select_device("");
  EXPECT_EQ(autos.device, empty.device);
  EXPECT_FALSE(autos.reason.empty());
  if (cuda.available) {
    EXPECT_EQ(autos.device->kind(), DeviceKind::Cuda);
    DeviceSelection c = select_device("cuda");
    EXPECT_EQ(c.device, &cuda_device());
    EXPECT_EQ(c.device->kind(), DeviceKind::Cuda);
  } else {
    EXPECT_EQ(autos.device, &cpu_device());
    EXPECT_THROW_CODE(select_device("cuda"), ErrorCode::DeviceUnavailable);
    EXPECT_THROW_CODE(cuda_device(), ErrorCode::DeviceUnavailable);
  }
}

TEST(device, cuda_status_is_consistent) {
  const CudaStatus& s = cuda_status();
  if (!s.compiled) EXPECT_FALSE(s.available);
  if (!s.available) EXPECT_FALSE(s.reason.empty());
  if (s.available) {
    EXPECT_FALSE(s.gpu_name.empty());
    EXPECT_TRUE(s.memory_bytes > 0);
    EXPECT_EQ(cuda_device().kind(), DeviceKind::Cuda);
    EXPECT_EQ(&cuda_device(), &cuda_device());
    EXPECT_EQ(cuda_device().name().rfind("cuda:", 0), std::size_t(0));
  }
#ifdef GPUDF_WITH_CUDA
  EXPECT_TRUE(s.compiled);
#else
  EXPECT_FALSE(s.compiled);
  EXPECT_EQ(s.reason, std::string("built without CUDA"));
#endif
}

TEST(device, the_test_device_matches_the_selection) {
  // main() selects it from --device; auto must agree with select_device("auto").
  EXPECT_TRUE(test_device().kind() == DeviceKind::Cpu || cuda_status().available);
  if (test_device().kind() == DeviceKind::Cuda) EXPECT_EQ(&test_device(), &cuda_device());
  else EXPECT_EQ(&test_device(), &cpu_device());
}

TEST(error, codes_have_stable_names) {
  EXPECT_EQ(std::string(error_code_name(ErrorCode::InvalidArgument)), "ERR_INVALID_ARGUMENT");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::Dtype)), "ERR_DTYPE");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::ColumnNotFound)), "ERR_COLUMN_NOT_FOUND");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::OutOfMemory)), "ERR_OUT_OF_MEMORY");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::Disposed)), "ERR_DISPOSED");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::DeviceUnavailable)), "ERR_DEVICE_UNAVAILABLE");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::Io)), "ERR_IO");
  EXPECT_EQ(std::string(error_code_name(ErrorCode::Internal)), "ERR_INTERNAL");
  EXPECT_EQ(std::string(error_code_name(static_cast<ErrorCode>(1000))), "ERR_INTERNAL");
}

TEST(error, fail_and_expects_throw_the_code_and_message) {
  EXPECT_THROW_CODE(fail(ErrorCode::Io, "disk"), ErrorCode::Io);
  EXPECT_THROW_CODE(GPUDF_EXPECTS(1 + 1 == 3, ColumnNotFound, "nope"), ErrorCode::ColumnNotFound);
  GPUDF_EXPECTS(1 + 1 == 2, Internal, "never thrown");
  try {
    GPUDF_FAIL(Disposed, "the message");
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "the message");
    EXPECT_EQ(e.code(), ErrorCode::Disposed);
  }
  OutOfMemoryError oom(12345, "m");
  const Error& base = oom;
  EXPECT_EQ(base.code(), ErrorCode::OutOfMemory);
  EXPECT_EQ(oom.requested_bytes(), std::size_t(12345));
}

TEST(device, freed_large_cpu_blocks_are_reused_and_not_counted_live) {
  Device& d = cpu_device();
  const std::size_t big = (std::size_t(5) << 20) + 123;  // rounds to a 6 MiB block
  MemoryStats before = d.stats();
  void* a = d.allocate(big);
  ASSERT_TRUE(a != nullptr);
  std::memset(a, 0x5a, big);
  d.deallocate(a, big);
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes);
  void* b = d.allocate(big - 1000);  // same 2 MiB size class: the cached block comes back
  EXPECT_EQ(b, a);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 64, uintptr_t(0));
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes + int64_t(padded_size(big - 1000)));
  d.deallocate(b, big - 1000);
  EXPECT_EQ(d.stats().live_bytes, before.live_bytes);
}

TEST(device, memory_limit_refuses_before_the_system_is_asked_and_keeps_accounting_exact) {
  Device& d = test_device();
  SCOPED_TRACE(d.name());
  const int64_t old_limit = d.limit();
  const int64_t live = d.stats().live_bytes;
  d.set_limit(live + 4096);
  void* small = d.allocate(4000);  // padded 4032: fits
  bool refused = false;
  try {
    d.allocate(1000);  // padded 1024: 4032 + 1024 > 4096
  } catch (const OutOfMemoryError& e) {
    refused = true;
    EXPECT_EQ(e.requested_bytes(), std::size_t(1000));
    EXPECT_EQ(e.limit_bytes(), live + 4096);
    EXPECT_EQ(e.device(), std::string(d.kind() == DeviceKind::Cuda ? "cuda" : "cpu"));
  }
  EXPECT_TRUE(refused);
  EXPECT_EQ(d.stats().live_bytes, live + 4032);  // the refused bytes are not counted
  d.deallocate(small, 4000);
  d.set_limit(-1);
  void* big = d.allocate(std::size_t(1) << 20);
  EXPECT_TRUE(big != nullptr);
  d.deallocate(big, std::size_t(1) << 20);
  EXPECT_EQ(d.stats().live_bytes, live);
  d.set_limit(old_limit);
}

TEST(device, host_vector_out_of_memory_names_the_size) {
  // A request no allocator can meet: bad_alloc from the small-block path and a failed large
  // allocation both become OutOfMemoryError carrying the bytes asked for.
  HostAllocator<char> a;
  bool refused = false;
  try {
    a.allocate(std::size_t(1) << 61);
  } catch (const OutOfMemoryError& e) {
    refused = true;
    EXPECT_EQ(e.requested_bytes(), std::size_t(1) << 61);
  }
  EXPECT_TRUE(refused);
}
