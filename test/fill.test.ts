/**
 * Missing data and row-wise functions: fillNull strategies, forward/backward fill (with limits),
 * interpolate, coalesce, replace / replaceStrict, clip, and the horizontal aggregations. Exact
 * small cases, dtypes and errors; DuckDB (window IGNORE NULLS, coalesce, greatest/least) and a
 * JS reference on random columns with nulls.
 */
import { describe, expect, it } from "vitest";

import {
  DataFrame,
  Series,
  allHorizontal,
  anyHorizontal,
  coalesce,
  col,
  lit,
  maxHorizontal,
  meanHorizontal,
  minHorizontal,
  sumHorizontal,
  type DType,
} from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { randomColumns, type ColumnSpec } from "./support/random.js";

function frameOf(columns: Record<string, unknown[]>, dtypes: Record<string, DType>): DataFrame {
  let frame = new DataFrame();
  for (const [name, values] of Object.entries(columns)) frame = frame.withColumn(new Series(name, values, dtypes[name]));
  return frame;
}

describe("forward / backward fill", () => {
  const s = new Series("a", [null, 1, null, null, null, 5, null], "int32");

  it("fills from the previous / next value, keeping the dtype", () => {
    expect(s.forwardFill().toArray()).toEqual([null, 1, 1, 1, 1, 5, 5]);
    expect(s.backwardFill().toArray()).toEqual([1, 1, 5, 5, 5, 5, null]);
    expect(s.forwardFill().dtype).toBe("int32");
    expect(s.fillNull({ strategy: "forward" }).toArray()).toEqual([null, 1, 1, 1, 1, 5, 5]);
  });

  it("limit bounds the run of filled nulls", () => {
    expect(s.forwardFill(2).toArray()).toEqual([null, 1, 1, 1, null, 5, 5]);
    expect(s.backwardFill(1).toArray()).toEqual([1, 1, null, null, 5, 5, null]);
    expect(s.fillNull({ strategy: "backward", limit: 0 }).toArray()).toEqual(s.toArray());
    expect(() => s.forwardFill(-1)).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => s.fillNull({ strategy: "mean", limit: 1 })).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it("works on strings, bools, dates and inside expressions", () => {
    expect(new Series("s", ["x", null, "y", null]).forwardFill().toArray()).toEqual(["x", "x", "y", "y"]);
    expect(new Series("b", [null, true, null]).backwardFill().toArray()).toEqual([true, true, null]);
    const d = new Date(Date.UTC(2024, 0, 1));
    expect(new Series("d", [d, null]).forwardFill().toArray()).toEqual([d, d]);
    const df = new DataFrame({ a: [1, null, 3, null] });
    expect(df.select(col("a").forwardFill().mul(10).alias("x")).toRecords()).toEqual([{ x: 10 }, { x: 10 }, { x: 30 }, { x: 30 }]);
    expect(df.select(col("a").add(1).backwardFill()).getColumn("a").toArray()).toEqual([2, 4, 4, null]);
    expect(col("a").forwardFill(2).toString()).toBe('col("a").forwardFill(2)');
  });

  it("is refused inside groupBy aggregations (it would fill across groups)", () => {
    const df = new DataFrame({ k: [1, 1, 2], v: [1, null, null] });
    expect(() => df.groupBy("k").agg(col("v").forwardFill().last())).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => df.lazy().groupBy("k").agg(col("v").sum().backwardFill())).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
  });

  it("empty and null-free columns", () => {
    expect(new Series("e", [], "float64").forwardFill().toArray()).toEqual([]);
    expect(new Series("n", [1, 2]).backwardFill().toArray()).toEqual([1, 2]);
    expect(new Series("z", [null, null], "int64").forwardFill().toArray()).toEqual([null, null]);
  });

  it("long columns cross the CPU blocks", () => {
    const n = 200_000;
    const values = Array.from({ length: n }, (_, i) => (i % 50_000 === 7 ? i : null));
    const got = new Series("a", values, "float64").forwardFill().toArray();
    let last: number | null = null;
    const want = values.map((v) => (last = v ?? last));
    expect(got).toEqual(want);
  });

  const SPECS: ColumnSpec[] = [
    { name: "v", dtype: "int32", nulls: 0.5 },
    { name: "s", dtype: "utf8", nulls: 0.7 },
  ];
  for (const seed of [11, 12]) {
    it(`seed ${seed}: agrees with DuckDB last_value / first_value IGNORE NULLS`, async () => {
      const rows = 500 + seed;
      const columns = randomColumns(seed, rows, SPECS);
      columns["rid"] = Array.from({ length: rows }, (_, i) => i);
      const dtypes = { v: "int32", s: "utf8", rid: "int32" } as Record<string, DType>;
      const frame = frameOf(columns, dtypes);
      const conn = await duckdbTable(columns, dtypes);
      const want = await duckdbRows(
        conn,
        `SELECT last_value(v IGNORE NULLS) OVER (ORDER BY rid ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS f,
                first_value(v IGNORE NULLS) OVER (ORDER BY rid ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS b,
                last_value(s IGNORE NULLS) OVER (ORDER BY rid ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS f2,
                first_value(s IGNORE NULLS) OVER (ORDER BY rid ROWS BETWEEN CURRENT ROW AND 3 FOLLOWING) AS b3
         FROM t ORDER BY rid`,
      );
      const got = frame
        .select(
          col("v").forwardFill().alias("f"),
          col("v").backwardFill().alias("b"),
          col("s").forwardFill(2).alias("f2"),
          col("s").fillNull({ strategy: "backward", limit: 3 }).alias("b3"),
        )
        .toRecords();
      expect(got).toEqual(want);
      conn.closeSync();
    });
  }
});

describe("fillNull strategies", () => {
  it("min, max, mean, zero, one", () => {
    const s = new Series("a", [4, null, 1, null], "int32");
    expect(s.fillNull({ strategy: "min" }).toArray()).toEqual([4, 1, 1, 1]);
    expect(s.fillNull({ strategy: "max" }).toArray()).toEqual([4, 4, 1, 4]);
    expect(s.fillNull({ strategy: "zero" }).toArray()).toEqual([4, 0, 1, 0]);
    expect(s.fillNull({ strategy: "one" }).dtype).toBe("int32");
    const mean = s.fillNull({ strategy: "mean" });
    expect(mean.toArray()).toEqual([4, 2.5, 1, 2.5]);
    expect(mean.dtype).toBe("float64");
  });

  it("on a DataFrame, by kind of column; the value forms still work", () => {
    const df = new DataFrame({ a: [1, null, 3], s: [null, "x", null], b: [true, null, false] });
    expect(df.fillNull({ strategy: "forward" }).toRecords()).toEqual([
      { a: 1, s: null, b: true },
      { a: 1, s: "x", b: true },
      { a: 3, s: "x", b: false },
    ]);
    expect(df.fillNull({ strategy: "zero" }).toRecords()).toEqual([
      { a: 1, s: null, b: true },
      { a: 0, s: "x", b: null },
      { a: 3, s: null, b: false },
    ]);
    expect(df.fillNull({ strategy: "max" }).getColumn("s").toArray()).toEqual(["x", "x", "x"]);
    expect(df.fillNull(0).getColumn("a").toArray()).toEqual([1, 0, 3]);
    expect(df.fillNull({ s: "?" }).getColumn("s").toArray()).toEqual(["?", "x", "?"]);
  });

  it("lazily, with no filter pushed below the fill", async () => {
    const df = new DataFrame({ a: [1, null, 3, null], k: [0, 1, 0, 1] });
    const out = await df.lazy().fillNull({ strategy: "forward" }).filter(col("k").eq(1)).collect();
    expect(out.getColumn("a").toArray()).toEqual([1, 3]);
    const sliced = await df.lazy().withColumns(col("a").backwardFill()).tail(3).collect();
    expect(sliced.getColumn("a").toArray()).toEqual([3, 3, null]);
  });
});

describe("interpolate", () => {
  it("linear between values; ends stay null; ints give float64", () => {
    const s = new Series("a", [null, 1, null, null, 7, null], "int64");
    const out = s.interpolate();
    expect(out.dtype).toBe("float64");
    expect(out.toArray()).toEqual([null, 1, 3, 5, 7, null]);
    const f = new Series("f", [0.5, null, 1.5], "float32").interpolate();
    expect(f.dtype).toBe("float32");
    expect(f.toArray()).toEqual([0.5, 1, 1.5]);
    const u = new Series("u", [10, null, null, 0], "uint8").interpolate().toArray() as number[];
    [10, 20 / 3, 10 / 3, 0].forEach((w, i) => expect(u[i]).toBeCloseTo(w, 12));
  });

  it("rejects non-numeric columns; empty is fine", () => {
    expect(() => new Series("s", ["a", null]).interpolate()).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
    expect(new Series("e", [], "int32").interpolate().toArray()).toEqual([]);
  });

  it("agrees with a JS reference on random data", () => {
    const cols = randomColumns(31, 3000, [{ name: "v", dtype: "float64", nulls: 0.6 }]);
    const v = cols["v"] as (number | null)[];
    const want = v.map((x, i) => {
      if (x !== null) return x;
      let p = i - 1;
      while (p >= 0 && v[p] === null) p--;
      let q = i + 1;
      while (q < v.length && v[q] === null) q++;
      if (p < 0 || q >= v.length) return null;
      const a = v[p] as number, b = v[q] as number;
      return a + ((b - a) * (i - p)) / (q - p);
    });
    const got = new Series("v", v, "float64").interpolate().toArray() as (number | null)[];
    got.forEach((g, i) => {
      const w = want[i];
      if (w === null || w === undefined) expect(g).toBeNull();
      else expect(g).toBeCloseTo(w, 9);
    });
  });
});

describe("coalesce, replace, clip", () => {
  const df = new DataFrame({ a: [null, 2, null, null], b: [1, null, null, 4], c: [9, 9, null, 9] });

  it("coalesce takes the first non-null value", () => {
    expect(df.select(coalesce("a", "b", col("c"))).toRecords()).toEqual([{ a: 1 }, { a: 2 }, { a: null }, { a: 4 }]);
    expect(df.select(coalesce(["a", "b"], lit(0)).alias("x")).getColumn("x").toArray()).toEqual([1, 2, 0, 4]);
    expect(() => coalesce()).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(() => df.select(coalesce("a", "zz"))).toThrow(expect.objectContaining({ code: "ERR_COLUMN_NOT_FOUND" }));
    const mixed = new DataFrame({ s: ["x", null], n: [1, 2] });
    expect(() => mixed.select(coalesce("s", "n"))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
  });

  it("replace keeps unmatched values; replaceStrict uses the default", () => {
    const s = new DataFrame({ k: new Series("k", [1, 2, 3, null], "int32"), t: ["a", "b", "c", null] });
    expect(s.select(col("k").replace(new Map([[1, 10], [3, 30]]))).getColumn("k").toArray()).toEqual([10, 2, 30, null]);
    expect(s.select(col("k").replace([1, 2], [0, 0])).getColumn("k").toArray()).toEqual([0, 0, 3, null]);
    expect(s.select(col("t").replace({ a: "A", c: "C" })).getColumn("t").toArray()).toEqual(["A", "b", "C", null]);
    expect(s.select(col("t").replace(new Map([[null, "none"]]))).getColumn("t").toArray()).toEqual(["a", "b", "c", "none"]);
    const strict = s.select(col("k").replaceStrict(new Map([[1, "one"], [2, "two"]]), { default: "other" }));
    expect(strict.dtypes).toEqual(["utf8"]);
    expect(strict.getColumn("k").toArray()).toEqual(["one", "two", "other", "other"]);
    expect(s.select(col("t").replaceStrict({ a: 1, b: 2, c: 3 })).getColumn("t").toArray()).toEqual([1, 2, 3, null]);
    expect(() => s.select(col("t").replaceStrict({ a: 1 }))).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(s.head(1).select(col("t").replaceStrict({ a: 1 })).getColumn("t").toArray()).toEqual([1]);
    expect(() => s.select(col("k").replace(new Map([[1, "x"]])))).toThrow(expect.objectContaining({ code: "ERR_DTYPE" }));
  });

  it("clip limits values; nulls stay; one-sided bounds", () => {
    const s = new Series("x", [-5, 0, 5, null, 10], "int32");
    expect(s.clip(0, 6).toArray()).toEqual([0, 0, 5, null, 6]);
    expect(s.clip(0).toArray()).toEqual([0, 0, 5, null, 10]);
    expect(s.clip(null, 1).toArray()).toEqual([-5, 0, 1, null, 1]);
    expect(s.clip(0, 6).dtype).toBe("int32");
    expect(() => s.clip()).toThrow(expect.objectContaining({ code: "ERR_INVALID_ARGUMENT" }));
    expect(new DataFrame({ f: [0.5, 2.5] }).select(col("f").clip(1, 2)).getColumn("f").toArray()).toEqual([1, 2]);
  });
});

describe("horizontal aggregations", () => {
  const df = new DataFrame({ a: [1, null, null, 4], b: [2, 5, null, null], c: [3, 1, null, 8] });

  it("sum (nulls skipped, all-null 0), min, max, mean (all-null null)", () => {
    expect(df.select(sumHorizontal("a", "b", "c").alias("s")).getColumn("s").toArray()).toEqual([6, 6, 0, 12]);
    expect(df.select(minHorizontal("a", "b", "c").alias("m")).getColumn("m").toArray()).toEqual([1, 1, null, 4]);
    expect(df.select(maxHorizontal(["a", "b", "c"]).alias("m")).getColumn("m").toArray()).toEqual([3, 5, null, 8]);
    const mean = df.select(meanHorizontal("a", "b", "c").alias("m"));
    expect(mean.dtypes).toEqual(["float64"]);
    expect(mean.getColumn("m").toArray()).toEqual([2, 3, null, 6]);
    expect(df.select(sumHorizontal("a", "b")).columns).toEqual(["a"]);
  });

  it("any / all with Kleene logic", () => {
    const b = new DataFrame({ p: [true, false, null, false, null], q: [false, false, true, null, null] });
    expect(b.select(anyHorizontal("p", "q")).getColumn("p").toArray()).toEqual([true, false, true, null, null]);
    expect(b.select(allHorizontal("p", "q")).getColumn("p").toArray()).toEqual([false, false, null, false, null]);
  });

  const SPECS: ColumnSpec[] = [
    { name: "x", dtype: "int32", nulls: 0.3 },
    { name: "y", dtype: "int32", nulls: 0.3 },
    { name: "z", dtype: "float64", nulls: 0.3 },
  ];
  for (const seed of [41, 42]) {
    it(`seed ${seed}: agrees with DuckDB coalesce / greatest / least`, async () => {
      const rows = 600;
      const columns = randomColumns(seed, rows, SPECS);
      columns["rid"] = Array.from({ length: rows }, (_, i) => i);
      const dtypes = { x: "int32", y: "int32", z: "float64", rid: "int32" } as Record<string, DType>;
      const frame = frameOf(columns, dtypes);
      const conn = await duckdbTable(columns, dtypes);
      const want = await duckdbRows(
        conn,
        `SELECT coalesce(x, y, z) AS c, greatest(x, y, z) AS hi, least(x, y, z) AS lo,
                coalesce(x, 0) + coalesce(y, 0) + coalesce(z, 0) AS s,
                (coalesce(x, 0) + coalesce(y, 0) + coalesce(z, 0)) / nullif((x IS NOT NULL)::INT + (y IS NOT NULL)::INT + (z IS NOT NULL)::INT, 0) AS m
         FROM t ORDER BY rid`,
      );
      const got = frame
        .select(
          coalesce("x", "y", "z").alias("c"),
          maxHorizontal("x", "y", "z").alias("hi"),
          minHorizontal("x", "y", "z").alias("lo"),
          sumHorizontal("x", "y", "z").alias("s"),
          meanHorizontal("x", "y", "z").alias("m"),
        )
        .toRecords();
      expect(got.map((r) => ({ ...r, m: r["m"] === null ? null : Number((r["m"] as number).toPrecision(12)) }))).toEqual(
        want.map((r) => ({ ...r, m: r["m"] === null ? null : Number((r["m"] as number).toPrecision(12)) })),
      );
      conn.closeSync();
    });
  }
});
