/**
 * The ten db-benchmark groupby questions (examples/db-benchmark/groupby.ts) on small G1 tables
 * made by the benchmark's own generator (bench/gen/groupby.mjs), without and with 5% nulls,
 * each answer checked against DuckDB running the benchmark's SQL (bench/engines/duckdb.mjs).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DuckDBConnection } from "@duckdb/node-api";

import { DataFrame, Series, type DType } from "gpudf";
import { GROUPBY_QUESTIONS, MEASURES } from "../examples/db-benchmark/groupby.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { closeValues, sortRows, type Row } from "./support/rows.js";

interface GenColumn {
  name: string;
  type: "int32" | "float64" | "utf8";
  values: Int32Array | Float64Array;
  valid: Uint8Array | null;
  str?: (code: number) => string;
}
interface GenModule {
  groupbyNullPlan(N: number, K: number, nas: number): unknown;
  groupbyChunk(o: { N: number; K: number; nas: number; index: number; n: number; nullPlan: unknown }): { n: number; columns: GenColumn[] };
}

/** The G1_<N>_<K>_<nas>_0 table as JS columns (one chunk: the same rows bench/gen writes first). */
async function g1(N: number, K: number, nas: number): Promise<{ columns: Record<string, unknown[]>; dtypes: Record<string, DType> }> {
  const gen = (await import(new URL("../bench/gen/groupby.mjs", import.meta.url).href)) as GenModule;
  const chunk = gen.groupbyChunk({ N, K, nas, index: 0, n: N, nullPlan: gen.groupbyNullPlan(N, K, nas) });
  const columns: Record<string, unknown[]> = {};
  const dtypes: Record<string, DType> = {};
  for (const c of chunk.columns) {
    const values = Array.from(c.values as ArrayLike<number>, (v, i) =>
      c.valid !== null && c.valid[i] === 0 ? null : c.type === "utf8" ? (c.str as (code: number) => string)(v) : v,
    );
    columns[c.name] = values;
    dtypes[c.name] = c.type;
  }
  return { columns, dtypes };
}

/**
 * The benchmark's DuckDB answers (bench/engines/duckdb.mjs), keyed by question, with two of
 * gpudf's documented rules spelled out where SQL differs: a sum of no values is 0 (SQL: NULL;
 * coalesce), and corr over fewer than two pairs is null (DuckDB: NaN).
 */
const SQL: Record<keyof typeof GROUPBY_QUESTIONS, string> = {
  q1: "SELECT id1, coalesce(sum(v1), 0) AS v1 FROM t GROUP BY id1",
  q2: "SELECT id1, id2, coalesce(sum(v1), 0) AS v1 FROM t GROUP BY id1, id2",
  q3: "SELECT id3, coalesce(sum(v1), 0) AS v1, avg(v3) AS v3 FROM t GROUP BY id3",
  q4: "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM t GROUP BY id4",
  q5: "SELECT id6, coalesce(sum(v1), 0) AS v1, coalesce(sum(v2), 0) AS v2, coalesce(sum(v3), 0) AS v3 FROM t GROUP BY id6",
  q6: "SELECT id4, id5, quantile_cont(v3, 0.5) AS median_v3, stddev(v3) AS sd_v3 FROM t GROUP BY id4, id5",
  q7: "SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM t GROUP BY id3",
  q8: "SELECT id6, unnest(max(v3, 2)) AS largest2_v3 FROM t WHERE v3 IS NOT NULL GROUP BY id6",
  q9: "SELECT id2, id4, CASE WHEN regr_count(v1, v2) < 2 THEN NULL ELSE pow(corr(v1, v2), 2) END AS r2 FROM t GROUP BY id2, id4",
  q10: "SELECT id1, id2, id3, id4, id5, id6, coalesce(sum(v3), 0) AS v3, count(*) AS count FROM t GROUP BY id1, id2, id3, id4, id5, id6",
};

for (const [N, K, nas] of [
  [20_000, 10, 0],
  [20_000, 10, 5],
  [5_000, 100, 5],
] as const) {
  describe(`db-benchmark groupby on G1_${N}_${K}_${nas}_0 vs DuckDB`, () => {
    let x: DataFrame;
    let conn: DuckDBConnection;

    beforeAll(async () => {
      const { columns, dtypes } = await g1(N, K, nas);
      x = new DataFrame(Object.fromEntries(Object.entries(columns).map(([n, v]) => [n, new Series(n, v, dtypes[n])])));
      conn = await duckdbTable(columns, dtypes);
    });
    afterAll(() => {
      x.dispose();
      conn.closeSync();
    });

    for (const [id, question] of Object.entries(GROUPBY_QUESTIONS) as [keyof typeof GROUPBY_QUESTIONS, (x: DataFrame) => DataFrame][]) {
      it(id, async () => {
        const answer = question(x);
        const measures = MEASURES[id];
        const keys = answer.columns.filter((c) => !measures.includes(c));
        const order = id === "q8" ? [...keys, ...measures] : keys;
        const got = sortRows(answer.toRecords(), order);
        answer.dispose();
        const want = sortRows(await duckdbRows(conn, SQL[id]), order);
        expect(got.length).toBe(want.length);
        expect(Object.keys(got[0] ?? {})).toEqual(Object.keys(want[0] ?? {}));
        const bad: string[] = [];
        got.forEach((g, r) => {
          const w = want[r] as Row;
          for (const k of keys) if (!closeValues(g[k], w[k], 0)) bad.push(`row ${r} key ${k}: ${String(g[k])} vs ${String(w[k])}`);
          for (const m of measures) if (!closeValues(g[m], w[m], 1e-9)) bad.push(`row ${r} ${m}: ${String(g[m])} vs ${String(w[m])}`);
        });
        expect(bad.slice(0, 10)).toEqual([]);
      });
    }
  });
}
