#!/usr/bin/env node
// Quick speed check (not a test) of the morsel pipelines that end in a sort with a limit or a
// topK: lineitem joined with part, a computed margin, the 10 largest margins. Collected lazily
// with pipelines on and off, alternating in one process, against nodejs-polars' lazy form of
// the same query on the same Parquet files. Best of REPS after a warm-up, for ROUNDS rounds.
// Needs the TPC-H data (node bench/tpch/gen/index.mjs --sf 1) and `npm run build`.
// Usage: node bench/micro/pipeline_top.mjs [data dir = bench/data/tpch/sf1]
import { bestOfAsync, gpudf, pl } from "./peers.mjs";

const dir = process.argv[2] ?? "bench/data/tpch/sf1";
const REPS = 7;
const ROUNDS = 3;
const { col } = gpudf;
const L = ["l_orderkey", "l_partkey", "l_quantity", "l_extendedprice", "l_discount"];
const P = ["p_partkey", "p_retailprice", "p_size"];
const lineitem = await gpudf.readParquet(`${dir}/lineitem.parquet`, { columns: L });
const part = await gpudf.readParquet(`${dir}/part.parquet`, { columns: P });
const plLineitem = pl.readParquet(`${dir}/lineitem.parquet`, { columns: L });
const plPart = pl.readParquet(`${dir}/part.parquet`, { columns: P });

function margins(li, p) {
  return li
    .join(p, { leftOn: "l_partkey", rightOn: "p_partkey" })
    .withColumns(col("l_extendedprice").mul(col("l_discount").neg().add(1)).sub(col("p_retailprice").mul(col("l_quantity"))).alias("margin"))
    .filter(col("margin").gt(col("p_size").mul(-40)));
}
function plMargins(li, p) {
  return li
    .join(p, { leftOn: "l_partkey", rightOn: "p_partkey" })
    .withColumns(pl.col("l_extendedprice").mul(pl.lit(1).sub(pl.col("l_discount"))).sub(pl.col("p_retailprice").mul(pl.col("l_quantity"))).alias("margin"))
    .filter(pl.col("margin").gt(pl.col("p_size").mul(-40)));
}
const off = { optimizations: { pipelines: false } };
const cases = [
  ["sort(margin desc).head(10), pipelines on", () => margins(lineitem.lazy(), part.lazy()).sort("margin", { descending: true }).head(10).collect()],
  ["sort(margin desc).head(10), pipelines off", () => margins(lineitem.lazy(), part.lazy()).sort("margin", { descending: true }).head(10).collect(off)],
  ["sort(margin desc).head(10), nodejs-polars lazy", () => plMargins(plLineitem.lazy(), plPart.lazy()).sort("margin", true).head(10).collect()],
  ["topK(10, margin), pipelines on", () => margins(lineitem.lazy(), part.lazy()).topK(10, "margin").collect()],
  ["topK(10, margin), pipelines off", () => margins(lineitem.lazy(), part.lazy()).topK(10, "margin").collect(off)],
];
// The answers agree before anything is timed.
const a = await cases[0][1]();
const b = await cases[1][1]();
const c = await cases[2][1]();
const same = JSON.stringify(a.getColumn("margin").toArray()) === JSON.stringify(b.getColumn("margin").toArray()) &&
  JSON.stringify(a.getColumn("l_orderkey").toArray()) === JSON.stringify(b.getColumn("l_orderkey").toArray());
const closeToPolars = c.getColumn("margin").toArray().every((v, i) => Math.abs(v - a.getColumn("margin").toArray()[i]) < 1e-6);
console.log(`answers: pipelines on == off: ${same}; margins equal polars': ${closeToPolars}`);

const rows = cases.map(([label]) => [label]);
for (let r = 0; r < ROUNDS; r++)
  for (let k = 0; k < cases.length; k++) {
    const fn = cases[k][1];
    rows[k].push((await bestOfAsync(REPS, async () => (await fn()).dispose?.())).toFixed(1));
  }
console.log(`| case (${lineitem.height} x ${part.height} rows) | ${Array.from({ length: ROUNDS }, (_, r) => `round ${r + 1} ms`).join(" | ")} |`);
console.log(`|---|${"---|".repeat(ROUNDS)}`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
