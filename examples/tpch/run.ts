/**
 * Loads the eight TPC-H tables of a folder (the Parquet files bench/tpch/gen writes) and runs
 * the eager queries, printing each answer's head and time.
 *
 *   node bench/tpch/gen/index.mjs --sf 1                       # the data, once
 *   npx tsx examples/tpch/run.ts bench/data/tpch/sf1 [q1,q6]   # all queries, or some
 *   npx tsx examples/tpch/run.ts bench/data/tpch/sf1 q1 lazy   # the lazy forms
 */
import { join } from "node:path";

import { readParquet, type DataFrame } from "gpudf";
import { QUERIES, type TpchTables } from "./eager.js";
import { QUERIES as LAZY } from "./lazy.js";

const NAMES = ["region", "nation", "part", "supplier", "partsupp", "customer", "orders", "lineitem"] as const;

/** The tables of `dir` (<table>.parquet each), read into memory. */
export async function loadTables(dir: string): Promise<TpchTables<DataFrame>> {
  const tables: Partial<Record<(typeof NAMES)[number], DataFrame>> = {};
  for (const name of NAMES) tables[name] = await readParquet(join(dir, `${name}.parquet`));
  return tables as TpchTables<DataFrame>;
}

async function main(): Promise<void> {
  const dir = process.argv[2] ?? "bench/data/tpch/sf1";
  const only = process.argv[3]?.split(",");
  const lazy = process.argv[4] === "lazy";
  const sf = Number(/sf([0-9.]+)$/.exec(dir)?.[1] ?? 1); // Q11's fraction is 0.0001 / SF
  let t0 = performance.now();
  const tables = await loadTables(dir);
  console.log(`loaded ${dir} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  for (const [id, query] of Object.entries(QUERIES)) {
    if (only && !only.includes(id)) continue;
    t0 = performance.now();
    const answer = lazy ? await (LAZY[id] as (t: TpchTables<DataFrame>, sf: number) => Promise<DataFrame>)(tables, sf) : query(tables, sf);
    console.log(`${id}: ${answer.height} rows in ${((performance.now() - t0) / 1000).toFixed(3)} s\n${answer.head(5).toString()}`);
    answer.dispose();
  }
  for (const t of Object.values(tables)) t.dispose();
}

if (process.argv[1]?.endsWith("run.ts")) await main();
