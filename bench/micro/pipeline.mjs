#!/usr/bin/env node
// Quick speed check (not a test) of the query engine's morsel pipelines: TPC-H Q1 (a filter, the
// projections, a groupBy of eight aggregations by two one-letter utf8 keys) collected lazily with
// pipelines on and off, alternating in one process, and the eager groupBy by those two keys alone
// (the grouping the pipeline runs per morsel), against nodejs-polars' lazy Q1 on the same
// lineitem file. Best of REPS after a warm-up, for each of ROUNDS rounds.
// Needs the TPC-H data (node bench/tpch/gen/index.mjs --sf 1) and `npm run build`.
// Usage: node bench/micro/pipeline.mjs [data dir = bench/data/tpch/sf1]
import { gpudf, pl } from "./peers.mjs";

const dir = process.argv[2] ?? "bench/data/tpch/sf1";
const REPS = 7;
const ROUNDS = 3;
const { col, lit, len } = gpudf;
const COLUMNS = ["l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount", "l_tax", "l_shipdate"];
const lineitem = await gpudf.readParquet(`${dir}/lineitem.parquet`, { columns: COLUMNS });
const plLineitem = pl.readParquet(`${dir}/lineitem.parquet`, { columns: COLUMNS });

const date = (iso) => lit(new Date(`${iso}T00:00:00Z`), "date32");
function q1(lf) {
  const disc = col("l_extendedprice").mul(lit(1).sub(col("l_discount")));
  return lf
    .filter(col("l_shipdate").lte(date("1998-09-02")))
    .groupBy("l_returnflag", "l_linestatus")
    .agg(
      col("l_quantity").sum().alias("sum_qty"),
      col("l_extendedprice").sum().alias("sum_base_price"),
      disc.sum().alias("sum_disc_price"),
      disc.mul(lit(1).add(col("l_tax"))).sum().alias("sum_charge"),
      col("l_quantity").mean().alias("avg_qty"),
      col("l_extendedprice").mean().alias("avg_price"),
      col("l_discount").mean().alias("avg_disc"),
      len().alias("count_order"),
    )
    .sort(["l_returnflag", "l_linestatus"]);
}
function plQ1(lf) {
  const disc = pl.col("l_extendedprice").mul(pl.lit(1).sub(pl.col("l_discount")));
  return lf
    .filter(pl.col("l_shipdate").ltEq(pl.lit(new Date("1998-09-02T00:00:00Z"))))
    .groupBy(["l_returnflag", "l_linestatus"])
    .agg(
      pl.col("l_quantity").sum().alias("sum_qty"),
      pl.col("l_extendedprice").sum().alias("sum_base_price"),
      disc.sum().alias("sum_disc_price"),
      disc.mul(pl.lit(1).add(pl.col("l_tax"))).sum().alias("sum_charge"),
      pl.col("l_quantity").mean().alias("avg_qty"),
      pl.col("l_extendedprice").mean().alias("avg_price"),
      pl.col("l_discount").mean().alias("avg_disc"),
      pl.len().alias("count_order"),
    )
    .sort(["l_returnflag", "l_linestatus"]);
}

async function best(fn) {
  (await fn())?.dispose?.();
  let ms = Infinity;
  for (let r = 0; r < REPS; r++) {
    const t0 = process.hrtime.bigint();
    const out = await fn();
    ms = Math.min(ms, Number(process.hrtime.bigint() - t0) / 1e6);
    out?.dispose?.();
  }
  return ms;
}

const cases = [
  ["Q1 lazy, pipelines on", () => q1(lineitem.lazy()).collect()],
  ["Q1 lazy, pipelines off", () => q1(lineitem.lazy()).collect({ optimizations: { pipelines: false } })],
  ["groupBy(l_returnflag, l_linestatus).len(), eager", () => lineitem.groupBy("l_returnflag", "l_linestatus").agg(len())],
  ["Q1 nodejs-polars lazy", () => plQ1(plLineitem.lazy()).collect()],
];
// A build from before pipelines refuses the flag: that case is then "n/a".
let supported = true;
try {
  (await cases[1][1]()).dispose();
} catch {
  supported = false;
}
const rows = cases.map(([label]) => [label]);
for (let r = 0; r < ROUNDS; r++)
  for (let c = 0; c < cases.length; c++) rows[c].push(c === 1 && !supported ? "n/a" : (await best(cases[c][1])).toFixed(1));
console.log(`| case (${lineitem.height} rows) | ${Array.from({ length: ROUNDS }, (_, r) => `round ${r + 1} ms`).join(" | ")} |`);
console.log(`|---|${"---|".repeat(ROUNDS)}`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
