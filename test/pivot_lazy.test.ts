/**
 * pivot's `onColumns` (eager and lazy) and LazyFrame.pivot: the lazy result equals the eager one
 * (names, dtypes, values, nulls, order) for every aggregate function and an expression, with and
 * without the values listed; composition with verbs after it; explain; typed errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { col, DataFrame, scanCSV, Series, type PivotOptions } from "../src/index.js";

const long = new DataFrame({
  name: ["ann", "ann", "bob", "bob", "cat", "ann", "dan"],
  subject: ["maths", "physics", "maths", "art", "physics", "maths", null],
  score: [90, 80, 70, 60, null, 95, 50],
  rank: new Series("rank", [1, 2, 3, 4, 5, 6, 7], "int32"),
});

const err = (code: string) => expect.objectContaining({ code });

/** Names, dtypes and rows of a frame, for exact comparison. */
function contents(df: DataFrame): { columns: string[]; dtypes: string[]; rows: Record<string, unknown>[] } {
  return { columns: df.columns, dtypes: df.dtypes, rows: df.toRecords() };
}

describe("pivot onColumns (eager)", () => {
  it("the listed values in order: absent ones all null, unlisted ones dropped, every index row kept", () => {
    const out = long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max", onColumns: ["art", "history", "maths"] });
    expect(out.columns).toEqual(["name", "art", "history", "maths"]);
    expect(out.dtypes).toEqual(["utf8", "float64", "float64", "float64"]);
    expect(out.toRecords()).toEqual([
      { name: "ann", art: null, history: null, maths: 95 },
      { name: "bob", art: 60, history: null, maths: 70 },
      { name: "cat", art: null, history: null, maths: null },
      { name: "dan", art: null, history: null, maths: null },
    ]);
    // The null `on` value is listed as null; the string "null" is another value.
    const nulls = long.pivot({ on: "subject", index: "name", values: "rank", aggregateFunction: "len", onColumns: [null] });
    expect(nulls.toRecords()).toEqual([
      { name: "ann", null: null },
      { name: "bob", null: null },
      { name: "cat", null: null },
      { name: "dan", null: 1n },
    ]);
    expect(long.pivot({ on: "subject", index: "name", values: "rank", aggregateFunction: "len", onColumns: ["null"] }).getColumn("null").toArray()).toEqual([null, null, null, null]);
  });

  it("several values columns, numbers, bigints, floats, dates and bools are matched by their column text", () => {
    const both = long.pivot({ on: "subject", index: "name", values: ["score", "rank"], aggregateFunction: "first", onColumns: ["physics"] });
    expect(both.columns).toEqual(["name", "score_physics", "rank_physics"]);
    expect(both.dtypes).toEqual(["utf8", "float64", "int32"]);
    expect(both.getColumn("rank_physics").toArray()).toEqual([2, null, 5, null]);
    const nums = new DataFrame({ k: ["a", "a", "b"], f: [1, 2.5, 1], i: new Series("i", [7, 8, 7], "int64"), v: [1, 2, 3] });
    expect(nums.pivot({ on: "f", index: "k", values: "v", onColumns: [2.5, 1, 3] }).toRecords()).toEqual([
      { k: "a", "2.5": 2, "1.0": 1, "3.0": null },
      { k: "b", "2.5": null, "1.0": 3, "3.0": null },
    ]);
    expect(nums.pivot({ on: "i", index: "k", values: "v", onColumns: [8n, 7] }).toRecords()).toEqual([
      { k: "a", "8": 2, "7": 1 },
      { k: "b", "8": null, "7": 3 },
    ]);
    const days = new DataFrame({ s: ["2024-01-02", "2024-01-01"], v: [1, 2], ok: [true, false] }).select(col("s").str.toDate().alias("d"), "v", "ok");
    const byDate = days.pivot({ on: "d", index: "ok", values: "v", onColumns: [new Date(Date.UTC(2024, 0, 1)), new Date(Date.UTC(2024, 0, 3))] });
    expect(byDate.toRecords()).toEqual([
      { ok: true, "2024-01-01T00:00:00.000Z": null, "2024-01-03T00:00:00.000Z": null },
      { ok: false, "2024-01-01T00:00:00.000Z": 2, "2024-01-03T00:00:00.000Z": null },
    ]);
    expect(days.pivot({ on: "ok", index: "d", values: "v", onColumns: [false] }).getColumn("false").toArray()).toEqual([null, 2]);
    // No values listed: the index columns only.
    expect(long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "sum", onColumns: [] }).columns).toEqual(["name"]);
  });

  it("errors: values of another dtype, a value twice, with sortColumns, not an array", () => {
    const base = { on: "subject", index: "name", values: "score", aggregateFunction: "max" } as const;
    expect(() => long.pivot({ ...base, onColumns: [1] })).toThrow(err("ERR_DTYPE"));
    expect(() => new DataFrame({ k: [1], on: [2], v: [3] }).pivot({ on: "on", index: "k", onColumns: ["2"] })).toThrow(err("ERR_DTYPE"));
    expect(() => long.pivot({ ...base, onColumns: ["art", "art"] })).toThrow(err("ERR_INVALID_ARGUMENT"));
    expect(() => long.pivot({ ...base, onColumns: ["art"], sortColumns: true })).toThrow(err("ERR_INVALID_ARGUMENT"));
    expect(() => long.pivot({ ...base, onColumns: "art" as never })).toThrow(err("ERR_INVALID_ARGUMENT"));
    // A cell of several rows still needs an aggregateFunction, listed or not.
    expect(() => long.pivot({ on: "subject", index: "name", values: "score", onColumns: ["art"] })).toThrow(err("ERR_INVALID_ARGUMENT"));
  });
});

describe("LazyFrame.pivot", () => {
  const AGGS: NonNullable<PivotOptions["aggregateFunction"]>[] = ["first", "last", "sum", "mean", "median", "min", "max", "count", "len", (v) => v.sum().mul(2).add(col("rank").max())];

  it("equals the eager pivot for every aggregate function and an expression, listed or not", async () => {
    for (const aggregateFunction of AGGS) {
      for (const extra of [{}, { sortColumns: true }, { onColumns: ["physics", "history", null] }, { values: ["score", "rank"], separator: "/" }] as Partial<PivotOptions>[]) {
        const o: PivotOptions = { on: "subject", index: "name", values: "score", aggregateFunction, ...extra };
        const want = long.pivot(o);
        const lf = long.lazy().pivot(o);
        const what = `${String(aggregateFunction)} ${JSON.stringify(extra)}`;
        expect(lf.columns, what).toEqual(want.columns);
        expect(lf.dtypes, what).toEqual(want.dtypes);
        expect(contents(lf.collectSync()), what).toEqual(contents(want));
        expect(contents(await lf.collect()), what).toEqual(contents(want));
      }
    }
    // Without an aggregateFunction, cells of one row each.
    const unique = long.filter(col("rank").neq(6));
    const o: PivotOptions = { on: "subject", index: "name", values: ["score", "rank"] };
    expect(contents(unique.lazy().pivot(o).collectSync())).toEqual(contents(unique.pivot(o)));
    expect(contents(unique.lazy().pivot(o).collectSync()).columns).toEqual([
      "name", "score_maths", "score_physics", "score_art", "score_null", "rank_maths", "rank_physics", "rank_art", "rank_null",
    ]);
  });

  it("composes with verbs before and after it; filters and projections above reach its scan", () => {
    const o: PivotOptions = { on: "subject", index: "name", values: "score", aggregateFunction: "max", onColumns: ["maths", "physics", "art"] };
    const lf = long.lazy().filter(col("rank").lt(6)).pivot(o).filter(col("maths").gt(60)).select("name", col("maths").add(1).alias("m1"));
    const want = long.filter(col("rank").lt(6)).pivot(o).filter(col("maths").gt(60)).select("name", col("maths").add(1).alias("m1"));
    expect(contents(lf.collectSync())).toEqual(contents(want));
    // rank < 6 drops ann's 95: her maths max is 90.
    expect(want.toRecords()).toEqual([
      { name: "ann", m1: 91 },
      { name: "bob", m1: 71 },
    ]);
    const plan = lf.explain();
    expect(plan).toBe(
      [
        'SELECT col("name"), (col("maths") + lit(1)).alias("m1")',
        '  SCAN PIVOT "subject" [maths, physics, art] BY name OF score (max) [2 of 4 columns: name, maths]; filter (col("maths") > lit(60))',
      ].join("\n"),
    );
    expect(lf.explain({ optimized: false })).toContain('SCAN PIVOT "subject" [maths, physics, art] BY name OF score (max) [4 columns]');
    // A sort, limit and join after it.
    const top = long.lazy().pivot({ ...o, onColumns: undefined }).sort("maths", { descending: true, nullsLast: true }).head(2).collectSync();
    expect(top.toRecords()).toEqual([
      { name: "ann", maths: 95, physics: 80, art: null, null: null },
      { name: "bob", maths: 70, physics: null, art: 60, null: null },
    ]);
    const joined = long.lazy().pivot(o).join(long.lazy().groupBy("name").agg(col("rank").sum()), { on: "name", how: "left", maintainOrder: "left" });
    expect(joined.collectSync().getColumn("rank").toArray()).toEqual([9n, 7n, 5n, 7n]);
  });

  it("without onColumns, the values come from the plan below when the verb is called", () => {
    const dir = mkdtempSync(join(tmpdir(), "gpudf-pivot-"));
    try {
      const path = join(dir, "long.csv");
      writeFileSync(path, "id,key,v\n1,b,10\n1,a,20\n2,b,30\n3,c,40\n");
      const lf = scanCSV(path).filter(col("id").lt(3)).pivot({ on: "key", index: "id", values: "v", aggregateFunction: "sum" });
      expect(lf.columns).toEqual(["id", "b", "a"]);
      // The file changes before collect: the columns stay those found (a new value is left
      // out, a missing one is all null), as with onColumns.
      writeFileSync(path, "id,key,v\n1,a,5\n2,d,6\n");
      expect(lf.collectSync().toRecords()).toEqual([
        { id: 1n, b: null, a: 5n },
        { id: 2n, b: null, a: null },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // An empty input: the index columns only.
    const empty = long.head(0).lazy().pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "sum" });
    expect(empty.schema).toEqual({ name: "utf8" });
    expect(contents(empty.collectSync())).toEqual(contents(long.head(0).pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "sum" })));
  });

  it("typed errors when the verb is called, and data errors at collect", () => {
    const lf = long.lazy();
    const listed = { onColumns: ["maths"] };
    expect(() => lf.pivot({ on: "nope", index: "name", ...listed })).toThrow(err("ERR_COLUMN_NOT_FOUND"));
    expect(() => lf.pivot({ on: "subject", index: "nme", ...listed })).toThrow(err("ERR_COLUMN_NOT_FOUND"));
    expect(() => lf.pivot({ on: "subject" })).toThrow(err("ERR_INVALID_ARGUMENT"));
    expect(() => lf.pivot({ on: "subject", index: "name", values: "name", aggregateFunction: "sum", ...listed })).toThrow(err("ERR_DTYPE"));
    expect(() => lf.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: (v) => v.add(1), ...listed })).toThrow(err("ERR_INVALID_ARGUMENT"));
    expect(() => lf.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max", onColumns: [3] })).toThrow(err("ERR_DTYPE"));
    expect(() => lf.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max", bogus: 1 } as never)).toThrow(err("ERR_INVALID_ARGUMENT"));
    const p = lf.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max", ...listed });
    expect(() => p.select("physics")).toThrow(err("ERR_COLUMN_NOT_FOUND"));
    // Several rows in a cell without an aggregateFunction: known only from the data.
    const dup = lf.pivot({ on: "subject", index: "name", values: "score", ...listed });
    expect(() => dup.collectSync()).toThrow(err("ERR_INVALID_ARGUMENT"));
  });
});
