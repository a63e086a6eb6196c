/**
 * groupBy: every aggregation × dtype × null pattern against the ungrouped reduction of each
 * group's rows (the contract: per-group results follow the Reductions rules exactly), keys of
 * every kind, order options, sliced and multi-block input, expressions over aggregates, errors,
 * and DuckDB as the reference on random tables.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, GpudfError, Series, col, corr, cov, fromArrow, len, lit, memory, type DType, type Expr } from "../src/index.js";
import { ALL_DTYPES, expectCode, makeArrowTable, type NullPattern } from "./helpers.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { randomColumns, type ColumnSpec } from "./support/random.js";
import { closeValues as close, sortRows, type Row } from "./support/rows.js";

const KINDS = [
  "sum", "mean", "min", "max", "count", "nullCount", "nUnique", "std", "var", "median", "quantile",
  "any", "all", "first", "last", "argMin", "argMax", "product",
] as const;
type Kind = (typeof KINDS)[number];

function aggOf(name: string, kind: Kind): Expr {
  const c = col(name);
  return kind === "quantile" ? c.quantile(0.3) : kind === "std" ? c.std(0) : c[kind]();
}

/** Key per row: rows that the "some" pattern nulls form group "n" (an all-null group then). */
const keyAt = (i: number): string => (i % 3 === 1 ? "n" : i % 5 < 2 ? "a" : "b");

describe("groupBy: every aggregation, dtype and null pattern matches the ungrouped reduction per group", () => {
  const ROWS = 65;
  const patterns: NullPattern[] = ["none", "some", "all"];
  for (const pattern of patterns) {
    const base = fromArrow(makeArrowTable(ROWS, pattern, ALL_DTYPES, { dateSafe: true }));
    const df = base.withColumn(new Series("k", Array.from({ length: ROWS }, (_, i) => keyAt(i))));
    for (const dtype of ALL_DTYPES) {
      it(`${dtype}, nulls ${pattern}`, () => {
        const failures: string[] = [];
        for (const kind of KINDS) {
          let want: Row[] | "dtype";
          try {
            want = ["a", "b", "n"].map((g) => ({ k: g, ...df.filter(col("k").eq(g)).select(aggOf(dtype, kind).alias("v")).toRecords()[0] }));
          } catch (err) {
            if ((err as GpudfError).code !== "ERR_DTYPE") throw err;
            want = "dtype";
          }
          let got: Row[] | "dtype";
          let gotDtype: DType | undefined;
          try {
            const out = df.groupBy("k", { sort: true }).agg(aggOf(dtype, kind).alias("v"));
            gotDtype = out.dtypes[1];
            got = out.toRecords();
          } catch (err) {
            if ((err as GpudfError).code !== "ERR_DTYPE") throw err;
            got = "dtype";
          }
          if (want === "dtype" || got === "dtype") {
            if (want !== got) failures.push(`${kind}: grouped ${got === "dtype" ? "DtypeError" : "ok"}, ungrouped ${want === "dtype" ? "DtypeError" : "ok"}`);
            continue;
          }
          const wantDtype = df.head(1).select(aggOf(dtype, kind)).dtypes[0];
          if (gotDtype !== wantDtype) failures.push(`${kind}: dtype ${gotDtype}, want ${wantDtype}`);
          const rel = dtype === "float32" ? 1e-6 : 1e-9;
          // A duration's mean / std / median / quantile is a float64 result truncated to a
          // count: grouped and whole-column sums may round differently in the last bits.
          const viaFloat = dtype.startsWith("duration") && ["mean", "std", "median", "quantile"].includes(kind);
          const value = (v: unknown) => (viaFloat && typeof v === "bigint" ? Number(v) : v);
          (want as Row[]).forEach((w, r) => {
            const g = (got as Row[])[r];
            if (g?.["k"] !== w["k"] || !close(value(g?.["v"]), value(w["v"]), rel)) {
              failures.push(`${kind} group ${String(w["k"])}: got ${String(g?.["v"])}, want ${String(w["v"])}`);
            }
          });
        }
        expect(failures).toEqual([]);
      });
    }
  }

  it("len counts rows, nulls included; count counts non-null values", () => {
    const df = new DataFrame({ k: ["a", "a", "b", "a"], v: [1, null, null, 4] });
    const out = df.groupBy("k", { sort: true }).agg(len(), col("v").count().alias("n"), col("v").sum());
    expect(out.toRecords()).toEqual([
      { k: "a", len: 3n, n: 2n, v: 5 },
      { k: "b", len: 1n, n: 0n, v: 0 },
    ]);
    expect(out.dtypes).toEqual(["utf8", "int64", "int64", "float64"]);
  });

  it("an empty frame gives no groups with the result dtypes", () => {
    const df = new DataFrame({ k: ["a"], v: Int32Array.of(1) }).head(0);
    const out = df.groupBy("k").agg(col("v").sum(), col("v").mean().alias("m"), len());
    expect(out.shape).toEqual([0, 4]);
    expect(out.dtypes).toEqual(["utf8", "int64", "float64", "int64"]);
  });

  it("a filter that empties a group removes it; one that empties the frame leaves no groups", () => {
    const df = new DataFrame({ k: ["a", "b", "a", "c"], v: [1, 2, 3, 4] });
    const kept = df.filter(col("k").neq("b")).groupBy("k", { sort: true }).agg(col("v").sum());
    expect(kept.toRecords()).toEqual([{ k: "a", v: 4 }, { k: "c", v: 4 }]);
    const none = df.filter(col("v").gt(100)).groupBy("k").agg(col("v").max(), len());
    expect(none.height).toBe(0);
    expect(none.dtypes).toEqual(["utf8", "float64", "int64"]);
  });
});

describe("groupBy keys", () => {
  it("float keys: -0.0 and 0.0 are one group, NaN one group, null one group", () => {
    const df = new DataFrame({ f: [0, -0, NaN, NaN, null, 1.5, null], v: [1, 2, 3, 4, 5, 6, 7] });
    const out = df.groupBy("f", { maintainOrder: true }).agg(col("v").sum(), len());
    const rows = out.toRecords();
    expect(rows.map((r) => r["v"])).toEqual([3, 7, 12, 6]);
    expect(rows.map((r) => r["len"])).toEqual([2n, 2n, 2n, 1n]);
    expect(Object.is(rows[0]!["f"], 0)).toBe(true); // the first row's key
    expect(Number.isNaN(rows[1]!["f"])).toBe(true);
    expect(rows[2]!["f"]).toBeNull();
  });

  it("multi-key over utf8 (non-ASCII), bool and date32", () => {
    const d = (s: string) => new Date(`${s}T00:00:00Z`);
    const df = new DataFrame({
      s: ["日本", "é", "日本", "é", "日本", null],
      b: [true, false, true, false, false, true],
      d: new Series("d", [d("2024-01-01"), d("2024-01-01"), d("2024-01-01"), d("1969-12-31"), d("2024-01-01"), null], "date32"),
      v: [1, 2, 3, 4, 5, 6],
    });
    const out = df.groupBy(["s", "b", "d"], { sort: true }).agg(col("v").sum(), len());
    expect(out.dtypes).toEqual(["utf8", "bool", "date32", "float64", "int64"]);
    expect(out.toRecords()).toEqual([
      { s: "é", b: false, d: d("1969-12-31"), v: 4, len: 1n },
      { s: "é", b: false, d: d("2024-01-01"), v: 2, len: 1n },
      { s: "日本", b: false, d: d("2024-01-01"), v: 5, len: 1n },
      { s: "日本", b: true, d: d("2024-01-01"), v: 4, len: 2n },
      { s: null, b: true, d: null, v: 6, len: 1n },
    ]);
  });

  it("null keys form their own group, unless dropNulls", () => {
    const df = new DataFrame({ k: [null, 1, null, 2], j: ["x", null, "x", "y"], v: [1, 2, 3, 4] });
    expect(df.groupBy("k", { sort: true }).agg(col("v").sum()).toRecords()).toEqual([
      { k: 1, v: 2 }, { k: 2, v: 4 }, { k: null, v: 4 },
    ]);
    expect(df.groupBy("k", { sort: true, dropNulls: true }).agg(col("v").sum()).toRecords()).toEqual([
      { k: 1, v: 2 }, { k: 2, v: 4 },
    ]);
    // dropNulls drops a row when any key is null.
    expect(df.groupBy(["k", "j"], { dropNulls: true, sort: true }).len().toRecords()).toEqual([{ k: 2, j: "y", len: 1n }]);
    expect(df.groupBy(["k", "j"], { sort: true }).len().height).toBe(3);
  });

  it("expression keys are named by their output name; variadic keys", () => {
    const df = new DataFrame({ a: [1, 2, 3, 4, 5], b: ["x", "y", "x", "y", "x"], v: [1, 1, 1, 1, 1] });
    const out = df.groupBy(col("a").mod(2).alias("odd"), "b", { sort: true }).agg(col("v").sum());
    expect(out.toRecords()).toEqual([
      { odd: 0, b: "y", v: 2 },
      { odd: 1, b: "x", v: 3 },
    ]);
    expect(df.groupBy("b", col("a").gt(2)).agg(len()).columns).toEqual(["b", "a", "len"]);
  });

  it("maintainOrder gives first appearance; sort gives ascending keys, nulls last", () => {
    const df = new DataFrame({ k: ["c", null, "a", "c", "b", null, "a"], v: [1, 2, 3, 4, 5, 6, 7] });
    expect(df.groupBy("k", { maintainOrder: true }).agg(col("v").first()).toRecords()).toEqual([
      { k: "c", v: 1 }, { k: null, v: 2 }, { k: "a", v: 3 }, { k: "b", v: 5 },
    ]);
    expect(df.groupBy("k", { sort: true, maintainOrder: true }).agg(col("v").last()).toRecords()).toEqual([
      { k: "a", v: 7 }, { k: "b", v: 5 }, { k: "c", v: 4 }, { k: null, v: 6 },
    ]);
    // Default: unspecified order, the same groups.
    expect(sortRows(df.groupBy("k").agg(col("v").sum()).toRecords(), ["k"])).toEqual([
      { k: "a", v: 10 }, { k: "b", v: 5 }, { k: "c", v: 5 }, { k: null, v: 8 },
    ]);
  });

  it("sliced input (offset not a multiple of 8) equals the same rows built fresh", () => {
    const n = 90;
    const k = Array.from({ length: n }, (_, i) => (i % 7 === 3 ? null : `k${i % 5}`));
    const v = Array.from({ length: n }, (_, i) => (i % 4 === 2 ? null : i * 1.5));
    const df = new DataFrame({ k, v });
    const sliced = df.slice(3, 40);
    const fresh = new DataFrame({ k: k.slice(3, 43), v: v.slice(3, 43) });
    const q = (f: DataFrame) =>
      f.groupBy("k", { maintainOrder: true }).agg(col("v").sum(), col("v").min().alias("mn"), col("v").first().alias("f"), col("v").argMax().alias("am"), len());
    expect(q(sliced).toRecords()).toEqual(q(fresh).toRecords());
    expect(sliced.groupBy("k", { maintainOrder: true }).head(2).toRecords()).toEqual(fresh.groupBy("k", { maintainOrder: true }).head(2).toRecords());
  });

  it("multi-block input (> 100_003 rows)", () => {
    const n = 250_007;
    const k = Int32Array.from({ length: n }, (_, i) => (i * 7919) % 1000);
    const v = Float64Array.from({ length: n }, (_, i) => i);
    const out = new DataFrame({ k, v }).groupBy("k", { sort: true }).agg(col("v").sum(), len(), col("v").min().alias("mn"), col("v").max().alias("mx"));
    expect(out.height).toBe(1000);
    const rows = out.toRecords();
    // 7919 is invertible mod 1000, so key g first appears at row r(g) = g * 7919^-1 mod 1000.
    let total = 0;
    let count = 0n;
    for (const r of rows) {
      total += r["v"] as number;
      count += r["len"] as bigint;
      expect((r["mn"] as number) < 1000).toBe(true);
      expect(((r["mn"] as number) * 7919) % 1000).toBe(r["k"]);
    }
    expect(count).toBe(BigInt(n));
    expect(total).toBe((n * (n - 1)) / 2);
    const ordered = new DataFrame({ k, v }).groupBy("k", { maintainOrder: true }).agg(col("v").first());
    const firsts = ordered.getColumn("v").toArray() as number[];
    expect(firsts).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });
});

describe("groupBy().agg expressions", () => {
  const df = new DataFrame({ k: ["a", "b", "a", "b", "a"], v1: [1, 5, 3, null, 2], v2: [4, 1, 2, 8, null] });

  it("arithmetic over aggregates, literals broadcast, Polars names", () => {
    const out = df.groupBy("k", { sort: true }).agg(
      col("v1").max().sub(col("v2").min()).alias("range"),
      col("v1").sum().add(1),
      lit(7).alias("seven"),
      len().mul(2).alias("len2"),
      col("v1").mean().gt(col("v2").mean()).alias("gt"),
    );
    expect(out.columns).toEqual(["k", "range", "v1", "seven", "len2", "gt"]);
    expect(out.toRecords()).toEqual([
      { k: "a", range: 1, v1: 7, seven: 7, len2: 6n, gt: false },
      { k: "b", range: 4, v1: 6, seven: 7, len2: 4n, gt: true },
    ]);
  });

  it("product, corr and cov", () => {
    const f = new DataFrame({ k: [1, 1, 1, 2, 2, 3], x: [1, 2, 3, 1, 2, 5], y: [2, 4, 7, 5, 3, 1] });
    const out = f.groupBy("k", { sort: true }).agg(
      col("x").product(),
      corr("x", "y").alias("r"),
      cov("x", "y").alias("c"),
      cov(col("x"), col("y"), 0).alias("c0"),
    );
    const rows = out.toRecords();
    expect(rows.map((r) => r["x"])).toEqual([6, 2, 5]);
    // group 1: x 1,2,3; y 2,4,7: cov = ((-1)(-2.333) + 0 + (1)(2.667)) / 2 = 2.5
    expect(rows[0]!["c"]).toBeCloseTo(2.5, 12);
    expect(rows[0]!["c0"]).toBeCloseTo(5 / 3, 12);
    expect(rows[0]!["r"]).toBeCloseTo(2.5 / Math.sqrt(1 * (114 / 18)), 12); // var x = 1, var y = 114/18
    expect(rows[1]!["r"]).toBeCloseTo(-1, 12);
    expect(out.dtypes).toEqual(["float64", "float64", "float64", "float64", "float64"]);
  });

  it("each distinct aggregation once; the same aggregation twice under two names", () => {
    const out = df.groupBy("k", { sort: true }).agg(col("v1").sum().alias("a"), col("v1").sum().alias("b"), col("v1").sum().mul(col("v1").sum()).alias("sq"));
    expect(out.toRecords()).toEqual([
      { k: "a", a: 6, b: 6, sq: 36 },
      { k: "b", a: 5, b: 5, sq: 25 },
    ]);
  });

  it("many aggregations in one agg() give exactly what each gives alone", () => {
    // Few groups over many rows: the one-fold kinds share one pass over the rows natively.
    const n = 200_003;
    const f = new DataFrame({
      k: Int32Array.from({ length: n }, (_, i) => (i * 7919) % 37),
      a: Float64Array.from({ length: n }, (_, i) => Math.sin(i) * 1e3),
      b: Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : (i * 31) % 1001)),
      s: Array.from({ length: n }, (_, i) => `s${i % 13}`),
    });
    const aggs = [
      col("a").sum(), col("a").mean().alias("a_mean"), col("b").sum().alias("b_sum"), col("b").mean().alias("b_mean"),
      col("b").min().alias("b_min"), col("a").max().alias("a_max"), col("b").count().alias("b_count"), len(),
      col("b").nullCount().alias("b_nulls"), col("s").first().alias("s_first"), col("s").last().alias("s_last"),
      col("a").std().alias("a_std"), col("b").median().alias("b_median"), corr("a", "b").alias("r"), col("s").max().alias("s_max"),
    ];
    const all = f.groupBy("k", { sort: true }).agg(...aggs);
    for (const [i, e] of aggs.entries()) {
      const alone = f.groupBy("k", { sort: true }).agg(e);
      const name = all.columns[i + 1] as string;
      expect(alone.getColumn(alone.columns[1] as string).toArray(), name).toEqual(all.getColumn(name).toArray());
      alone.dispose();
    }
    const before = memory().cpu.liveBytes;
    expectCode(() => f.groupBy("k").agg(col("a").sum(), col("s").sum(), col("b").mean()), "ERR_DTYPE");
    expect(memory().cpu.liveBytes).toBe(before);
    expect(f.height).toBe(n);
    all.dispose();
  });

  it("aggregations over expressions", () => {
    const out = df.groupBy("k", { sort: true }).agg(col("v1").add(col("v2")).sum().alias("s"), col("v1").gt(2).any().alias("big"));
    expect(out.toRecords()).toEqual([
      { k: "a", s: 10, big: true },
      { k: "b", s: 6, big: true },
    ]);
  });

  it("shortcuts over the non-key columns (dtypes a kind does not take are left out)", () => {
    const f = new DataFrame({ k: ["a", "b", "a"], s: ["x", "y", "z"], v: [1, 2, null] });
    expect(f.groupBy("k", { sort: true }).sum().toRecords()).toEqual([{ k: "a", v: 1 }, { k: "b", v: 2 }]);
    expect(f.groupBy("k", { sort: true }).mean().columns).toEqual(["k", "v"]);
    expect(f.groupBy("k", { sort: true }).max().toRecords()).toEqual([{ k: "a", s: "z", v: 1 }, { k: "b", s: "y", v: 2 }]);
    expect(f.groupBy("k", { sort: true }).min().toRecords()).toEqual([{ k: "a", s: "x", v: 1 }, { k: "b", s: "y", v: 2 }]);
    expect(f.groupBy("k", { sort: true }).count().toRecords()).toEqual([{ k: "a", s: 2n, v: 1n }, { k: "b", s: 1n, v: 1n }]);
    expect(f.groupBy("k", { sort: true }).len().toRecords()).toEqual([{ k: "a", len: 2n }, { k: "b", len: 1n }]);
  });

  it("head and tail: n rows per group in frame order, keys first", () => {
    const f = new DataFrame({ v: [1, 2, 3, 4, 5, 6, 7], k: ["a", "b", "a", "a", "b", "c", "a"] });
    expect(f.groupBy("k", { maintainOrder: true }).head(2).toRecords()).toEqual([
      { k: "a", v: 1 }, { k: "a", v: 3 }, { k: "b", v: 2 }, { k: "b", v: 5 }, { k: "c", v: 6 },
    ]);
    expect(f.groupBy("k", { sort: true }).tail(2).toRecords()).toEqual([
      { k: "a", v: 4 }, { k: "a", v: 7 }, { k: "b", v: 2 }, { k: "b", v: 5 }, { k: "c", v: 6 },
    ]);
    expect(f.groupBy("k").head(0).shape).toEqual([0, 2]);
    const n = new DataFrame({ k: [null, 1, null, 1, 2], v: ["a", "b", "c", "d", "e"] });
    expect(n.groupBy("k", { sort: true }).head(1).toRecords()).toEqual([{ k: 1, v: "b" }, { k: 2, v: "e" }, { k: null, v: "a" }]);
    expect(n.groupBy("k", { sort: true, dropNulls: true }).tail(1).toRecords()).toEqual([{ k: 1, v: "d" }, { k: 2, v: "e" }]);
    expect(f.groupBy("k").head(100).height).toBe(7);
  });

  it("len, corr and cov also work ungrouped (one value)", () => {
    const f = new DataFrame({ x: [1, 2, 3, null], y: [2, 4, 7, 1] });
    const [row] = f.select(len(), corr("x", "y").alias("r"), cov("x", "y").alias("c"), col("x").product().alias("p")).toRecords();
    expect(row!["len"]).toBe(4n);
    expect(row!["c"]).toBeCloseTo(2.5, 12);
    expect(row!["p"]).toBe(6);
    expect(f.withColumns(len().alias("n")).getColumn("n").toArray()).toEqual([4n, 4n, 4n, 4n]);
  });
});

describe("groupBy errors leave the data intact", () => {
  const df = new DataFrame({ k: ["a", "b", "a"], v: [1, 2, 3] });
  const before = df.toRecords();

  it("typed errors", () => {
    expectCode(() => df.groupBy("nope").agg(col("v").sum()), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => df.groupBy("k").agg(col("nope").sum()), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => df.groupBy("k").agg(col("v")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").agg(col("v").sum().add(col("v"))), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").agg(col("v").sum().sum()), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").agg(col("v").sum(), col("v").mean()), "ERR_INVALID_ARGUMENT"); // same name
    expectCode(() => df.groupBy("k").agg(col("k").first()), "ERR_INVALID_ARGUMENT"); // name clashes with the key
    expectCode(() => df.groupBy("k").agg("v" as unknown as Expr), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy(), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy([]), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy(3 as unknown as string), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k", { sort: "yes" as unknown as boolean }), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k", { order: true } as never), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k", "k").len(), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").head(-1), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").head(1.5), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.groupBy("k").agg(col("k").sum().alias("s")), "ERR_DTYPE");
    expectCode(() => cov("a", "b", -1), "ERR_INVALID_ARGUMENT");
    expect(df.toRecords()).toEqual(before);
    expect(df.groupBy("k", { sort: true }).agg(col("v").sum()).toRecords()).toEqual([{ k: "a", v: 4 }, { k: "b", v: 2 }]);
  });

  it("a disposed frame throws DisposedError", () => {
    const f = new DataFrame({ k: [1], v: [2] });
    const g = f.groupBy("k");
    f.dispose();
    expectCode(() => g.agg(col("v").sum()), "ERR_DISPOSED");
  });
});

describe("groupBy vs DuckDB on random tables", () => {
  const SPECS: ColumnSpec[] = [
    { name: "ki", dtype: "int32", nulls: 0.1, cardinality: 12 },
    { name: "ks", dtype: "utf8", nulls: 0.1, cardinality: 6 },
    { name: "kb", dtype: "bool", nulls: 0.05, cardinality: 2 },
    { name: "kl", dtype: "int64", nulls: 0, cardinality: 40 },
    { name: "i32", dtype: "int32", nulls: 0.2 },
    { name: "i64", dtype: "int64", nulls: 0.1 },
    { name: "f64", dtype: "float64", nulls: 0.2 },
    { name: "u8", dtype: "uint8", nulls: 0.1 },
    { name: "s", dtype: "utf8", nulls: 0.15, cardinality: 20 },
    { name: "b", dtype: "bool", nulls: 0.3 },
  ];
  const dtypes = Object.fromEntries(SPECS.map((s) => [s.name, s.dtype])) as Record<string, DType>;
  const KEY_SETS = [["ki"], ["ks"], ["kb", "ki"], ["ks", "kl"], ["ki", "ks", "kb"]];
  // [gpudf expression, DuckDB SQL, float compare]. A sum of no values is 0 (Polars), NULL in SQL.
  const AGGS: [Expr, string, boolean][] = [
    [col("i32").sum().alias("a_sum"), "coalesce(sum(i32), 0)::BIGINT", false],
    [col("i64").sum().alias("a_sum64"), "coalesce(sum(i64), 0)::BIGINT", false],
    [col("f64").sum().alias("a_fsum"), "coalesce(sum(f64), 0)", true],
    [col("f64").mean().alias("a_mean"), "avg(f64)", true],
    [col("i32").min().alias("a_min"), "min(i32)", false],
    [col("s").max().alias("a_smax"), "max(s)", false],
    [col("u8").count().alias("a_count"), "count(u8)", false],
    [len().alias("a_len"), "count(*)", false],
    [col("s").nUnique().alias("a_nuniq"), "count(DISTINCT s)", false],
    [col("f64").std().alias("a_std"), "stddev_samp(f64)", true],
    [col("i32").var(0).alias("a_var0"), "var_pop(i32)", true],
    [col("f64").median().alias("a_med"), "median(f64)", true],
    [col("i64").quantile(0.75).alias("a_q75"), "quantile_cont(i64, 0.75)", true],
    [col("b").any().alias("a_any"), "coalesce(bool_or(b), false)", false],
    [col("b").all().alias("a_all"), "coalesce(bool_and(b), true)", false],
    [col("i32").max().sub(col("u8").min()).alias("a_range"), "max(i32) - min(u8)", false],
    [cov("f64", "i32").alias("a_cov"), "covar_samp(f64, i32)", true],
  ];

  for (const seed of [31, 32, 33]) {
    it(`seed ${seed}: random keys and aggregations agree`, async () => {
      const rows = 800 + seed * 17;
      const columns = randomColumns(seed, rows, SPECS);
      let frame = new DataFrame();
      for (const spec of SPECS) frame = frame.withColumn(new Series(spec.name, columns[spec.name] as unknown[], spec.dtype));
      const conn = await duckdbTable(columns, dtypes);
      for (const [setIndex, keys] of KEY_SETS.entries()) {
        const picks = AGGS.filter((_, i) => (i + setIndex + seed) % 2 === 0 || i < 3);
        const got = sortRows(frame.groupBy(keys).agg(picks.map((p) => p[0])).toRecords(), keys);
        const sql = `SELECT ${keys.join(", ")}, ${picks.map((p) => `${p[1]} AS ${p[0].outputName}`).join(", ")} FROM t GROUP BY ${keys.join(", ")}`;
        const want = sortRows(await duckdbRows(conn, sql), keys);
        expect(got.length, sql).toBe(want.length);
        got.forEach((g, r) => {
          const w = want[r] as Row;
          for (const k of keys) expect(g[k], `${sql} row ${r} key ${k}`).toEqual(w[k]);
          for (const [expr, , float] of picks) {
            const name = expr.outputName;
            const [gv, wv] = [g[name], w[name]];
            if (float) expect(close(gv, wv, 1e-9), `${sql} row ${r} ${name}: ${String(gv)} vs ${String(wv)}`).toBe(true);
            else expect(gv, `${sql} row ${r} ${name}`).toEqual(wv);
          }
        });
      }
      conn.closeSync();
    });
  }
});

describe("groupBy over several integer keys (one packed code on the CPU)", () => {
  // The same keys beside a constant float key take the general multi-column store: both must
  // group alike.
  const n = 3000;
  const raw = new DataFrame({
    a: Array.from({ length: n }, (_, i) => (i % 17 === 0 ? null : (i * 7) % 23 - 11)),
    b: Int8Array.from({ length: n }, (_, i) => ((i * 13) % 9) - 4),
    c: BigInt64Array.from({ length: n }, (_, i) => BigInt((i % 5) * 1_000_000_007)),
    d: Array.from({ length: n }, (_, i) => (i % 29 === 0 ? null : i % 3 === 0)),
    v: Float64Array.from({ length: n }, (_, i) => i),
  });
  const df = raw.withColumns(col("a").cast("int32"));
  const general = df.withColumns(lit(0.5).alias("f"));
  for (const dropNulls of [false, true]) {
    it(`dropNulls ${dropNulls}: same groups, sums and first-appearance order as the general store`, () => {
      const packed = df.groupBy(["a", "b", "c", "d"], { maintainOrder: true, dropNulls }).agg(col("v").sum(), len());
      const other = general.groupBy(["a", "b", "c", "d", "f"], { maintainOrder: true, dropNulls }).agg(col("v").sum(), len());
      expect(df.schema.a).toBe("int32");
      expect(packed.height).toBe(other.height);
      expect(packed.height).toBeGreaterThan(100);
      expect(packed.toRecords()).toEqual(other.drop("f").toRecords());
    });
  }
});

describe("groupBy over short-string keys (one packed code on the CPU)", () => {
  // Strings of up to 7 bytes pack into the key code; the general store (beside a constant float
  // key) must group alike. "", "\0", "a" and "a\0" are four groups; an 8-byte string anywhere
  // sends the whole column to the general path.
  const words = ["", "\0", "a", "a\0", "é", "abcdefg", "b", "zz", null];
  const n = 2000;
  const frame = (long: boolean) =>
    new DataFrame({
      s: Array.from({ length: n }, (_, i) => (long && i === n - 1 ? "abcdefgh" : words[(i * 7) % words.length]!)),
      t: Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : ["x", "y"][i % 2]!)),
      i: Int32Array.from({ length: n }, (_, i) => i % 3),
      v: Float64Array.from({ length: n }, (_, i) => i),
    });
  for (const long of [false, true]) {
    for (const dropNulls of [false, true]) {
      it(`${long ? "with" : "without"} a long string, dropNulls ${dropNulls}: same groups and order as the general store`, () => {
        const df = frame(long);
        const general = df.withColumns(lit(0.5).alias("f"));
        for (const keys of [["s"], ["s", "t"], ["t", "i", "s"]]) {
          const packed = df.groupBy(keys, { maintainOrder: true, dropNulls }).agg(col("v").sum(), len());
          const other = general.groupBy([...keys, "f"], { maintainOrder: true, dropNulls }).agg(col("v").sum(), len());
          expect(packed.toRecords()).toEqual(other.drop("f").toRecords());
        }
        const one = df.groupBy("s", { maintainOrder: true, dropNulls }).agg(len());
        const want = [...new Set(df.getColumn("s").toArray() as (string | null)[])].filter((w) => !(dropNulls && w === null));
        expect(one.getColumn("s").toArray()).toEqual(want);
        // large_utf8 and a slice group alike.
        const large = df.withColumns(col("s").cast("large_utf8")).slice(5, 1500);
        const sliced = df.slice(5, 1500);
        expect(large.groupBy(["s", "t"], { maintainOrder: true, dropNulls }).agg(len()).getColumn("len").toArray()).toEqual(
          sliced.withColumns(lit(0.5).alias("f")).groupBy(["s", "t", "f"], { maintainOrder: true, dropNulls }).agg(len()).getColumn("len").toArray(),
        );
      });
    }
  }
});
