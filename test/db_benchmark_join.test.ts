// The db-benchmark join questions (examples/db-benchmark/join.ts) on small J1 data made by the
// benchmark's own generator (bench/gen/join.mjs, in process), checked row by row against DuckDB.
import { describe, expect, it } from "vitest";

import { DataFrame, type DType } from "gpudf";
import { JOIN_QUESTIONS, checksum, type JoinTables } from "../examples/db-benchmark/join.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";

interface GenColumn {
  name: string;
  type: "int32" | "utf8" | "float64";
  values: Int32Array | Float64Array;
  str?: (v: number) => string;
}

const N = 1e4;
const genPath = "../bench/gen/join.mjs";
const { joinTables } = (await import(genPath)) as {
  joinTables: (n: number) => { role: keyof JoinTables; n: number; columns: GenColumn[] }[];
};
const generated = joinTables(N);

/** Plain JS values per column (strings formatted as the generator writes them). */
function jsColumns(cols: GenColumn[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const c of cols) out[c.name] = Array.from(c.values as ArrayLike<number>, (v) => (c.type === "utf8" ? c.str!(v) : v));
  return out;
}

const tables = Object.fromEntries(
  generated.map((t) => {
    const cols: Record<string, Int32Array | Float64Array | string[]> = {};
    for (const c of t.columns) cols[c.name] = c.type === "utf8" ? Array.from(c.values, (v) => c.str!(v)) : c.values;
    return [t.role, new DataFrame(cols)];
  }),
) as unknown as JoinTables;

// question -> right table, key, SQL join
const SPEC = {
  q1: ["small", "id1", "JOIN"],
  q2: ["medium", "id2", "JOIN"],
  q3: ["medium", "id2", "LEFT JOIN"],
  q4: ["medium", "id5", "JOIN"],
  q5: ["big", "id3", "JOIN"],
} as const;

async function duckdb() {
  // One table holding every role (absent columns null), split into x / small / medium / big.
  const all = ["id1", "id2", "id3", "id4", "id5", "id6", "v1", "v2"];
  const dtypes: Record<string, DType> = { role: "utf8", v1: "float64", v2: "float64" };
  for (const n of all.slice(0, 3)) dtypes[n] = "int32";
  for (const n of all.slice(3, 6)) dtypes[n] = "utf8";
  const union: Record<string, unknown[]> = { role: [] };
  for (const n of all) union[n] = [];
  for (const t of generated) {
    const cols = jsColumns(t.columns);
    for (let i = 0; i < t.n; i++) {
      union.role!.push(t.role);
      for (const n of all) union[n]!.push(cols[n]?.[i] ?? null);
    }
  }
  const conn = await duckdbTable(union, dtypes);
  for (const t of generated) {
    const names = t.columns.map((c) => c.name).join(", ");
    await conn.run(`CREATE TABLE ${t.role} AS SELECT ${names} FROM t WHERE role = '${t.role}'`);
  }
  return conn;
}

const rowKey = (r: Record<string, unknown>, names: string[]) => JSON.stringify(names.map((n) => r[n] ?? null));

describe("db-benchmark join questions on J1_1e4 data vs DuckDB", async () => {
  const conn = await duckdb();
  for (const [id, q] of Object.entries(JOIN_QUESTIONS)) {
    it(id, async () => {
      const [right, key, sqlJoin] = SPEC[id as keyof typeof SPEC];
      const ans = q(tables);
      const xNames = tables.x.columns;
      const rightCols = tables[right].columns.filter((n) => n !== key);
      expect(ans.columns).toEqual([...xNames, ...rightCols.map((n) => (xNames.includes(n) ? `${n}_right` : n))]);
      const select = [
        ...xNames.map((n) => `x.${n}`),
        ...rightCols.map((n) => `r.${n} AS ${xNames.includes(n) ? `${n}_right` : n}`),
      ].join(", ");
      const want = await duckdbRows(conn, `SELECT ${select} FROM x ${sqlJoin} ${right} r ON x.${key} = r.${key}`);
      const names = ans.columns;
      expect(ans.height).toBe(want.length);
      expect(ans.height).toBeGreaterThan(0);
      const got = ans.toRecords().map((r) => rowKey(r, names)).sort();
      expect(got).toEqual(want.map((r) => rowKey(r, names)).sort());
      const [rows, v1, v2] = checksum(ans);
      expect(rows).toBe(want.length);
      expect(v1).toBeCloseTo(want.reduce((s, r) => s + ((r.v1 as number | null) ?? 0), 0), 6);
      expect(v2).toBeCloseTo(want.reduce((s, r) => s + ((r.v2 as number | null) ?? 0), 0), 6);
      ans.dispose();
    });
  }
});
