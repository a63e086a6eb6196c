// Rolling windows (rollingSum ... rollingQuantileBy), eager, lazy and on Series: checked
// against DuckDB window frames (ROWS n PRECEDING, RANGE over an integer `by`), against
// nodejs-polars' rolling functions, and against exact small cases (dtypes, nulls, NaN, dates,
// partitions, errors).
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";

import { col, DataFrame, DtypeError, InvalidArgumentError, Series, type DType, type Expr } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { Rng } from "./support/random.js";

type Rows = Record<string, unknown>[];
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function close(actual: number | null, expected: number | null, what: string): void {
  if (actual === expected) return;
  if (expected === null || actual === null) return void expect(actual, what).toBe(expected);
  if (Number.isNaN(expected)) return void expect(Number.isNaN(actual), `${what}: ${actual} vs NaN`).toBe(true);
  expect(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`).toBe(true);
}

/** id (row order), k (partition, with nulls), x (int32, nulls), f (float64, nulls), t (int32, ascending with ties). */
function randomFrame(seed: number, rows: number, keys: number): { columns: Record<string, unknown[]>; dtypes: Record<string, DType> } {
  const rng = new Rng(seed);
  const pick = (nulls: number, f: () => unknown): unknown => (rng.next() < nulls ? null : f());
  const columns: Record<string, unknown[]> = { id: [], k: [], x: [], f: [], t: [] };
  let t = 0;
  for (let i = 0; i < rows; i++) {
    t += rng.int(0, 3);
    columns.id?.push(i);
    columns.k?.push(pick(0.1, () => rng.int(0, keys - 1)));
    columns.x?.push(pick(0.15, () => rng.int(-20, 20)));
    columns.f?.push(pick(0.15, () => rng.int(-1000, 1000) / 8));
    columns.t?.push(t);
  }
  return { columns, dtypes: { id: "int32", k: "int32", x: "int32", f: "float64", t: "int32" } };
}

function frameOf(columns: Record<string, unknown[]>, dtypes: Record<string, DType>): DataFrame {
  let df = new DataFrame();
  for (const [name, values] of Object.entries(columns)) df = df.withColumn(new Series(name, values, dtypes[name]));
  return df;
}

const rows = (n: number): string => `ROWS BETWEEN ${n} PRECEDING AND CURRENT ROW`;
/** `agg` over `frame`, null where fewer than `mp` non-null values of `v`. */
const sql = (agg: string, v: string, frame: string, mp: number): string => `CASE WHEN count(${v}) OVER (${frame}) >= ${mp} THEN ${agg} OVER (${frame}) END`;
const O = "ORDER BY id";
const PO = "PARTITION BY k ORDER BY id";
const T = "ORDER BY t";
const PT = "PARTITION BY k ORDER BY t";

const CASES: [Expr, string][] = [
  [col("x").rollingSum(3).alias("sum3"), sql("sum(x)", "x", `${O} ${rows(2)}`, 3)],
  [col("x").rollingSum(4, { minPeriods: 1 }).alias("sum4"), sql("sum(x)", "x", `${O} ${rows(3)}`, 1)],
  [col("f").rollingMean(4, { minPeriods: 2 }).alias("mean4"), sql("avg(f)", "f", `${O} ${rows(3)}`, 2)],
  [col("x").rollingMin(5, { minPeriods: 1 }).alias("min5"), sql("min(x)", "x", `${O} ${rows(4)}`, 1)],
  [col("f").rollingMax(5, { minPeriods: 3 }).alias("max5"), sql("max(f)", "f", `${O} ${rows(4)}`, 3)],
  [col("f").rollingVar(4, { minPeriods: 1 }).alias("var4"), sql("var_samp(f)", "f", `${O} ${rows(3)}`, 1)],
  [col("x").rollingStd(6, { minPeriods: 2 }).alias("std6"), sql("stddev_samp(x)", "x", `${O} ${rows(5)}`, 2)],
  [col("f").rollingVar(3, { minPeriods: 1, ddof: 0 }).alias("var_pop"), sql("var_pop(f)", "f", `${O} ${rows(2)}`, 1)],
  [col("f").rollingMedian(5, { minPeriods: 1 }).alias("median5"), sql("median(f)", "f", `${O} ${rows(4)}`, 1)],
  [col("x").rollingQuantile(0.3, 7, { minPeriods: 1, interpolation: "linear" }).alias("q30"), sql("quantile_cont(x, 0.3)", "x", `${O} ${rows(6)}`, 1)],
  [col("x").rollingSum(5, { center: true, minPeriods: 1 }).alias("csum5"), sql("sum(x)", "x", `${O} ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING`, 1)],
  [col("f").rollingMean(4, { center: true, minPeriods: 1 }).alias("cmean4"), sql("avg(f)", "f", `${O} ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING`, 1)],
  [col("x").rollingSum(3, { minPeriods: 1 }).over("k").alias("psum3"), sql("sum(x)", "x", `${PO} ${rows(2)}`, 1)],
  [col("f").rollingMean(3, { minPeriods: 2 }).over("k").alias("pmean3"), sql("avg(f)", "f", `${PO} ${rows(2)}`, 2)],
  [col("f").rollingMedian(4, { minPeriods: 1 }).over("k").alias("pmed4"), sql("median(f)", "f", `${PO} ${rows(3)}`, 1)],
  [col("x").rollingMax(2, { minPeriods: 1 }).over("k").alias("pmax2"), sql("max(x)", "x", `${PO} ${rows(1)}`, 1)],
  [col("x").rollingSumBy("t", "3i").alias("bysum"), sql("sum(x)", "x", `${T} RANGE BETWEEN 2 PRECEDING AND CURRENT ROW`, 1)],
  [col("f").rollingMeanBy("t", "4i", { closed: "both" }).alias("bymean"), sql("avg(f)", "f", `${T} RANGE BETWEEN 4 PRECEDING AND CURRENT ROW`, 1)],
  [col("x").rollingMinBy("t", "3i", { closed: "left" }).alias("bymin"), sql("min(x)", "x", `${T} RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING`, 1)],
  [col("x").rollingMaxBy("t", "3i", { closed: "none" }).alias("bymax"), sql("max(x)", "x", `${T} RANGE BETWEEN 2 PRECEDING AND 1 PRECEDING`, 1)],
  [col("f").rollingStdBy("t", "5i", { minPeriods: 2 }).alias("bystd"), sql("stddev_samp(f)", "f", `${T} RANGE BETWEEN 4 PRECEDING AND CURRENT ROW`, 2)],
  [col("f").rollingMedianBy("t", "6i").alias("bymed"), sql("median(f)", "f", `${T} RANGE BETWEEN 5 PRECEDING AND CURRENT ROW`, 1)],
  [col("x").rollingQuantileBy("t", 0.75, "6i", { interpolation: "linear" }).alias("byq"), sql("quantile_cont(x, 0.75)", "x", `${T} RANGE BETWEEN 5 PRECEDING AND CURRENT ROW`, 1)],
  [col("x").rollingSumBy("t", "4i").over("k").alias("pbysum"), sql("sum(x)", "x", `${PT} RANGE BETWEEN 3 PRECEDING AND CURRENT ROW`, 1)],
  [col("f").rollingVarBy("t", "8i").over("k").alias("pbyvar"), sql("var_samp(f)", "f", `${PT} RANGE BETWEEN 7 PRECEDING AND CURRENT ROW`, 1)],
];

async function checkAgainstDuckdb(seed: number, n: number, keys: number): Promise<void> {
  const { columns, dtypes } = randomFrame(seed, n, keys);
  const df = frameOf(columns, dtypes);
  const conn = await duckdbTable(columns, dtypes);
  const want = await duckdbRows(conn, `SELECT id, ${CASES.map(([e, s]) => `${s} AS ${e.outputName}`).join(", ")} FROM t ORDER BY id`);
  conn.closeSync();
  const exprs = CASES.map(([e]) => e);
  const eager = df.select(exprs).toRecords() as Rows;
  const lazy = df.lazy().select(exprs).collectSync().toRecords() as Rows;
  for (const got of [eager, lazy]) {
    expect(got.length).toBe(n);
    got.forEach((g, r) => {
      for (const [e] of CASES) close(num(g[e.outputName]), num((want[r] as Record<string, unknown>)[e.outputName]), `seed ${seed} row ${r} ${e.outputName}`);
    });
  }
}

describe("rolling windows against DuckDB", () => {
  for (const [seed, n, keys] of [[1, 400, 6], [2, 300, 120], [3, 65, 1], [4, 1, 1], [5, 2500, 30]] as const) {
    it(`seed ${seed}: ${n} rows, ${keys} partitions`, async () => {
      await checkAgainstDuckdb(seed, n, keys);
    });
  }
});

/** Polars' values as JS numbers (NaN kept). */
const polarsValues = (s: pl.Series): (number | null)[] => Array.from(s.toArray() as unknown[], (v) => (v === null ? null : Number(v)));

describe("rolling windows against nodejs-polars", () => {
  const rng = new Rng(11);
  const plain = Array.from({ length: 200 }, () => rng.int(-500, 500) / 4);
  const withNulls = plain.map((v, i) => (i % 7 === 3 ? null : v));
  const special = plain.map((v, i) => (i % 11 === 5 ? NaN : i % 29 === 7 ? Infinity : i % 31 === 9 ? -Infinity : v));
  const cases: [string, (number | null)[], (s: Series) => Series, (s: pl.Series) => pl.Series][] = [
    ["sum nulls", withNulls, (s) => s.rollingSum(5, { minPeriods: 2 }), (s) => s.rollingSum({ windowSize: 5, minPeriods: 2 })],
    ["mean nan/inf", special, (s) => s.rollingMean(4), (s) => s.rollingMean({ windowSize: 4 })],
    ["sum nan/inf", special, (s) => s.rollingSum(3), (s) => s.rollingSum({ windowSize: 3 })],
    ["min nan", special, (s) => s.rollingMin(3), (s) => s.rollingMin({ windowSize: 3 })],
    ["max nan", special, (s) => s.rollingMax(4, { minPeriods: 1 }), (s) => s.rollingMax({ windowSize: 4, minPeriods: 1 })],
    ["var nan", special, (s) => s.rollingVar(4), (s) => s.rollingVar({ windowSize: 4 })],
    ["median nan", special, (s) => s.rollingMedian(5), (s) => s.rollingMedian({ windowSize: 5 })],
    ["std center", withNulls, (s) => s.rollingStd(6, { center: true, minPeriods: 2 }), (s) => s.rollingStd({ windowSize: 6, center: true, minPeriods: 2 })],
    ["median center", withNulls, (s) => s.rollingMedian(4, { center: true, minPeriods: 1 }), (s) => s.rollingMedian({ windowSize: 4, center: true, minPeriods: 1 })],
    ["w sum", plain, (s) => s.rollingSum(3, { weights: [0.5, 1, 2], minPeriods: 1 }), (s) => s.rollingSum({ windowSize: 3, weights: [0.5, 1, 2], minPeriods: 1 })],
    ["w mean", plain, (s) => s.rollingMean(4, { weights: [1, 2, 3, 4], minPeriods: 2 }), (s) => s.rollingMean({ windowSize: 4, weights: [1, 2, 3, 4], minPeriods: 2 })],
    ["w min center", plain, (s) => s.rollingMin(3, { weights: [1, -1, 2], center: true, minPeriods: 1 }), (s) => s.rollingMin({ windowSize: 3, weights: [1, -1, 2], center: true, minPeriods: 1 })],
    ["w var", plain, (s) => s.rollingVar(3, { weights: [1, 1, 2] }), (s) => s.rollingVar({ windowSize: 3, weights: [1, 1, 2] })],
  ];
  for (const interpolation of ["nearest", "lower", "higher", "midpoint", "linear"] as const) {
    cases.push([`quantile ${interpolation}`, withNulls, (s) => s.rollingQuantile(0.35, 6, { interpolation, minPeriods: 1 }), (s) => s.rollingQuantile({ quantile: 0.35, windowSize: 6, interpolation, minPeriods: 1 })]);
  }
  for (const [name, values, ours, theirs] of cases) {
    it(name, () => {
      const got = ours(new Series("x", values, "float64")).toArray() as (number | null)[];
      const want = polarsValues(theirs(pl.Series("x", values, pl.Float64)));
      expect(got.length).toBe(want.length);
      got.forEach((g, i) => close(g, want[i] as number | null, `${name} row ${i}`));
    });
  }
});

describe("rolling windows: exact cases", () => {
  it("keeps integer dtypes for sum/min/max as Polars, float64 for the rest", () => {
    const s = new Series("x", [1, 2, null, 4, 5], "int32");
    const sum = s.rollingSum(2, { minPeriods: 1 });
    expect(sum.dtype).toBe("int32");
    expect(sum.toArray()).toEqual([1, 3, 2, 4, 9]);
    expect(s.rollingMin(2).toArray()).toEqual([null, 1, null, null, 4]);
    expect(s.rollingMax(3, { minPeriods: 2 }).dtype).toBe("int32");
    expect(s.rollingMean(2).dtype).toBe("float64");
    expect(s.rollingMedian(2, { minPeriods: 1 }).toArray()).toEqual([1, 1.5, 2, 4, 4.5]);
    const small = new Series("x", [100, 100, 100], "int8");
    expect(small.rollingSum(3, { minPeriods: 1 }).dtype).toBe("int64");
    expect(small.rollingSum(3, { minPeriods: 1 }).toArray()).toEqual([100n, 200n, 300n]);
    expect(small.rollingMax(2).dtype).toBe("int8");
    expect(new Series("b", [true, false, true]).rollingSum(2).toArray()).toEqual([null, 1, 1]);
    expect(new Series("b", [true, false, true]).rollingSum(2).dtype).toBe("uint32");
    const f32 = new Series("f", [1, 2, 3], "float32");
    expect(f32.rollingMean(2).dtype).toBe("float32");
    expect(f32.rollingQuantile(0.5, 2).toArray()).toEqual([null, 2, 3]);
    const big = new Series("i", [2n ** 62n, 2n ** 62n, 1n], "int64");
    expect(big.rollingSum(2).toArray()).toEqual([null, -(2n ** 63n), 2n ** 62n + 1n]);  // wraps as integer sums do
  });

  it("windows larger than the frame, minPeriods 0 and empty frames", () => {
    const s = new Series("x", [1, 2, 3], "float64");
    expect(s.rollingSum(10).toArray()).toEqual([null, null, null]);
    expect(s.rollingSum(10, { minPeriods: 1 }).toArray()).toEqual([1, 3, 6]);
    expect(s.rollingMean(10, { minPeriods: 2, center: true }).toArray()).toEqual([2, 2, 2]);
    expect(new Series("x", [null, null], "float64").rollingSum(2, { minPeriods: 0 }).toArray()).toEqual([0, 0]);
    expect(new Series("x", [null, null], "float64").rollingMean(2, { minPeriods: 0 }).toArray()).toEqual([null, null]);
    const empty = new DataFrame({ x: new Series("x", [], "int32"), t: new Series("t", [], "int64") });
    const out = empty.select(col("x").rollingSum(3), col("x").rollingMean(3).alias("m"), col("x").rollingMaxBy("t", "2i").alias("b"));
    expect(out.height).toBe(0);
    expect(out.dtypes).toEqual(["int32", "float64", "int32"]);
  });

  it("weights skip null positions and align to the full window", () => {
    const s = new Series("x", [1, null, 3, 4], "int32");
    expect(s.rollingSum(2, { weights: [1, 10], minPeriods: 1 }).toArray()).toEqual([10, 1, 30, 43]);
    expect(s.rollingSum(2, { weights: [1, 10], minPeriods: 1 }).dtype).toBe("float64");
    expect(s.rollingMean(2, { weights: [1, 10], minPeriods: 1 }).toArray()).toEqual([1, 1, 3, 43 / 11]);
    expect(s.rollingMax(2, { weights: [1, -1] }).toArray()).toEqual([null, null, null, 3]);
    expect(() => s.rollingMean(2, { weights: [1, -1] })).toThrow(InvalidArgumentError);
    expect(new Series("f", [1, 2], "float32").rollingSum(2, { weights: [1, 2] }).dtype).toBe("float32");
  });

  it("NaN and infinities leave the window without a trace", () => {
    const s = new Series("x", [1, NaN, 3, 4, Infinity, 5, 6, -Infinity, 7, 8], "float64");
    expect(s.rollingSum(2).toArray()).toEqual([null, NaN, NaN, 7, Infinity, Infinity, 11, -Infinity, -Infinity, 15]);
    expect(s.rollingMin(2).toArray()).toEqual([null, NaN, NaN, 3, 4, 5, 5, -Infinity, -Infinity, 7]);
    expect(s.rollingVar(2).toArray()).toEqual([null, NaN, NaN, 0.5, NaN, NaN, 0.5, NaN, NaN, 0.5]);
    expect(s.rollingMedian(3).toArray()).toEqual([null, null, 3, 4, 4, 5, 6, 5, 6, 7]);  // NaN sorts above +inf
  });

  it("time windows over dates and timestamps, every closed", () => {
    const day = 86_400_000;
    const dates = [0, 1, 1, 2, 5, 6].map((d) => new Date(Date.UTC(2024, 0, 1) + d * day));
    const df = new DataFrame({ d: new Series("d", dates, "date32"), x: new Series("x", [1, 2, 3, 4, 5, 6], "int64") });
    const by = (closed: "right" | "left" | "both" | "none") => df.select(col("x").rollingSumBy("d", "2d", { closed })).getColumn("x").toArray();
    expect(by("right")).toEqual([1n, 6n, 6n, 9n, 5n, 11n]);
    expect(by("both")).toEqual([1n, 6n, 6n, 10n, 5n, 11n]);
    expect(by("left")).toEqual([null, 1n, 1n, 6n, null, 5n]);
    expect(by("none")).toEqual([null, 1n, 1n, 5n, null, 5n]);
    expect(df.select(col("x").rollingMeanBy("d", "3d", { minPeriods: 3 })).getColumn("x").toArray()).toEqual([null, 2, 2, 2.5, null, null]);
    const ts = new Series("ts", [0, 30, 60, 90, 150].map((m) => new Date(m * 60_000)), "timestamp[ms]");
    const vals = new Series("v", [1, 2, 3, 4, 5], "float64");
    expect(vals.rollingMaxBy(ts, "1h").toArray()).toEqual([1, 2, 3, 4, 5]);
    expect(vals.rollingSumBy(ts, "1h", { closed: "both" }).toArray()).toEqual([1, 3, 6, 9, 9]);
    expect(vals.rollingSumBy(ts, "1h").toArray()).toEqual([1, 3, 5, 7, 5]);
    expect(vals.rollingSumBy(ts, "61m").toArray()).toEqual([1, 3, 6, 9, 9]);
  });

  it("by windows inside over need order within each partition only", () => {
    const df = new DataFrame({ g: ["a", "b", "a", "b", "a"], t: new Series("t", [1, 10, 2, 11, 4], "int32"), x: [1, 2, 3, 4, 5] });
    const out = df.select(col("x").rollingSumBy("t", "2i").over("g")).getColumn("x").toArray();
    expect(out).toEqual([1, 2, 4, 6, 5]);
    expect(() => df.select(col("x").rollingSumBy("t", "2i"))).toThrow(InvalidArgumentError);
    expect(df.lazy().select(col("x").rollingSum(2, { minPeriods: 1 }).over("g")).collectSync().getColumn("x").toArray()).toEqual([1, 2, 4, 6, 8]);
  });

  it("lazy plans keep filters and slices above rolling windows", () => {
    const df = new DataFrame({ x: new Series("x", [1, 2, 3, 4, 5], "int64") });
    const lf = df.lazy().withColumns(col("x").rollingSum(2, { minPeriods: 1 }).alias("r"));
    expect(lf.filter(col("x").gt(2)).collectSync().getColumn("r").toArray()).toEqual([5n, 7n, 9n]);
    expect(lf.tail(2).collectSync().getColumn("r").toArray()).toEqual([7n, 9n]);
    expect(lf.schema).toEqual({ x: "int64", r: "int64" });
  });

  it("prints as written", () => {
    expect(col("x").rollingMean(3).toString()).toBe('col("x").rollingMean(3)');
    expect(col("x").rollingQuantile(0.2, 4, { minPeriods: 1, center: true, interpolation: "linear" }).toString()).toBe(
      'col("x").rollingQuantile(0.2, 4, { minPeriods: 1, center: true, interpolation: "linear" })',
    );
    expect(col("x").rollingSum(2, { weights: [1, 2] }).over("g").toString()).toBe('col("x").rollingSum(2, { weights: [1, 2] }).over([col("g")])');
    expect(col("x").rollingMaxBy("t", "3i", { closed: "both" }).toString()).toBe('col("x").rollingMaxBy(col("t"), "3i", { closed: "both" })');
    expect(col("x").rollingSumBy("d", "2d").toString()).toBe('col("x").rollingSumBy(col("d"), "172800s")');
  });

  it("bad arguments are typed errors", () => {
    const s = new Series("x", [1, 2, 3], "float64");
    const code = (f: () => unknown, cls: typeof InvalidArgumentError | typeof DtypeError, c: string) => {
      expect(f).toThrow(cls);
      try {
        f();
      } catch (e) {
        expect((e as InvalidArgumentError).code).toBe(c);
      }
    };
    code(() => col("x").rollingSum(0), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingMean(-2), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingMean(1.5), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingSum(3, { weights: [1, 2] }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingMedian(2, { weights: [1, 2] }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingSum(2, { minPeriods: 3 }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingQuantile(1.5, 2), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingQuantile(0.5, 2, { interpolation: "cubic" as "linear" }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingSumBy("t", "0d"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => col("x").rollingSumBy("t", "2d", { closed: "open" as "left" }), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    const t = new Series("t", [3, 1, 2], "int32");
    code(() => s.rollingSumBy(t, "2i"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => s.rollingSumBy(new Series("t", [1, null, 2], "int32"), "2i"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => s.rollingSumBy(new Series("t", [1, 2, 3], "int32"), "2d"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    const d = new Series("d", [new Date(0), new Date(86_400_000), new Date(2 * 86_400_000)], "date32");
    code(() => s.rollingSumBy(d, "1mo"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => s.rollingSumBy(d, "3i"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => s.rollingSumBy(d, "36h"), InvalidArgumentError, "ERR_INVALID_ARGUMENT");
    code(() => s.rollingSumBy(s, "2i"), DtypeError, "ERR_DTYPE");
    code(() => new Series("s", ["a", "b"]).rollingMin(2), DtypeError, "ERR_DTYPE");
    code(() => new Series("b", [true, false]).rollingMean(2), DtypeError, "ERR_DTYPE");
    expect(s.toArray()).toEqual([1, 2, 3]);  // the data stays intact
  });
});
