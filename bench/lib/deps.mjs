#!/usr/bin/env node
// Prints the node_modules folders (one per line, relative to the repo root) that the given
// packages need at run time on linux-x64: the packages themselves and their dependency closure
// (dependencies + optionalDependencies that fit linux/x64), resolved as Node does, from
// package-lock.json. Used by pack-gpu.sh to carry only what the GPU run needs.
//
//   node bench/lib/deps.mjs [--imports-of PATH]... [--may-lack PKG]... PKG...
//
// --imports-of PATH (a file or a folder, searched for .ts/.mjs/.js files) checks that every
// package PATH imports or requires by a bare name ("x", "x/sub", "@s/x") is among the packages
// printed, and exits 1 naming the missing ones, so a new import in the tests or the library
// cannot leave the GPU box without its package. Type-only imports and node: built-ins are not
// counted; "gpudf" is the library itself (vitest.config.ts aliases it to src/). A package named
// by --may-lack is left out knowingly: the files that need it are only listed on stderr.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;

const args = process.argv.slice(2);
const importsOf = [];
const mayLack = new Set();
const roots = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--imports-of') importsOf.push(args[++i]);
  else if (args[i] === '--may-lack') mayLack.add(args[++i]);
  else roots.push(args[i]);
}

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
const queue = roots.map((name) => resolve('', name));
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

/** Bare package names imported (statically or by import()) by the .ts/.mjs/.js files under path. */
function importedPackages(path, found = new Map()) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path)) importedPackages(join(path, name), found);
    return found;
  }
  if (!/\.(ts|mts|mjs|js)$/.test(path) || path.endsWith('.d.ts')) return found;
  // Comments out (roughly: a "//" after ":" or a quote, as in a URL, is kept).
  const text = readFileSync(path, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"])\/\/.*$/gm, '$1');
  // import/export ... from "x" (at the start of a line, possibly over several lines),
  // import("x"), import "x", require("x"), createRequire(...)("x").
  const specifiers = /^\s*(?:import|export)\s+(type\s)?[^;'"]*?\bfrom\s*['"]([^'"]+)['"]|\b(?:import|require|createRequire\([^()]*\))\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(specifiers)) {
    if (m[1]) continue; // import type ... from "x": erased before run time
    const spec = m[2] ?? m[3] ?? m[4];
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec === 'gpudf') continue;
    const parts = spec.split('/');
    const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    if (!found.has(name)) found.set(name, path);
  }
  return found;
}

if (importsOf.length) {
  const packed = new Set([...seen].map((p) => p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length)));
  const missing = new Map();
  for (const path of importsOf) {
    for (const [name, file] of importedPackages(join(root, path))) {
      if (packed.has(name) || missing.has(name)) continue;
      if (mayLack.has(name)) console.error(`deps: not packed: ${name}, which ${file.slice(root.length + 1)} needs`);
      else missing.set(name, file.slice(root.length + 1));
    }
  }
  if (missing.size) {
    const list = [...missing].map(([name, file]) => `${name} (imported by ${file})`);
    console.error(`deps: imported but not among the packages: ${list.join(', ')}`);
    process.exit(1);
  }
}

// A nested package travels with its parent folder: print top-level folders only once.
const top = [...seen].filter((p) => ![...seen].some((q) => q !== p && p.startsWith(q + '/')));
console.log(top.sort().join('\n'));
