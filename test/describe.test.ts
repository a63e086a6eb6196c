import { describe, expect, it } from "vitest";
import { DataFrame, InvalidArgumentError } from "../src/index.js";

const STATS = ["count", "null_count", "mean", "std", "min", "25%", "50%", "75%", "max"];

describe("DataFrame.describe", () => {
  it("numeric columns: one float64 column each, Polars' statistic rows", () => {
    const df = new DataFrame({
      i: new Int32Array([4, 1, 3, 2]),
      f: [1.5, null, 2.5, NaN],
      s: ["a", "b", null, "c"],
      b: [true, false, null, true],
      n: [1n, 2n, 3n, 10n],
    });
    const d = df.describe();
    expect(d.columns).toEqual(["statistic", "i", "f", "b", "n"]);
    expect(d.dtypes).toEqual(["utf8", "float64", "float64", "float64", "float64"]);
    expect(d.getColumn("statistic").toArray()).toEqual(STATS);
    expect(d.getColumn("i").toArray()).toEqual([4, 0, 2.5, Math.sqrt(5 / 3), 1, 1.75, 2.5, 3.25, 4]);
    const f = d.getColumn("f").toArray();
    // NaN propagates through mean/std; min/max ignore it; percentiles sort it last.
    expect(f.slice(0, 5)).toEqual([3, 1, NaN, NaN, 1.5]);
    expect(f.slice(5)).toEqual([2, 2.5, NaN, 2.5]);
    // bool: fraction of trues, 0/1 extremes, no std or percentiles.
    expect(d.getColumn("b").toArray()).toEqual([3, 1, 2 / 3, null, 0, null, null, null, 1]);
    expect(d.getColumn("n").toArray()).toEqual([4, 0, 4, Math.sqrt(50 / 3), 1, 1.75, 2.5, 4.75, 10]);
  });

  it("empty and all-null columns; frames without numeric columns; slices", () => {
    expect(new DataFrame({ a: [] }).describe().getColumn("a").toArray()).toEqual([0, 0, null, null, null, null, null, null, null]);
    expect(new DataFrame({ a: [null, null] }).describe().getColumn("a").toArray()).toEqual([0, 2, null, null, null, null, null, null, null]);
    const s = new DataFrame({ s: ["x"] }).describe();
    expect(s.columns).toEqual(["statistic"]);
    const big = new DataFrame({ x: Float64Array.from({ length: 100_003 }, (_, i) => i) });
    const d = big.slice(3, 40).describe().getColumn("x").toArray();
    expect(d[0]).toBe(40);
    expect(d[4]).toBe(3);
    expect(d[8]).toBe(42);
    expect(d[6]).toBe(22.5);
  });

  it("keeps column order for integer-like names; rejects a 'statistic' column", () => {
    const df = new DataFrame({ b: [1], "1": [2] });
    expect(df.describe().columns).toEqual(["statistic", "1", "b"]);
    expect(() => new DataFrame({ statistic: [1] }).describe()).toThrow(InvalidArgumentError);
  });
});
