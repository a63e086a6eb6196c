/**
 * LazyFrame: every verb gives the eager verb's result (same names, dtypes, values and, where the
 * eager verb promises an order, the same order), schemas are known before collect and equal
 * the collected ones, errors are thrown when the plan is built, collect runs off the JS thread.
 */
import { describe, expect, it } from "vitest";

import { col, concat, DataFrame, device, GroupBy, LazyFrame, LazyGroupBy, len, lit, when, type DType } from "gpudf";
import { VERBS } from "../../src/ops/verbs.js";
import { expectCode, expectSameFrame } from "../helpers.js";
import { sortRows } from "../support/rows.js";

const trips = (): DataFrame =>
  new DataFrame({
    city: ["NYC", "SF", null, "NYC", "SF", "LA", "NYC", null, "LA", "SF"],
    fare: [12.5, 8, 30, null, 2, 41, 7.25, 9, Number.NaN, 15],
    trips: new Int32Array([3, 1, 7, 2, 5, 9, 1, 4, 6, 2]),
    day: BigInt64Array.from([1n, 1n, 2n, 2n, 3n, 3n, 4n, 4n, 5n, 5n]),
    flag: [true, false, null, true, true, false, false, true, null, true],
  });
const cities = (): DataFrame => new DataFrame({ city: ["NYC", "SF", "CHI"], state: ["NY", "CA", "IL"], pop: [8.3, 0.8, 2.7] });

/** Eager and lazy forms of one query give the same frame (rows sorted by `sortBy` first when the order is unspecified). */
function same(eager: (df: DataFrame, other: DataFrame) => DataFrame, lazy: (lf: LazyFrame, other: LazyFrame) => LazyFrame, sortBy?: string[]): void {
  const df = trips();
  const other = cities();
  const want = eager(df, other);
  const lf = lazy(df.lazy(), other.lazy());
  expect(lf.schema).toEqual(want.schema);
  const got = lf.collectSync();
  if (sortBy) {
    expect(got.columns).toEqual(want.columns);
    expect(got.dtypes).toEqual(want.dtypes);
    const g = sortRows(got.toRecords(), sortBy);
    const w = sortRows(want.toRecords(), sortBy);
    expect(g).toEqual(w);
  } else {
    expectSameFrame(got, want);
  }
  const raw = lazy(df.lazy(), other.lazy()).collectSync({
    optimizations: {
      simplify: false,
      mergeFilters: false,
      mergeProjections: false,
      predicatePushdown: false,
      projectionPushdown: false,
      slicePushdown: false,
      commonSubexpressions: false,
    },
  });
  if (!sortBy) expectSameFrame(raw, want);
  else expect(sortRows(raw.toRecords(), sortBy)).toEqual(sortRows(want.toRecords(), sortBy));
}

describe("LazyFrame verbs equal the eager ones", () => {
  it("select, withColumns (replace in place and append), literals broadcast", () => {
    same(
      (d) => d.select("fare", col("trips").mul(2).alias("t2"), lit("x").alias("tag")),
      (l) => l.select("fare", col("trips").mul(2).alias("t2"), lit("x").alias("tag")),
    );
    same(
      (d) => d.withColumns(col("fare").fillNull(0), col("trips").add(1).alias("next"), lit(1).alias("one")),
      (l) => l.withColumns(col("fare").fillNull(0), col("trips").add(1).alias("next"), lit(1).alias("one")),
    );
    same(
      (d) => d.select(lit(3).alias("three"), lit("s").alias("s")),
      (l) => l.select(lit(3).alias("three"), lit("s").alias("s")),
    );
  });
  it("whole-frame aggregations in select: one row alone, broadcast beside columns", () => {
    same(
      (d) => d.select(col("fare").sum(), col("trips").mean().alias("m"), len()),
      (l) => l.select(col("fare").sum(), col("trips").mean().alias("m"), len()),
    );
    same(
      (d) => d.select("city", col("trips").sub(col("trips").mean()).alias("dev")),
      (l) => l.select("city", col("trips").sub(col("trips").mean()).alias("dev")),
    );
  });
  it("filter (null is false), dropNulls, fillNull", () => {
    same(
      (d) => d.filter(col("fare").gt(8).and(col("city").neq("LA"))),
      (l) => l.filter(col("fare").gt(8).and(col("city").neq("LA"))),
    );
    same((d) => d.dropNulls(), (l) => l.dropNulls());
    same((d) => d.dropNulls("city"), (l) => l.dropNulls("city"));
    same((d) => d.fillNull(0), (l) => l.fillNull(0));
    same((d) => d.fillNull({ city: "?", flag: false }), (l) => l.fillNull({ city: "?", flag: false }));
  });
  it("drop, rename, slice, head, tail, limit", () => {
    same((d) => d.drop("fare", "flag"), (l) => l.drop("fare", "flag"));
    same((d) => d.rename({ fare: "usd", city: "town" }), (l) => l.rename({ fare: "usd", city: "town" }));
    same((d) => d.slice(2, 5), (l) => l.slice(2, 5));
    same((d) => d.slice(-3), (l) => l.slice(-3));
    same((d) => d.slice(-30, 2), (l) => l.slice(-30, 2));
    same((d) => d.head(3), (l) => l.head(3));
    same((d) => d.tail(4), (l) => l.tail(4));
    same((d) => d.tail(40), (l) => l.tail(40));
    same((d) => d.tail(0), (l) => l.tail(0));
    same((d) => d.limit(2), (l) => l.limit(2));
  });
  it("sort (stable, per-key direction and null placement), topK, bottomK", () => {
    same((d) => d.sort(["city", "fare"], { descending: [false, true], nullsLast: [false, true] }), (l) => l.sort(["city", "fare"], { descending: [false, true], nullsLast: [false, true] }));
    same((d) => d.sort("day").head(3), (l) => l.sort("day").head(3));
    same((d) => d.sort("trips", { descending: true }).slice(1, 3), (l) => l.sort("trips", { descending: true }).slice(1, 3));
    same((d) => d.topK(3, "fare"), (l) => l.topK(3, "fare"));
    same((d) => d.bottomK(2, col("trips").mul(-1)), (l) => l.bottomK(2, col("trips").mul(-1)));
  });
  it("unique with each keep", () => {
    for (const keep of ["first", "last", "none"] as const) {
      same((d) => d.unique({ subset: "city", keep, maintainOrder: true }), (l) => l.unique({ subset: "city", keep, maintainOrder: true }));
    }
    same((d) => d.unique({ subset: ["day"], keep: "any" }), (l) => l.unique({ subset: ["day"], keep: "any" }), ["day"]);
  });
  it("groupBy: agg with expressions over aggregations, shortcuts, head/tail, topK", () => {
    same(
      (d) => d.groupBy("city", { sort: true }).agg(col("fare").sum().alias("s"), col("trips").max().sub(col("trips").min()).alias("range"), len(), col("flag").any()),
      (l) => l.groupBy("city", { sort: true }).agg(col("fare").sum().alias("s"), col("trips").max().sub(col("trips").min()).alias("range"), len(), col("flag").any()),
    );
    same((d) => d.groupBy("city", { maintainOrder: true }).mean(), (l) => l.groupBy("city", { maintainOrder: true }).mean());
    same((d) => d.groupBy("day", { sort: true }).count(), (l) => l.groupBy("day", { sort: true }).count());
    same((d) => d.groupBy(col("trips").mod(2).alias("odd"), { sort: true, dropNulls: true }).sum(), (l) => l.groupBy(col("trips").mod(2).alias("odd"), { sort: true, dropNulls: true }).sum());
    same((d) => d.groupBy("city", { sort: true }).head(2), (l) => l.groupBy("city", { sort: true }).head(2));
    same((d) => d.groupBy("city", { maintainOrder: true }).tail(1), (l) => l.groupBy("city", { maintainOrder: true }).tail(1));
    same((d) => d.groupBy("city", { sort: true }).topK(1, "trips"), (l) => l.groupBy("city", { sort: true }).topK(1, "trips"));
    same((d) => d.groupBy("city", { sort: true }).bottomK(2, "fare"), (l) => l.groupBy("city", { sort: true }).bottomK(2, "fare"));
    same((d) => d.groupBy("city").len(), (l) => l.groupBy("city").len(), ["city"]);
  });
  it("join of every kind, with suffixes and coalesced keys", () => {
    for (const how of ["inner", "left", "right", "full", "semi", "anti"] as const) {
      same((d, o) => d.join(o, { on: "city", how, maintainOrder: "left" }), (l, o) => l.join(o, { on: "city", how, maintainOrder: "left" }), ["city", "day", "state"]);
    }
    same((d, o) => d.join(o, { on: "city", how: "full", coalesce: true }), (l, o) => l.join(o, { on: "city", how: "full", coalesce: true }), ["city", "day", "state"]);
    same((d, o) => d.head(2).join(o, { how: "cross" }), (l, o) => l.head(2).join(o, { how: "cross" }), ["day", "state"]);
    same(
      (d, o) => d.join(o.rename({ city: "c", pop: "fare" }), { leftOn: "city", rightOn: "c", how: "left", maintainOrder: "left" }),
      (l, o) => l.join(o.rename({ city: "c", pop: "fare" }), { leftOn: "city", rightOn: "c", how: "left", maintainOrder: "left" }),
    );
  });
  it("a chain of verbs; concat of lazy frames; a DataFrame joined to a LazyFrame", () => {
    same(
      (d, o) =>
        d
          .filter(col("trips").gt(1))
          .withColumns(when(col("fare").gt(10)).then("high").otherwise("low").alias("band"))
          .join(o, { on: "city", how: "left" })
          .groupBy("band", "state", { sort: true })
          .agg(col("trips").sum().alias("t"), col("pop").max())
          .sort("t", { descending: true }),
      (l, o) =>
        l
          .filter(col("trips").gt(1))
          .withColumns(when(col("fare").gt(10)).then("high").otherwise("low").alias("band"))
          .join(o, { on: "city", how: "left" })
          .groupBy("band", "state", { sort: true })
          .agg(col("trips").sum().alias("t"), col("pop").max())
          .sort("t", { descending: true }),
    );
    const df = trips();
    const both = concat([df.lazy().head(3), df.lazy().tail(2)]);
    expect(both).toBeInstanceOf(LazyFrame);
    expectSameFrame(both.collectSync(), concat([df.head(3), df.tail(2)]));
    expectSameFrame(df.lazy().join(cities(), { on: "city", maintainOrder: "left" }).collectSync(), df.join(cities(), { on: "city", maintainOrder: "left" }));
  });
});

describe("LazyFrame plans", () => {
  it("knows its schema before collect", () => {
    const lf = trips()
      .lazy()
      .groupBy("city")
      .agg(col("trips").sum().alias("t"), col("fare").mean(), len(), col("trips").cast("float32").max().alias("mx"));
    expect(lf.schema).toEqual({ city: "utf8", t: "int64", fare: "float64", len: "int64", mx: "float32" } satisfies Record<string, DType>);
    expect(lf.columns).toEqual(["city", "t", "fare", "len", "mx"]);
    expect(lf.width).toBe(5);
    expect(lf.collectSync().schema).toEqual(lf.schema);
  });
  it("throws plan errors at the verb, listing the columns that exist", () => {
    const lf = trips().lazy();
    expect(() => lf.select(col("fair"))).toThrow(/column "fair" not found \(did you mean "fare"\?\); available columns: "city", "fare", "trips", "day", "flag"/);
    expectCode(() => lf.filter(col("fare").add(1)), "ERR_DTYPE");
    expectCode(() => lf.select(col("city").add(1)), "ERR_DTYPE");
    expectCode(() => lf.groupBy("city").agg(col("fare")), "ERR_INVALID_ARGUMENT");
    expectCode(() => lf.groupBy("nope").len(), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => lf.sort("nope"), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => lf.join(cities().lazy(), { on: "state" }), "ERR_COLUMN_NOT_FOUND");
    expectCode(() => lf.join(cities().lazy(), { leftOn: "trips", rightOn: "city" }), "ERR_DTYPE");
    expectCode(() => lf.select("fare", "fare"), "ERR_INVALID_ARGUMENT");
    expectCode(() => concat([lf, cities().lazy()]), "ERR_INVALID_ARGUMENT");
    expectCode(() => lf.collectSync({ optimizations: { predicatePushdwn: false } as never }), "ERR_INVALID_ARGUMENT");
    expectCode(() => lf.filter(new DataFrame({ a: [true] }) as never), "ERR_INVALID_ARGUMENT");
  });
  it("collect resolves off the JS thread; errors from running reject the promise", async () => {
    const big = new DataFrame({ k: Int32Array.from({ length: 400_000 }, (_, i) => i % 1000), v: Float64Array.from({ length: 400_000 }, (_, i) => i) });
    const out = await big.lazy().groupBy("k", { sort: true }).agg(col("v").sum()).collect();
    expect(out.height).toBe(1000);
    expect(out.getColumn("v").toArray()[0]).toBe(Array.from({ length: 400 }, (_, j) => j * 1000).reduce((a, b) => a + b, 0));
    const disposed = new DataFrame({ a: [1, 2] });
    const lf = disposed.lazy().select("a");
    disposed.dispose();
    await expect(lf.collect()).rejects.toMatchObject({ code: "ERR_DISPOSED" });
  });
  it("explain prints the plan as an indented tree, optimised or as built", () => {
    const lf = trips().lazy().select("city", "fare", "trips").filter(col("fare").gt(10)).select("city");
    expect(lf.explain({ optimized: false })).toBe(
      [
        'SELECT col("city")',
        '  FILTER (col("fare") > lit(10))',
        '    SELECT col("city"), col("fare"), col("trips")',
        "      SCAN DataFrame [5 columns]",
      ].join("\n"),
    );
    expect(lf.explain()).toBe(['SELECT col("city")', '  SCAN DataFrame [2 of 5 columns: city, fare]; filter (col("fare") > lit(10))'].join("\n"));
  });
  it("profile gives the result and a row per operator with rows in and out", async () => {
    const { result, profile } = await trips().lazy().filter(col("trips").gt(2)).groupBy("city").len().profile();
    expect(result.height).toBe(4);
    const rows = profile.toRecords();
    expect(rows.map((r) => r.name)).toEqual([
      "SCAN DataFrame [2 of 5 columns: city, trips]",
      "filter (in scan)",
      'AGGREGATE len() as "len" BY col("city")',
      "materialise",
    ]);
    expect(rows.map((r) => [r.rows_in, r.rows_out])).toEqual([
      [0n, 10n],
      [10n, 6n],
      [6n, 4n],
      [4n, 4n],
    ]);
    for (const r of rows) expect(r.end_us as number).toBeGreaterThanOrEqual(r.start_us as number);
    // Host <-> device copies: none on the CPU; the groupBy's results are built on the host and
    // copied to the GPU once on CUDA.
    const copied = rows.map((r) => r.copied_bytes as bigint);
    if (device().name === "cpu") expect(copied).toEqual(rows.map(() => 0n));
    else expect(copied.reduce((a, b) => a + b, 0n)).toBeGreaterThan(0n);
  });
  it("a subplan used twice runs once", async () => {
    const base = trips().lazy().filter(col("trips").gt(1)).groupBy("city").agg(col("trips").sum().alias("t"));
    const lf = base.join(base.rename({ t: "t2" }), { on: "city", how: "inner" });
    const { profile } = await lf.profile();
    expect(profile.toRecords().filter((r) => String(r.name).startsWith("AGGREGATE")).length).toBe(1);
  });
});

describe("one verb list serves DataFrame and LazyFrame", () => {
  it("both classes and both groupings have every verb", () => {
    for (const v of VERBS.frame) {
      expect(typeof (DataFrame.prototype as unknown as Record<string, unknown>)[v], `DataFrame.${v}`).toBe("function");
      expect(typeof (LazyFrame.prototype as unknown as Record<string, unknown>)[v], `LazyFrame.${v}`).toBe("function");
    }
    for (const v of VERBS.group) {
      expect(typeof (GroupBy.prototype as unknown as Record<string, unknown>)[v], `GroupBy.${v}`).toBe("function");
      expect(typeof (LazyGroupBy.prototype as unknown as Record<string, unknown>)[v], `LazyGroupBy.${v}`).toBe("function");
    }
  });
});

describe("printing", () => {
  it("an Expr prints as code; a LazyFrame as its plan", async () => {
    const { inspect } = await import("node:util");
    const e = col("fare").mul(1.1).alias("usd");
    expect(e.toString()).toBe('(col("fare") * lit(1.1)).alias("usd")');
    expect(inspect(e)).toBe('Expr (col("fare") * lit(1.1)).alias("usd")');
    expect(String(when(col("a").gt(0)).then("pos").otherwise("neg"))).toBe('when((col("a") > lit(0))).then(lit("pos")).otherwise(lit("neg"))');
    expect(String(col("s").str.like("a%").not())).toBe('col("s").str.like("a%").not()');
    expect(String(len())).toBe("len()");
    const lf = trips().lazy().filter(col("trips").gt(1)).select("city");
    expect(inspect(lf)).toBe(['LazyFrame (not collected; the plan as built)', 'SELECT col("city")', '  FILTER (col("trips") > lit(1))', "    SCAN DataFrame [5 columns]"].join("\n"));
  });
});
