#!/usr/bin/env node
// Speed check (not a test) of the regex, string parsing and cleaning kernels against nodejs-polars and
// DuckDB, side by side in one process: regex contains / replaceAll / extract, strip, strptime, utf8 -> float64,
// toUpperCase, padStart and concatStr over N strings; best of REPS after a warm-up. gpudf and polars produce a column;
// DuckDB sums the result's lengths (or values) so the work is not optimised away.
// Run after `npm run build`: node bench/micro/strings.mjs [N]
import { DuckDBInstance } from "@duckdb/node-api";
import { compareWithPeers, gpudf, pl, xorshift32 } from "./peers.mjs";

const N = Number(process.argv[2] ?? 1e6);
const REPS = 3;
const next = xorshift32(0x9e3779b9);
const pad2 = (v) => String(v).padStart(2, "0");
const padded = new Array(N), stamps = new Array(N), nums = new Array(N);
for (let i = 0; i < N; i++) {
  padded[i] = " ".repeat(next() % 3) + "word" + (next() % 100000) + " ".repeat(next() % 3);
  stamps[i] = `${2000 + (next() % 30)}-${pad2(1 + (next() % 12))}-${pad2(1 + (next() % 28))} ${pad2(next() % 24)}:${pad2(next() % 60)}:${pad2(next() % 60)}`;
  nums[i] = ((next() % 2000000) / 100 - 10000).toString();
}


const { col, concatStr } = gpudf;
const df = new gpudf.DataFrame({ p: padded, t: stamps, n: nums });
const pdf = pl.DataFrame({ p: padded, t: stamps, n: nums });
const duck = await (await DuckDBInstance.create(":memory:")).connect();
await duck.run("CREATE TABLE t (p VARCHAR, t VARCHAR, n VARCHAR)");
const ap = await duck.createAppender("t");
for (let i = 0; i < N; i++) {
  ap.appendVarchar(padded[i]);
  ap.appendVarchar(stamps[i]);
  ap.appendVarchar(nums[i]);
  ap.endRow();
}
ap.flushSync();
ap.closeSync();
const sql = (q) => () => duck.run(q);

const cases = [
  ["contains re", () => df.select(col("t").str.contains("-0[1-3]-.*:5")), () => pdf.select(pl.col("t").str.contains("-0[1-3]-.*:5")),
    "SELECT count(*) FILTER (WHERE regexp_matches(t, '-0[1-3]-.*:5')) FROM t"],
  ["replaceAll", () => df.select(col("p").str.replaceAll("[0-9]+", "#")), () => pdf.select(pl.col("p").str.replaceAll("[0-9]+", "#")),
    "SELECT sum(length(regexp_replace(p, '[0-9]+', '#', 'g'))) FROM t"],
  ["extract", () => df.select(col("t").str.extract("(\\d+):(\\d+)", 2)), () => pdf.select(pl.col("t").str.extract("(\\d+):(\\d+)", 2)),
    "SELECT sum(length(regexp_extract(t, '(\\d+):(\\d+)', 2))) FROM t"],
  ["strip", () => df.select(col("p").str.strip()), () => pdf.select(pl.col("p").str.strip()), "SELECT sum(length(trim(p))) FROM t"],
  ["strptime", () => df.select(col("t").str.strptime("timestamp[us]", "%Y-%m-%d %H:%M:%S")),
    () => pdf.select(pl.col("t").str.strptime(pl.Datetime, "%Y-%m-%d %H:%M:%S")),
    "SELECT max(strptime(t, '%Y-%m-%d %H:%M:%S')) FROM t"],
  ["utf8->f64", () => df.select(col("n").cast("float64")), () => pdf.select(pl.col("n").cast(pl.Float64)), "SELECT sum(CAST(n AS DOUBLE)) FROM t"],
  ["upper", () => df.select(col("p").str.toUpperCase()), () => pdf.select(pl.col("p").str.toUpperCase()), "SELECT sum(length(upper(p))) FROM t"],
  ["padStart", () => df.select(col("p").str.padStart(12, "*")), () => pdf.select(pl.col("p").str.padStart(12, "*")), "SELECT sum(length(lpad(p, 12, '*'))) FROM t"],
  ["concatStr", () => df.select(concatStr(["p", "t"], { separator: "|" })), () => pdf.select(pl.concatString(["p", "t"], "|")), "SELECT sum(length(concat_ws('|', p, t))) FROM t"],
];
console.log(`N=${N}, best of ${REPS}, device ${gpudf.device().name}`);
await compareWithPeers(cases.map(([name, g, p, d]) => [name, g, p, sql(d)]), REPS, 11);
