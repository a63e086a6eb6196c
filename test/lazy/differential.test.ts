/**
 * Random verb chains on random tables with nulls: the lazy plan (every rule on), the same chain
 * run eagerly, and the same query written in SQL for DuckDB give the same rows. Each chain is a
 * seed: a failure names the seed and the chain, so it can be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DuckDBConnection } from "@duckdb/node-api";

import { col, DataFrame, len, type DType, type LazyFrame } from "gpudf";
import { duckdbAddTable, duckdbConnection, duckdbRows } from "../support/duckdb.js";
import { randomColumns, Rng, type ColumnSpec } from "../support/random.js";
import { closeValues, sortRows, type Row } from "../support/rows.js";

type Frame = DataFrame | LazyFrame;
type Kind = "int" | "float" | "str";

interface State {
  cols: { name: string; kind: Kind }[];
  sql: string;
  joined: boolean;
  grouped: boolean;
}

interface Step {
  text: string;
  apply: (f: Frame, u: Frame) => Frame;
  next: State;
}

const T_SPECS: ColumnSpec[] = [
  { name: "id", dtype: "int32", nulls: 0, cardinality: 100_000 },
  { name: "k", dtype: "int32", nulls: 0.1, cardinality: 12 },
  { name: "s", dtype: "utf8", nulls: 0.15, cardinality: 6 },
  { name: "x", dtype: "float64", nulls: 0.2, cardinality: 400 },
  { name: "y", dtype: "int64", nulls: 0.1, cardinality: 50 },
];
const U_SPECS: ColumnSpec[] = [
  { name: "k", dtype: "int32", nulls: 0.1, cardinality: 12 },
  { name: "w", dtype: "float64", nulls: 0.1, cardinality: 100 },
  { name: "tag", dtype: "utf8", nulls: 0.1, cardinality: 4 },
];
const KIND: Record<string, Kind> = { int32: "int", int64: "int", float64: "float", utf8: "str" };
const dtypesOf = (specs: ColumnSpec[]): Record<string, DType> => Object.fromEntries(specs.map((s) => [s.name, s.dtype]));

const T = randomColumns(7, 300, T_SPECS);
const U = randomColumns(8, 40, U_SPECS);
const q = (n: string): string => `"${n}"`;

function step(rng: Rng, st: State, tValues: Record<string, unknown[]>): Step | null {
  const nums = st.cols.filter((c) => c.kind !== "str");
  const strs = st.cols.filter((c) => c.kind === "str");
  const from = `(${st.sql}) AS sub`;
  const all = st.cols.map((c) => q(c.name)).join(", ");
  switch (rng.int(0, 7)) {
    case 0: {
      if (nums.length === 0) return null;
      const c = rng.pick(nums).name;
      const sample = (tValues[c] ?? tValues.x ?? []).find((v) => v !== null);
      const v = typeof sample === "bigint" ? Number(sample) : typeof sample === "number" ? sample : rng.int(-20, 20);
      const op = rng.pick(["gt", "lte", "neq"] as const);
      const sqlOp = { gt: ">", lte: "<=", neq: "<>" }[op];
      return { text: `filter(${c} ${sqlOp} ${v})`, apply: (f) => f.filter(col(c)[op](v)), next: { ...st, sql: `SELECT * FROM ${from} WHERE ${q(c)} ${sqlOp} ${v}` } };
    }
    case 1: {
      if (strs.length === 0) return null;
      const c = rng.pick(strs).name;
      const isNull = rng.next() < 0.5;
      return {
        text: `filter(${c} ${isNull ? "is not null" : "starts with a"})`,
        apply: (f) => f.filter(isNull ? col(c).isNotNull() : col(c).str.startsWith("a")),
        next: { ...st, sql: `SELECT * FROM ${from} WHERE ${isNull ? `${q(c)} IS NOT NULL` : `starts_with(${q(c)}, 'a')`}` },
      };
    }
    case 2: {
      const floats = nums.filter((c) => c.kind === "float");
      if (floats.length === 0 || st.cols.some((c) => c.name === "z")) return null;
      const a = rng.pick(floats).name;
      const b = rng.pick(nums).name;
      return {
        text: `withColumns(z = ${a} * 2 + ${b})`,
        apply: (f) => f.withColumns(col(a).mul(2).add(col(b)).alias("z")),
        next: { ...st, cols: [...st.cols, { name: "z", kind: "float" }], sql: `SELECT *, ${q(a)} * 2 + ${q(b)} AS z FROM ${from}` },
      };
    }
    case 3: {
      if (st.cols.length < 2) return null;
      const keep = st.cols.filter(() => rng.next() < 0.6);
      if (keep.length === 0) return null;
      const names = keep.map((c) => c.name);
      return { text: `select(${names.join(", ")})`, apply: (f) => f.select(names), next: { ...st, cols: keep, sql: `SELECT ${names.map(q).join(", ")} FROM ${from}` } };
    }
    case 4: {
      if (st.grouped) return null;
      const keys = st.cols.filter((c) => (c.name === "k" || c.name === "s" || c.name === "tag") && rng.next() < 0.7);
      const vals = nums.filter((c) => !keys.includes(c));
      if (keys.length === 0 || vals.length === 0) return null;
      const v = rng.pick(vals).name;
      const names = keys.map((c) => c.name);
      return {
        text: `groupBy(${names.join(", ")}).agg(sum, max, count, len of ${v})`,
        apply: (f) => f.groupBy(names).agg(col(v).sum().alias("sum_v"), col(v).max().alias("max_v"), col(v).count().alias("cnt"), len()),
        next: {
          ...st,
          grouped: true,
          cols: [...keys, { name: "sum_v", kind: "float" }, { name: "max_v", kind: "float" }, { name: "cnt", kind: "int" }, { name: "len", kind: "int" }],
          sql: `SELECT ${names.map(q).join(", ")}, COALESCE(SUM(${q(v)}), 0) AS sum_v, MAX(${q(v)}) AS max_v, COUNT(${q(v)}) AS cnt, COUNT(*) AS len FROM ${from} GROUP BY ${names.map(q).join(", ")}`,
        },
      };
    }
    case 5: {
      if (st.joined || !st.cols.some((c) => c.name === "k") || st.cols.some((c) => c.name === "w" || c.name === "tag")) return null;
      const how = rng.pick(["inner", "left", "semi", "anti"] as const);
      const keep = st.cols.map((c) => `sub.${q(c.name)}`).join(", ");
      const sql =
        how === "semi" || how === "anti"
          ? `SELECT * FROM ${from} WHERE ${how === "anti" ? "NOT " : ""}EXISTS (SELECT 1 FROM u WHERE u.k = sub.k)`
          : `SELECT ${keep}, u.w, u.tag FROM ${from} ${how === "left" ? "LEFT " : ""}JOIN u ON sub.k = u.k`;
      const cols = how === "semi" || how === "anti" ? st.cols : [...st.cols, { name: "w", kind: "float" as Kind }, { name: "tag", kind: "str" as Kind }];
      return { text: `join(u, ${how})`, apply: (f, u) => (f as DataFrame).join(u as DataFrame, { on: "k", how }), next: { ...st, joined: true, cols, sql } };
    }
    case 7: {
      // Whole-frame aggregations: one row.
      if (nums.length === 0 || st.grouped) return null;
      const v = rng.pick(nums).name;
      return {
        text: `select(sum, min, count of ${v}, len)`,
        apply: (f) => f.select(col(v).sum().alias("sum_v"), col(v).min().alias("min_v"), col(v).count().alias("cnt"), len()),
        next: {
          ...st,
          grouped: true,
          cols: [{ name: "sum_v", kind: "float" }, { name: "min_v", kind: "float" }, { name: "cnt", kind: "int" }, { name: "len", kind: "int" }],
          sql: `SELECT COALESCE(SUM(${q(v)}), 0) AS sum_v, MIN(${q(v)}) AS min_v, COUNT(${q(v)}) AS cnt, COUNT(*) AS len FROM ${from}`,
        },
      };
    }
    default: {
      const n = rng.int(1, 25);
      if (rng.next() < 0.5) {
        const names = st.cols.map((c) => c.name);
        return {
          text: `sort(all).head(${n})`,
          apply: (f) => f.sort(names).head(n),
          next: { ...st, sql: `SELECT * FROM ${from} ORDER BY ${names.map((c) => `${q(c)} ASC NULLS LAST`).join(", ")} LIMIT ${n}` },
        };
      }
      return { text: "unique()", apply: (f) => f.unique(), next: { ...st, sql: `SELECT DISTINCT ${all} FROM ${from}` } };
    }
  }
}

function chain(seed: number): { text: string[]; steps: Step[]; sql: string; cols: string[] } {
  const rng = new Rng(seed);
  let st: State = { cols: T_SPECS.map((s) => ({ name: s.name, kind: KIND[s.dtype] as Kind })), sql: "SELECT * FROM t", joined: false, grouped: false };
  const steps: Step[] = [];
  const want = rng.int(1, 5);
  for (let tries = 0; steps.length < want && tries < 40; tries++) {
    const s = step(rng, st, T);
    if (s === null) continue;
    steps.push(s);
    st = s.next;
  }
  return { text: steps.map((s) => s.text), steps, sql: st.sql, cols: st.cols.map((c) => c.name) };
}

function sameRows(got: Row[], want: Row[], cols: string[], exact: boolean): string | null {
  if (got.length !== want.length) return `${got.length} rows, want ${want.length}`;
  const g = sortRows(got, cols);
  const w = sortRows(want, cols);
  for (let i = 0; i < g.length; i++) {
    for (const c of cols) {
      const a = (g[i] as Row)[c];
      const b = (w[i] as Row)[c];
      const ok = exact ? Object.is(a, b) || (typeof a === "bigint" && a === b) : closeValues(a, b, 1e-9);
      if (!ok) return `row ${i} column ${c}: got ${String(a)}, want ${String(b)}`;
    }
  }
  return null;
}

describe("lazy == eager == DuckDB on random verb chains", () => {
  let conn: DuckDBConnection;
  const t = new DataFrame(T as Record<string, never>);
  const u = new DataFrame(U as Record<string, never>);
  beforeAll(async () => {
    conn = await duckdbConnection();
    await duckdbAddTable(conn, "t", T, dtypesOf(T_SPECS));
    await duckdbAddTable(conn, "u", U, dtypesOf(U_SPECS));
  });
  afterAll(() => conn.closeSync());

  const SEEDS = Array.from({ length: 120 }, (_, i) => i + 1);
  it.each(SEEDS)("seed %i", async (seed) => {
    const c = chain(seed);
    const label = `seed ${seed}: ${c.text.join(" -> ")}`;
    let eager: Frame = t.select(T_SPECS.map((s) => s.name));
    let lazy: Frame = t.lazy();
    for (const s of c.steps) {
      eager = s.apply(eager, u);
      lazy = s.apply(lazy, u.lazy());
    }
    const lazyOut = await (lazy as LazyFrame).collect();
    const e = eager as DataFrame;
    expect(lazyOut.columns, label).toEqual(e.columns);
    expect(lazyOut.dtypes, label).toEqual(e.dtypes);
    expect((lazy as LazyFrame).schema, label).toEqual(e.schema);
    expect(sameRows(lazyOut.toRecords(), e.toRecords(), c.cols, true), label).toBeNull();
    const sql = await duckdbRows(conn, c.sql);
    expect(sameRows(lazyOut.toRecords(), sql, c.cols, false), `${label}\n${c.sql}`).toBeNull();
  });
});

describe("morsel pipelines on == off on random verb chains over several morsels", () => {
  // 140000 rows: three morsels of 65536, so every aggregation, sort with a limit and topK the
  // chains end in may run as a pipeline with the filters, projections and join below it.
  const big = new DataFrame(randomColumns(9, 140_000, T_SPECS) as Record<string, never>);
  const u = new DataFrame(U as Record<string, never>);
  const SEEDS = Array.from({ length: 60 }, (_, i) => i + 1);
  let piped = 0;
  afterAll(() => {
    // The chains do reach the pipelines (a guard against a generator that never does).
    expect(piped).toBeGreaterThan(10);
  });
  it.each(SEEDS)("seed %i", async (seed) => {
    const c = chain(seed);
    const label = `seed ${seed}: ${c.text.join(" -> ")}`;
    let lazy: Frame = big.lazy();
    for (const s of c.steps) lazy = s.apply(lazy, u.lazy());
    const { result: on, profile } = await (lazy as LazyFrame).profile();
    // A chain no pipeline took runs the same operators either way.
    if (!(profile.getColumn("name").toArray() as string[]).some((n) => n.includes("morsel pipeline"))) return;
    piped++;
    const off = await (lazy as LazyFrame).collect({ optimizations: { pipelines: false } });
    expect(on.columns, label).toEqual(off.columns);
    expect(on.dtypes, label).toEqual(off.dtypes);
    // Float sums may differ in the last bits (the morsel shape); everything else exactly.
    expect(sameRows(on.toRecords(), off.toRecords(), c.cols, false), label).toBeNull();
    const exactCols = c.cols.filter((n) => n !== "sum_v");
    expect(sameRows(on.select(exactCols).toRecords(), off.select(exactCols).toRecords(), exactCols, true), label).toBeNull();
  });
});
