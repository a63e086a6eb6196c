#!/usr/bin/env node
// Quick speed check (not a test): sort of N random int64 on gpudf's active backend vs
// nodejs-polars, in the same process. Run after `npm run build` (uses dist/), or with tsx
// straight from src/:  npx tsx bench/micro/sort.mjs [N]
import { gpudf, pl } from "./peers.mjs";

const N = Number(process.argv[2] ?? 1e7);
const REPS = 5;

// splitmix64 values over the full int64 range.
const values = new BigInt64Array(N);
let s = 0x1234n;
const M = (1n << 64n) - 1n;
for (let i = 0; i < N; i++) {
  s = (s + 0x9e3779b97f4a7c15n) & M;
  let z = s;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
  values[i] = BigInt.asIntN(64, z ^ (z >> 31n));
}

function time(label, fn) {
  fn(); // warm-up
  const t = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = process.hrtime.bigint();
    const out = fn();
    t.push(Number(process.hrtime.bigint() - t0) / 1e6);
    out?.dispose?.();
  }
  t.sort((a, b) => a - b);
  console.log(`${label.padEnd(34)} median ${t[REPS >> 1].toFixed(1)} ms  (min ${t[0].toFixed(1)})`);
  return t[REPS >> 1];
}

console.log(`sort of ${N} random int64; gpudf device: ${gpudf.device().name}`);
const df = new gpudf.DataFrame({ a: values, id: Int32Array.from({ length: N }, (_, i) => i) });
const pdf = pl.DataFrame({ a: pl.Series("a", values, pl.Int64), id: pl.Series("id", Int32Array.from({ length: N }, (_, i) => i)) });
const g1 = time("gpudf   df.sort('a') (2 columns)", () => df.sort("a"));
const p1 = time("polars  df.sort('a') (2 columns)", () => pdf.sort("a"));
const ser = df.getColumn("a");
const pser = pdf.getColumn("a");
const g2 = time("gpudf   series.sort()", () => ser.sort());
const p2 = time("polars  series.sort()", () => pser.sort());
console.log(`ratio gpudf/polars: frame ${(g1 / p1).toFixed(2)}x, series ${(g2 / p2).toFixed(2)}x`);
