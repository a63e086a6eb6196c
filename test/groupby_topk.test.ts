/**
 * GroupBy.topK / bottomK and DataFrame.topK / bottomK: exact rows over int, float (NaN, -0,
 * nulls), timestamp and utf8 values; n = 0, n beyond the groups, empty and all-null input; the
 * groupBy options; expressions; a seeded differential against sort + groupBy.head (the
 * definition), over several dtypes, ties and nulls, on both native paths (small n: per-group
 * candidates; large n or strings: sort); errors.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, Series, col, type DType } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { randomColumns, type ColumnSpec } from "./support/random.js";
import { sortRows } from "./support/rows.js";

/** Column r of the rows, in order. */
const rowIds = (df: DataFrame): unknown[] => df.getColumn("r").toArray();

describe("groupBy().topK / bottomK: exact rows", () => {
  const f = new DataFrame({
    r: Int32Array.from([0, 1, 2, 3, 4, 5, 6]),
    k: ["a", "b", "a", "a", "b", "c", "a"],
    v: Int32Array.from([3, 1, 7, 3, 9, 2, 5]),
  });

  it("int: largest / smallest per group, best first, ties in frame order; keys first", () => {
    const top = f.groupBy("k", { maintainOrder: true }).topK(2, "v");
    expect(top.columns).toEqual(["k", "r", "v"]);
    expect(top.toRecords()).toEqual([
      { k: "a", r: 2, v: 7 }, { k: "a", r: 6, v: 5 }, { k: "b", r: 4, v: 9 }, { k: "b", r: 1, v: 1 }, { k: "c", r: 5, v: 2 },
    ]);
    expect(rowIds(f.groupBy("k", { maintainOrder: true }).bottomK(2, "v"))).toEqual([0, 3, 1, 4, 5]);
    expect(rowIds(f.groupBy("k", { maintainOrder: true }).topK(3, "v"))).toEqual([2, 6, 0, 4, 1, 5]);
  });

  it("float: NaN above +Infinity, -0 equal to 0 (frame order), nulls after every value in both", () => {
    const g = new DataFrame({ k: [1, 1, 1, 1, 1, 1, 1], v: [1, NaN, -0, 0, null, -Infinity, Infinity] });
    const top = g.groupBy("k").topK(7, "v").getColumn("v").toArray();
    expect(top).toEqual([NaN, Infinity, 1, -0, 0, -Infinity, null]);
    expect(Object.is(top[3], -0)).toBe(true);
    const bottom = g.groupBy("k").bottomK(7, "v").getColumn("v").toArray();
    expect(bottom).toEqual([-Infinity, -0, 0, 1, Infinity, NaN, null]);
    expect(Object.is(bottom[1], -0)).toBe(true);
    expect(g.groupBy("k").topK(2, "v").getColumn("v").toArray()).toEqual([NaN, Infinity]);
    expect(g.groupBy("k").bottomK(1, "v").getColumn("v").toArray()).toEqual([-Infinity]);
  });

  it("timestamp and utf8 values", () => {
    const t = (s: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, s));
    const g = new DataFrame({ k: ["x", "y", "x", "x", "y"] })
      .withColumn(new Series("ts", [t(5), t(1), null, t(9), t(3)], "timestamp[ms]"))
      .withColumn(new Series("s", ["b", "ab", "é", "a", null], "utf8"));
    expect(g.groupBy("k", { sort: true }).topK(2, "ts").getColumn("ts").toArray()).toEqual([t(9), t(5), t(3), t(1)]);
    expect(g.groupBy("k", { sort: true }).bottomK(3, "ts").getColumn("ts").toArray()).toEqual([t(5), t(9), null, t(1), t(3)]);
    // Byte-wise (code point) order: "é" (U+00E9) above ASCII.
    expect(g.groupBy("k", { sort: true }).topK(3, "s").getColumn("s").toArray()).toEqual(["é", "b", "a", "ab", null]);
    expect(g.groupBy("k", { sort: true }).bottomK(1, "s").getColumn("s").toArray()).toEqual(["a", "ab"]);
  });

  it("n = 0, n beyond every group, an empty frame, an all-null by", () => {
    expect(f.groupBy("k").topK(0, "v").shape).toEqual([0, 3]);
    expect(f.groupBy("k").topK(100, "v").height).toBe(7);
    const empty = f.head(0);
    const e = empty.groupBy("k").topK(2, "v");
    expect(e.shape).toEqual([0, 3]);
    expect(e.dtypes).toEqual(["utf8", "int32", "int32"]);
    expect(empty.topK(2, "v").shape).toEqual([0, 3]);
    const nulls = new DataFrame({ k: ["a", "b", "a", "a"], v: [null, null, null, null], r: [0, 1, 2, 3] });
    expect(rowIds(nulls.groupBy("k", { maintainOrder: true }).topK(2, "v"))).toEqual([0, 2, 1]);
    expect(rowIds(nulls.groupBy("k", { maintainOrder: true }).bottomK(5, "v"))).toEqual([0, 2, 3, 1]);
  });

  it("options: maintainOrder, sort, dropNulls (null keys are a group otherwise)", () => {
    const n = new DataFrame({ k: [null, 2, null, 1, 2, 1], v: [5, 1, 6, 2, 3, 4], r: [0, 1, 2, 3, 4, 5] });
    expect(rowIds(n.groupBy("k", { maintainOrder: true }).topK(1, "v"))).toEqual([2, 4, 5]);
    expect(rowIds(n.groupBy("k", { sort: true }).topK(1, "v"))).toEqual([5, 4, 2]);
    expect(rowIds(n.groupBy("k", { sort: true, dropNulls: true }).bottomK(2, "v"))).toEqual([3, 5, 1, 4]);
    expect(sortRows(n.groupBy("k").topK(1, "v").toRecords(), ["k"])).toEqual(n.groupBy("k", { sort: true }).topK(1, "v").toRecords());
  });

  it("by an expression (evaluated over the frame, not added to the result); several keys", () => {
    const out = f.groupBy("k", { maintainOrder: true }).topK(1, col("v").sub(5).abs());
    expect(out.columns).toEqual(["k", "r", "v"]);
    expect(rowIds(out)).toEqual([0, 1, 5]); // |v - 5|: a ties at 2 (rows 0, 2, 3): the first
    expect(rowIds(f.groupBy("k", { maintainOrder: true }).bottomK(1, col("v").sub(5).abs()))).toEqual([6, 1, 5]);
    const two = f.groupBy(["k", col("v").mod(2).alias("odd")], { sort: true }).topK(1, "r");
    expect(two.columns).toEqual(["k", "odd", "r", "v"]);
    expect(two.toRecords().map((x) => x["r"])).toEqual([6, 4, 5]);
  });

  it("DataFrame.topK / bottomK: the whole frame as one group, every column", () => {
    expect(f.topK(3, "v").toRecords()).toEqual([{ r: 4, k: "b", v: 9 }, { r: 2, k: "a", v: 7 }, { r: 6, k: "a", v: 5 }]);
    expect(rowIds(f.bottomK(4, "v"))).toEqual([1, 5, 0, 3]);
    expect(rowIds(f.topK(0, "v"))).toEqual([]);
    expect(rowIds(f.topK(50, col("r").neg()))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe("topK / bottomK equal sort + groupBy.head (seeded random frames)", () => {
  const SPECS: ColumnSpec[] = [
    { name: "k", dtype: "int32", nulls: 0.1, cardinality: 7 },
    { name: "ks", dtype: "utf8", nulls: 0.1, cardinality: 3 },
    { name: "i32", dtype: "int32", nulls: 0.2, cardinality: 9 },
    { name: "i64", dtype: "int64", nulls: 0.1, cardinality: 30 },
    { name: "u8", dtype: "uint8", nulls: 0, cardinality: 4 },
    { name: "f32", dtype: "float32", nulls: 0.15, cardinality: 6 },
    { name: "f64", dtype: "float64", nulls: 0.2, cardinality: 10 },
    { name: "s", dtype: "utf8", nulls: 0.15, cardinality: 8 },
    { name: "ts", dtype: "timestamp[ms]", nulls: 0.1, cardinality: 5 },
    { name: "d", dtype: "date32", nulls: 0.3, cardinality: 4 },
    { name: "b", dtype: "bool", nulls: 0.2, cardinality: 2 },
  ];
  const BY = ["i32", "i64", "u8", "f32", "f64", "s", "ts", "d", "b"];

  /** Random columns with NaN, -0 and ±Infinity mixed into the float ones. */
  function frame(seed: number, rows: number): DataFrame {
    const columns = randomColumns(seed, rows, SPECS);
    const specials = [NaN, -0, 0, Infinity, -Infinity];
    for (const name of ["f32", "f64"]) {
      const values = columns[name] as (number | null)[];
      for (let i = seed % 5; i < rows; i += 5) if (values[i] !== null) values[i] = specials[(i * 7) % specials.length] as number;
    }
    let df = new DataFrame({ r: Int32Array.from({ length: rows }, (_, i) => i) });
    for (const spec of SPECS) df = df.withColumn(new Series(spec.name, columns[spec.name] as unknown[], spec.dtype as DType));
    return df;
  }

  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}`, () => {
      const df = frame(seed, 300 + seed * 41);
      for (const [ki, keys] of [["k"], ["ks", "k"]].entries()) {
        for (const by of BY) {
          for (const n of [1, 2, 3, 17]) {
            for (const largest of [true, false]) {
              const opts = { maintainOrder: ki === 0, dropNulls: seed % 2 === 0 };
              const g = df.groupBy(keys, opts);
              const got = largest ? g.topK(n, by) : g.bottomK(n, by);
              const sorted = df.sort(by, { descending: largest, nullsLast: true });
              const want = sorted.groupBy(keys, opts).head(n);
              const what = `${keys.join(",")} ${largest ? "topK" : "bottomK"}(${n}, ${by})`;
              // Groups may come in another order; within a group the rows must be identical.
              expect(sortRows(got.toRecords(), keys), what).toEqual(sortRows(want.toRecords(), keys));
              if (ki === 0) {
                const whole = largest ? df.topK(n, by) : df.bottomK(n, by);
                expect(whole.toRecords(), `frame ${what}`).toEqual(sorted.head(n).toRecords());
                whole.dispose();
              }
              for (const x of [got, sorted, want]) x.dispose();
            }
          }
        }
      }
    });
  }

  it("several thread ranges: 200_003 rows, few and many groups", () => {
    const rows = 200_003;
    const r = Int32Array.from({ length: rows }, (_, i) => i);
    const v = Float64Array.from({ length: rows }, (_, i) => ((i * 2654435761) % 1000) / 8 - 60);
    for (const groups of [3, 40_000]) {
      const k = Int32Array.from({ length: rows }, (_, i) => (i * 7919) % groups);
      const df = new DataFrame({ r, k, v });
      for (const largest of [true, false]) {
        const g = df.groupBy("k", { sort: true });
        const got = largest ? g.topK(2, "v") : g.bottomK(2, "v");
        const want = df.sort("v", { descending: largest }).groupBy("k", { sort: true }).head(2);
        expect(got.height).toBe(want.height);
        expect(got.getColumn("r").toArray()).toEqual(want.getColumn("r").toArray());
      }
    }
  });
});

describe("topK / bottomK errors", () => {
  const df = new DataFrame({ k: ["a", "b", "a"], v: [1, 2, 3] });
  const before = df.toRecords();

  it("typed errors, the data intact", () => {
    expectCode(() => df.groupBy("k").topK(-1, "v"), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").topK(1.5, "v"), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").bottomK(Number.NaN, "v"), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").topK("2" as unknown as number, "v"), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").topK(2, 3 as unknown as string), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").topK(2, undefined as unknown as string), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").topK(2, "nope"), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => df.groupBy("k").bottomK(2, col("nope").add(1)), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => df.topK(-1, "v"), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.bottomK(1, "nope"), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => df.topK(1, 1 as unknown as string), "ERR_INVALID_ARGUMENT");
    expect(df.toRecords()).toEqual(before);
  });

  it("a disposed frame throws DisposedError", () => {
    const f = new DataFrame({ k: [1], v: [2] });
    const g = f.groupBy("k");
    f.dispose();
    expectCode(() => g.topK(1, "v"), "ERR_DISPOSED");
    expectCode(() => f.topK(1, "v"), "ERR_DISPOSED");
  });
});
