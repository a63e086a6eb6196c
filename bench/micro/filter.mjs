#!/usr/bin/env node
// Quick speed check (not a test): the micro suite's compound filter (a > 0 and s == "x") over N
// rows of the M1 shape (k int64, s one of 26 letters, f float64, a int32 in [-50, 49]) on gpudf's
// active backend vs nodejs-polars, in the same process; best of REPS after a warm-up.
// Run after `npm run build` (uses dist/), or: npx tsx bench/micro/filter.mjs [N]
import { gpudf, pl, xorshift32 } from "./peers.mjs";

const N = Number(process.argv[2] ?? 1e7);
const REPS = 5;

const next = xorshift32(0x2545f491);
const k = new BigInt64Array(N), f = new Float64Array(N), a = new Int32Array(N);
const letters = "abcdefghijklmnopqrstuvwxyz";
const s = new Array(N);
for (let i = 0; i < N; i++) {
  k[i] = BigInt(next()) * 233n;
  f[i] = next() / 2 ** 32;
  a[i] = (next() % 100) - 50;
  s[i] = letters[next() % 26];
}

function time(label, fn) {
  fn()?.dispose?.();
  const t = [];
  let rows = 0;
  for (let r = 0; r < REPS; r++) {
    const t0 = process.hrtime.bigint();
    const out = fn();
    t.push(Number(process.hrtime.bigint() - t0) / 1e6);
    rows = out.height;
    out?.dispose?.();
  }
  t.sort((x, y) => x - y);
  console.log(`${label.padEnd(8)} best ${t[0].toFixed(1)} ms, median ${t[REPS >> 1].toFixed(1)} ms (${rows} rows)`);
  return t[0];
}

const df = new gpudf.DataFrame({ k, s, f, a });
const pdf = pl.DataFrame({ k: Array.from(k, Number), s, f: Array.from(f), a: Array.from(a) });
const { col } = gpudf;
const g = time("gpudf", () => df.filter(col("a").gt(0).and(col("s").eq("x"))));
const p = time("polars", () => pdf.filter(pl.col("a").gt(0).and(pl.col("s").eq(pl.lit("x")))));
console.log(`N=${N} gpudf/polars = ${(g / p).toFixed(2)} (device ${gpudf.device().name})`);
