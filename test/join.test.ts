import { describe, expect, it } from "vitest";

import {
  ColumnNotFoundError,
  DataFrame,
  DtypeError,
  InvalidArgumentError,
  Series,
  type DType,
  type JoinHow,
} from "../src/index.js";
import { NON_ASCII } from "./helpers.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { randomColumns, uniform, type ColumnSpec } from "./support/random.js";

/** A frame from name -> [dtype, values] (nulls allowed in any dtype). */
function frame(cols: Record<string, [DType, unknown[]]>): DataFrame {
  const series: Record<string, Series> = {};
  for (const [n, [d, v]] of Object.entries(cols)) series[n] = new Series(n, v as never, d);
  return new DataFrame(series);
}

/** Rows as canonical strings, sorted (for results whose order is unspecified). */
function sortedRows(rows: Record<string, unknown>[], names?: string[]): string[] {
  return rows
    .map((r) => JSON.stringify((names ?? Object.keys(r)).map((n) => canon(r[n]))))
    .sort();
}

function canon(v: unknown): unknown {
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? 0 : v;
  return v ?? null;
}

// Left: k with duplicates and a null; right: k with duplicates, a null and a right-only key.
const L = () =>
  frame({
    k: ["int64", [1n, 2n, 2n, 3n, null, 5n]],
    a: ["utf8", ["a0", "a1", "a2", "a3", "a4", "a5"]],
  });
const R = () =>
  frame({
    k: ["int64", [2n, 2n, 3n, 4n, null, 1n]],
    b: ["float64", [0, 1, 2, 3, 4, 5]],
  });

// L inner R in left, then right, row order.
const INNER_ROWS = [
  { k: 1n, a: "a0", b: 5 },
  { k: 2n, a: "a1", b: 0 },
  { k: 2n, a: "a1", b: 1 },
  { k: 2n, a: "a2", b: 0 },
  { k: 2n, a: "a2", b: 1 },
  { k: 3n, a: "a3", b: 2 },
];

describe("join: every how on duplicates and nulls", () => {
  it("inner: all pairs, nulls never match; left_right order is exact", () => {
    const out = L().join(R(), { on: "k", maintainOrder: "left_right" });
    expect(out.columns).toEqual(["k", "a", "b"]);
    expect(out.dtypes).toEqual(["int64", "utf8", "float64"]);
    expect(out.toRecords()).toEqual(INNER_ROWS);
    const any = L().join(R(), { on: "k" });
    expect(sortedRows(any.toRecords())).toEqual(sortedRows(out.toRecords()));
  });

  it("inner with nullsEqual: null keys match each other", () => {
    const out = L().join(R(), { on: "k", nullsEqual: true, maintainOrder: "left" });
    expect(out.height).toBe(7);
    expect(out.toRecords()[6]).toEqual({ k: null, a: "a4", b: 4 });
  });

  it("left: every left row in left order, nulls where nothing matches", () => {
    const out = L().join(R(), { on: "k", how: "left", maintainOrder: "left_right" });
    expect(out.toRecords()).toEqual([
      ...INNER_ROWS,
      { k: null, a: "a4", b: null },
      { k: 5n, a: "a5", b: null },
    ]);
    // With no order asked for, the same rows (one left row's matches may come in any order on CUDA).
    const any = L().join(R(), { on: "k", how: "left" });
    expect(sortedRows(any.toRecords())).toEqual(sortedRows(out.toRecords()));
  });

  it("right: left non-key columns, then the right columns; right order when asked", () => {
    const out = L().join(R(), { on: "k", how: "right", maintainOrder: "right_left" });
    expect(out.columns).toEqual(["a", "k", "b"]);
    expect(out.toRecords()).toEqual([
      { a: "a1", k: 2n, b: 0 },
      { a: "a2", k: 2n, b: 0 },
      { a: "a1", k: 2n, b: 1 },
      { a: "a2", k: 2n, b: 1 },
      { a: "a3", k: 3n, b: 2 },
      { a: null, k: 4n, b: 3 },
      { a: null, k: null, b: 4 },
      { a: "a0", k: 1n, b: 5 },
    ]);
  });

  it("full keeps k and k_right; coalesce: true merges them", () => {
    const out = L().join(R(), { on: "k", how: "full", maintainOrder: "left_right" });
    expect(out.columns).toEqual(["k", "a", "k_right", "b"]);
    expect(out.toRecords()).toEqual([
      { k: 1n, a: "a0", k_right: 1n, b: 5 },
      { k: 2n, a: "a1", k_right: 2n, b: 0 },
      { k: 2n, a: "a1", k_right: 2n, b: 1 },
      { k: 2n, a: "a2", k_right: 2n, b: 0 },
      { k: 2n, a: "a2", k_right: 2n, b: 1 },
      { k: 3n, a: "a3", k_right: 3n, b: 2 },
      { k: null, a: "a4", k_right: null, b: null },
      { k: 5n, a: "a5", k_right: null, b: null },
      { k: null, a: null, k_right: 4n, b: 3 },
      { k: null, a: null, k_right: null, b: 4 },
    ]);
    const merged = L().join(R(), { on: "k", how: "full", coalesce: true });
    expect(merged.columns).toEqual(["k", "a", "b"]);
    expect(sortedRows(merged.toRecords())).toEqual(
      sortedRows(out.toRecords().map((r) => ({ k: r.k ?? r.k_right, a: r.a, b: r.b }))),
    );
  });

  it("semi and anti: left rows (left columns only) with / without a match, in left order", () => {
    expect(L().join(R(), { on: "k", how: "semi" }).toRecords()).toEqual([
      { k: 1n, a: "a0" },
      { k: 2n, a: "a1" },
      { k: 2n, a: "a2" },
      { k: 3n, a: "a3" },
    ]);
    expect(L().join(R(), { on: "k", how: "anti" }).toRecords()).toEqual([
      { k: null, a: "a4" },
      { k: 5n, a: "a5" },
    ]);
    expect(L().join(R(), { on: "k", how: "anti", nullsEqual: true }).toRecords()).toEqual([{ k: 5n, a: "a5" }]);
  });

  it("cross: every pair, left-major, clashes suffixed", () => {
    const a = frame({ x: ["int32", [1, 2]] });
    const b = frame({ x: ["utf8", ["p", "q", "r"]] });
    const out = a.join(b, { how: "cross" });
    expect(out.columns).toEqual(["x", "x_right"]);
    expect(out.toRecords()).toEqual([
      { x: 1, x_right: "p" },
      { x: 1, x_right: "q" },
      { x: 1, x_right: "r" },
      { x: 2, x_right: "p" },
      { x: 2, x_right: "q" },
      { x: 2, x_right: "r" },
    ]);
    expect(a.join(b.slice(0, 0), { how: "cross" }).shape).toEqual([0, 2]);
  });
});

describe("join: keys, names and inputs", () => {
  it("multi-key with string keys (non-ASCII) and leftOn / rightOn of other names", () => {
    const l = frame({ s: ["utf8", [...NON_ASCII, null]], n: ["int32", [1, 2, 3, 4, 5]], v: ["int32", [10, 20, 30, 40, 50]] });
    const r = frame({
      name: ["utf8", [NON_ASCII[2], NON_ASCII[0], NON_ASCII[0], null, NON_ASCII[1]]],
      num: ["int32", [3, 1, 2, 5, 2]],
      v: ["int32", [7, 8, 9, 10, 11]],
    });
    const out = l.join(r, { leftOn: ["s", "n"], rightOn: ["name", "num"], maintainOrder: "left" });
    expect(out.columns).toEqual(["s", "n", "v", "v_right"]);
    expect(out.toRecords()).toEqual([
      { s: NON_ASCII[0], n: 1, v: 10, v_right: 8 },
      { s: NON_ASCII[1], n: 2, v: 20, v_right: 11 },
      { s: NON_ASCII[2], n: 3, v: 30, v_right: 7 },
    ]);
    const nulls = l.join(r, { leftOn: ["s", "n"], rightOn: ["name", "num"], nullsEqual: true });
    expect(nulls.height).toBe(4);
    const both = l.join(r, { leftOn: "s", rightOn: "name", coalesce: false, suffix: "_r", maintainOrder: "left_right" });
    expect(both.columns).toEqual(["s", "n", "v", "name", "num", "v_r"]);
    expect(both.height).toBe(4);
  });

  it("int32 with int64 keys promote to int64 (the key column takes the common dtype)", () => {
    const l = frame({ k: ["int32", [1, 2, 3, null]], a: ["int32", [1, 2, 3, 4]] });
    const r = frame({ k: ["int64", [3n, 1n, 2n ** 40n, null]], b: ["int32", [30, 10, 99, 0]] });
    const out = l.join(r, { on: "k", maintainOrder: "left" });
    expect(out.dtypes).toEqual(["int64", "int32", "int32"]);
    expect(out.toRecords()).toEqual([
      { k: 1n, a: 1, b: 10 },
      { k: 3n, a: 3, b: 30 },
    ]);
    const left = l.join(r, { on: "k", how: "left", coalesce: false });
    expect(left.dtypes).toEqual(["int32", "int32", "int64", "int32"]);
  });

  it("utf8 with int64 keys is a DtypeError; both frames stay usable", () => {
    const l = frame({ k: ["utf8", ["1"]] });
    const r = frame({ k: ["int64", [1n]] });
    expect(() => l.join(r, { on: "k" })).toThrow(DtypeError);
    expect(l.toRecords()).toEqual([{ k: "1" }]);
    expect(r.toRecords()).toEqual([{ k: 1n }]);
  });

  it("bad options are typed errors with stable codes", () => {
    const l = L();
    const r = R();
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { code?: string }).code;
      }
      return "no error";
    };
    expect(code(() => l.join(r, { on: "nope" }))).toBe("ERR_COLUMN_NOT_FOUND");
    expect(() => l.join(r, { leftOn: "k", rightOn: "zz" })).toThrow(ColumnNotFoundError);
    expect(code(() => l.join(r, { on: "k", leftOn: "k", rightOn: "k" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, { leftOn: ["k", "a"], rightOn: ["k"] }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, { on: "k", how: "outer" as JoinHow }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, {}))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, { on: [] }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, { how: "cross", on: "k" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, { on: "k", maintainOrder: "up" as never }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join(r, { on: "k", nullsEqual: 1 as never }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => l.join({} as DataFrame, { on: "k" }))).toBe("ERR_INVALID_ARGUMENT");
    // A suffix that still clashes.
    const a = frame({ k: ["int32", [1]], v: ["int32", [1]], v_right: ["int32", [2]] });
    const b = frame({ k: ["int32", [1]], v: ["int32", [3]] });
    expect(code(() => a.join(b, { on: "k" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(a.join(b, { on: "k", suffix: "_b" }).columns).toEqual(["k", "v", "v_right", "v_b"]);
    expect(() => l.join(r, { on: "k", how: "nope" as JoinHow })).toThrow(InvalidArgumentError);
    expect(l.height).toBe(6);
    expect(r.height).toBe(6);
  });

  it("empty sides", () => {
    const e = L().slice(0, 0);
    for (const how of ["inner", "left", "right", "full", "semi", "anti"] as JoinHow[]) {
      expect(e.join(R(), { on: "k", how }).height, `empty left ${how}`).toBe(how === "right" || how === "full" ? 6 : 0);
      expect(L().join(R().slice(0, 0), { on: "k", how }).height, `empty right ${how}`).toBe(
        how === "inner" || how === "semi" ? 0 : how === "right" ? 0 : 6,
      );
    }
  });

  it("sliced inputs (offset 3) join their own rows only", () => {
    const n = 40;
    const keys = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : BigInt(i % 11)));
    const l = frame({ k: ["int64", keys], i: ["int32", Array.from({ length: n }, (_, i) => i)] }).slice(3, 33);
    const r = frame({ k: ["int64", keys.slice().reverse()], j: ["int32", Array.from({ length: n }, (_, i) => i)] }).slice(3, 30);
    const lr = l.toRecords();
    const rr = r.toRecords();
    const want: string[] = [];
    for (const a of lr) for (const b of rr) if (a.k !== null && a.k === b.k) want.push(JSON.stringify([canon(a.k), a.i, b.j]));
    want.sort();
    expect(sortedRows(l.join(r, { on: "k" }).toRecords(), ["k", "i", "j"])).toEqual(want);
  });

  it("more than 100_003 rows: counts and left order", () => {
    const n = 150_001;
    const lk = Array.from({ length: n }, (_, i) => BigInt((i * 37) % 120_000));
    const rk = Array.from({ length: 100_003 }, (_, i) => BigInt(i));
    const l = frame({ k: ["int64", lk], i: ["int32", Array.from({ length: n }, (_, i) => i)] });
    const r = frame({ k: ["int64", rk], j: ["int32", Array.from({ length: 100_003 }, (_, i) => i)] });
    const inner = l.join(r, { on: "k", maintainOrder: "left" });
    const expected = lk.filter((k) => k < 100_003n).length;
    expect(inner.height).toBe(expected);
    const ii = inner.getColumn("i").toArray() as number[];
    const jj = inner.getColumn("j").toArray() as number[];
    for (let t = 1; t < ii.length; t++) if (ii[t]! <= ii[t - 1]!) throw new Error(`not in left order at ${t}`);
    for (let t = 0; t < ii.length; t++) if (BigInt(jj[t]!) !== lk[ii[t]!]) throw new Error(`wrong pair at ${t}`);
    const left = l.join(r, { on: "k", how: "left" });
    expect(left.height).toBe(n);
    expect(left.getColumn("j").nullCount).toBe(n - expected);
    expect(l.join(r, { on: "k", how: "anti" }).height).toBe(n - expected);
  });
});

describe("join: differential against DuckDB on random data", () => {
  const SPECS: ColumnSpec[] = [
    { name: "k1", dtype: "int64", nulls: 0.1, cardinality: 40 },
    { name: "k2", dtype: "utf8", nulls: 0.1, cardinality: 5 },
    { name: "v", dtype: "float64", nulls: 0.2 },
  ];
  const SQL: Record<Exclude<JoinHow, "cross">, string> = {
    inner: "INNER JOIN",
    left: "LEFT JOIN",
    right: "RIGHT JOIN",
    full: "FULL OUTER JOIN",
    semi: "SEMI JOIN",
    anti: "ANTI JOIN",
  };

  /** The SELECT list giving gpudf's join output for `how` over l and r (keys, then v). */
  const sqlColumns = (how: keyof typeof SQL, keys: string[]): string => {
    const l = keys.map((k) => `l.${k}`);
    if (how === "semi" || how === "anti") return [...l, "l.v"].join(", ");
    if (how === "right") return [...keys.map((k) => `r.${k}`), "l.v", "r.v AS v_right"].join(", ");
    if (how === "full") return [...l, "l.v", ...keys.map((k) => `r.${k} AS ${k}_right`), "r.v AS v_right"].join(", ");
    return [...l, "l.v", "r.v AS v_right"].join(", ");
  };

  // Integer keys whose ranges multiply to a small span: the CPU build table packs them into one
  // code and indexes it directly. The sides' ranges overlap only in part, so both sides hold
  // values outside the other's range (below its minimum and above its maximum).
  for (const nullsEqual of [false, true]) {
    it(`every how, three integer keys packed into one code (nullsEqual ${nullsEqual})`, async () => {
      const sideCols = (seed: number, n: number, lo: number[]) => {
        const r = uniform(seed);
        const pick = (base: number, width: number, nulls: number) => Array.from({ length: n }, () => (r() < nulls ? null : base + Math.floor(r() * width)));
        return { k1: pick(lo[0]!, 9, 0.1), k2: pick(lo[1]!, 12, 0.05).map((v) => (v === null ? null : BigInt(v))), k3: pick(lo[2]!, 4, 0.05), v: Array.from({ length: n }, (_, i) => i) };
      };
      const lc = sideCols(21, 600, [-5, 95, 0]);
      const rc = sideCols(22, 250, [-3, 99, 1]);
      const dtypes = { side: "utf8", k1: "int32", k2: "int64", k3: "int16", v: "int32" } as Record<string, DType>;
      const both: Record<string, unknown[]> = { side: [...lc.k1.map(() => "l"), ...rc.k1.map(() => "r")] };
      for (const n of ["k1", "k2", "k3", "v"] as const) both[n] = [...lc[n], ...rc[n]];
      const conn = await duckdbTable(both, dtypes);
      await conn.run("CREATE TABLE l AS SELECT k1, k2, k3, v FROM t WHERE side = 'l'");
      await conn.run("CREATE TABLE r AS SELECT k1, k2, k3, v FROM t WHERE side = 'r'");
      const left = frame({ k1: ["int32", lc.k1], k2: ["int64", lc.k2], k3: ["int16", lc.k3], v: ["int32", lc.v] });
      const right = frame({ k1: ["int32", rc.k1], k2: ["int64", rc.k2], k3: ["int16", rc.k3], v: ["int32", rc.v] });
      const eq = nullsEqual ? "IS NOT DISTINCT FROM" : "=";
      const cond = `l.k1 ${eq} r.k1 AND l.k2 ${eq} r.k2 AND l.k3 ${eq} r.k3`;
      for (const how of Object.keys(SQL) as (keyof typeof SQL)[]) {
        const want = await duckdbRows(conn, `SELECT ${sqlColumns(how, ["k1", "k2", "k3"])} FROM l ${SQL[how]} r ON ${cond}`);
        for (const [a, b] of [[left, right], [right, left]] as const) {
          // Both ways round, so each side is built (the smaller side builds an inner join).
          if (a === right && how !== "inner") continue;
          const got = a.join(b, { on: ["k1", "k2", "k3"], how, nullsEqual });
          const names = got.columns;
          const rows = a === left ? got.toRecords() : got.rename({ v: "v_right", v_right: "v" }).select(names).toRecords();
          expect(sortedRows(rows, names), `${how}`).toEqual(sortedRows(want, names));
          expect(got.height, how).toBeGreaterThan(20);
        }
      }
    });
  }

  for (const nullsEqual of [false, true]) {
    it(`every how, multi-key with nulls (nullsEqual ${nullsEqual})`, async () => {
      const lc = randomColumns(7, 500, SPECS);
      const rc = randomColumns(8, 300, SPECS);
      const dtypes = { side: "utf8", k1: "int64", k2: "utf8", v: "float64" } as Record<string, DType>;
      // One DuckDB table holding both sides, split into l and r by the side column.
      const both: Record<string, unknown[]> = { side: [...lc.k1!.map(() => "l"), ...rc.k1!.map(() => "r")] };
      for (const n of ["k1", "k2", "v"]) both[n] = [...lc[n]!, ...rc[n]!];
      const conn = await duckdbTable(both, dtypes);
      await conn.run("CREATE TABLE l AS SELECT k1, k2, v FROM t WHERE side = 'l'");
      await conn.run("CREATE TABLE r AS SELECT k1, k2, v FROM t WHERE side = 'r'");
      const left = frame({ k1: ["int64", lc.k1!], k2: ["utf8", lc.k2!], v: ["float64", lc.v!] });
      const right = frame({ k1: ["int64", rc.k1!], k2: ["utf8", rc.k2!], v: ["float64", rc.v!] });
      const eq = nullsEqual ? "IS NOT DISTINCT FROM" : "=";
      const cond = `l.k1 ${eq} r.k1 AND l.k2 ${eq} r.k2`;
      for (const how of Object.keys(SQL) as (keyof typeof SQL)[]) {
        const want = await duckdbRows(conn, `SELECT ${sqlColumns(how, ["k1", "k2"])} FROM l ${SQL[how]} r ON ${cond}`);
        const got = left.join(right, { on: ["k1", "k2"], how, nullsEqual });
        const names = got.columns;
        expect(sortedRows(got.toRecords(), names), `${how}`).toEqual(sortedRows(want, names));
      }
    });
  }
});
