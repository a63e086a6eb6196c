#!/usr/bin/env node
// Prints the node_modules folders (one per line, relative to the repo root) that the given
// packages need at run time on linux-x64: the packages themselves and their dependency closure
// (dependencies + optionalDependencies that fit linux/x64), resolved as Node does, from
// package-lock.json. Used by pack-gpu.sh to carry only what the GPU run needs.
//
//   node bench/lib/deps.mjs vitest apache-arrow nodejs-polars ...
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;

const fits = (entry) =>
  (!entry.os || entry.os.includes('linux')) && (!entry.cpu || entry.cpu.includes('x64')) &&
  (!entry.libc || entry.libc.includes('glibc'));

/** Node's lookup: <from>/node_modules/<name>, then each ancestor's node_modules. */
function resolve(from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (!dir) return null;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at < 0 ? '' : dir.slice(0, at);
  }
}

const seen = new Set();
const queue = process.argv.slice(2).map((name) => resolve('', name));
while (queue.length) {
  const path = queue.pop();
  if (!path || seen.has(path)) continue;
  const entry = lock[path];
  if (!fits(entry)) continue;
  seen.add(path);
  const deps = { ...entry.dependencies, ...entry.optionalDependencies };
  for (const name of Object.keys(deps)) {
    const found = resolve(path, name);
    if (found) queue.push(found);
    else if (!entry.optionalDependencies?.[name]) console.error(`deps: ${name} (needed by ${path}) is not in package-lock.json`);
  }
}
// A nested package travels with its parent folder: print top-level folders only once.
const top = [...seen].filter((p) => ![...seen].some((q) => q !== p && p.startsWith(q + '/')));
console.log(top.sort().join('\n'));
