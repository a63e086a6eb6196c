#!/usr/bin/env node
// Makes the prebuilt-addon package for this platform from the addon built here
// (build/Release/gpudf.node): a folder gpudf-<platform>-<arch>[-<libc>]/ with the addon and a
// package.json whose os/cpu/libc fields let npm install it only where it runs, and its tarball.
//
//   node scripts/make-prebuilt.mjs [--out DIR] [--addon PATH]
//
// Publishing (not done from here): publish each platform's package, then list them all in
// gpudf's optionalDependencies at the same version. npm installs the one that matches the
// machine; gpudf's install step (scripts/install.mjs) then builds nothing, and the loader
// (src/native/platform.ts, addon.ts) finds the addon in it. Where none matches, npm skips
// them all and the install step builds from source, as it does in a checkout.
// Build the addon for a package with the CUDA backend on (GPUDF_CUDA=ON): it links the CUDA
// runtime statically and falls back to the CPU backend where no GPU or driver is present.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : dflt;
};
const out = opt('--out', join(root, 'prebuilt'));
const addon = opt('--addon', join(root, 'build', 'Release', 'gpudf.node'));
if (!existsSync(addon)) {
  console.error(`make-prebuilt: ${addon} does not exist; build it first (npm run build:native)`);
  process.exit(1);
}
const platformJs = join(root, 'dist', 'native', 'platform.js');
if (!existsSync(platformJs)) {
  console.error('make-prebuilt: dist/ is missing; run `npm run build:ts` first');
  process.exit(1);
}
const { prebuiltPackageName } = await import(pathToFileURL(platformJs).href);
const name = prebuiltPackageName();
const gpudf = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const [, , arch, libc] = name.split('-');

const dir = join(out, name);
mkdirSync(dir, { recursive: true });
copyFileSync(addon, join(dir, 'gpudf.node'));
const pkg = {
  name,
  version: gpudf.version,
  description: `gpudf's compiled native addon for ${process.platform} ${arch}${libc ? ` (${libc === 'gnu' ? 'glibc' : libc})` : ''}`,
  license: gpudf.license,
  os: [process.platform],
  cpu: [arch],
  ...(libc ? { libc: [libc === 'gnu' ? 'glibc' : libc] } : {}),
  files: ['gpudf.node'],
};
writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
writeFileSync(
  join(dir, 'README.md'),
  `# ${name}\n\nThe compiled native addon of gpudf ${gpudf.version} for this platform. Install \`gpudf\`, not this package.\n`,
);
const r = spawnSync('npm', ['pack', '--pack-destination', out], { cwd: dir, encoding: 'utf8' });
if (r.status !== 0) {
  console.error(r.stderr);
  process.exit(1);
}
const tarball = join(out, r.stdout.trim().split('\n').pop());
console.log(JSON.stringify({ name, version: gpudf.version, dir, tarball }));
