// Peak memory of reading a Parquet file, each engine in a fresh process: gpudf (its allocator's
// tracked peak and the process's peak RSS, against the decoded frame's bytes), nodejs-polars
// and DuckDB (the peak RSS of a read into a frame / a table, against the same decoded size as
// gpudf's: the values are the same, and nodejs-polars has no size query). Files:
// TPC-H SF1 lineitem (DuckDB, snappy) and G1_1e7 (nodejs-polars, zstd) as parquet-read.mjs
// makes them. The RSS figures are peaks over the process's life less its RSS just before the
// read (Node, the addon and the engine loaded).
// Usage: node bench/micro/parquet-memory.mjs [dir=bench data tpch/sf1]   (after parquet-read.mjs)
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";

if (process.argv[2] === "--child") {
  const [engine, file] = process.argv.slice(3);
  const rss0 = process.memoryUsage().rss;
  const out = {};
  if (engine === "gpudf") {
    const { readParquet, memory } = await import("../../dist/index.js");
    memory();  // the backend chosen before the baseline
    const base = process.memoryUsage().rss;
    const df = await readParquet(file);
    const m = memory().cpu;
    Object.assign(out, { base, decoded: m.liveBytes, trackedPeak: m.peakBytes, rows: df.height });
  } else if (engine === "polars") {
    const pl = createRequire(import.meta.url)("nodejs-polars");
    const base = process.memoryUsage().rss;
    const df = pl.readParquet(file);
    Object.assign(out, { base, rows: df.height });
  } else {
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const db = await (await DuckDBInstance.create(":memory:")).connect();
    const base = process.memoryUsage().rss;
    await db.run(`CREATE TABLE x AS SELECT * FROM read_parquet('${file}')`);
    Object.assign(out, { base });
  }
  out.peak = process.resourceUsage().maxRSS * 1024;
  out.rss0 = rss0;
  console.log(JSON.stringify(out));
  process.exit(0);
}

const { TPCH_DIR } = await import("../tpch/gen/index.mjs");
const { dataset } = await import("../gen/index.mjs");
const dir = process.argv[2] ?? join(TPCH_DIR, "sf1");
const files = {
  "TPC-H SF1 lineitem": join(dir, "lineitem.parquet"),
  "G1_1e7 (nodejs-polars)": dataset("groupby", 1e7).tables.x.arrow.replace(/\.arrow$/, ".parquet"),
};
const self = fileURLToPath(import.meta.url);
const run = (engine, file) => JSON.parse(execFileSync(process.execPath, [self, "--child", engine, file], { encoding: "utf8" }));
const mb = (b) => (b / 2 ** 20).toFixed(0);
console.log(`# Parquet read peak memory, fresh process per read; load average before: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log("| file | decoded MB (gpudf's frame) | gpudf tracked peak / decoded | gpudf peak RSS - base, MB (/ decoded) | polars peak RSS - base, MB (/ decoded) | duckdb peak RSS - base, MB (/ decoded) |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [name, file] of Object.entries(files)) {
  if (!existsSync(file)) throw new Error(`missing ${file} (run bench/micro/parquet-read.mjs first)`);
  const g = run("gpudf", file), p = run("polars", file), d = run("duckdb", file);
  const cell = (r) => `${mb(r)} (${(r / g.decoded).toFixed(2)})`;
  console.log(`| ${name} | ${mb(g.decoded)} | ${(g.trackedPeak / g.decoded).toFixed(2)} | ${cell(g.peak - g.base)} | ${cell(p.peak - p.base)} | ${cell(d.peak - d.base)} |`);
}
