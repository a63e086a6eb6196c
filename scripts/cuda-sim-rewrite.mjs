#!/usr/bin/env node
// Rewrites one .cu file for the CUDA simulator build (GPUDF_CUDA_SIM=ON): g++ cannot parse
// kernel<<<grid, block, shmem, stream>>>(args), so each launch becomes a call of
// ::cuda_sim::launch(::cuda_sim::config(grid, block, shmem, stream), "file.cu:kernel",
// [](auto&&... a) { kernel(a...); }, args), each `extern __shared__ T name[];` becomes a
// pointer to the block's dynamic shared memory and each `__shared__ T name[n];` a reference into
// its static shared memory. Line breaks are kept and a #line directive names
// the .cu, so diagnostics, debuggers and sanitizers point at the original source.
//
//   node scripts/cuda-sim-rewrite.mjs INPUT.cu OUTPUT.cpp KEY-PATH
//
// KEY-PATH (e.g. native/ops/join/join.cu) prefixes the kernel names the launch counter reports.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const [input, output, keyPath] = process.argv.slice(2);
if (!input || !output || !keyPath) {
  console.error('usage: cuda-sim-rewrite.mjs INPUT.cu OUTPUT.cpp KEY-PATH');
  process.exit(2);
}
const src = readFileSync(input, 'utf8');

// code[i] is true where src[i] is code (not inside a comment, string or character literal).
function codeMask(s) {
  const mask = new Uint8Array(s.length);
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    const n = s[i + 1];
    if (c === '/' && n === '/') {
      while (i < s.length && s[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = s.indexOf('*/', i + 2);
      i = end < 0 ? s.length : end + 2;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < s.length && s[i] !== c) i += s[i] === '\\' ? 2 : 1;
      i++;
    } else {
      mask[i] = 1;
      i++;
    }
  }
  return mask;
}

const code = codeMask(src);
const lineOf = (pos) => src.slice(0, pos).split('\n').length;
const fail = (pos, msg) => {
  console.error(`${input}:${lineOf(pos)}: cuda-sim-rewrite: ${msg}`);
  process.exit(1);
};
const findCode = (needle, from) => {
  for (let i = src.indexOf(needle, from); i >= 0; i = src.indexOf(needle, i + 1)) {
    if (code[i]) return i;
  }
  return -1;
};
// Index just past the bracket matching the one at `open`, skipping non-code.
function matchForward(open, o, c) {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (!code[i]) continue;
    if (src[i] === o) depth++;
    else if (src[i] === c && --depth === 0) return i + 1;
  }
  return fail(open, `unbalanced '${o}'`);
}

const edits = []; // [start, end, text]

for (let at = findCode('<<<', 0); at >= 0; at = findCode('<<<', at + 3)) {
  // The kernel expression before <<<: an identifier (maybe qualified) with optional <template args>.
  let p = at;
  while (p > 0 && /\s/.test(src[p - 1])) p--;
  const nameEnd = p;
  if (src[p - 1] === '>') {
    let depth = 0;
    for (p = p - 1; p >= 0; p--) {
      if (!code[p]) continue;
      if (src[p] === '>') depth++;
      else if (src[p] === '<' && --depth === 0) break;
    }
    if (p < 0) fail(at, 'cannot find the kernel template arguments');
  }
  const idEnd = p;
  while (p > 0 && /[A-Za-z0-9_:]/.test(src[p - 1])) p--;
  const nameStart = p;
  const base = src.slice(nameStart, idEnd).split('::').pop();
  if (!/^[A-Za-z_]\w*$/.test(base)) fail(at, 'cannot find the kernel name before <<<');
  const close = findCode('>>>', at + 3);
  if (close < 0) fail(at, 'no >>> after <<<');
  const cfg = src.slice(at + 3, close);
  let q = close + 3;
  while (q < src.length && /\s/.test(src[q])) q++;
  if (src[q] !== '(') fail(close, 'expected ( after >>>');
  const argsEnd = matchForward(q, '(', ')');
  const args = src.slice(q + 1, argsEnd - 1);
  const name = src.slice(nameStart, nameEnd);
  // Line breaks in the gaps this drops, so every later line keeps its number.
  const gaps = (src.slice(nameEnd, at) + src.slice(close + 3, q)).replace(/[^\n]/g, '');
  const text =
    `::cuda_sim::launch(::cuda_sim::config(${cfg}), "${keyPath}:${base}", ` +
    `[](auto&&... cuda_sim_arg) { ${name}(cuda_sim_arg...); }` +
    (args.trim() ? `, ${args}` : '') +
    `)${gaps}`;
  edits.push([nameStart, argsEnd, text]);
  at = argsEnd - 3;
}

const sharedRe = /extern\s+__shared__\s+([^;[\]{}()]*?(?:__align__\s*\(\s*\d+\s*\))?[^;[\]{}()]*?)\s*\b([A-Za-z_]\w*)\s*\[\s*\]\s*;/g;
for (const m of src.matchAll(sharedRe)) {
  if (!code[m.index]) continue;
  const type = m[1].replace(/__align__\s*\(\s*\d+\s*\)/g, '').trim();
  const lines = m[0].replace(/[^\n]/g, '');
  edits.push([m.index, m.index + m[0].length,
    `${type}* const ${m[2]} = static_cast<${type}*>(::cuda_sim::dynamic_shared_memory());${lines}`]);
}

// A static `__shared__ T name[dims];` (inside a function) becomes a reference into the running
// block's static shared memory, which the simulator poisons per block as the GPU leaves it
// undefined; a thread_local would carry one block's values into the next.
const staticRe = /(?<!extern\s+)__shared__\s+([^;{}()=]*?(?:__align__\s*\(\s*\d+\s*\))?[^;{}()=]*?)\s*\b([A-Za-z_]\w*)\s*((?:\[[^\];]*\]\s*)*);/g;
const braceDepth = (pos) => {
  let d = 0;
  for (let i = 0; i < pos; i++) if (code[i]) d += src[i] === '{' ? 1 : src[i] === '}' ? -1 : 0;
  return d;
};
for (const m of src.matchAll(staticRe)) {
  if (!code[m.index]) continue;
  const type = m[1].replace(/__align__\s*\(\s*\d+\s*\)/g, '').trim();
  if (!type || /,/.test(type.replace(/<[^<>]*>/g, ''))) fail(m.index, 'one __shared__ variable per declaration, please');
  if (braceDepth(m.index) === 0) fail(m.index, '__shared__ at namespace scope is not supported by the simulator');
  const key = `cuda_sim_shared_key_${m[2]}`;
  const lines = m[0].replace(/[^\n]/g, '');
  edits.push([m.index, m.index + m[0].length,
    `static const char ${key} = 0; auto& ${m[2]} = ::cuda_sim::static_shared<${type}${m[3].trim()}>(&${key});${lines}`]);
}

for (let at = findCode('__shared__', 0); at >= 0; at = findCode('__shared__', at + 1)) {
  if (!edits.some(([s, e]) => at >= s && at < e)) fail(at, 'a __shared__ declaration the simulator cannot rewrite');
}

edits.sort((a, b) => a[0] - b[0]);
let out = '';
let pos = 0;
for (const [s, e, t] of edits) {
  if (s < pos) fail(s, 'overlapping rewrites');
  out += src.slice(pos, s) + t;
  pos = e;
}
out += src.slice(pos);

const header =
  `// Generated from ${keyPath} by scripts/cuda-sim-rewrite.mjs for the CUDA simulator build.\n` +
  '#include <cuda_runtime.h>\n' +
  (/thrust::/.test(src) ? '#include "cuda_sim/thrust.hpp"\n' : '') +
  `#line 1 ${JSON.stringify(resolve(input))}\n`;
const text = header + out;
mkdirSync(dirname(output), { recursive: true });
// Unchanged output keeps its timestamp, so the compiler does not run again.
if (!existsSync(output) || readFileSync(output, 'utf8') !== text) writeFileSync(output, text);
