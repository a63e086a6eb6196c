// Runs the registered native tests.
//
//   gpudf_native_tests [--device cpu|cuda|auto] [--verbose] [--list] [--run-disabled] [--skip S]...
//                      [--shard I/N] [FILTER...]
//
// FILTER: run only tests whose "suite.name" contains one of the given substrings; --skip S: leave
// out the tests whose "suite.name" contains S; --shard I/N: of those, only every Nth from the Ith
// (N processes with I = 0 .. N-1 run each selected test once, side by side).
// Tests named DISABLED_* (known core bugs, kept as reproducers) run only with --run-disabled.
// --device: where tests allocate (default auto: cuda when cuda_status().available, else cpu).
// Prints one line per failure and ends with "N passed, N failed"; exits 1 when any test failed
// (or none matched the filter), 2 on a usage error or an unusable --device.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "tests/testing.hpp"

namespace gpudf::testing {
namespace {

std::mutex g_failure_mutex;
std::vector<std::string> g_failures;  // of the running test
Device* g_device = nullptr;
thread_local std::vector<std::string> t_trace;

std::string short_path(const char* file) {
  std::string f = file;
  auto pos = f.rfind("native/");
  return pos == std::string::npos ? f : f.substr(pos);
}

}  // namespace

std::vector<TestCase>& registry() {
  static std::vector<TestCase> tests;
  return tests;
}

void record_failure(const char* file, int line, const std::string& message) {
  std::string text = short_path(file) + ":" + std::to_string(line) + ": " + message;
  for (const auto& t : t_trace) text += " [" + t + "]";
  std::lock_guard<std::mutex> lock(g_failure_mutex);
  g_failures.push_back(std::move(text));
}

ScopedTrace::ScopedTrace(std::string text) { t_trace.push_back(std::move(text)); }
ScopedTrace::~ScopedTrace() { t_trace.pop_back(); }

Device& test_device() { return g_device ? *g_device : cpu_device(); }
void set_test_device(Device& device) { g_device = &device; }

}  // namespace gpudf::testing

namespace {

void usage(FILE* out) {
  std::fprintf(out,
               "usage: gpudf_native_tests [--device cpu|cuda|auto] [--verbose] [--list] "
               "[--run-disabled] [--skip S]... [--shard I/N] [FILTER...]\n"
               "  --device        where tests allocate; auto (default): cuda when available\n"
               "  --verbose, -v   print every passing test with its time\n"
               "  --list          list the selected tests and exit\n"
               "  --run-disabled  also run DISABLED_* tests (reproducers of known core bugs)\n"
               "  --skip S        leave out tests whose suite.name contains S (repeatable)\n"
               "  --shard I/N     of the selected tests, run those at positions I, I + N, ... (0 <= I < N)\n"
               "  FILTER          run only tests whose suite.name contains one of these\n");
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpudf::testing;
  std::string mode = "auto";
  bool verbose = false, list = false, run_disabled = false;
  long shard = 0, shards = 1;
  std::vector<std::string> filters, skips;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      mode = argv[++i];
    } else if (a.rfind("--device=", 0) == 0) {
      mode = a.substr(9);
    } else if (a == "--verbose" || a == "-v") {
      verbose = true;
    } else if (a == "--list") {
      list = true;
    } else if (a == "--run-disabled") {
      run_disabled = true;
    } else if (a == "--skip" && i + 1 < argc) {
      skips.push_back(argv[++i]);
    } else if (a == "--shard" && i + 1 < argc) {
      char* end = nullptr;
      const char* spec = argv[++i];
      shard = std::strtol(spec, &end, 10);
      shards = *end == '/' ? std::strtol(end + 1, &end, 10) : 0;
      if (*end != 0 || shards < 1 || shard < 0 || shard >= shards) {
        std::fprintf(stderr, "--shard must be I/N with 0 <= I < N, got '%s'\n", spec);
        return 2;
      }
    } else if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    } else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      usage(stderr);
      return 2;
    } else {
      filters.push_back(a);
    }
  }
  if (mode != "auto" && mode != "cpu" && mode != "cuda") {
    std::fprintf(stderr, "--device must be cpu, cuda or auto, got '%s'\n", mode.c_str());
    return 2;
  }

  std::vector<TestCase> selected;
  std::size_t disabled = 0;
  for (const TestCase& t : registry()) {
    std::string full = std::string(t.suite) + "." + t.name;
    if (!run_disabled && std::string(t.name).rfind("DISABLED_", 0) == 0) {
      ++disabled;
      continue;
    }
    bool match = filters.empty();
    for (const auto& f : filters) match = match || full.find(f) != std::string::npos;
    for (const auto& k : skips) match = match && full.find(k) == std::string::npos;
    if (match) selected.push_back(t);
  }
  if (shards > 1) {
    std::vector<TestCase> mine;
    for (std::size_t k = shard; k < selected.size(); k += std::size_t(shards)) mine.push_back(selected[k]);
    selected.swap(mine);
  }
  if (list) {
    for (const TestCase& t : selected) std::printf("%s.%s\n", t.suite, t.name);
    return 0;
  }

  try {
    gpudf::DeviceSelection sel = gpudf::select_device(mode);
    set_test_device(*sel.device);
    std::printf("gpudf native tests: device %s (%s); running %zu of %zu tests", sel.device->name().c_str(),
                sel.reason.c_str(), selected.size(), registry().size());
    if (disabled) std::printf(" (%zu disabled; --run-disabled runs them)", disabled);
    std::printf("\n");
  } catch (const gpudf::Error& e) {
    std::fprintf(stderr, "--device %s: %s (%s)\n", mode.c_str(), e.what(),
                 gpudf::error_code_name(e.code()));
    return 2;
  }
  std::fflush(stdout);

  int passed = 0, failed = 0;
  for (const TestCase& t : selected) {
    const std::string full = std::string(t.suite) + "." + t.name;
    {
      std::lock_guard<std::mutex> lock(g_failure_mutex);
      g_failures.clear();
    }
    std::string uncaught;
    auto start = std::chrono::steady_clock::now();
    try {
      t.fn();
    } catch (const AssertionAbort&) {
      // already recorded
    } catch (const gpudf::Error& e) {
      uncaught = std::string("uncaught gpudf::Error ") + gpudf::error_code_name(e.code()) + ": " +
                 e.what();
    } catch (const std::exception& e) {
      uncaught = std::string("uncaught exception: ") + e.what();
    } catch (...) {
      uncaught = "uncaught exception of unknown type";
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    std::vector<std::string> failures;
    {
      std::lock_guard<std::mutex> lock(g_failure_mutex);
      failures.swap(g_failures);
    }
    if (!uncaught.empty()) failures.push_back(uncaught);
    for (const auto& f : failures) std::printf("FAIL %s: %s\n", full.c_str(), one_line(f).c_str());
    if (failures.empty()) {
      ++passed;
      if (verbose) std::printf("ok   %s (%.1f ms)\n", full.c_str(), ms);
    } else {
      ++failed;
    }
    std::fflush(stdout);
  }
  if (selected.empty()) std::printf("no test matches the filter\n");
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed > 0 || selected.empty() ? 1 : 0;
}
