#!/usr/bin/env node
// Builds the CUDA backend against the project's CUDA simulator (native/cuda_sim/,
// GPUDF_CUDA_SIM=ON) in build-sim/ — the addon and the native tests — and runs, with
// GPUDF_DEVICE=cuda through the simulated .cu code:
//   1. the native tests under the forward, reverse and random thread schedules;
//   2. scripts/device-compare.mjs: one seeded workload on the CPU backend and on the simulated
//      CUDA backend under each schedule, whose results must agree;
//   3. the vitest suite against the simulated addon (GPUDF_ADDON), under the random schedule
//      alone (--vitest-schedule S, repeatable, picks others): the suite takes several minutes a
//      run, and under the three schedules it held CI at 44 of its 45 minutes; random reorders
//      both the blocks and the threads in them, so it is the one that finds the most;
// then prints the kernel coverage: every __global__ in native/**/*.cu (outside the simulator's
// own tests) against the kernels the runs launched.
//
//   node scripts/cuda-sim.mjs [--sanitize | --tsan] [--skip-build] [--no-vitest] [--schedule S]... [FILTER...]
//
// --sanitize: build in build-sim-asan/ with -fsanitize=address,undefined at -O1 (the addon too:
// scripts/sanitize.mjs runs the CPU backend's checks on the same build; see
// scripts/sanitized-build.mjs) and run the native tests only, under the forward schedule unless
// --schedule says otherwise, leaving out the few tests in SANITIZE_SKIP (the slowest under the
// sanitizers; the unsanitized runs keep them).
// --tsan: the same with -fsanitize=thread in build-sim-tsan/: every simulated CUDA thread is a
// ThreadSanitizer thread (native/cuda_sim/tsan.hpp), so a missing barrier or a non-atomic
// update shared by CUDA threads is a report, and any report fails the run.
// --schedule: run only the given schedule(s) (forward, reverse, random:SEED).
// --vitest-schedule: the schedule(s) of step 3 (default: those of --schedule, or random:20261202).
// --no-vitest: skip steps 2 and 3. FILTER...: passed to gpudf_native_tests (test name filters)
// and implies --no-vitest.
// The native tests run in GPUDF_CUDA_SIM_JOBS (default 2) processes side by side (--shard).
// Exit status: non-zero when the build or any run fails. Without the CUDA toolkit's CCCL
// headers (Thrust) the run is skipped with a message, except under CI=true (CI builds it always).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SANITIZED_DIR, buildSanitized } from './sanitized-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const tsan = args.includes('--tsan');
const sanitize = args.includes('--sanitize') || tsan;
const skipBuild = args.includes('--skip-build');
const schedules = [];
const vitestSchedules = [];
const filters = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--schedule') schedules.push(args[++i]);
  else if (args[i] === '--vitest-schedule') vitestSchedules.push(args[++i]);
  else if (!['--sanitize', '--tsan', '--skip-build', '--no-vitest'].includes(args[i])) filters.push(args[i]);
}
const withVitest = !sanitize && filters.length === 0 && !args.includes('--no-vitest');
const RANDOM_SCHEDULE = 'random:20261202';
if (schedules.length === 0) schedules.push(...(sanitize ? ['forward'] : ['forward', 'reverse', RANDOM_SCHEDULE]));
// Under ASan + UBSan these take 11-121 s each (390 s of the suite's 530 s, one schedule, 2 cores);
// the kernels they launch are launched by other tests too (the coverage line below says so).
const SANITIZE_SKIP = [
  'groupby.aggregate_many_equals_one_at_a_time',
  'groupby.atomic_folds_on_both_sides_of_the_shared_memory_bound',
  'reduce.numeric_kinds_match_references_over_dtypes_patterns_lengths_offsets',
  'groupby.aggregate_many_groups_and_blocks',
  'null_count.large_bitmap_spans_several_cpu_chunks_and_grid_strides',
  'group_top.several_ranges_few_and_many_groups',
  'groupby.rows_long_strings_many_rows',
  'join.single_integer_keys_of_every_width_dense_and_sparse',
];
// Under TSan also: the simulator's own test of a missing barrier (it launches a racy kernel on
// purpose, to see wrong answers; TSan rightly reports it, and cuda_sim_tsan tests that report);
// the thread pool's tests (CPU only: scripts/sanitize.mjs runs them under TSan); and the slowest
// tests under TSan, whose kernels other tests launch too: the whole native suite took 565 s under
// TSan on this 2-core machine, these 376 s of it.
const TSAN_SKIP = [
  'cuda_sim.a_missing_barrier_gives_a_wrong_answer_under_some_schedule',
  'thread_pool.',
  'regex.backtracker_matches_the_vm_on_random_patterns',
  'sort.every_fixed_width_dtype_both_directions_nulls_first_and_last',
  'group_top.every_dtype_against_a_stable_sort',
  'groupby.rows_float_string_and_multi_keys',
  'groupby.rows_short_multi_keys',
  'groupby.rows_single_keys',
  'null_count.count_nulls_matches_reference_for_edge_lengths_and_offsets',
];
if (vitestSchedules.length === 0) {
  const given = args.includes('--schedule');
  vitestSchedules.push(...(given ? schedules : [RANDOM_SCHEDULE]));
}

// The same places native/cuda_sim/cuda_sim.cmake looks for Thrust.
const toolkits = [process.env.CUDA_HOME, process.env.CUDA_PATH].filter(Boolean);
try {
  for (const d of readdirSync('/usr/local')) if (d.startsWith('cuda')) toolkits.push(join('/usr/local', d));
} catch {
  // no /usr/local
}
const cccl = toolkits.flatMap((t) => [join(t, 'include', 'cccl'), join(t, 'targets', 'x86_64-linux', 'include', 'cccl')]);
if (!cccl.some((d) => existsSync(join(d, 'thrust', 'version.h')))) {
  const why = 'the CUDA toolkit\'s CCCL headers (Thrust) were not found (set CUDA_HOME)';
  if (process.env.CI === 'true') {
    console.error(`cuda-sim: ${why}; CI must run the simulator`);
    process.exit(1);
  }
  console.log(`cuda-sim: skipped: ${why}`);
  process.exit(0);
}

const buildDir = join(root, tsan ? 'build-sim-tsan' : sanitize ? SANITIZED_DIR : 'build-sim');
const jobs = process.env.GPUDF_CUDA_SIM_JOBS || '2';
const seconds = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) {
    console.error(`cuda-sim: could not run ${cmd}: ${r.error.message}`);
    return 1;
  }
  if (r.signal) {
    console.error(`cuda-sim: ${cmd} was killed by ${r.signal}`);
    return 1;
  }
  return r.status ?? 1;
}

const addon = join(buildDir, 'Release', 'gpudf.node');
if (!skipBuild) {
  const t0 = Date.now();
  if (tsan) {
    // The native tests alone, at -O1: the instrumented build compiles in about half of -O3's time
    // and the sanitizer's own overhead dominates the run either way.
    const configure = ['-S', '.', '-B', buildDir, '-DGPUDF_CUDA_SIM=ON', '-DCMAKE_BUILD_TYPE=Release',
      '-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG', '-DGPUDF_CUDA_SIM_SANITIZE=thread'];
    if (run('cmake', configure) !== 0) process.exit(1);
    if (run('cmake', ['--build', buildDir, `-j${jobs}`, '--target', 'gpudf_native_tests']) !== 0) process.exit(1);
  } else if (sanitize) {
    // The addon too: scripts/sanitize.mjs runs the CPU backend's checks on this same build.
    if (!buildSanitized(root, jobs).ok) process.exit(1);
  } else {
    // Through cmake-js, so the addon is built too (the vitest suite and device-compare load it).
    const cmakeJs = join(root, 'node_modules', 'cmake-js', 'bin', 'cmake-js');
    const argv = [cmakeJs, 'compile', '--log-level', 'warn', '-O', buildDir, '--CDGPUDF_CUDA_SIM=ON', '-p', jobs];
    if (run(process.execPath, argv) !== 0) process.exit(1);
  }
  console.log(`cuda-sim: build ${relative(root, buildDir)}/ took ${seconds(t0)} s`);
}

const binary = join(buildDir, 'gpudf_native_tests');
if (!existsSync(binary)) {
  console.error(`cuda-sim: ${relative(root, binary)} not found (run without --skip-build)`);
  process.exit(1);
}

const report = join(buildDir, 'cuda-sim-launches.txt');
rmSync(report, { force: true });
const env = {
  ...process.env,
  GPUDF_CUDA_SIM_REPORT: report,
  // The simulator's memory tracking keeps a few objects for the process's life on purpose.
  ASAN_OPTIONS: process.env.ASAN_OPTIONS ?? 'detect_leaks=0:abort_on_error=1:allocator_may_return_null=1',
  UBSAN_OPTIONS: process.env.UBSAN_OPTIONS ?? 'print_stacktrace=1:halt_on_error=1',
  TSAN_OPTIONS: process.env.TSAN_OPTIONS ?? 'halt_on_error=1:allocator_may_return_null=1',
};
// The native tests in `jobs` processes side by side (--shard I/N: a simulated launch runs on one
// host thread, so one process keeps one core busy), each one's output printed whole when it ends;
// the shards together must have run every selected test once. 0 when all passed.
async function runNativeTests(args, runEnv) {
  const list = spawnSync(binary, ['--list', ...args], { cwd: root, env: runEnv, encoding: 'utf8' });
  if (list.status !== 0) {
    process.stdout.write(list.stdout ?? '');
    return 1;
  }
  const expected = list.stdout.split('\n').filter(Boolean).length;
  const shards = Math.max(1, Math.min(Number(jobs) || 1, expected));
  const results = await Promise.all(Array.from({ length: shards }, (_, i) => new Promise((resolve) => {
    const child = spawn(binary, [...args, '--shard', `${i}/${shards}`], { cwd: root, env: runEnv });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => resolve({ code: 1, out: `cuda-sim: could not run ${binary}: ${e.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: signal ? 1 : code, out: signal ? `${out}cuda-sim: killed by ${signal}\n` : out }));
  })));
  let ran = 0;
  let status = 0;
  for (const r of results) {
    process.stdout.write(r.out);
    const m = r.out.match(/(\d+) passed, (\d+) failed\s*$/);
    if (m) ran += Number(m[1]) + Number(m[2]);
    if (r.code !== 0) status = 1;
  }
  if (ran !== expected) {
    console.error(`cuda-sim: ${shards} shard(s) ran ${ran} tests; the selection has ${expected}`);
    status = 1;
  }
  return status;
}

const failed = [];
for (const schedule of schedules) {
  const t0 = Date.now();
  console.log(`cuda-sim: GPUDF_CUDA_SIM_SCHEDULE=${schedule}`);
  const skips = sanitize ? [...SANITIZE_SKIP, ...(tsan ? TSAN_SKIP : [])].flatMap((t) => ['--skip', t]) : [];
  const status = await runNativeTests(['--device', 'cuda', ...skips, ...filters], { ...env, GPUDF_CUDA_SIM_SCHEDULE: schedule });
  console.log(`cuda-sim: schedule ${schedule}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(t0)} s`);
  if (status !== 0) failed.push(schedule);
}

// The same workload on the CPU backend and on the simulated CUDA backend: the answers must agree.
const compareScript = join(root, 'scripts', 'device-compare.mjs');
if (withVitest) {
  if (!existsSync(join(root, 'dist', 'index.js')) || !existsSync(join(root, 'build', 'Release', 'gpudf.node'))) {
    console.error('cuda-sim: device-compare needs the CPU build (build/Release/gpudf.node) and dist/ (npm ci)');
    failed.push('device-compare');
  } else {
    const outDir = join(buildDir, 'device-compare');
    mkdirSync(outDir, { recursive: true });
    const cpuJson = join(outDir, 'cpu.json');
    const cpuEnv = { ...process.env, GPUDF_DEVICE: 'cpu' };
    delete cpuEnv.GPUDF_ADDON;
    if (run(process.execPath, [compareScript, '--run', cpuJson], { env: cpuEnv }) !== 0) failed.push('device-compare (cpu)');
    for (const schedule of schedules) {
      const simJson = join(outDir, `sim-${schedule.replace(/[^a-z0-9]/gi, '_')}.json`);
      const simEnv = { ...env, GPUDF_ADDON: addon, GPUDF_DEVICE: 'cuda', GPUDF_CUDA_SIM_SCHEDULE: schedule };
      const ok = run(process.execPath, [compareScript, '--run', simJson], { env: simEnv }) === 0 &&
        run(process.execPath, [compareScript, '--compare', cpuJson, simJson]) === 0;
      if (!ok) failed.push(`device-compare (${schedule})`);
    }
  }
}

// The vitest suite through the simulated CUDA backend.
if (withVitest) {
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  for (const schedule of vitestSchedules) {
    const t0 = Date.now();
    console.log(`cuda-sim: vitest with GPUDF_DEVICE=cuda, GPUDF_CUDA_SIM_SCHEDULE=${schedule}`);
    // test/pack.test.ts installs and builds a packed gpudf of its own: nothing of the
    // simulated addon, so it runs in the CPU suite only.
    const status = run(process.execPath, [vitest, 'run', '--exclude', 'test/pack.test.ts'], {
      env: { ...env, GPUDF_ADDON: addon, GPUDF_DEVICE: 'cuda', GPUDF_CUDA_SIM_SCHEDULE: schedule },
    });
    console.log(`cuda-sim: vitest under ${schedule}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(t0)} s`);
    if (status !== 0) failed.push(`vitest (${schedule})`);
  }
}

// Coverage: the kernels in the sources against those the runs launched.
function cuFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (relative(root, p) !== join('native', 'cuda_sim')) out.push(...cuFiles(p));
    } else if (e.name.endsWith('.cu')) {
      out.push(p);
    }
  }
  return out;
}
const kernels = new Set();
for (const file of cuFiles(join(root, 'native'))) {
  const text = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of text.matchAll(/__global__\b([^;{(]*?)\b([A-Za-z_]\w*)\s*\(/g)) {
    kernels.add(`${relative(root, file).split('\\').join('/')}:${m[2]}`);
  }
}
const launched = new Set();
if (existsSync(report)) {
  for (const line of readFileSync(report, 'utf8').split('\n')) {
    const [count, name] = line.trim().split(/\s+/);
    if (name && Number(count) > 0) launched.add(name);
  }
}
const missing = [...kernels].filter((k) => !launched.has(k)).sort();
if (missing.length) console.log(`cuda-sim: never launched: ${missing.join(', ')}`);
if (failed.length) console.log(`cuda-sim: FAILED under ${failed.join(', ')}`);
console.log(`cuda-sim kernels launched: ${kernels.size - missing.length} of ${kernels.size}`);
process.exit(failed.length ? 1 : 0);
