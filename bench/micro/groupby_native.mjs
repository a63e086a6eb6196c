// Micro-benchmark of the native groupBy primitives (groupRows + groupAggregate, as the GroupBy
// API calls them) against nodejs-polars on db-benchmark-like data generated here.
// Usage: node bench/micro/groupby_native.mjs [rows=1e7]
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const pl = require("nodejs-polars");
const native = require("../../build/Release/gpudf.node");
native.selectDevice("cpu");

const N = Number(process.argv[2] ?? 1e7);
let seed = 42;
const rnd = (k) => {
  // mulberry32: deterministic, good low bits
  let t = (seed += 0x6d2b79f5);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * k);
};
const pad = (x, w) => String(x).padStart(w, "0");
const K = 100;
const names = (k, w) => Array.from({ length: k }, (_, i) => "id" + pad(i + 1, w));
const n1 = names(K, 3), n3 = names(N / K, 10);
const id1 = new Array(N), id2 = new Array(N), id3 = new Array(N);
const id4 = new Int32Array(N), id5 = new Int32Array(N), id6 = new Int32Array(N);
const v1 = new Int32Array(N), v2 = new Int32Array(N), v3 = new Float64Array(N);
for (let i = 0; i < N; i++) {
  id1[i] = n1[rnd(K)];
  id2[i] = n1[rnd(K)];
  id3[i] = n3[rnd(N / K)];
  id4[i] = rnd(K) + 1;
  id5[i] = rnd(K) + 1;
  id6[i] = rnd(N / K) + 1;
  v1[i] = rnd(5) + 1;
  v2[i] = rnd(15) + 1;
  v3[i] = Math.round(rnd(1e6) / 10) / 1000;
}
const UTF8 = 11, INT32 = 3, FLOAT64 = 10;
const g = {
  id1: native.fromValues(id1, UTF8), id2: native.fromValues(id2, UTF8), id3: native.fromValues(id3, UTF8),
  id4: native.fromValues(Array.from(id4), INT32), id5: native.fromValues(Array.from(id5), INT32),
  id6: native.fromValues(Array.from(id6), INT32),
  v1: native.fromValues(Array.from(v1), INT32), v2: native.fromValues(Array.from(v2), INT32),
  v3: native.fromValues(Array.from(v3), FLOAT64),
};
const df = pl.DataFrame({ id1, id2, id3, id4, id5, id6, v1, v2, v3 });
const KIND = { sum: 0, mean: 1, min: 2, max: 3, count: 4, std: 7, median: 9 };

function time(f, reps = 3) {
  let best = Infinity, out;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    out = f();
    best = Math.min(best, performance.now() - t);
  }
  return [best, out];
}
function ours(keys, aggs, maintainOrder = false) {
  const r = native.groupRows(keys.map((k) => g[k]), false, maintainOrder);
  const cols = aggs.map(([c, kind]) => native.groupAggregate(g[c], r.groups, r.count, KIND[kind], 1, 0.5));
  const keysOut = native.take(keys.map((k) => g[k]), r.firstRows, N);
  return r.count;
}
function polars(keys, aggs) {
  const out = df.groupBy(keys).agg(...aggs.map(([c, kind]) => pl.col(c)[kind]().alias(c + kind)));
  return out.height;
}
const qs = [
  ["q1 id1 sum v1", ["id1"], [["v1", "sum"]]],
  ["q2 id1,id2 sum v1", ["id1", "id2"], [["v1", "sum"]]],
  ["q3 id3 sum v1 mean v3", ["id3"], [["v1", "sum"], ["v3", "mean"]]],
  ["q4 id4 mean v1 v2 v3", ["id4"], [["v1", "mean"], ["v2", "mean"], ["v3", "mean"]]],
  ["q5 id6 sum v1 v2 v3", ["id6"], [["v1", "sum"], ["v2", "sum"], ["v3", "sum"]]],
  ["q6 id4,id5 median v3 std v3", ["id4", "id5"], [["v3", "median"], ["v3", "std"]]],
  ["q7 id3 max v1 min v2", ["id3"], [["v1", "max"], ["v2", "min"]]],
  ["q10 6 keys sum v3 count v1", ["id1", "id2", "id3", "id4", "id5", "id6"], [["v3", "sum"], ["v1", "count"]]],
];
const only = process.env.Q ? process.env.Q.split(",") : null;
for (const [name, keys, aggs] of qs) {
  if (only && !only.some((q) => name.startsWith(q + " "))) continue;
  const [tg, cg] = time(() => ours(keys, aggs));
  const [tp, cp] = time(() => polars(keys, aggs));
  console.log(`${name.padEnd(32)} gpudf ${tg.toFixed(0).padStart(6)} ms  polars ${tp.toFixed(0).padStart(6)} ms  ratio ${(tg / tp).toFixed(2)}  groups ${cg}${cg === cp ? "" : " != " + cp}`);
}
