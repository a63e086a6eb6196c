/**
 * intRange, Expr.mode and Expr.len: exact values, dtypes and lengths in DataFrame.select /
 * withColumns, compared with nodejs-polars where it has the feature; mode per group (the smallest
 * mode) eager, lazy and in time windows, against a reference on random data; where they cannot
 * run (lazy selects, inside other expressions) a typed error.
 */
import { describe, expect, it } from "vitest";
import pl from "nodejs-polars";

import { DataFrame, col, intRange, len, lit } from "../src/index.js";
import { expectCode } from "./helpers.js";

const df = (): DataFrame => new DataFrame({ k: ["a", "b", "a", null, null, "c"], v: [1, 2, 3, 4, 5, 6], n: [1, null, 1, 2, 2, null] });

describe("intRange", () => {
  it("alone in select: its own rows, int64 by default, named literal", () => {
    const out = df().select(intRange(0, 5));
    expect(out.columns).toEqual(["literal"]);
    expect(out.dtypes).toEqual(["int64"]);
    expect(out.getColumn("literal").toArray()).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it("negative steps, other integer dtypes, empty ranges, one-row items broadcast", () => {
    const out = df().select(intRange(10, 0, -3, { dtype: "int32" }).alias("i"), lit(1).alias("one"));
    expect(out.dtypes).toEqual(["int32", "int32"]);
    expect(out.toRecords()).toEqual([{ i: 10, one: 1 }, { i: 7, one: 1 }, { i: 4, one: 1 }, { i: 1, one: 1 }]);
    expect(df().select(intRange(3, 3).alias("e")).height).toBe(0);
    expect(df().select(intRange(0n, 7n, 3n, { dtype: "uint8" }).alias("u")).getColumn("u").toArray()).toEqual([0, 3, 6]);
  });

  it("to len(): one value per row, in withColumns and in arithmetic with columns", () => {
    const out = df().withColumns(intRange(0, len()).mul(2).alias("e"), intRange(0, len()).add(col("v")).alias("i"));
    expect(out.getColumn("e").toArray()).toEqual([0n, 2n, 4n, 6n, 8n, 10n]);
    expect(out.getColumn("i").toArray()).toEqual([1, 3, 5, 7, 9, 11]);
    expectCode(() => df().withColumns(intRange(1, len()).alias("short")), "ERR_INVALID_ARGUMENT"); // 5 rows for 6
  });

  it("lazy: intRange(0, len()) is the row number (also after a filter, and not pushed past)", async () => {
    const lf = df().lazy();
    const out = await lf.withColumns(intRange(0, len()).alias("i"), intRange(0, len(), 1, { dtype: "uint32" }).mul(10).alias("j")).collect();
    expect(out.dtypes.slice(3)).toEqual(["int64", "uint32"]);
    expect(out.getColumn("i").toArray()).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
    expect(out.getColumn("j").toArray()).toEqual([0, 10, 20, 30, 40, 50]);
    const after = await lf.filter(col("v").gt(2)).select(intRange(0, len()).alias("i"), col("v")).collect();
    expect(after.toRecords()).toEqual([{ i: 0n, v: 3 }, { i: 1n, v: 4 }, { i: 2n, v: 5 }, { i: 3n, v: 6 }]);
    const before = await lf.withColumns(intRange(0, len()).alias("i")).filter(col("v").gt(4)).collect();
    expect(before.getColumn("i").toArray()).toEqual([4n, 5n]);
    expectCode(() => lf.withColumns(intRange(1, len()).alias("i")), "ERR_INVALID_ARGUMENT");
  });

  it("lazy: a select of constant ranges and literals has the range's rows, whatever the input", async () => {
    const items = [intRange(10, 0, -3, { dtype: "int32" }).alias("i"), intRange(0, 4).mul(2).alias("j"), lit(1).alias("one")];
    const lf = df().lazy().filter(col("v").gt(2)).select(items);
    expect(lf.columns).toEqual(["i", "j", "one"]);
    const out = await lf.collect();
    expect(out.dtypes).toEqual(["int32", "int64", "int32"]);
    expect(out.dtypes).toEqual(lf.dtypes);
    expect(out.toRecords()).toEqual(df().select(items).toRecords());
    expect(out.getColumn("i").toArray()).toEqual([10, 7, 4, 1]);
    expect(df().lazy().select(intRange(0, 5).alias("r")).filter(col("r").gt(2n)).collectSync().getColumn("r").toArray()).toEqual([3n, 4n]);
    expect((await df().lazy().select(intRange(0, 5).alias("r")).filter(col("r").gt(2n)).collect()).getColumn("r").toArray()).toEqual([3n, 4n]);
  });

  it("matches nodejs-polars", () => {
    const ours = new DataFrame({}).select(intRange(2, 20, 3).alias("r")).getColumn("r").toArray().map(Number);
    const theirs = pl.DataFrame({}).select(pl.intRange(2, 20, 3).alias("r")).getColumn("r").toArray();
    expect(ours).toEqual(theirs);
  });

  it("errors by code", () => {
    expectCode(() => intRange(0, 3, 0), "ERR_INVALID_ARGUMENT");
    expectCode(() => intRange(0.5, 3), "ERR_INVALID_ARGUMENT");
    expectCode(() => intRange(0, 3, 1, { dtype: "float64" }), "ERR_INVALID_ARGUMENT");
    expectCode(() => intRange(0, col("v")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().select(intRange(0, 3), col("v")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().withColumns(intRange(0, 3)), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().lazy().select(intRange(0, 3), col("v")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().filter(intRange(0, 6).gt(2)), "ERR_INVALID_ARGUMENT");
  });
});

describe("mode", () => {
  it("every mode, sorted, null a value (last); as many rows as modes", () => {
    expect(df().select(col("k").mode()).toRecords()).toEqual([{ k: "a" }, { k: null }]);
    const n = df().select(col("n").mode().alias("m"));
    expect(n.dtypes).toEqual(["float64"]);
    expect(n.getColumn("m").toArray()).toEqual([1, 2, null]);
    expect(df().select(col("v").mode()).getColumn("v").toArray()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(df().head(0).select(col("v").mode()).height).toBe(0);
  });

  it("matches nodejs-polars on values without nulls", () => {
    const values = [3, 1, 3, 2, 1, 5, 3, 1];
    const ours = new DataFrame({ x: values }).select(col("x").mode()).getColumn("x").toArray();
    const theirs = [...pl.DataFrame({ x: values }).select(pl.col("x").mode()).getColumn("x").toArray()].sort((a, b) => a - b);
    expect(ours).toEqual(theirs);
  });

  it("where one row is required, or inside another expression: ERR_INVALID_ARGUMENT", () => {
    expectCode(() => df().groupBy("k").agg(col("v").mode().sum()), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().lazy().groupBy("k").agg(col("v").mode().max()), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().select(col("v").mode().add(1)), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().select(col("k").mode(), col("v")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().lazy().select(col("v").mode()), "ERR_INVALID_ARGUMENT");
  });
});

/** The smallest most frequent value of each group, null a value sorted last (the reference). */
function modesByGroup(keys: readonly (string | null)[], values: readonly (number | string | null)[]): Map<string | null, number | string | null> {
  const counts = new Map<string | null, Map<number | string | null, number>>();
  keys.forEach((k, i) => {
    const m = counts.get(k) ?? new Map<number | string | null, number>();
    m.set(values[i] as number | string | null, (m.get(values[i] as number | string | null) ?? 0) + 1);
    counts.set(k, m);
  });
  const out = new Map<string | null, number | string | null>();
  for (const [k, m] of counts) {
    const most = Math.max(...m.values());
    const modes = [...m].filter(([, c]) => c === most).map(([v]) => v);
    const nonNull = modes.filter((v) => v !== null) as (number | string)[];
    out.set(k, nonNull.length === 0 ? null : nonNull.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0] as number | string);
  }
  return out;
}

describe("mode per group", () => {
  const frame = (): DataFrame =>
    new DataFrame({
      g: ["a", "a", "a", "b", "b", "c", "c", "c", "d", "e", "e"],
      x: [5, 5, 3, 8, 7, null, null, 2, null, 4, null],
      s: ["p", "q", "q", "z", "y", null, "r", "r", "w", null, null],
      t: [true, false, false, true, true, null, false, false, null, true, null],
    });

  it("the smallest most frequent value, null a value (last), in the input's dtype; eager and lazy agree", async () => {
    const eager = frame().groupBy("g", { sort: true }).agg(col("x").mode(), col("s").mode().first().alias("s"), col("t").mode().min().alias("t"), col("x").mode().add(1).alias("x1"));
    expect(eager.dtypes).toEqual(["utf8", "float64", "utf8", "bool", "float64"]);
    expect(eager.toRecords()).toEqual([
      { g: "a", x: 5, s: "q", t: false, x1: 6 },
      { g: "b", x: 7, s: "y", t: true, x1: 8 },
      { g: "c", x: null, s: "r", t: false, x1: null },
      { g: "d", x: null, s: "w", t: null, x1: null },
      { g: "e", x: 4, s: null, t: true, x1: 5 },
    ]);
    const lazy = await frame().lazy().groupBy("g", { sort: true }).agg(col("x").mode(), col("s").mode().first().alias("s"), col("t").mode().min().alias("t"), col("x").mode().add(1).alias("x1")).collect();
    expect(lazy.dtypes).toEqual(eager.dtypes);
    expect(lazy.toRecords()).toEqual(eager.toRecords());
  });

  it("over the rows a filter chooses, and in time windows (with rows in no window)", async () => {
    const chosen = (f: DataFrame): DataFrame => f.groupBy("g", { sort: true }).agg(col("x").filter(col("x").gt(4)).mode().alias("m"));
    expect(chosen(frame()).getColumn("m").toArray()).toEqual([5, 7, null, null, null]);
    expect((await frame().lazy().groupBy("g", { sort: true }).agg(col("x").filter(col("x").gt(4)).mode().alias("m")).collect()).toRecords()).toEqual(chosen(frame()).toRecords());
    const ts = new DataFrame({ t: [0, 1, 2, 10, 11, 12, 13, 30], v: [1, 2, 2, 9, 8, 8, 9, 4] }).withColumns(col("t").cast("int32"));
    // every 10, period 5: rows 10..13 in [10, 15), row 30 in [30, 35); rows 0..2 in [0, 5).
    const w = ts.groupByDynamic("t", { every: "10i", period: "5i" }).agg(col("v").mode().alias("m"));
    expect(w.toRecords()).toEqual([{ t: 0, m: 2 }, { t: 10, m: 8 }, { t: 30, m: 4 }]);
    const gaps = ts.groupByDynamic("t", { every: "10i", period: "2i" }).agg(col("v").mode().alias("m"), col("v").len().alias("n"));
    expect(gaps.toRecords()).toEqual([{ t: 0, m: 1, n: 2n }, { t: 10, m: 8, n: 2n }, { t: 30, m: 4, n: 1n }]);
    const overlapping = ts.groupByDynamic("t", { every: "5i", period: "15i" }).agg(col("v").mode().alias("m"));
    // [0, 15): 1, 2, 2, 9, 8, 8, 9 (modes 2, 8, 9); [5, 20) and [10, 25): 9, 8, 8, 9; [15, 30) is empty.
    expect(overlapping.toRecords()).toEqual([{ t: 0, m: 2 }, { t: 5, m: 8 }, { t: 10, m: 8 }, { t: 20, m: 4 }, { t: 25, m: 4 }, { t: 30, m: 4 }]);
    expect((await ts.lazy().groupByDynamic("t", { every: "10i", period: "5i" }).agg(col("v").mode().alias("m")).collect()).toRecords()).toEqual(w.toRecords());
  });

  it("matches the reference on random groups with nulls and ties, numbers and strings", async () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (const rows of [1, 40, 3000]) {
      const g = Array.from({ length: rows }, () => (rand(9) === 0 ? null : `k${rand(Math.ceil(rows / 8))}`));
      const x = Array.from({ length: rows }, () => (rand(6) === 0 ? null : rand(5)));
      const s = Array.from({ length: rows }, () => (rand(7) === 0 ? null : ["ab", "b", "a", "c"][rand(4)] as string));
      const f = new DataFrame({ g, x, s }).withColumns(col("g").cast("utf8"), col("x").cast("int32"), col("s").cast("utf8"));
      for (const out of [f.groupBy("g").agg(col("x").mode(), col("s").mode()), await f.lazy().groupBy("g").agg(col("x").mode(), col("s").mode()).collect()]) {
        const wantX = modesByGroup(g, x), wantS = modesByGroup(g, s);
        expect(out.height).toBe(wantX.size);
        expect(out.dtypes).toEqual(["utf8", "int32", "utf8"]);
        for (const r of out.toRecords() as { g: string | null; x: number | null; s: string | null }[]) {
          expect([r.g, r.x]).toEqual([r.g, wantX.get(r.g)]);
          expect([r.g, r.s]).toEqual([r.g, wantS.get(r.g)]);
        }
      }
    }
  });
});

describe("Expr.len and Expr.count", () => {
  it("len counts rows with nulls, count non-null; named after the input; per group too", async () => {
    const out = df().select(col("n").len(), col("n").count().alias("c"));
    expect(out.toRecords()).toEqual([{ n: 6n, c: 4n }]);
    expect(out.dtypes).toEqual(["int64", "int64"]);
    const g = df().groupBy("k", { sort: true }).agg(col("n").len().alias("l"), col("n").count().alias("c"));
    expect(g.toRecords()).toEqual([
      { k: "a", l: 2n, c: 2n },
      { k: "b", l: 1n, c: 0n },
      { k: "c", l: 1n, c: 0n },
      { k: null, l: 2n, c: 2n },
    ]);
    const lz = await df().lazy().groupBy("k", { sort: true }).agg(col("n").len().alias("l"), col("n").count().alias("c")).collect();
    expect(lz.toRecords()).toEqual(g.toRecords());
  });
});
