#!/usr/bin/env node
// The sanitizer run (part of `npm test`):
//   1. build-sim-asan/ (scripts/sanitized-build.mjs, shared with scripts/cuda-sim.mjs --sanitize,
//      which usually built it already): the native tests and the addon with AddressSanitizer +
//      UndefinedBehaviorSanitizer; here on the CPU backend: the native tests with LeakSanitizer on,
//      a slice of vitest with that addon (GPUDF_ADDON; node itself gets the runtimes by
//      LD_PRELOAD, leak checks off for node), and the fuzzers;
//   2. build-tsan/: the thread pool and its tests under ThreadSanitizer.
// Every sanitizer halts on its first report, so any report fails the run.
//
//   node scripts/sanitize.mjs [--skip-build] [--fuzz-cases N] [--jobs N]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANITIZED_DIR, buildSanitized } from './sanitized-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const skipBuild = argv.includes('--skip-build');
const fuzzCases = Number(opt('fuzz-cases', '2000'));
const jobs = Number(opt('jobs', String(Math.max(1, cpus().length))));

const gccLib = (name) => spawnSync('gcc', [`-print-file-name=${name}`], { encoding: 'utf8' }).stdout.trim();
const ASAN_OPTIONS = 'halt_on_error=1:abort_on_error=1:allocator_may_return_null=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=0';
const UBSAN_OPTIONS = 'halt_on_error=1:print_stacktrace=1';

const started = Date.now();
const phases = [];
function run(label, cmd, args, env = {}) {
  const t0 = Date.now();
  console.log(`sanitize: ${label}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  const seconds = (Date.now() - t0) / 1000;
  phases.push(`${label} ${seconds.toFixed(0)} s`);
  if (r.status !== 0) {
    console.error(`sanitize: ${label} failed (${r.signal ?? `exit ${r.status}`})`);
    process.exit(1);
  }
}

// 1. ASan + UBSan.
const asanDir = join(root, SANITIZED_DIR);
let built;
if (skipBuild) {
  built = {
    addon: [join(asanDir, 'Release', 'gpudf.node'), join(asanDir, 'gpudf.node')].find(existsSync),
    tests: [join(asanDir, 'gpudf_native_tests'), join(asanDir, 'Release', 'gpudf_native_tests')].find(existsSync),
  };
} else {
  const t0 = Date.now();
  console.log(`sanitize: build ${SANITIZED_DIR}/ (ASan + UBSan; nothing to do when cuda-sim --sanitize built it)`);
  built = buildSanitized(root, jobs);
  if (!built.ok) {
    console.error(`sanitize: the build of ${SANITIZED_DIR}/ failed`);
    process.exit(1);
  }
  phases.push(`build ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
const { addon, tests } = built;
if (!addon || !tests) {
  console.error(`sanitize: ${SANITIZED_DIR}/ has no addon or native test binary`);
  process.exit(1);
}
// The simulator's own tests (suite cuda_sim) are left out here: some end a launch from inside a
// broken warp operation on purpose, leaving that fiber's frames unreturned (their strings stay
// unfreed), and they test the simulator, not the CPU backend; cuda-sim --sanitize runs them.
run('native tests under ASan + UBSan + LSan', tests, ['--device', 'cpu', '--skip', 'cuda_sim.'], { ASAN_OPTIONS, UBSAN_OPTIONS });

// Node itself is not instrumented: the runtimes come first by LD_PRELOAD, and leaks are not
// checked in the node process (V8 keeps memory to exit by design).
const nodeEnv = {
  GPUDF_ADDON: addon,
  GPUDF_DEVICE: 'cpu',
  LD_PRELOAD: [gccLib('libasan.so'), gccLib('libubsan.so')].join(':'),
  ASAN_OPTIONS: ASAN_OPTIONS.replace('detect_leaks=1', 'detect_leaks=0'),
  UBSAN_OPTIONS,
};
const slice = ['test/reliability.test.ts', 'test/reliability_ipc.test.ts', 'test/reliability_memory.test.ts',
  'test/reliability_walks.test.ts', 'test/errors.test.ts', 'test/join.test.ts', 'test/csv.test.ts', 'test/groupby.test.ts'];
run('vitest slice with the sanitized addon', process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...slice], nodeEnv);
run(`fuzz (${fuzzCases} cases) with the sanitized addon`, process.execPath,
  [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(root, 'test', 'fuzz', 'run.ts'), '--cases', String(fuzzCases), '--jobs', '2', '--timeout-ms', '180000'], nodeEnv);

// 2. ThreadSanitizer over the thread pool and its tests (a build of just what they need).
const tsanDir = join(root, 'build-tsan');
mkdirSync(tsanDir, { recursive: true });
const tsanBin = join(tsanDir, 'thread_pool_tests');
const sources = ['native/tests/main.cpp', 'native/tests/thread_pool_test.cpp', 'native/core/thread_pool.cpp', 'native/core/device.cpp',
  'native/core/cpu_device.cpp', 'native/core/cuda_absent.cpp', 'native/core/error.cpp'];
run('build build-tsan/ (ThreadSanitizer, thread pool)', 'g++', ['-std=c++20', '-O1', '-g', '-fsanitize=thread', '-Inative', '-pthread', ...sources, '-o', tsanBin]);
run('thread pool tests under TSan', tsanBin, ['--device', 'cpu', 'thread_pool'], { TSAN_OPTIONS: 'halt_on_error=1:second_deadlock_stack=1' });

console.log(`sanitize: no reports (${phases.join('; ')}; ${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
