// Window functions: sequence functions (cumSum ... isUnique) and over(), eager and lazy, checked
// against DuckDB's window functions on random data with nulls and ties, and exact small cases.
import { describe, expect, it } from "vitest";

import { col, DataFrame, DtypeError, InvalidArgumentError, len, Series, type DType, type Expr } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { Rng } from "./support/random.js";
import { native } from "../src/native/addon.js";

type Rows = Record<string, unknown>[];

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Random columns: id (row order), k (partition, with nulls), x (ties, nulls), o (order key with ties and nulls), f (floats). */
function randomFrame(seed: number, rows: number, keys: number): { columns: Record<string, unknown[]>; dtypes: Record<string, DType> } {
  const rng = new Rng(seed);
  const pick = (nulls: number, f: () => unknown): unknown => (rng.next() < nulls ? null : f());
  const columns: Record<string, unknown[]> = { id: [], k: [], x: [], o: [], f: [] };
  for (let i = 0; i < rows; i++) {
    columns.id?.push(i);
    columns.k?.push(pick(0.1, () => rng.int(0, keys - 1)));
    columns.x?.push(pick(0.15, () => rng.int(-20, 20)));
    columns.o?.push(pick(0.1, () => rng.int(0, 30)));
    columns.f?.push(pick(0.1, () => rng.int(-1000, 1000) / 8));
  }
  return { columns, dtypes: { id: "int32", k: "int32", x: "int32", o: "int32", f: "float64" } };
}

function frameOf(columns: Record<string, unknown[]>, dtypes: Record<string, DType>): DataFrame {
  let df = new DataFrame();
  for (const [name, values] of Object.entries(columns)) df = df.withColumn(new Series(name, values, dtypes[name]));
  return df;
}

/** [our expression, DuckDB SQL, null where x is null (DuckDB gives a value there)]. */
type Case = [Expr, string, boolean];

const P = "PARTITION BY k";
const ROWS = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
const ALL = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
const CASES: Case[] = [
  [col("x").sum().over("k").alias("sum"), `coalesce(sum(x) OVER (${P}), 0)`, false],
  [col("x").mean().over("k").alias("mean"), `avg(x) OVER (${P})`, false],
  [col("x").min().over("k").alias("min"), `min(x) OVER (${P})`, false],
  [col("f").max().over("k").alias("fmax"), `max(f) OVER (${P})`, false],
  [col("x").count().over("k").alias("count"), `count(x) OVER (${P})`, false],
  [col("x").first().over("k", { orderBy: "o" }).alias("first_o"), `first_value(x) OVER (${P} ORDER BY o NULLS FIRST, id ${ALL})`, false],
  [col("x").last().over("k", { orderBy: "o", nullsLast: true }).alias("last_o"), `last_value(x) OVER (${P} ORDER BY o NULLS LAST, id ${ALL})`, false],
  [col("x").sub(col("x").mean()).over("k").alias("demean"), `x - avg(x) OVER (${P})`, false],
  [col("x").rank({ method: "min" }).over("k").alias("rank_min"), `rank() OVER (${P} ORDER BY x)`, true],
  [col("x").rank({ method: "dense" }).over("k").alias("rank_dense"), `dense_rank() OVER (${P} ORDER BY x)`, true],
  [col("x").rank({ method: "ordinal" }).over("k").alias("rank_ord"), `row_number() OVER (${P} ORDER BY x, id)`, true],
  [col("x").rank({ method: "max" }).over("k").alias("rank_max"), `count(x) OVER (${P} ORDER BY x RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`, true],
  [col("x").rank().over("k").alias("rank_avg"), `(rank() OVER (${P} ORDER BY x) + count(x) OVER (${P} ORDER BY x RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) / 2`, true],
  [col("x").rank({ method: "dense", descending: true }).over("k").alias("rank_desc"), `dense_rank() OVER (${P} ORDER BY x DESC)`, true],
  [col("f").rank({ method: "min" }).alias("frank"), `CASE WHEN f IS NULL THEN NULL ELSE rank() OVER (ORDER BY f) END`, false],
  [col("x").cumSum().over("k").alias("cumsum"), `sum(x) OVER (${P} ORDER BY id ${ROWS})`, true],
  [col("x").cumSum().over("k", { orderBy: "o", descending: true }).alias("cumsum_o"), `sum(x) OVER (${P} ORDER BY o DESC NULLS FIRST, id ${ROWS})`, true],
  [col("x").cumSum({ reverse: true }).over("k").alias("cumsum_rev"), `sum(x) OVER (${P} ORDER BY id DESC ${ROWS})`, true],
  [col("x").cumMax().over("k").alias("cummax"), `max(x) OVER (${P} ORDER BY id ${ROWS})`, true],
  [col("x").cumMin().alias("cummin_all"), `min(x) OVER (ORDER BY id ${ROWS})`, true],
  [col("x").cumCount().over("k").alias("cumcount"), `count(x) OVER (${P} ORDER BY id ${ROWS})`, false],
  [col("f").cumSum().alias("fcumsum"), `sum(f) OVER (ORDER BY id ${ROWS})`, true],
  [col("x").shift(1).over("k").alias("lag1"), `lag(x, 1) OVER (${P} ORDER BY id)`, false],
  [col("x").shift(-2).over("k", { orderBy: "o" }).alias("lead2"), `lead(x, 2) OVER (${P} ORDER BY o NULLS FIRST, id)`, false],
  [col("x").shift(1, { fillValue: 0 }).alias("lag_fill"), `lag(x, 1, 0) OVER (ORDER BY id)`, false],
  [col("x").diff().over("k").alias("diff"), `x - lag(x, 1) OVER (${P} ORDER BY id)`, false],
];

async function checkAgainstDuckdb(seed: number, rows: number, keys: number): Promise<void> {
  const { columns, dtypes } = randomFrame(seed, rows, keys);
  const df = frameOf(columns, dtypes);
  const conn = await duckdbTable(columns, dtypes);
  const sql = `SELECT id, x, f, ${CASES.map(([e, s]) => `${s} AS ${e.outputName}`).join(", ")} FROM t ORDER BY id`;
  const want = await duckdbRows(conn, sql);
  conn.closeSync();
  const exprs = CASES.map(([e]) => e);
  const eager = df.select(exprs).toRecords() as Rows;
  const lazy = df.lazy().select(exprs).collectSync().toRecords() as Rows;
  for (const got of [eager, lazy]) {
    expect(got.length).toBe(rows);
    got.forEach((g, r) => {
      const w = want[r] as Record<string, unknown>;
      for (const [e, , nullWhereXNull] of CASES) {
        const name = e.outputName;
        const base = name.startsWith("f") ? w.f : w.x;
        const expected = nullWhereXNull && base === null ? null : num(w[name]);
        const actual = num(g[name]);
        if (expected === null || actual === null) expect(actual, `seed ${seed} row ${r} ${name}`).toBe(expected);
        else expect(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `seed ${seed} row ${r} ${name}: ${actual} vs ${expected}`).toBe(true);
      }
    });
  }
}

describe("window functions against DuckDB", () => {
  for (const [seed, rows, keys] of [[1, 500, 7], [2, 300, 150], [3, 64, 1], [4, 1, 1], [5, 2000, 40]] as const) {
    it(`seed ${seed}: ${rows} rows, ${keys} partitions`, async () => {
      await checkAgainstDuckdb(seed, rows, keys);
    });
  }
});

describe("sequence functions: exact values and dtypes", () => {
  const df = new DataFrame({
    x: new Series("x", [3, null, 1, 3, 2], "int32"),
    s: new Series("s", [1, 2, 3, 4, 5], "int8"),
    u: new Series("u", [5, 3, 9, 1, 1], "uint8"),
    b: new Series("b", [true, false, null, true, true], "bool"),
    f: new Series("f", [1.5, Number.NaN, -2, null, 4], "float64"),
    k: ["a", "b", "a", "a", "b"],
  });
  const one = (e: Expr): unknown[] => df.select(e).getColumn(e.outputName).toArray();
  const dtype = (e: Expr): DType => df.select(e).getColumn(e.outputName).dtype;

  it("cumulative functions skip nulls and keep them null", () => {
    expect(one(col("x").cumSum())).toEqual([3, null, 4, 7, 9]);
    expect(one(col("x").cumSum({ reverse: true }))).toEqual([9, null, 6, 5, 2]);
    expect(one(col("x").cumProd()).map(num)).toEqual([3, null, 3, 9, 18]);
    expect(one(col("x").cumMin())).toEqual([3, null, 1, 1, 1]);
    expect(one(col("x").cumMax({ reverse: true }))).toEqual([3, null, 3, 3, 2]);
    expect(one(col("x").cumCount())).toEqual([1, 1, 2, 3, 4]);
    expect(one(col("x").cumCount({ reverse: true }))).toEqual([4, 3, 3, 2, 1]);
    expect(one(col("b").cumSum())).toEqual([1, 1, null, 2, 3]);
  });

  it("result dtypes follow Polars", () => {
    expect(dtype(col("x").cumSum())).toBe("int32");
    expect(dtype(col("s").cumSum())).toBe("int64");
    expect(dtype(col("u").cumSum())).toBe("int64");
    expect(dtype(col("b").cumSum())).toBe("uint32");
    expect(dtype(col("x").cumProd())).toBe("int64");
    expect(dtype(col("f").cumProd())).toBe("float64");
    expect(dtype(col("u").cumMax())).toBe("uint8");
    expect(dtype(col("x").cumCount())).toBe("uint32");
    expect(dtype(col("u").diff())).toBe("int16");
    expect(dtype(col("x").diff())).toBe("int32");
    expect(dtype(col("x").pctChange())).toBe("float64");
    expect(dtype(col("x").rank())).toBe("float64");
    expect(dtype(col("x").rank({ method: "dense" }))).toBe("uint32");
    expect(dtype(col("x").shift(1))).toBe("int32");
    expect(dtype(col("x").isUnique())).toBe("bool");
  });

  it("NaN: sums propagate it, min/max skip it", () => {
    const f = one(col("f").cumSum()) as (number | null)[];
    expect(f[0]).toBe(1.5);
    expect(Number.isNaN(f[1])).toBe(true);
    expect(Number.isNaN(f[2])).toBe(true);
    expect(f[3]).toBe(null);
    expect(one(col("f").cumMax())).toEqual([1.5, 1.5, 1.5, null, 4]);
    expect(one(col("f").cumMin())).toEqual([1.5, 1.5, -2, null, -2]);
    const nanFirst = new Series("g", [Number.NaN, 1]).cumMax().toArray() as number[];
    expect(Number.isNaN(nanFirst[0])).toBe(true);
    expect(nanFirst[1]).toBe(1);
  });

  it("shift, diff and pctChange", () => {
    expect(one(col("x").shift(2))).toEqual([null, null, 3, null, 1]);
    expect(one(col("x").shift(-1))).toEqual([null, 1, 3, 2, null]);
    expect(one(col("x").shift(1, { fillValue: -1 }))).toEqual([-1, 3, null, 1, 3]);
    expect(one(col("x").shift(0))).toEqual([3, null, 1, 3, 2]);
    expect(one(col("x").shift(9))).toEqual([null, null, null, null, null]);
    expect(one(col("u").diff())).toEqual([null, -2, 6, -8, 0]);
    expect(one(col("x").diff(2))).toEqual([null, null, -2, null, 1]);
    // nulls filled forward first: [3, 3, 1, 3, 2]
    expect(one(col("x").pctChange())).toEqual([null, 0, (1 - 3) / 3, 2, (2 - 3) / 3]);
  });

  it("rank: every method, ties, nulls, descending", () => {
    expect(one(col("x").rank())).toEqual([3.5, null, 1, 3.5, 2]);
    expect(one(col("x").rank({ method: "min" }))).toEqual([3, null, 1, 3, 2]);
    expect(one(col("x").rank({ method: "max" }))).toEqual([4, null, 1, 4, 2]);
    expect(one(col("x").rank({ method: "dense" }))).toEqual([3, null, 1, 3, 2]);
    expect(one(col("x").rank({ method: "ordinal" }))).toEqual([3, null, 1, 4, 2]);
    expect(one(col("x").rank({ method: "ordinal", descending: true }))).toEqual([1, null, 4, 2, 3]);
    expect(one(col("k").rank({ method: "dense" }))).toEqual([1, 2, 1, 1, 2]);
    const nan = new Series("n", [Number.NaN, 1, Number.NaN, Number.POSITIVE_INFINITY]).rank({ method: "min" }).toArray();
    expect(nan).toEqual([3, 1, 3, 2]);
  });

  it("distinct flags (null is a value)", () => {
    expect(one(col("x").isFirstDistinct())).toEqual([true, true, true, false, true]);
    expect(one(col("x").isDuplicated())).toEqual([true, false, false, true, false]);
    expect(one(col("x").isUnique())).toEqual([false, true, true, false, true]);
    expect(one(col("x").isUnique().over("k"))).toEqual([false, true, true, false, true]);
    expect(one(col("u").isDuplicated().over("k"))).toEqual([false, false, false, false, false]);
  });

  it("Series methods", () => {
    const s = new Series("v", [2, null, 2, 5]);
    expect(s.cumSum().toArray()).toEqual([2, null, 4, 9]);
    expect(s.cumSum().name).toBe("v");
    expect(s.rank({ method: "dense" }).toArray()).toEqual([1, null, 1, 2]);
    expect(s.shift(1, { fillValue: 0 }).toArray()).toEqual([0, 2, null, 2]);
    expect(s.diff().toArray()).toEqual([null, null, null, 3]);
    expect(s.isDuplicated().toArray()).toEqual([true, false, true, false]);
    expect(s.isFirstDistinct().toArray()).toEqual([true, true, false, true]);
    expect(s.cumCount().toArray()).toEqual([1, 1, 2, 3]);
    expect(s.cumMin().toArray()).toEqual([2, null, 2, 2]);
    expect(s.cumMax().toArray()).toEqual([2, null, 2, 5]);
    expect(s.cumProd().toArray().map(num)).toEqual([2, null, 4, 20]);
    expect(s.pctChange().toArray()).toEqual([null, 0, 0, 1.5]);
    expect(s.isUnique().toArray()).toEqual([false, true, false, true]);
  });

  it("errors", () => {
    expect(() => df.select(col("k").cumSum())).toThrow(DtypeError);
    expect(() => df.select(col("k").diff())).toThrow(DtypeError);
    expect(() => col("x").rank({ method: "first" as never })).toThrow(InvalidArgumentError);
    expect(() => col("x").shift(1.5)).toThrow(InvalidArgumentError);
    expect(() => col("x").cumSum({ reverse: 1 as never })).toThrow(InvalidArgumentError);
    expect(() => col("x").sum().over([])).toThrow(InvalidArgumentError);
    expect(() => df.lazy().select(col("k").cumSum())).toThrow(DtypeError);
  });
});

describe("over", () => {
  const df = new DataFrame({
    k: ["a", "b", "a", null, "b", "a"],
    j: [1, 1, 2, 1, 1, 1],
    x: [1, 2, 3, 4, 5, 6],
    o: [3, 1, 2, 1, null, 1],
  });
  const one = (e: Expr, frame = df): unknown[] => frame.select(e).getColumn(e.outputName).toArray();

  it("aggregations broadcast in row order, null keys a partition", () => {
    expect(one(col("x").sum().over("k"))).toEqual([10, 7, 10, 4, 7, 10]);
    expect(one(col("x").max().over(["k", "j"]))).toEqual([6, 5, 3, 4, 5, 6]);
    expect(one(len().over("k").alias("n"))).toEqual([3n, 2n, 3n, 1n, 2n, 3n]);
    expect(one(col("x").nUnique().over("j"))).toEqual([5n, 5n, 1n, 5n, 5n, 5n]);
    expect(one(col("x").first().over("k"))).toEqual([1, 2, 1, 4, 2, 1]);
    expect(one(col("x").first().over("k", { orderBy: "o" }))).toEqual([6, 5, 6, 4, 5, 6]);
    expect(one(col("x").last().over("k", { orderBy: "o", nullsLast: true }))).toEqual([1, 5, 1, 4, 5, 1]);
    expect(one(col("x").div(col("x").sum()).over("k"))).toEqual([0.1, 2 / 7, 0.3, 1, 5 / 7, 0.6]);
  });

  it("the overs of one select or withColumns share one grouping per partition", () => {
    const passes = () => native.overPasses();
    const exprs = [
      col("x").sum().over("k").alias("s"),
      col("x").mean().over("k").alias("m"),
      col("x").rank().over("k").alias("r"),
      col("x").cumSum().over("k", { orderBy: "o" }).alias("c"),
      col("x").max().over("j").alias("mj"),
    ];
    const alone = exprs.map((e) => one(e));
    for (const run of [(es: Expr[]) => df.select(...es), (es: Expr[]) => df.withColumns(...es)]) {
      const before = passes();
      const out = run(exprs);
      const after = passes();
      // k and j: two groupings (not five); only the ordered cumSum sorts its partitions (rank
      // takes the partition's rows where they are).
      expect(after.groupings - before.groupings).toBe(2);
      expect(after.sorts - before.sorts).toBe(1);
      expect(["s", "m", "r", "c", "mj"].map((n) => out.getColumn(n).toArray())).toEqual(alone);
      out.dispose();
    }
    // rank and the distinct flags need no partition sort; with an orderBy, or beside a sequence
    // op, the rows are sorted (and the answers are the same).
    for (const e of [col("x").rank().over("k"), col("x").isFirstDistinct().over("k"), col("x").isUnique().over("j")]) {
      const before = passes();
      one(e);
      expect(passes().sorts - before.sorts).toBe(0);
    }
    const mixed = (() => {
      const before = passes();
      const v = one(col("x").rank({ method: "ordinal" }).add(col("x").cumSum()).over("k"));
      expect(passes().sorts - before.sorts).toBe(1);
      return v;
    })();
    const rk = one(col("x").rank({ method: "ordinal" }).over("k")) as number[];
    const cs = one(col("x").cumSum().over("k")) as number[];
    expect(mixed).toEqual(rk.map((r, i) => (r === null || cs[i] === null ? null : Number(r) + Number(cs[i]))));
    // Nothing is kept between calls: the next select groups again.
    const before = passes();
    one(col("x").sum().over("k"));
    expect(passes().groupings - before.groupings).toBe(1);
  });

  it("sequence functions per partition, ordered", () => {
    expect(one(col("x").cumSum().over("k"))).toEqual([1, 2, 4, 4, 7, 10]);
    expect(one(col("x").cumSum().over("k", { orderBy: "o" }))).toEqual([10, 7, 9, 4, 5, 6]);
    expect(one(col("x").cumSum().over("k", { orderBy: "o", descending: true }))).toEqual([1, 7, 4, 4, 5, 10]);
    expect(one(col("x").shift(1).over("k"))).toEqual([null, null, 1, null, 2, 3]);
    expect(one(col("x").rank({ method: "ordinal", descending: true }).over("k"))).toEqual([3, 2, 2, 1, 1, 1]);
    expect(one(col("o").rank({ method: "dense" }).over("k", { orderBy: "x" }))).toEqual([3, 1, 2, 1, null, 1]);
  });

  it("an expression mixing over with row-wise parts, and two partitionings in one select", () => {
    const out = df.select(col("x").sub(col("x").min().over("k")).alias("d"), col("x").sum().over("j").alias("s"));
    expect(out.getColumn("d").toArray()).toEqual([0, 0, 2, 0, 3, 5]);
    expect(out.getColumn("s").toArray()).toEqual([18, 18, 3, 18, 18, 18]);
  });

  it("prints as code", () => {
    expect(col("x").sum().over("k", { orderBy: "o" }).toString()).toBe('col("x").sum().over([col("k")], { orderBy: [col("o")] })');
    expect(col("x").cumSum().over(["k", "j"]).toString()).toBe('col("x").cumSum(0).over([col("k"), col("j")])');
  });

  it("empty frames and one-row partitions", () => {
    const empty = df.head(0);
    expect(one(col("x").sum().over("k"), empty)).toEqual([]);
    expect(empty.select(col("x").sum().over("k")).getColumn("x").dtype).toBe(df.select(col("x").sum()).getColumn("x").dtype);
    expect(one(col("x").cumSum().over("k", { orderBy: "o" }), empty)).toEqual([]);
    expect(one(col("x").rank().over("x"))).toEqual([1, 1, 1, 1, 1, 1]);
    expect(one(col("x").shift(1).over("x"))).toEqual([null, null, null, null, null, null]);
    expect(new DataFrame({ a: [] as number[] }).select(col("a").cumSum(), col("a").rank().alias("r")).height).toBe(0);
  });

  it("lazy: over and sequence functions are not moved across filters", () => {
    const lf = df.lazy().withColumns(col("x").cumSum().alias("cs"), col("x").sum().over("k").alias("ks")).filter(col("j").eq(1));
    const got = lf.collectSync();
    expect(got.getColumn("cs").toArray()).toEqual([1, 3, 10, 15, 21]);
    expect(got.getColumn("ks").toArray()).toEqual([10, 7, 4, 7, 10]);
    const f2 = df.lazy().filter(col("j").eq(1)).filter(col("x").cumSum().gt(4)).collectSync();
    expect(f2.getColumn("x").toArray()).toEqual([4, 5, 6]);
    const f3 = df.lazy().filter(col("x").rank({ method: "ordinal" }).over("k").eq(1)).collectSync();
    expect(f3.getColumn("x").toArray()).toEqual([1, 2, 4]);
  });
});

describe("withRowIndex", () => {
  it("a uint32 index first, from the offset", () => {
    const df = new DataFrame({ a: ["x", "y", "z"] });
    const out = df.withRowIndex();
    expect(out.columns).toEqual(["index", "a"]);
    expect(out.getColumn("index").dtype).toBe("uint32");
    expect(out.getColumn("index").toArray()).toEqual([0, 1, 2]);
    expect(df.withRowIndex("i", 10).getColumn("i").toArray()).toEqual([10, 11, 12]);
    expect(df.head(0).withRowIndex().height).toBe(0);
    expect(() => df.withRowIndex("i", -1)).toThrow(InvalidArgumentError);
  });
});
