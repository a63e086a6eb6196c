#!/usr/bin/env node
// Runs one fixed, seeded workload (filters, sorts, groupBy aggregations, joins, unique, top-k,
// expressions, reductions, rolling windows and a lazy query over a multi-block table with nulls, NaN and
// non-ASCII strings) on the device the environment selects, and writes every result to a JSON
// file; or compares two such files. Both backends must give the same answers, so the CPU backend
// against the CUDA code on the simulator (npm run test:cuda-sim), and the simulator against a real
// GPU (bench/gpu.sh), must agree: integers, strings, booleans and nulls exactly, floats within a
// relative 1e-9 (grouped float folds may round differently on CPU and GPU: docs/semantics.md).
//
//   GPUDF_DEVICE=cpu node scripts/device-compare.mjs --run cpu.json
//   GPUDF_ADDON=build-sim/Release/gpudf.node GPUDF_DEVICE=cuda node scripts/device-compare.mjs --run sim.json
//   node scripts/device-compare.mjs --compare cpu.json sim.json
//
// Uses the built package (dist/, made by `npm ci`). Exit status: 0 when the files agree.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [mode, a, b] = process.argv.slice(2);

function usage() {
  console.error('usage: device-compare.mjs --run OUT.json | --compare A.json B.json');
  process.exit(2);
}

/** splitmix64 over BigInt-free 32-bit halves: the same numbers on every machine. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

async function run(out) {
  const g = await import(join(root, 'dist', 'index.js'));
  const { DataFrame, Series, col, lit, when, len } = g;
  const n = 50_003;
  const r = rng(20261202);
  const words = ['alpha', 'Beta', 'gamma', 'δέλτα', 'épsilon', 'zeta', 'ETA', 'θήτα', '', 'special requests'];
  const maybe = (p, v) => (r() < p ? null : v);
  const cols = {
    k: new Int32Array(n).map(() => Math.floor(r() * 17)),
    kk: Array.from({ length: n }, () => maybe(0.05, Math.floor(r() * 20_000))),
    i: Array.from({ length: n }, () => maybe(0.1, BigInt(Math.floor((r() - 0.5) * 2 ** 40)))),
    x: Array.from({ length: n }, () => (r() < 0.02 ? NaN : maybe(0.1, Math.round((r() - 0.3) * 1e6) / 100))),
    s: Array.from({ length: n }, () => maybe(0.08, words[Math.floor(r() * words.length)] + String(Math.floor(r() * 50)))),
    f: Array.from({ length: n }, () => maybe(0.1, r() < 0.5)),
  };
  const df = new DataFrame({
    k: cols.k,
    kk: new Series('kk', cols.kk, 'int32'),
    i: new Series('i', cols.i, 'int64'),
    x: new Series('x', cols.x, 'float64'),
    s: new Series('s', cols.s, 'utf8'),
    f: new Series('f', cols.f, 'bool'),
  });
  const right = new DataFrame({
    kk: new Series('kk', Array.from({ length: 5000 }, (_, j) => (j % 97 === 0 ? null : (j * 7) % 20_000)), 'int32'),
    w: new Series('w', Array.from({ length: 5000 }, (_, j) => j / 8), 'float64'),
  });
  const aggs = [
    col('x').sum().alias('sum'), col('x').mean().alias('mean'), col('x').min().alias('min'),
    col('x').max().alias('max'), col('i').sum().alias('isum'), col('x').count().alias('count'),
    col('s').nUnique().alias('nu'), col('x').median().alias('med'), col('s').first().alias('first'),
    col('s').last().alias('last'), col('x').std().alias('std'), len(),
  ];
  const work = {
    filter: () => df.filter(col('x').gt(100).and(col('s').str.contains('a')).or(col('f').not())),
    sort: () => df.sort(['k', 'x', 's'], { descending: [false, true, false], nullsLast: true }),
    groupby_low: () => df.groupBy('k', { maintainOrder: true }).agg(...aggs),
    groupby_high: () => df.groupBy(['kk', 'f'], { maintainOrder: true }).agg(...aggs),
    join_inner: () => df.join(right, { on: 'kk', maintainOrder: 'left_right' }),
    join_left: () => df.join(right, { on: 'kk', how: 'left', maintainOrder: 'left_right' }),
    join_full: () => df.join(right, { on: 'kk', how: 'full', maintainOrder: 'left_right' }),
    join_semi: () => df.join(right, { on: 'kk', how: 'semi', maintainOrder: 'left' }),
    unique: () => df.select('k', 's').unique({ maintainOrder: true }),
    top_k: () => df.topK(100, 'i'),
    exprs: () =>
      df.select(
        col('x').mul(col('k')).add(lit(1.5)).alias('a'),
        col('i').floorDiv(lit(7)).alias('b'),
        col('s').str.toUpperCase().alias('c'),
        col('s').str.like('%e%a%').alias('d'),
        when(col('x').gt(0)).then(col('s')).otherwise(lit('neg')).alias('e'),
        col('x').isNull().or(col('x').isNaN()).alias('g'),
      ),
    reduce: () =>
      df.select(
        col('x').sum().alias('xs'), col('x').mean().alias('xm'), col('i').min().alias('imin'),
        col('i').max().alias('imax'), col('s').max().alias('smax'), col('kk').nUnique().alias('nu'),
      ),
    rolling: () =>
      df.select(
        col('x').rollingMean(5, { minPeriods: 2 }).alias('mean'), col('i').rollingSum(4, { minPeriods: 1 }).over('k').alias('sum'),
        col('x').rollingStd(7, { minPeriods: 2, center: true }).alias('std'), col('x').rollingMedian(6, { minPeriods: 1 }).over('k').alias('med'),
        col('i').rollingMax(3).alias('max'), col('x').rollingSum(3, { weights: [1, 0.5, 2], minPeriods: 1 }).alias('wsum'),
        col('x').rollingMinBy(col('k').cumCount(), '40i', { closed: 'both' }).over('k').alias('minby'),
      ),
    lazy: async () =>
      df.lazy()
        .filter(col('x').gt(0))
        .join(right.lazy(), { on: 'kk' })
        .groupBy('k')
        .agg(col('w').sum().alias('w'), len())
        .sort('k')
        .collect(),
  };
  const results = { device: g.device(), results: {} };
  for (const [name, fn] of Object.entries(work)) {
    const t0 = Date.now();
    let entry;
    try {
      const res = await fn();
      entry = {
        columns: res.columns,
        dtypes: res.dtypes,
        rows: res.height,
        values: res.columns.map((c) => {
          const s = res.getColumn(c);
          const v = s.toArray().map((x) => (typeof x === 'bigint' ? `${x}n` : Number.isNaN(x) ? 'NaN' : x));
          s.dispose();
          return v;
        }),
      };
      res.dispose();
    } catch (e) {
      entry = { error: `${e?.code ?? e?.name}: ${e?.message}` };
    }
    results.results[name] = entry;
    console.log(`device-compare: ${name} on ${results.device.name}: ${entry.error ?? `${entry.rows} rows`} (${Date.now() - t0} ms)`);
  }
  writeFileSync(out, JSON.stringify(results));
  df.dispose();
  right.dispose();
}

const FLOAT = new Set(['float32', 'float64']);
function close(x, y) {
  if (x === y) return true;
  if (typeof x !== 'number' || typeof y !== 'number') return false;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

function compare(fileA, fileB) {
  const A = JSON.parse(readFileSync(fileA, 'utf8'));
  const B = JSON.parse(readFileSync(fileB, 'utf8'));
  const problems = [];
  let exact = 0;
  let within = 0;
  const names = new Set([...Object.keys(A.results), ...Object.keys(B.results)]);
  for (const name of names) {
    const x = A.results[name];
    const y = B.results[name];
    if (!x || !y) {
      problems.push(`${name}: only in ${x ? fileA : fileB}`);
      continue;
    }
    if (x.error || y.error) {
      if (x.error !== y.error) problems.push(`${name}: ${x.error ?? 'ok'} vs ${y.error ?? 'ok'}`);
      continue;
    }
    if (JSON.stringify([x.columns, x.dtypes, x.rows]) !== JSON.stringify([y.columns, y.dtypes, y.rows])) {
      problems.push(`${name}: shape ${JSON.stringify([x.columns, x.dtypes, x.rows])} vs ${JSON.stringify([y.columns, y.dtypes, y.rows])}`);
      continue;
    }
    let bad = 0;
    let approx = false;
    x.columns.forEach((c, ci) => {
      const u = x.values[ci];
      const v = y.values[ci];
      for (let row = 0; row < u.length; row++) {
        if (u[row] === v[row]) continue;
        if (FLOAT.has(x.dtypes[ci]) && close(u[row], v[row])) {
          approx = true;
          continue;
        }
        if (bad++ < 3) problems.push(`${name}: ${c}[${row}] ${JSON.stringify(u[row])} vs ${JSON.stringify(v[row])}`);
      }
    });
    if (bad > 3) problems.push(`${name}: ${bad} values differ in all`);
    if (!bad) approx ? within++ : exact++;
  }
  console.log(`device-compare: ${A.device.name} (${fileA}) vs ${B.device.name} (${fileB}): ${exact} results identical, ${within} equal within 1e-9 (floats), ${problems.length ? `${problems.length} problem(s)` : 'no differences'}`);
  for (const p of problems) console.log(`device-compare:   ${p}`);
  return problems.length === 0;
}

if (mode === '--run' && a) await run(a);
else if (mode === '--compare' && a && b) process.exit(compare(a, b) ? 0 : 1);
else usage();
