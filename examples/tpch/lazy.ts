/**
 * The 22 TPC-H queries (queries.ts) run lazily: over LazyFrames of the tables each query builds
 * one plan, which collect() optimises (projection and predicate pushdown, ...) and runs natively
 * off the JS thread.
 *
 * @example
 * import { QUERIES } from "./lazy.js";
 * const answer = await QUERIES.q1(tables, 1); // tables: DataFrames (scanned lazily)
 * console.log(lazyPlan("q1", tables).explain());
 */
import type { DataFrame, LazyFrame } from "gpudf";
import { QUERIES as BOTH, type TpchTables } from "./queries.js";

/** Lazy frames over the tables. */
export function lazyTables(t: TpchTables<DataFrame>): TpchTables<LazyFrame> {
  return Object.fromEntries(Object.entries(t).map(([name, df]) => [name, df.lazy()])) as unknown as TpchTables<LazyFrame>;
}

/** Query `id`'s plan over the tables. */
export function lazyPlan(id: string, t: TpchTables<DataFrame>, sf = 1): LazyFrame {
  const q = BOTH[id];
  if (q === undefined) throw new Error(`no TPC-H query ${id}`);
  return q(lazyTables(t), sf) as LazyFrame;
}

/** The queries by id: each plans over the tables and resolves with the collected answer. */
export const QUERIES: Record<string, (t: TpchTables<DataFrame>, sf: number) => Promise<DataFrame>> = Object.fromEntries(
  Object.keys(BOTH).map((id) => [id, (t: TpchTables<DataFrame>, sf: number) => lazyPlan(id, t, sf).collect()]),
);
