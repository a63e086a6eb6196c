/**
 * Aggregations inside expressions (col("x").sum() in select / withColumns / filter), with exact
 * values, null and empty rules, broadcasting, and DuckDB as the reference on random tables.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, Series, col, lit, type DType } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { randomColumns, type ColumnSpec } from "./support/random.js";

const df = new DataFrame({
  a: [1, 2, null, 4],
  b: [10n, 20n, 30n, null],
  t: [new Date(5), new Date(1), null, new Date(9)],
  s: ["x", "b", null, "a"],
  f: [true, false, null, true],
});

describe("aggregations as expressions", () => {
  it("each reduces to one row with the reduction's dtype", () => {
    const out = df.select(
      col("a").sum().alias("sum"),
      col("a").mean().alias("mean"),
      col("b").min().alias("min"),
      col("b").max().alias("max"),
      col("a").count().alias("count"),
      col("a").nullCount().alias("nulls"),
      col("s").nUnique().alias("nunique"),
      col("a").median().alias("median"),
      col("a").quantile(0.25).alias("q25"),
      col("f").any().alias("any"),
      col("f").all().alias("all"),
      col("s").first().alias("first"),
      col("s").last().alias("last"),
      col("a").argMax().alias("argmax"),
      col("t").min().alias("tmin"),
      col("s").max().alias("smax"),
    );
    expect(out.height).toBe(1);
    expect(out.toRecords()[0]).toEqual({
      sum: 7,
      mean: 7 / 3,
      min: 10n,
      max: 30n,
      count: 3n,
      nulls: 1n,
      nunique: 3n,
      median: 2,
      q25: 1.5,
      any: true,
      all: false,
      first: "x",
      last: "a",
      argmax: 3n,
      tmin: new Date(1),
      smax: "x",
    });
    expect(out.dtypes).toEqual([
      "float64", "float64", "int64", "int64", "int64", "int64", "int64", "float64", "float64",
      "bool", "bool", "utf8", "utf8", "int64", "timestamp[ms]", "utf8",
    ]);
  });

  it("std and var with ddof", () => {
    const out = df.select(col("a").std().alias("sd"), col("a").var(0).alias("v0"));
    const [row] = out.toRecords();
    // values 1, 2, 4: mean 7/3; squared deviations sum 14/3.
    expect(row!["sd"]).toBeCloseTo(Math.sqrt(14 / 3 / 2), 14);
    expect(row!["v0"]).toBeCloseTo(14 / 3 / 3, 14);
  });

  it("the output name is the input column's, as Polars", () => {
    expect(df.select(col("a").sum(), col("b").max()).columns).toEqual(["a", "b"]);
  });

  it("broadcasts against whole columns and composes with arithmetic", () => {
    const out = df.select(col("a"), col("a").sub(col("a").mean()).alias("centered"));
    expect(out.getColumn("centered").toArray()).toEqual([1 - 7 / 3, 2 - 7 / 3, null, 4 - 7 / 3]);
    expect(df.select(col("b").max().sub(col("b").min()).alias("range")).toRecords()).toEqual([{ range: 20n }]);
    expect(df.withColumns(col("a").max().alias("amax")).getColumn("amax").toArray()).toEqual([4, 4, 4, 4]);
  });

  it("works inside filter and over an expression input", () => {
    expect(df.filter(col("a").gt(col("a").mean())).getColumn("a").toArray()).toEqual([4]);
    expect(df.select(col("a").mul(2).sum().alias("s2")).toRecords()).toEqual([{ s2: 14 }]);
  });

  it("empty and all-null inputs follow the reduction rules (sum 0, others null)", () => {
    const empty = df.slice(0, 0);
    expect(empty.select(col("a").sum().alias("s"), col("a").mean().alias("m"), col("a").count().alias("n")).toRecords()).toEqual([
      { s: 0, m: null, n: 0n },
    ]);
    const nulls = new DataFrame({ x: new Series("x", [null, null], "int32") });
    expect(nulls.select(col("x").max().alias("mx"), col("x").sum().alias("s")).toRecords()).toEqual([{ mx: null, s: 0n }]);
  });

  it("sliced input (offset not a multiple of 8)", () => {
    const big = new DataFrame({ v: Array.from({ length: 100 }, (_, i) => i) });
    const part = big.slice(13, 40);
    expect(part.select(col("v").sum().alias("s"), col("v").min().alias("mn")).toRecords()).toEqual([
      { s: (13 + 52) * 20, mn: 13 },
    ]);
  });

  it("bad input is a typed error and leaves the frame intact", () => {
    expect(() => df.select(col("s").mean())).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(() => df.select(col("a").quantile(2))).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => df.select(col("nope").sum())).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
    expect(df.getColumn("a").toArray()).toEqual([1, 2, null, 4]);
    expect(df.select(lit(1).alias("one")).height).toBe(1);
  });
});

describe("differential: aggregations, filters and sorts against DuckDB", () => {
  const SPECS: ColumnSpec[] = [
    { name: "rid", dtype: "int32", nulls: 0, cardinality: 1 },
    { name: "i32", dtype: "int32", nulls: 0.2, cardinality: 40 },
    { name: "i64", dtype: "int64", nulls: 0.1 },
    { name: "f64", dtype: "float64", nulls: 0.25, cardinality: 30 },
    { name: "s", dtype: "utf8", nulls: 0.15, cardinality: 20 },
  ];
  const dtypes = Object.fromEntries(SPECS.map((s) => [s.name, s.dtype])) as Record<string, DType>;

  async function setup(seed: number) {
    const rows = 700 + seed * 13;
    const columns = randomColumns(seed, rows, SPECS);
    columns["rid"] = Array.from({ length: rows }, (_, i) => i);
    let frame = new DataFrame();
    for (const spec of SPECS) frame = frame.withColumn(new Series(spec.name, columns[spec.name] as unknown[], spec.dtype));
    return { frame, conn: await duckdbTable(columns, dtypes) };
  }

  for (const seed of [21, 22, 23]) {
    it(`seed ${seed}: reductions agree`, async () => {
      const { frame, conn } = await setup(seed);
      const [want] = await duckdbRows(
        conn,
        `SELECT sum(i32)::BIGINT AS si, sum(i64)::BIGINT AS sl, avg(f64) AS mf, min(s) AS mins, max(s) AS maxs,
                count(f64) AS cf, count(DISTINCT s) AS ds, stddev_samp(f64) AS sd, median(f64) AS med,
                quantile_cont(i32, 0.9) AS q90, min(i64) AS mini, max(f64) AS maxf FROM t`,
      );
      const [got] = frame
        .select(
          col("i32").sum().alias("si"),
          col("i64").sum().alias("sl"),
          col("f64").mean().alias("mf"),
          col("s").min().alias("mins"),
          col("s").max().alias("maxs"),
          col("f64").count().alias("cf"),
          col("s").nUnique().alias("ds"),
          col("f64").std().alias("sd"),
          col("f64").median().alias("med"),
          col("i32").quantile(0.9).alias("q90"),
          col("i64").min().alias("mini"),
          col("f64").max().alias("maxf"),
        )
        .toRecords();
      for (const key of ["si", "sl", "mins", "maxs", "cf", "ds", "med", "mini", "maxf"]) expect(got![key], key).toEqual(want![key]);
      for (const key of ["mf", "sd", "q90"]) expect(got![key] as number, key).toBeCloseTo(want![key] as number, 9);
      conn.closeSync();
    });

    it(`seed ${seed}: compound filters agree (null counts as false)`, async () => {
      const { frame, conn } = await setup(seed);
      const want = await duckdbRows(conn, `SELECT * FROM t WHERE (i32 > 0 AND s < 'm') OR f64 IS NULL ORDER BY rid`);
      const got = frame.filter(col("i32").gt(0).and(col("s").lt("m")).or(col("f64").isNull())).toRecords();
      expect(got).toEqual(want);
      conn.closeSync();
    });

    it(`seed ${seed}: multi-key sorts agree (stable, nulls last)`, async () => {
      const { frame, conn } = await setup(seed);
      const want = await duckdbRows(conn, `SELECT * FROM t ORDER BY i32 DESC NULLS LAST, s ASC NULLS LAST, rid`);
      const got = frame.sort(["i32", "s"], { descending: [true, false] }).toRecords();
      expect(got).toEqual(want);
      conn.closeSync();
    });
  }
});
