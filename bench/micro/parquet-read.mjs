// Reading Parquet: gpudf's native reader vs nodejs-polars' readParquet vs DuckDB's read into a
// table, side by side in one run, over the TPC-H files (written by DuckDB, snappy): lineitem,
// the whole set, and 3 of lineitem's 16 columns; and db-benchmark's G1_1e7 written by
// nodejs-polars (its defaults: zstd). Best of `reps` runs each.
// Usage: node bench/micro/parquet-read.mjs [dir=bench data tpch/sf1] [reps=3]
//   (needs `npx tsc -p tsconfig.build.json` for dist/, and the data: node bench/tpch/gen/index.mjs --sf 1;
//   G1_1e7 is generated on first use: bench/gen, then written to Parquet by nodejs-polars)
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { loadavg } from "node:os";

import { DuckDBInstance } from "@duckdb/node-api";
import { readParquet } from "../../dist/index.js";
import { ensureData } from "../gen/index.mjs";
import { TPCH_DIR } from "../tpch/gen/index.mjs";

const require = createRequire(import.meta.url);
const pl = require("nodejs-polars");

const dir = process.argv[2] ?? join(TPCH_DIR, "sf1");
const reps = Number(process.argv[3] ?? 3);
const TABLES = ["lineitem", "orders", "partsupp", "part", "customer", "supplier", "nation", "region"];
const file = (t) => join(dir, `${t}.parquet`);
for (const t of TABLES) if (!existsSync(file(t))) throw new Error(`missing ${file(t)}`);
const THREE = ["l_quantity", "l_extendedprice", "l_shipdate"];

async function best(fn) {
  let b = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await fn();
    b = Math.min(b, performance.now() - t0);
  }
  return b;
}

const db = await (await DuckDBInstance.create(":memory:")).connect();
const duck = async (t, cols = "*") => {
  await db.run(`CREATE OR REPLACE TABLE x AS SELECT ${cols} FROM read_parquet('${file(t)}')`);
  await db.run("DROP TABLE x");
};
// G1_1e7 as nodejs-polars writes it.
const g1 = (await ensureData("groupby", 1e7)).tables.x;
const g1Parquet = g1.arrow.replace(/\.arrow$/, ".parquet");
if (!existsSync(g1Parquet)) pl.readCSV(g1.csv).writeParquet(g1Parquet);

const cases = {
  "lineitem": {
    gpudf: async () => (await readParquet(file("lineitem"))).dispose(),
    polars: async () => pl.readParquet(file("lineitem")),
    duckdb: () => duck("lineitem"),
  },
  "all 8 tables": {
    gpudf: async () => { for (const t of TABLES) (await readParquet(file(t))).dispose(); },
    polars: async () => { for (const t of TABLES) pl.readParquet(file(t)); },
    duckdb: async () => { for (const t of TABLES) await duck(t); },
  },
  "G1_1e7 (written by nodejs-polars)": {
    gpudf: async () => (await readParquet(g1Parquet)).dispose(),
    polars: async () => pl.readParquet(g1Parquet),
    duckdb: async () => {
      await db.run(`CREATE OR REPLACE TABLE x AS SELECT * FROM read_parquet('${g1Parquet}')`);
      await db.run("DROP TABLE x");
    },
  },
  "lineitem, 3 of 16 columns": {
    gpudf: async () => (await readParquet(file("lineitem"), { columns: THREE })).dispose(),
    polars: async () => pl.readParquet(file("lineitem"), { columns: THREE }),
    duckdb: () => duck("lineitem", THREE.join(", ")),
  },
};
console.log(`# Parquet read, ${dir}, best of ${reps}; load average before: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log("| case | gpudf ms | polars ms | duckdb ms | gpudf / polars | gpudf / duckdb |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [name, c] of Object.entries(cases)) {
  const g = await best(c.gpudf);
  const p = await best(c.polars);
  const d = await best(c.duckdb);
  console.log(`| ${name} | ${g.toFixed(0)} | ${p.toFixed(0)} | ${d.toFixed(0)} | ${(g / p).toFixed(2)} | ${(g / d).toFixed(2)} |`);
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
