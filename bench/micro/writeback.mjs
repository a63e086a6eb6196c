// Writing the db-benchmark groupby table back out: gpudf vs nodejs-polars, each loading the same
// CSV (readCSV) and then timing writeCSV and writeParquet with zstd, snappy and none, best of 2.
// Usage: node bench/micro/writeback.mjs [csv=bench/data/G1_1e7_1e2_0_0.csv]
// (needs `npm run build:ts` for dist/; the CSV comes from bench/gen)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

import { gpudf, pl } from "./peers.mjs";

const csv = process.argv[2] ?? "bench/data/G1_1e7_1e2_0_0.csv";
const dir = mkdtempSync(join(tmpdir(), "gpudf-writeback-"));

async function best(fn, reps = 2) {
  let ms = Infinity;
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    await fn();
    ms = Math.min(ms, performance.now() - t0);
  }
  return ms;
}

const t0 = performance.now();
const gdf = await gpudf.readCSV(csv);
const gLoad = performance.now() - t0;
const t1 = performance.now();
const pdf = pl.readCSV(csv);
const pLoad = performance.now() - t1;
console.log(`${csv}: ${gdf.height} rows x ${gdf.width} columns; loaded in ${gLoad.toFixed(0)} ms (gpudf), ${pLoad.toFixed(0)} ms (polars)`);

const cases = [
  ["writeCSV", (p) => gdf.writeCSV(p), (p) => pdf.writeCSV(p), "csv"],
  ["writeParquet zstd", (p) => gdf.writeParquet(p, { compression: "zstd" }), (p) => pdf.writeParquet(p, { compression: "zstd" }), "parquet"],
  ["writeParquet snappy", (p) => gdf.writeParquet(p, { compression: "snappy" }), (p) => pdf.writeParquet(p, { compression: "snappy" }), "parquet"],
  ["writeParquet none", (p) => gdf.writeParquet(p, { compression: "none" }), (p) => pdf.writeParquet(p, { compression: "uncompressed" }), "parquet"],
];
const rows = [];
for (const [label, g, p, ext] of cases) {
  const gPath = join(dir, `g.${ext}`);
  const pPath = join(dir, `p.${ext}`);
  const gMs = await best(() => g(gPath));
  const gSize = statSync(gPath).size;
  rmSync(gPath);
  const pMs = await best(() => p(pPath));
  const pSize = statSync(pPath).size;
  rmSync(pPath);
  rows.push([label, gMs, pMs, gSize, pSize]);
}
rmSync(dir, { recursive: true, force: true });

const mb = (b) => `${(b / 1e6).toFixed(0)} MB`;
console.log(`${"best of 2, ms".padEnd(22)}${"gpudf".padStart(10)}${"polars".padStart(10)}${"ratio".padStart(8)}${"gpudf size".padStart(13)}${"polars size".padStart(13)}`);
for (const [label, gMs, pMs, gSize, pSize] of rows) {
  console.log(
    `${label.padEnd(22)}${gMs.toFixed(0).padStart(10)}${pMs.toFixed(0).padStart(10)}${(gMs / pMs).toFixed(2).padStart(8)}${mb(gSize).padStart(13)}${mb(pSize).padStart(13)}`,
  );
}
