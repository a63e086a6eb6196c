/**
 * intRange, Expr.mode and Expr.len: exact values, dtypes and lengths in DataFrame.select /
 * withColumns, compared with nodejs-polars where it has the feature; where they cannot run
 * (groupBy().agg, lazy queries, inside other expressions) a typed error.
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
    expectCode(() => df().lazy().select(intRange(0, 3)), "ERR_INVALID_ARGUMENT");
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
    expectCode(() => df().groupBy("k").agg(col("v").mode()), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().select(col("v").mode().add(1)), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().select(col("k").mode(), col("v")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df().lazy().select(col("v").mode()), "ERR_INVALID_ARGUMENT");
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
