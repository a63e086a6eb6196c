#!/usr/bin/env node
// npm's install step. When the prebuilt-addon package for this platform is installed (an
// optional dependency; see scripts/make-prebuilt.mjs), the addon is already compiled and
// nothing is built. Otherwise the addon is built from source with cmake-js (GPUDF_CUDA picks
// the CUDA backend). GPUDF_BUILD_FROM_SOURCE=1 always builds.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

async function prebuiltAddon() {
  // The name comes from the compiled sources (dist/), present in a packed gpudf; a checkout
  // has no dist/ before its first build and always builds from source.
  const platform = join(root, 'dist', 'native', 'platform.js');
  if (!existsSync(platform)) return null;
  const { prebuiltPackageName } = await import(pathToFileURL(platform).href);
  try {
    return require.resolve(`${prebuiltPackageName()}/gpudf.node`);
  } catch {
    return null;
  }
}

const prebuilt = process.env.GPUDF_BUILD_FROM_SOURCE ? null : await prebuiltAddon();
if (prebuilt) {
  console.log(`gpudf: using the prebuilt addon ${prebuilt}`);
  process.exit(0);
}
const cmakeJs = require.resolve('cmake-js/bin/cmake-js');
const r = spawnSync(process.execPath, [cmakeJs, 'compile', '--log-level', 'warn'], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
