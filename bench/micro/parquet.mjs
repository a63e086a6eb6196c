// Parquet write/read: gpudf (native writer and reader) vs nodejs-polars vs DuckDB, side
// by side in one run. Writes use the same compression in all three: none, snappy and zstd.
// Usage: node bench/micro/parquet.mjs [rows=1e6]   (needs `npm run build:ts` for dist/)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";

import { DuckDBInstance } from "@duckdb/node-api";
import { DataFrame, readParquet } from "../../dist/index.js";

const require = createRequire(import.meta.url);
const pl = require("nodejs-polars");

const rows = Number(process.argv[2] ?? 1e6);
const dir = mkdtempSync(join(tmpdir(), "gpudf-pq-"));

// Deterministic columns shaped like the db-benchmark groupby table.
const id1 = new Array(rows);
const id4 = new Int32Array(rows);
const v3 = new Float64Array(rows);
let s = 42;
const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
for (let i = 0; i < rows; i++) {
  id1[i] = `id${String(1 + Math.floor(rnd() * 100)).padStart(3, "0")}`;
  id4[i] = 1 + Math.floor(rnd() * 100);
  v3[i] = Math.round(rnd() * 100 * 1e6) / 1e6;
}

async function time(label, fn, reps = 3) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, performance.now() - t0);
  }
  return [label, best];
}

const results = [];
const gdf = new DataFrame({ id1, id4, v3 });
const pdf = pl.DataFrame({ id1, id4: Array.from(id4), v3: Array.from(v3) });
const duck = await (await DuckDBInstance.create(":memory:")).connect();
const gPath = join(dir, "g.parquet");
const pPath = join(dir, "p.parquet");
const dPath = join(dir, "d.parquet");
const POLARS_CODEC = { none: "uncompressed", snappy: "snappy", zstd: "zstd" };
const DUCKDB_CODEC = { none: "uncompressed", snappy: "snappy", zstd: "zstd" };
await pdf.writeParquet(pPath, { compression: "zstd" });
await duck.run(`CREATE TABLE t AS SELECT * FROM '${pPath}'`);
for (const codec of ["none", "snappy", "zstd"]) {
  results.push(await time(`write ${codec}: gpudf`, () => gdf.writeParquet(gPath, { compression: codec })));
  results.push(await time(`write ${codec}: polars`, () => pdf.writeParquet(pPath, { compression: POLARS_CODEC[codec] })));
  results.push(await time(`write ${codec}: duckdb`, () => duck.run(`COPY t TO '${dPath}' (FORMAT parquet, COMPRESSION ${DUCKDB_CODEC[codec]})`)));
}
// The reads below read polars' zstd file.
await pdf.writeParquet(pPath, { compression: "zstd" });
results.push(await time("read: gpudf", async () => (await readParquet(pPath)).dispose()));
results.push(await time("read: polars", () => pl.readParquet(pPath)));
results.push(await time("read: duckdb (into a table)", () => duck.run(`CREATE OR REPLACE TABLE r AS SELECT * FROM '${pPath}'`)));
rmSync(dir, { recursive: true, force: true });

console.log(`parquet, ${rows} rows (id1 utf8, id4 int32, v3 float64), best of 3, ms`);
for (const [label, ms] of results) console.log(`${label.padEnd(32)} ${ms.toFixed(1)}`);
