/**
 * filter / sortBy as an aggregation's input (`col("v").filter(p).sum()`,
 * `col("v").sortBy("t").last()`): exact values, dtypes and nulls in groupBy().agg, in select and
 * under over(), eagerly and lazily; groups the filter empties (sum 0, mean null, len 0); errors
 * by code; and DuckDB (`FILTER (WHERE ...)`, `last(v ORDER BY ...)`, `arg_max_null`) on random tables.
 */
import { describe, expect, it } from "vitest";

import pl from "nodejs-polars";

import { DataFrame, col, len, type Expr } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { Rng } from "./support/random.js";
import { closeValues as close, sortRows, type Row } from "./support/rows.js";

const small = (): DataFrame =>
  new DataFrame({
    k: ["a", "b", "a", "b", "a", "c"],
    v: [1, 2, 3, null, 5, 6],
    i: BigInt64Array.of(10n, 20n, 30n, 40n, 50n, 60n),
    ok: [true, false, true, null, false, false],
    t: [5, 4, 3, 2, 1, null],
    u: ["x", "y", "x", "y", "y", "x"],
  });

const AGGS = (): Expr[] => [
  col("v").filter(col("ok")).sum().alias("s"),
  col("v").filter(col("ok")).mean().alias("m"),
  col("i").filter(col("ok")).sum().alias("si"),
  col("v").filter(col("ok")).len().alias("n"),
  col("v").filter(col("ok")).count().alias("c"),
  col("v").filter(col("t").gt(2)).first().alias("f"),
  col("v").sortBy("t").last().alias("last_t"),
  col("v").sortBy("t", { descending: true }).first().alias("first_t_desc"),
  col("v").sortBy(["u", "t"], { descending: [true, false] }).first().alias("by2"),
  col("v").sortBy("t", { nullsLast: false }).first().alias("nulls_first"),
];

describe("groupBy().agg over chosen rows", () => {
  const want = [
    { k: "a", s: 4, m: 2, si: 40n, n: 2n, c: 2n, f: 1, last_t: 1, first_t_desc: 1, by2: 5, nulls_first: 5 },
    { k: "b", s: 0, m: null, si: 0n, n: 0n, c: 0n, f: 2, last_t: 2, first_t_desc: 2, by2: null, nulls_first: null },
    { k: "c", s: 0, m: null, si: 0n, n: 0n, c: 0n, f: null, last_t: 6, first_t_desc: 6, by2: 6, nulls_first: 6 },
  ];

  it("eager: exact values, empty groups give sum 0, mean null, len 0", () => {
    const out = small().groupBy("k", { sort: true }).agg(AGGS());
    expect(out.toRecords()).toEqual(want);
    expect(out.dtypes).toEqual(["utf8", "float64", "float64", "int64", "int64", "int64", "float64", "float64", "float64", "float64", "float64"]);
  });

  it("lazy: the same values and dtypes (plan-time schema included)", async () => {
    const lf = small().lazy().groupBy("k", { sort: true }).agg(AGGS());
    const out = await lf.collect();
    expect(out.toRecords()).toEqual(want);
    expect(Object.values(lf.schema)).toEqual(out.dtypes);
  });

  it("an expression over chosen-row aggregations", () => {
    const out = small()
      .groupBy("k", { sort: true })
      .agg(col("v").filter(col("ok")).sum().add(col("v").sortBy("t").first()).alias("x"), len());
    expect(out.toRecords()).toEqual([
      { k: "a", x: 9, len: 3n },
      { k: "b", x: null, len: 2n },
      { k: "c", x: 6, len: 1n },
    ]);
  });
});

describe("select and over() over chosen rows", () => {
  it("select: one row over the whole frame, eager and lazy", async () => {
    const exprs = (): Expr[] => [
      col("v").filter(col("ok")).sum().alias("s"),
      col("v").filter(col("ok")).len().alias("n"),
      col("v").filter(col("k").eq("z")).mean().alias("none"),
      col("v").sortBy("t").last().alias("l"),
      col("k").sortBy("v", { descending: true }).first().alias("top"),
    ];
    const want = [{ s: 4, n: 2n, none: null, l: 6, top: "c" }];
    expect(small().select(exprs()).toRecords()).toEqual(want);
    expect((await small().lazy().select(exprs()).collect()).toRecords()).toEqual(want);
  });

  it("over: each row gets its partition's value over the chosen rows", async () => {
    const exprs = (): Expr[] => [
      col("v").filter(col("ok")).sum().over("k").alias("s"),
      col("v").sortBy("t").first().over("k").alias("f"),
      col("v").filter(col("ok")).len().over("k").alias("n"),
    ];
    const want = [
      { s: 4, f: 5, n: 2n },
      { s: 0, f: null, n: 0n },
      { s: 4, f: 5, n: 2n },
      { s: 0, f: null, n: 0n },
      { s: 4, f: 5, n: 2n },
      { s: 0, f: 6, n: 0n },
    ];
    expect(small().select(exprs()).toRecords()).toEqual(want);
    expect((await small().lazy().select(exprs()).collect()).toRecords()).toEqual(want);
  });

  it("an empty frame: sum 0, first null", () => {
    const out = small().head(0).select(col("v").filter(col("ok")).sum().alias("s"), col("v").sortBy("t").first().alias("f"));
    expect(out.toRecords()).toEqual([{ s: 0, f: null }]);
  });
});

describe("errors", () => {
  it("a non-bool predicate is ERR_DTYPE (eager and at plan time)", () => {
    expectCode(() => small().groupBy("k").agg(col("v").filter(col("t")).sum()), "ERR_DTYPE");
    expectCode(() => small().select(col("v").filter(col("t")).sum()), "ERR_DTYPE");
    expectCode(() => small().lazy().groupBy("k").agg(col("v").filter(col("t")).sum()), "ERR_DTYPE");
  });

  it("filter / sortBy outside an aggregation, nested, or with an aggregation inside: ERR_INVALID_ARGUMENT", () => {
    expectCode(() => small().select(col("v").filter(col("ok"))), "ERR_INVALID_ARGUMENT");
    expectCode(() => small().withColumns(col("v").sortBy("t").add(1)), "ERR_INVALID_ARGUMENT");
    expectCode(() => small().lazy().select(col("v").sortBy("t")), "ERR_INVALID_ARGUMENT");
    expectCode(() => small().groupBy("k").agg(col("v").filter(col("ok")).sortBy("t").first()), "ERR_INVALID_ARGUMENT");
    expectCode(() => small().groupBy("k").agg(col("v").filter(col("v").gt(col("v").mean())).sum()), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("v").sortBy([]), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("v").sortBy("t", { descending: [true, false] }), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("v").sortBy("t", { nope: true } as never), "ERR_INVALID_ARGUMENT");
  });

  it("a missing column is ERR_COLUMN_NOT_FOUND", () => {
    expectCode(() => small().groupBy("k").agg(col("v").filter(col("nope")).sum()), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => small().lazy().groupBy("k").agg(col("v").sortBy("nope").first()), "ERR_COLUMN_NOT_FOUND");
  });
});

describe("against DuckDB on random tables", () => {
  /** k: 12 groups (group "empty" never passes the filter), v with nulls, t with nulls and ties, rid unique. */
  function table(seed: number, rows: number): Record<string, unknown[]> {
    const rng = new Rng(seed);
    const k: string[] = [], v: (number | null)[] = [], t: (number | null)[] = [], ok: (boolean | null)[] = [], rid: number[] = [], u: number[] = [];
    for (let r = 0; r < rows; r++) {
      const key = r % 13 === 0 ? "empty" : `g${rng.int(0, 10)}`;
      k.push(key);
      v.push(rng.next() < 0.15 ? null : rng.int(-1000, 1000) / 4);
      t.push(rng.next() < 0.1 ? null : rng.int(0, 40));
      ok.push(key === "empty" ? false : rng.next() < 0.1 ? null : rng.next() < 0.5);
      rid.push(r);
      u.push((r * 7919) % rows); // distinct, no nulls: arg_max has one answer
    }
    return { k, v, t, ok, rid, u };
  }
  const DTYPES = { k: "utf8", v: "float64", t: "float64", ok: "bool", rid: "int32", u: "float64" } as const;

  const OURS = (): Expr[] => [
    col("v").filter(col("ok")).sum().alias("s"),
    col("v").filter(col("ok")).mean().alias("m"),
    col("v").filter(col("ok")).count().alias("c"),
    col("v").filter(col("ok")).len().alias("n"),
    col("v").filter(col("ok")).max().alias("mx"),
    col("v").sortBy(["t", "rid"]).last().alias("l"),
    col("v").sortBy(["t", "rid"], { descending: [true, false] }).first().alias("f"),
    col("rid").sortBy(["v", "rid"], { descending: [true, true] }).first().alias("top"),
    col("v").sortBy("u").last().alias("am"),
    col("t").sortBy("u", { descending: true }).first().alias("am2"),
  ];
  const SQL = [
    "coalesce(sum(v) FILTER (WHERE ok), 0) AS s",
    "avg(v) FILTER (WHERE ok) AS m",
    "count(v) FILTER (WHERE ok) AS c",
    "count(*) FILTER (WHERE ok) AS n",
    "max(v) FILTER (WHERE ok) AS mx",
    "last(v ORDER BY t ASC NULLS LAST, rid ASC) AS l",
    "first(v ORDER BY t DESC NULLS LAST, rid ASC) AS f",
    "first(rid ORDER BY v DESC NULLS LAST, rid DESC) AS top",
    "arg_max_null(v, u) AS am",
    "arg_max_null(t, u) AS am2",
  ].join(", ");

  function expectSame(got: Row[], want: Row[]): void {
    expect(got.length).toBe(want.length);
    got.forEach((g, i) => {
      const w = want[i] as Row;
      for (const name of Object.keys(w)) {
        const a = typeof g[name] === "bigint" ? Number(g[name]) : g[name];
        const b = typeof w[name] === "bigint" ? Number(w[name]) : w[name];
        expect(close(a, b), `${name} row ${i}: ${String(a)} vs ${String(b)}`).toBe(true);
      }
    });
  }

  for (const [seed, rows] of [[1, 500], [2, 5000], [3, 40_000]] as const) {
    it(`seed ${seed}, ${rows} rows: groupBy eager and lazy, and select`, async () => {
      const data = table(seed, rows);
      const conn = await duckdbTable(data, DTYPES);
      const want = await duckdbRows(conn, `SELECT k, ${SQL} FROM t GROUP BY k ORDER BY k`);
      const df = new DataFrame({
        k: data.k as string[],
        v: data.v as (number | null)[],
        t: data.t as (number | null)[],
        ok: data.ok as (boolean | null)[],
        rid: Int32Array.from(data.rid as number[]),
        u: data.u as number[],
      });
      expect(df.dtypes).toEqual(Object.values(DTYPES));
      expectSame(sortRows(df.groupBy("k").agg(OURS()).toRecords(), ["k"]), want);
      expectSame(sortRows((await df.lazy().groupBy("k").agg(OURS()).collect()).toRecords(), ["k"]), want);
      const whole = await duckdbRows(conn, `SELECT ${SQL} FROM t`);
      expectSame(df.select(OURS()).toRecords(), whole);
      expectSame((await df.lazy().select(OURS()).collect()).toRecords(), whole);
    });
  }

  it("nodejs-polars agrees (its sort_by puts nulls first: nullsLast false here)", () => {
    const data = table(7, 3000);
    const ours = new DataFrame({ k: data.k as string[], v: data.v as (number | null)[], t: data.t as (number | null)[], ok: data.ok as (boolean | null)[], rid: Int32Array.from(data.rid as number[]), u: data.u as number[] })
      .groupBy("k", { sort: true })
      .agg(
        col("v").filter(col("ok")).sum().alias("s"),
        col("v").filter(col("ok")).mean().alias("m"),
        col("v").sortBy(["t", "rid"], { nullsLast: false }).last().alias("l"),
        col("v").sortBy(["t", "rid"], { nullsLast: false }).first().alias("f"),
      )
      .toRecords();
    const theirs = pl
      .DataFrame(data)
      .groupBy("k")
      .agg(
        pl.col("v").filter(pl.col("ok")).sum().alias("s"),
        pl.col("v").filter(pl.col("ok")).mean().alias("m"),
        pl.col("v").sortBy(["t", "rid"]).last().alias("l"),
        pl.col("v").sortBy(["t", "rid"]).first().alias("f"),
      )
      .sort("k")
      .toRecords();
    expectSame(ours, theirs as Row[]);
  });
});
