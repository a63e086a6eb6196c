/**
 * Reshaping: unpivot/melt, pivot, transpose and concat's modes. Exact small cases (values,
 * dtypes, nulls, order, names), typed errors, empty frames, and DuckDB's UNPIVOT / PIVOT as the
 * reference on random tables with nulls.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, Series, col, concat, type DType } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { randomColumns, type ColumnSpec } from "./support/random.js";
import { activeMemory } from "./helpers.js";

function frameOf(columns: Record<string, unknown[]>, dtypes: Record<string, DType>): DataFrame {
  let frame = new DataFrame();
  for (const [name, values] of Object.entries(columns)) frame = frame.withColumn(new Series(name, values, dtypes[name]));
  return frame;
}

describe("unpivot", () => {
  const df = new DataFrame({ id: ["x", "y", "z"], a: [1, null, 3], b: [4, 5, null] });

  it("stacks the on columns, first column's rows first", () => {
    const out = df.unpivot({ index: "id", on: ["a", "b"] });
    expect(out.columns).toEqual(["id", "variable", "value"]);
    expect(out.dtypes).toEqual(["utf8", "utf8", "float64"]);
    expect(out.toRecords()).toEqual([
      { id: "x", variable: "a", value: 1 },
      { id: "y", variable: "a", value: null },
      { id: "z", variable: "a", value: 3 },
      { id: "x", variable: "b", value: 4 },
      { id: "y", variable: "b", value: 5 },
      { id: "z", variable: "b", value: null },
    ]);
  });

  it("on defaults to every non-index column; melt is the same verb; names are options", () => {
    const out = df.melt({ index: ["id"], variableName: "k", valueName: "v" });
    expect(out.columns).toEqual(["id", "k", "v"]);
    expect(out.getColumn("k").toArray()).toEqual(["a", "a", "a", "b", "b", "b"]);
    expect(df.unpivot({ index: "id" }).toRecords()).toEqual(df.unpivot({ index: "id", on: ["a", "b"] }).toRecords());
  });

  it("without an index every column is stacked", () => {
    const out = new DataFrame({ a: [1, 2], b: [3, 4] }).unpivot();
    expect(out.toRecords()).toEqual([
      { variable: "a", value: 1 },
      { variable: "a", value: 2 },
      { variable: "b", value: 3 },
      { variable: "b", value: 4 },
    ]);
  });

  it("casts the on columns to their supertype", () => {
    const mixed = new DataFrame({
      a: new Series("a", [1, 2], "int32"),
      b: new Series("b", [3n, null], "int64"),
      c: new Series("c", [0.5, 1.5], "float32"),
    });
    expect(mixed.unpivot({ on: ["a", "b"] }).dtypes).toEqual(["utf8", "int64"]);
    const out = mixed.unpivot({ on: ["a", "c"] });
    expect(out.dtypes).toEqual(["utf8", "float64"]);
    expect(out.getColumn("value").toArray()).toEqual([1, 2, 0.5, 1.5]);
  });

  it("errors: unknown column, incompatible dtypes, clashing names", () => {
    expect(() => df.unpivot({ index: "nope" })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
    expect(() => df.unpivot({ on: ["a", "id"] })).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.unpivot({ index: "id", valueName: "id" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => df.unpivot({ index: "id", bogus: 1 } as never)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it("lazily, as a plan of projections and a union", async () => {
    const lazy = await df.lazy().unpivot({ index: "id" }).filter(col("value").gt(2)).collect();
    expect(lazy.toRecords()).toEqual(df.unpivot({ index: "id" }).filter(col("value").gt(2)).toRecords());
    const melted = await df.lazy().melt({ index: "id", on: "a", variableName: "k" }).collect();
    expect(melted.toRecords()).toEqual(df.melt({ index: "id", on: "a", variableName: "k" }).toRecords());
    const none = await df.lazy().unpivot({ index: ["id", "a", "b"] }).collect();
    expect(none.shape).toEqual([0, 5]);
    expect(() => df.lazy().unpivot({ on: ["a", "id"] })).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
  });

  it("empty frames and no on columns", () => {
    const empty = df.head(0).unpivot({ index: "id" });
    expect(empty.shape).toEqual([0, 3]);
    expect(empty.dtypes).toEqual(["utf8", "utf8", "float64"]);
    const none = df.unpivot({ index: ["id", "a", "b"] });
    expect(none.shape).toEqual([0, 5]);
    expect(none.columns).toEqual(["id", "a", "b", "variable", "value"]);
  });

  const SPECS: ColumnSpec[] = [
    { name: "g", dtype: "utf8", nulls: 0.1, cardinality: 7 },
    { name: "a", dtype: "int32", nulls: 0.2 },
    { name: "b", dtype: "int32", nulls: 0.3 },
    { name: "c", dtype: "int32", nulls: 0.1 },
  ];
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: agrees with DuckDB UNPIVOT INCLUDE NULLS`, async () => {
      const rows = 300 + seed * 17;
      const columns = randomColumns(seed, rows, SPECS);
      columns["rid"] = Array.from({ length: rows }, (_, i) => i);
      const dtypes = { ...Object.fromEntries(SPECS.map((s) => [s.name, s.dtype])), rid: "int32" } as Record<string, DType>;
      const frame = frameOf(columns, dtypes);
      const conn = await duckdbTable(columns, dtypes);
      const want = await duckdbRows(
        conn,
        `SELECT rid, g, variable, value FROM t UNPIVOT INCLUDE NULLS (value FOR variable IN (a, b, c))
         ORDER BY list_position(['a', 'b', 'c'], variable), rid`,
      );
      const got = frame.unpivot({ index: ["rid", "g"], on: ["a", "b", "c"] }).toRecords();
      expect(got).toEqual(want);
      conn.closeSync();
    });
  }
});

describe("pivot", () => {
  const long = new DataFrame({
    name: ["ann", "ann", "bob", "bob", "cat", "ann"],
    subject: ["maths", "physics", "maths", "art", "physics", "maths"],
    score: [90, 80, 70, 60, null, 95],
    rank: [1, 2, 3, 4, 5, 6],
  });

  it("one column per on value, in order of first appearance; missing pairs are null", () => {
    const out = long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max" });
    expect(out.columns).toEqual(["name", "maths", "physics", "art"]);
    expect(out.toRecords()).toEqual([
      { name: "ann", maths: 95, physics: 80, art: null },
      { name: "bob", maths: 70, physics: null, art: 60 },
      { name: "cat", maths: null, physics: null, art: null },
    ]);
  });

  it("each aggregate function, with dtypes", () => {
    const run = (f: string) =>
      long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: f as never }).getColumn("maths").toArray();
    expect(run("first")).toEqual([90, 70, null]);
    expect(run("last")).toEqual([95, 70, null]);
    expect(run("sum")).toEqual([185, 70, null]);
    expect(run("mean")).toEqual([92.5, 70, null]);
    expect(run("median")).toEqual([92.5, 70, null]);
    expect(run("min")).toEqual([90, 70, null]);
    expect(run("count")).toEqual([2n, 1n, null]);
    expect(run("len")).toEqual([2n, 1n, null]);
    // physics for cat has one row whose value is null: count 0, len 1.
    const phys = (f: string) => long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: f as never }).getColumn("physics").toArray();
    expect(phys("count")).toEqual([1n, null, 0n]);
    expect(phys("len")).toEqual([1n, null, 1n]);
    const custom = long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: (v) => v.sum().mul(2) });
    expect(custom.getColumn("maths").toArray()).toEqual([370, 140, null]);
  });

  it("several values columns are named {value}_{on value}; index defaults to the rest", () => {
    const out = long.pivot({ on: "subject", values: ["score", "rank"], index: "name", aggregateFunction: "first" });
    expect(out.columns).toEqual(["name", "score_maths", "score_physics", "score_art", "rank_maths", "rank_physics", "rank_art"]);
    const byValues = long.drop("rank").pivot({ on: "subject", values: "score", aggregateFunction: "sum" });
    expect(byValues.columns).toEqual(["name", "maths", "physics", "art"]);
    const small = new DataFrame({ k: [1, 2, 1], on: [true, false, true], v: [1, 2, 3] });
    expect(small.pivot({ on: "on", index: "k", aggregateFunction: "sum" }).toRecords()).toEqual([
      { k: 1, true: 4, false: null },
      { k: 2, true: null, false: 2 },
    ]);
  });

  it("sortColumns orders the new columns by the on value", () => {
    const out = long.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max", sortColumns: true });
    expect(out.columns).toEqual(["name", "art", "maths", "physics"]);
    expect(out.getColumn("art").toArray()).toEqual([null, 60, null]);
    const nums = new DataFrame({ k: ["a", "a", "a"], on: [3, null, 1], v: [1, 2, 3] });
    expect(nums.pivot({ on: "on", index: "k", values: "v", sortColumns: true }).toRecords()).toEqual([{ k: "a", "1.0": 3, "3.0": 1, null: 2 }]);
  });

  it("numeric and null on values name columns by their text", () => {
    const df = new DataFrame({ k: ["a", "a", "b"], on: [1, null, 2.5], v: [1, 2, 3] });
    expect(df.pivot({ on: "on", index: "k", values: "v" }).columns).toEqual(["k", "1.0", "null", "2.5"]);
    const ints = new DataFrame({ k: ["a", "b"], on: new Series("on", [7, 8], "int32"), v: [1, 2] });
    expect(ints.pivot({ on: "on", index: "k", values: "v" }).columns).toEqual(["k", "7", "8"]);
  });

  it("errors: duplicate cells without an aggregation, unknown columns, bad options", () => {
    expect(() => long.pivot({ on: "subject", index: "name", values: "score" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => long.pivot({ on: "nope", index: "name" })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
    expect(() => long.pivot({ on: "subject", index: "nme" })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
    expect(() => long.pivot({ on: "subject" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => long.pivot({ on: "subject", index: "name", aggregateFunction: "avg" as never })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }),
    );
    expect(() => long.pivot({ on: "subject", index: "name", values: "name", aggregateFunction: "sum" })).toThrow(
      expect.objectContaining({ code: "ERR_DTYPE" }),
    );
  });

  it("an empty frame gives the index columns and no rows", () => {
    const out = long.head(0).pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "sum" });
    expect(out.shape).toEqual([0, 1]);
    expect(out.dtypes).toEqual(["utf8"]);
  });

  const SPECS: ColumnSpec[] = [
    { name: "g", dtype: "int32", nulls: 0.1, cardinality: 15 },
    { name: "k", dtype: "utf8", nulls: 0, cardinality: 6 },
    { name: "v", dtype: "float64", nulls: 0.2, cardinality: 50 },
  ];
  for (const seed of [4, 5, 6]) {
    it(`seed ${seed}: agrees with DuckDB PIVOT (min, max, avg)`, async () => {
      const rows = 400 + seed * 11;
      const columns = randomColumns(seed, rows, SPECS);
      // DuckDB's column names are case-insensitive ("Abc0" and "abc0" would clash there).
      columns["k"] = (columns["k"] as string[]).map((v) => v.toLowerCase());
      const dtypes = Object.fromEntries(SPECS.map((s) => [s.name, s.dtype])) as Record<string, DType>;
      const frame = frameOf(columns, dtypes);
      const conn = await duckdbTable(columns, dtypes);
      for (const [ours, sql] of [["min", "min"], ["max", "max"], ["mean", "avg"]] as const) {
        const want = await duckdbRows(conn, `PIVOT t ON k USING ${sql}(v) GROUP BY g ORDER BY g NULLS LAST`);
        const got = frame.pivot({ on: "k", index: "g", values: "v", aggregateFunction: ours }).sort("g").toRecords();
        expect(new Set(Object.keys(got[0] ?? {}))).toEqual(new Set(Object.keys(want[0] ?? {})));
        const norm = (rows: Record<string, unknown>[]) =>
          rows.map((r) => Object.fromEntries(Object.entries(r).map(([key, v]) => [key, typeof v === "number" ? Number(v.toPrecision(12)) : v])));
        expect(norm(got)).toEqual(norm(want));
      }
      conn.closeSync();
    });
  }
});

describe("transpose", () => {
  it("rows become columns, cast to the supertype", () => {
    const df = new DataFrame({ a: new Series("a", [1, 2, null], "int32"), b: [0.5, 1.5, 2.5] });
    const out = df.transpose();
    expect(out.columns).toEqual(["column_0", "column_1", "column_2"]);
    expect(out.dtypes).toEqual(["float64", "float64", "float64"]);
    expect(out.toRecords()).toEqual([
      { column_0: 1, column_1: 2, column_2: null },
      { column_0: 0.5, column_1: 1.5, column_2: 2.5 },
    ]);
  });

  it("header and column names", () => {
    const df = new DataFrame({ name: ["x", "y"], a: ["1", "2"], b: ["3", null] });
    expect(df.transpose({ includeHeader: true, headerName: "field", columnNames: "name" }).toRecords()).toEqual([
      { field: "a", x: "1", y: "2" },
      { field: "b", x: "3", y: null },
    ]);
    expect(df.transpose({ columnNames: ["p", "q"] }).columns).toEqual(["p", "q"]);
    expect(df.transpose().transpose().toRecords()).toEqual([
      { column_0: "x", column_1: "1", column_2: "3" },
      { column_0: "y", column_1: "2", column_2: null },
    ]);
  });

  it("errors: no supertype, wrong number of names", () => {
    const df = new DataFrame({ s: ["x"], n: [1] });
    expect(() => df.transpose()).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.transpose({ columnNames: ["a", "b"] })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => df.transpose({ columnNames: "nope" })).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
  });

  it("an empty frame has no columns (or only the header)", () => {
    const df = new DataFrame({ a: [1, 2] }).head(0);
    expect(df.transpose().shape).toEqual([0, 0]);
    expect(df.transpose({ includeHeader: true }).toRecords()).toEqual([{ column: "a" }]);
  });
});

describe("concat modes", () => {
  const a = new DataFrame({ x: new Series("x", [1, 2], "int32"), s: ["p", "q"] });
  const b = new DataFrame({ x: new Series("x", [3n], "int64"), s: new Series("s", [null], "utf8") });

  it("vertical stays strict; verticalRelaxed casts to the supertype", () => {
    expect(() => concat([a, b])).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    const out = concat([a, b], { how: "verticalRelaxed" });
    expect(out.dtypes).toEqual(["int64", "utf8"]);
    expect(out.toRecords()).toEqual([
      { x: 1n, s: "p" },
      { x: 2n, s: "q" },
      { x: 3n, s: null },
    ]);
    expect(() => concat([a, b.rename({ s: "t" })], { how: "verticalRelaxed" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => concat([a, new DataFrame({ x: [1], s: [2] })], { how: "verticalRelaxed" })).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
  });

  it("horizontal pads shorter frames with nulls and rejects repeated names", () => {
    const out = concat([a, new DataFrame({ y: [true, false, true] })], { how: "horizontal" });
    expect(out.columns).toEqual(["x", "s", "y"]);
    expect(out.dtypes).toEqual(["int32", "utf8", "bool"]);
    expect(out.toRecords()).toEqual([
      { x: 1, s: "p", y: true },
      { x: 2, s: "q", y: false },
      { x: null, s: null, y: true },
    ]);
    expect(() => concat([a, b], { how: "horizontal" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it("diagonal unions the columns; diagonalRelaxed casts", () => {
    const c = new DataFrame({ s: ["r"], z: [9.5] });
    const out = concat([a, c], { how: "diagonal" });
    expect(out.columns).toEqual(["x", "s", "z"]);
    expect(out.dtypes).toEqual(["int32", "utf8", "float64"]);
    expect(out.toRecords()).toEqual([
      { x: 1, s: "p", z: null },
      { x: 2, s: "q", z: null },
      { x: null, s: "r", z: 9.5 },
    ]);
    expect(() => concat([a, b], { how: "diagonal" })).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(concat([a, b, c], { how: "diagonalRelaxed" }).dtypes).toEqual(["int64", "utf8", "float64"]);
  });

  it("bad how, lazy frames, empty frames", () => {
    expect(() => concat([a], { how: "sideways" as never })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => concat([a.lazy(), a.lazy()], { how: "diagonal" })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(concat([a.head(0), c0()], { how: "diagonal" }).shape).toEqual([0, 3]);
    expect(concat([a.head(0), new DataFrame({ k: [1] })], { how: "horizontal" }).toRecords()).toEqual([{ x: null, s: null, k: 1 }]);
  });

  function c0(): DataFrame {
    return new DataFrame({ q: [1] }).head(0);
  }

  it("column values survive a filter before a relaxed concat", () => {
    const out = concat([a.filter(col("x").gt(1)), b], { how: "verticalRelaxed" });
    expect(out.getColumn("x").toArray()).toEqual([2n, 3n]);
  });
});

describe("native memory", () => {
  it("every reshaping verb frees what it made once its result is disposed", () => {
    const df = new DataFrame({ id: ["x", "y", "z", "x"], k: ["p", "q", "p", "q"], v: [1, 2, null, 4], w: [5, 6, 7, 8] });
    const z = new DataFrame({ z: [1] });
    const clash = new DataFrame({ id: ["a"], k: ["b"], v: ["c"], w: [1] });
    const before = activeMemory().liveBytes;
    const results = [
      df.unpivot({ index: "id", on: ["v", "w"] }),
      df.pivot({ on: "k", index: "id", values: ["v", "w"], aggregateFunction: "sum" }),
      df.select("v", "w").transpose({ includeHeader: true }),
      concat([df, df.head(1)], { how: "diagonalRelaxed" }),
      concat([df, z], { how: "horizontal" }),
      df.fillNull({ strategy: "forward" }),
      df.select(col("v").interpolate()),
    ];
    expect(activeMemory().liveBytes).toBeGreaterThan(before);
    for (const r of results) r.dispose();
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
    // A failing verb leaves nothing behind either.
    expect(() => df.pivot({ on: "k", index: "id", values: "id", aggregateFunction: "sum" })).toThrow();
    expect(() => concat([df, clash], { how: "verticalRelaxed" })).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.transpose()).toThrow();
    expect(activeMemory().liveBytes).toBeLessThanOrEqual(before);
  });
});
