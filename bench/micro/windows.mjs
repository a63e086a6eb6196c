#!/usr/bin/env node
// Speed check (not a test) of the window, rolling, time-grouping and pivot verbs against nodejs-polars and DuckDB,
// side by side in one process: sum().over(k) and rank().over(k) with 1e5 partitions, cumSum().over(k) in row order,
// a 100-row rolling mean, groupByDynamic by day over a year of timestamps, and a pivot into 100 columns. Best of
// REPS after a warm-up; every engine materialises its answer (DuckDB as a table, the others as a frame).
// Run after `npm run build`: node bench/micro/windows.mjs [N] [case,case,...]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { compareWithPeers, gpudf, pl, xorshift32 } from "./peers.mjs";

const N = Number(process.argv[2] ?? 1e7);
const only = process.argv[3]?.split(",");
const REPS = 3;
const PARTS = 100_000;
const YEAR_MS = 365 * 86_400_000;
const START_MS = Date.UTC(2024, 0, 1);

// Deterministic columns: k a random partition of PARTS, v a float in [0, 1000), i the row number, t sorted
// millisecond timestamps spread over a year, id = i mod PARTS and c in 0..99 (the pivot's index and columns).
const next = xorshift32(0x9e3779b9);
const k = new Int32Array(N), v = new Float64Array(N), i64 = new Float64Array(N), t = new Float64Array(N);
const id = new Int32Array(N), c = new Int32Array(N);
for (let i = 0; i < N; i++) {
  k[i] = next() % PARTS;
  v[i] = (next() % 1_000_000) / 1000;
  i64[i] = i;
  t[i] = START_MS + Math.floor((i * YEAR_MS) / N);
  id[i] = i % PARTS;
  c[i] = next() % 100;
}

const { col } = gpudf;
const df = new gpudf.DataFrame({ i: i64, k, v, t, id, c }).withColumns(
  col("i").cast("int64"), col("t").cast("int64").cast("timestamp[ms]"));
const dir = mkdtempSync(join(tmpdir(), "gpudf-windows-"));
const file = join(dir, "t.parquet");
await df.writeParquet(file);
const pdf = pl.readParquet(file);
const duck = await (await DuckDBInstance.create(":memory:")).connect();
await duck.run(`CREATE TABLE t AS SELECT * FROM read_parquet('${file}')`);
rmSync(dir, { recursive: true, force: true });

const sql = (q) => () => duck.run(`CREATE OR REPLACE TABLE ans AS ${q}`);

const cases = [
  ["sum over", () => df.select(col("v").sum().over("k")), () => pdf.select(pl.col("v").sum().over("k")),
    "SELECT sum(v) OVER (PARTITION BY k) FROM t"],
  ["rank over", () => df.select(col("v").rank({ method: "min" }).over("k")), () => pdf.select(pl.col("v").rank("min").over("k")),
    "SELECT rank() OVER (PARTITION BY k ORDER BY v) FROM t"],
  ["cumSum over", () => df.select(col("v").cumSum().over("k")), () => pdf.select(pl.col("v").cumSum().over("k")),
    "SELECT sum(v) OVER (PARTITION BY k ORDER BY i ROWS UNBOUNDED PRECEDING) FROM t"],
  ["rolling 100", () => df.select(col("v").rollingMean(100)), () => pdf.select(pl.col("v").rollingMean(100)),
    "SELECT avg(v) OVER (ORDER BY i ROWS 99 PRECEDING) FROM t"],
  ["dynamic 1d", () => df.groupByDynamic("t", { every: "1d" }).agg(col("v").sum()),
    () => pdf.groupByDynamic({ indexColumn: "t", every: "1d" }).agg(pl.col("v").sum()),
    "SELECT time_bucket(INTERVAL 1 DAY, t) AS t, sum(v) AS v FROM t GROUP BY 1"],
  ["pivot 100", () => df.pivot({ on: "c", index: "id", values: "v", aggregateFunction: "sum" }),
    () => pdf.pivot("v", { index: "id", on: "c", aggregateFunc: "sum" }),
    "PIVOT t ON c USING sum(v) GROUP BY id"],
];
console.log(`N=${N}, ${PARTS} partitions, best of ${REPS}, device ${gpudf.device().name}, load ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`);
const chosen = cases.filter(([name]) => !only || only.includes(name.split(" ")[0]));
await compareWithPeers(chosen.map(([name, g, p, d]) => [name, g, p, sql(d)]), REPS, 12);
