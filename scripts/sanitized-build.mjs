// The ASan + UBSan build (build-sim-asan/): the addon and the native tests, with the CUDA backend
// built for the project's CUDA simulator, at -O1. One build serves two runs:
//   - scripts/cuda-sim.mjs --sanitize: the native tests through the simulated .cu code;
//   - scripts/sanitize.mjs: the CPU backend (GPUDF_DEVICE=cpu): the native tests with
//     LeakSanitizer on, a vitest slice with the addon, and the fuzzers.
// Both call buildSanitized() with the same configure arguments, so whichever runs second finds
// nothing to build. The CPU code in it is the code of every other build; the simulator adds only
// the .cu files beside it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const SANITIZED_DIR = 'build-sim-asan';

/** Builds build-sim-asan/ under `root` with `jobs` jobs; returns its addon and test binary. */
export function buildSanitized(root, jobs) {
  const cmakeJs = join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js');
  const argv = [cmakeJs, 'compile', '--log-level', 'warn', '-O', SANITIZED_DIR, '-p', String(jobs),
    '--CDGPUDF_CUDA_SIM=ON', '--CDGPUDF_CUDA_SIM_SANITIZE=address,undefined', '--CDCMAKE_BUILD_TYPE=Release',
    // -O1: the instrumented build compiles in about half of -O3's time and the sanitizers' own
    // overhead dominates the run either way; -g1: line tables, for the reports' stack traces.
    '--CDCMAKE_CXX_FLAGS_RELEASE=-O1 -g1 -DNDEBUG'];
  const r = spawnSync(process.execPath, argv, { stdio: 'inherit', cwd: root });
  const dir = join(root, SANITIZED_DIR);
  const addon = [join(dir, 'Release', 'gpudf.node'), join(dir, 'gpudf.node')].find(existsSync);
  const tests = [join(dir, 'gpudf_native_tests'), join(dir, 'Release', 'gpudf_native_tests')].find(existsSync);
  return { ok: r.status === 0 && Boolean(addon) && Boolean(tests), addon, tests };
}
