// How frames print and serialise for people: Polars-style floats in a printed frame, GroupBy /
// Expr / LazyFrame inspect forms, and JSON.stringify of frames and series.
import { inspect } from "node:util";

import { describe, expect, it } from "vitest";

import { DataFrame, Series, col, fromArrow } from "../src/index.js";

describe("printing", () => {
  it("a frame's floats print with Polars' digits", () => {
    const df = new DataFrame({ total: [5707.339999999997, 0.1 + 0.2, 2] });
    const text = df.toString();
    expect(text).toContain("│ 5707.34 │");
    expect(text).toContain("│ 0.3     │");
    expect(text).toContain("│ 2.0     │");
  });

  it("a GroupBy prints its keys, the options set and the frame's shape", () => {
    const df = new DataFrame({ city: ["a", "b", "a"], fare: [1, 2, 3] });
    expect(inspect(df.groupBy("city"))).toBe('GroupBy(["city"]) over (3, 2): city, fare');
    expect(String(df.groupBy("city", col("fare").gt(1).alias("big"), { sort: true, dropNulls: true }))).toBe(
      'GroupBy(["city", (col("fare") > lit(1)).alias("big")], { sort: true, dropNulls: true }) over (3, 2): city, fare',
    );
    const g = df.groupBy("city");
    df.dispose();
    expect(inspect(g)).toBe('GroupBy(["city"]) over a disposed frame');
  });

  it("an Expr prints as code, a LazyFrame as its plan", () => {
    expect(inspect(col("a").sum().alias("t"))).toBe('Expr col("a").sum().alias("t")');
    const lf = new DataFrame({ a: [1, 2] }).lazy().filter(col("a").gt(1));
    const shown = inspect(lf);
    expect(shown).toContain('col("a") > lit(1)');
    expect(shown).not.toContain("args");
  });
});

describe("toJSON", () => {
  it("JSON.stringify(df) gives the records; int64 as numbers, beyond 2^53 as strings", () => {
    const df = new DataFrame({
      i: new Series("i", [1n, -(2n ** 60n), null], "int64"),
      s: ["x", null, "z"],
      f: [1.5, NaN, Infinity],
      b: [true, false, null],
    });
    expect(JSON.parse(JSON.stringify(df))).toEqual([
      { i: 1, s: "x", f: 1.5, b: true },
      { i: "-1152921504606846976", s: null, f: null, b: false },
      { i: null, s: "z", f: null, b: null },
    ]);
  });

  it("dates as YYYY-MM-DD, timestamps as ISO strings; a series too", () => {
    const df = new DataFrame({
      d: new Series("d", [new Date(Date.UTC(2024, 1, 29)), null], "date32"),
      t: new Series("t", [new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 123)), null], "timestamp[us]"),
    });
    expect(df.toJSON()).toEqual([
      { d: "2024-02-29", t: "2024-01-02T03:04:05.123Z" },
      { d: null, t: null },
    ]);
    expect(JSON.stringify(df.getColumn("d"))).toBe('["2024-02-29",null]');
    expect(JSON.stringify(new Series("u", [2n ** 63n], "uint64"))).toBe('["9223372036854775808"]');
  });

  it("an empty frame is []", () => {
    expect(JSON.stringify(fromArrow(new DataFrame({ a: [1] }).head(0).toArrow()))).toBe("[]");
  });
});
