#!/usr/bin/env node
// Runs the C++ tests of the native core (native/tests/), built by `npm run build:native` into
// build/gpudf_native_tests (or build/Release/ with multi-config generators).
//
//   node scripts/native-tests.mjs [--device cpu|cuda|auto] [--verbose] [--list] [FILTER...]
//
// Arguments pass through to the binary; the exit status is the binary's.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const exe = process.platform === 'win32' ? 'gpudf_native_tests.exe' : 'gpudf_native_tests';
const candidates = [
  join(root, 'build', exe),
  join(root, 'build', 'Release', exe),
  join(root, 'build', 'Debug', exe),
];

const isFile = (p) => existsSync(p) && statSync(p).isFile();
const found = candidates.filter(isFile);
if (found.length === 0) {
  console.error(
    'gpudf native tests: the test binary was not found (looked for ' +
      candidates.map((p) => relative(root, p)).join(', ') +
      ').\nBuild it first with `npm run build:native`.',
  );
  process.exit(1);
}
// Several builds present: run the newest.
found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
const binary = found[0];

const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit', cwd: root });
if (result.error) {
  console.error(`gpudf native tests: could not run ${relative(root, binary)}: ${result.error.message}`);
  process.exit(1);
}
if (result.signal) {
  console.error(`gpudf native tests: ${relative(root, binary)} was killed by ${result.signal}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
