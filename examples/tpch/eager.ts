/**
 * The 22 TPC-H queries (queries.ts) run eagerly: every verb runs when it is called.
 *
 * @example
 * import { QUERIES } from "./eager.js";
 * const answer = QUERIES.q1(tables, 1); // tables: { lineitem, orders, ... } as DataFrames
 */
import type { DataFrame } from "gpudf";
import { QUERIES as BOTH, type TpchTables } from "./queries.js";

export type { TpchTables } from "./queries.js";

/** The queries by id over DataFrames. */
export const QUERIES: Record<string, (t: TpchTables<DataFrame>, sf: number) => DataFrame> = Object.fromEntries(
  Object.entries(BOTH).map(([id, q]) => [id, (t: TpchTables<DataFrame>, sf: number) => q(t, sf) as DataFrame]),
);
