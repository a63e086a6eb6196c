// Reading Parquet: gpudf's native reader vs nodejs-polars' readParquet vs DuckDB's read into a
// table, side by side in one run, over the TPC-H files (written by DuckDB, snappy): lineitem,
// the whole set, and 3 of lineitem's 16 columns; and db-benchmark's G1_1e7 written by
// nodejs-polars (its defaults: zstd). Each read runs in a fresh process (a script that reads
// once sees that; in one long process nodejs-polars' frames are collected by V8 at moments the
// script does not control, which moved its times 3.5x between runs); best of `reps` processes.
// Usage: node bench/micro/parquet-read.mjs [dir=bench data tpch/sf1] [reps=3]
//   (needs `npx tsc -p tsconfig.build.json` for dist/, and the data: node bench/tpch/gen/index.mjs --sf 1;
//   G1_1e7 is generated on first use: bench/gen, then written to Parquet by nodejs-polars)
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

import { DuckDBInstance } from "@duckdb/node-api";
import { readParquet } from "../../dist/index.js";
import { ensureData } from "../gen/index.mjs";
import { TPCH_DIR } from "../tpch/gen/index.mjs";

const require = createRequire(import.meta.url);
const pl = require("nodejs-polars");

const child = process.argv[2] === "--child" ? process.argv.slice(3) : null;  // [dir, case, engine]
const dir = child ? child[0] : process.argv[2] ?? join(TPCH_DIR, "sf1");
const reps = Number(process.argv[3] ?? 3);
const TABLES = ["lineitem", "orders", "partsupp", "part", "customer", "supplier", "nation", "region"];
const file = (t) => join(dir, `${t}.parquet`);
for (const t of TABLES) if (!existsSync(file(t))) throw new Error(`missing ${file(t)}`);
const THREE = ["l_quantity", "l_extendedprice", "l_shipdate"];

/** The best of `reps` fresh processes' times for one read of `name` by `engine`. */
function best(name, engine) {
  let b = Infinity;
  for (let r = 0; r < reps; r++) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dir, name, engine], { encoding: "utf8" });
    b = Math.min(b, Number(out.trim().split("\n").pop()));
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
if (child) {
  const t0 = performance.now();
  await cases[child[1]][child[2]]();
  console.log((performance.now() - t0).toFixed(1));
  process.exit(0);
}
console.log(`# Parquet read, ${dir}, best of ${reps} fresh processes; load average before: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log("| case | gpudf ms | polars ms | duckdb ms | gpudf / polars | gpudf / duckdb |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const name of Object.keys(cases)) {
  const g = best(name, "gpudf");
  const p = best(name, "polars");
  const d = best(name, "duckdb");
  console.log(`| ${name} | ${g.toFixed(0)} | ${p.toFixed(0)} | ${d.toFixed(0)} | ${(g / p).toFixed(2)} | ${(g / d).toFixed(2)} |`);
}
console.log(`load average after: ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
