// The duration dtype end to end: construction, Arrow, printing, arithmetic with dates and
// timestamps (against DuckDB's intervals on random instants), the dt.total* parts, casts to and
// from integers, floats, other units and ISO 8601 text, aggregations eager and lazy, windows, and
// the readers and writers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableFromIPC, tableToIPC, Type } from "apache-arrow";
import type { DuckDBConnection } from "@duckdb/node-api";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import {
  CastError,
  col,
  DataFrame,
  duration,
  fromArrow,
  lit,
  readCSV,
  readNDJSON,
  readParquet,
  Series,
  type DType,
  type Expr,
} from "../src/index.js";
import { expectCode } from "./helpers.js";
import { duckdbAddTable, duckdbConnection, duckdbRows } from "./support/duckdb.js";
import { uniform } from "./support/random.js";

const ms = (values: (bigint | number | null)[]) => new Series("d", values, "duration[ms]");
const one = (df: DataFrame, e: Expr) => df.select(e.alias("o")).getColumn("o");
const values = (df: DataFrame, e: Expr) => one(df, e).toArray();
const dtypeOf = (df: DataFrame, e: Expr) => one(df, e).dtype;
const frame = (series: Series[]) => new DataFrame(Object.fromEntries(series.map((s) => [s.name, s])));

describe("construction, Arrow and printing", () => {
  it("holds counts of its unit as bigints, with nulls", () => {
    const s = new Series("d", [1, null, -5n, 9_007_199_254_740_993n], "duration[us]");
    expect(s.dtype).toBe("duration[us]");
    expect(s.toArray()).toEqual([1n, null, -5n, 9_007_199_254_740_993n]);
    expect(() => new Series("d", [new Date(0)], "duration[ms]")).toThrow(/date or timestamp dtype/);
    expect(() => new Series("d", [1.5], "duration[ms]")).toThrow(/not an integer/);
  });

  it("round-trips through Arrow with its unit", () => {
    for (const unit of ["s", "ms", "us", "ns"] as const) {
      const df = frame([new Series("d", [0n, -1n, 2n ** 62n, null], `duration[${unit}]`)]);
      const table = df.toArrow();
      const field = table.schema.fields[0]!;
      expect(field.type.typeId).toBe(Type.Duration);
      expect((field.type as { unit: number }).unit).toBe(["s", "ms", "us", "ns"].indexOf(unit));
      const back = fromArrow(tableFromIPC(tableToIPC(table)));
      expect(back.dtypes).toEqual([`duration[${unit}]`]);
      expect(back.getColumn("d").toArray()).toEqual([0n, -1n, 2n ** 62n, null]);
    }
  });

  it("prints as Polars does: the non-zero parts, each signed; zero in the column's unit", () => {
    const df = frame([
      ms([0, -90_061_001, 1500, 90_061_001, 3_723_000, null]),
      new Series("n", [0n, 1_001_001n, -1n, 86_400_000_000_000n, 5n, 999n], "duration[ns]"),
    ]);
    const lines = df.toString().split("\n").slice(6, 12).map((l) => l.split("┆").map((c) => c.replace(/[│]/g, "").trim()));
    expect(lines).toEqual([
      ["0ms", "0ns"],
      ["-1d -1h -1m -1s -1ms", "1ms 1µs 1ns"],
      ["1s 500ms", "-1ns"],
      ["1d 1h 1m 1s 1ms", "1d"],
      ["1h 2m 3s", "5ns"],
      ["null", "999ns"],
    ]);
  });

  it("Series have the same arithmetic and dt parts", () => {
    const s = new Series("d", [90_061_001n, null], "duration[ms]");
    expect(s.dt.totalHours().toArray()).toEqual([25n, null]);
    expect(s.mul(2).toArray()).toEqual([180_122_002n, null]);
    expect(s.cast("utf8").toArray()).toEqual(["P1DT1H1M1.001S", null]);
    const t = new Series("t", [new Date(1000), new Date(5000)]);
    expect(t.diff().toArray()).toEqual([null, 4000n]);
    expect(t.sub(t).dtype).toBe("duration[ms]");
  });

  it("toJSON gives the counts as numbers (strings past 2^53)", () => {
    const df = frame([ms([5, null, 2n ** 60n])]);
    expect(JSON.parse(JSON.stringify(df))).toEqual([{ d: 5 }, { d: null }, { d: String(2n ** 60n) }]);
  });
});

describe("arithmetic with dates, timestamps and durations", () => {
  const t = (iso: string) => new Date(iso);
  const df = new DataFrame({
    a: [t("2024-01-01T00:00:00Z"), t("2024-03-01T12:00:00Z"), null, t("1969-12-31T23:59:59.250Z")],
    b: [t("2023-12-30T00:00:00Z"), t("2024-01-01T00:00:00Z"), t("2024-01-01T00:00:00Z"), t("1970-01-01T00:00:00Z")],
  }).withColumns(col("a").cast("date32").alias("da"), col("b").cast("date32").alias("db"), col("a").cast("timestamp[us]").alias("au"));
  const DAY = 86_400_000n;

  it("timestamp - timestamp is a duration of the finer unit; date - date is duration[ms]", () => {
    expect(dtypeOf(df, col("a").sub(col("b")))).toBe("duration[ms]");
    expect(values(df, col("a").sub(col("b")))).toEqual([2n * DAY, 60n * DAY + 43_200_000n, null, -750n]);
    expect(dtypeOf(df, col("au").sub(col("b")))).toBe("duration[us]");
    expect(values(df, col("au").sub(col("b")))).toEqual([2n * DAY * 1000n, (60n * DAY + 43_200_000n) * 1000n, null, -750_000n]);
    expect(dtypeOf(df, col("da").sub(col("db")))).toBe("duration[ms]");
    expect(values(df, col("da").sub(col("db")))).toEqual([2n * DAY, 60n * DAY, null, -DAY]);
    // diff() of a timestamp column is the same subtraction.
    expect(values(df, col("b").diff())).toEqual([null, 2n * DAY, 0n, -(19_723n * DAY)]);
  });

  it("point ± duration: timestamps in the finer unit, dates floored to their day", () => {
    const plus = df.withColumns(col("a").sub(col("b")).alias("ab"));
    expect(dtypeOf(plus, col("b").add(col("ab")))).toBe("timestamp[ms]");
    expect(values(plus, col("b").add(col("ab")))).toEqual(values(plus, col("a")));
    expect(values(plus, col("ab").add(col("b")))).toEqual(values(plus, col("a")));
    expect(values(plus, col("a").sub(col("ab")))).toEqual([t("2023-12-30T00:00:00Z"), t("2024-01-01T00:00:00Z"), null, t("1970-01-01T00:00:00Z")]);
    expect(dtypeOf(plus, col("b").add(duration({ microseconds: 1 })))).toBe("timestamp[us]");
    expect(values(plus, col("b").add(duration({ microseconds: 1 })).cast("int64"))).toEqual(
      [1_703_894_400_000_001n, 1_704_067_200_000_001n, 1_704_067_200_000_001n, 1n]);
    // 2024-03-01 + 60d 12h is 2024-04-30 12:00, floored to 2024-04-30; 1970-01-01 - 1ms is the day before.
    expect(dtypeOf(plus, col("db").add(col("ab")))).toBe("date32");
    expect(values(plus, col("db").add(col("ab")))).toEqual([t("2024-01-01"), t("2024-03-01"), null, t("1969-12-31")]);
    expect(values(plus, col("db").sub(duration("1ms", { unit: "ms" })))).toEqual([t("2023-12-29"), t("2023-12-31"), t("2023-12-31"), t("1969-12-31")]);
  });

  it("durations add, subtract, scale, divide and compare across units", () => {
    const d = frame([ms([7, -7, null, 3]), new Series("s", [1n, 1n, 1n, -2n], "duration[s]"), new Series("k", [2, -2, 2, null], "int32")]);
    expect(dtypeOf(d, col("d").add(col("s")))).toBe("duration[ms]");
    expect(values(d, col("d").add(col("s")))).toEqual([1007n, 993n, null, -1997n]);
    expect(values(d, col("s").sub(col("d")))).toEqual([993n, 1007n, null, -2003n]);
    expect(values(d, col("d").mod(col("s")))).toEqual([7n, 993n, null, -1997n]);
    expect(dtypeOf(d, col("s").div(col("d")))).toBe("float64");
    expect(values(d, col("s").div(col("d")))).toEqual([1000 / 7, -1000 / 7, null, -2000 / 3]);
    expect(values(d, col("d").mul(col("k")))).toEqual([14n, 14n, null, null]);
    expect(values(d, col("k").mul(col("d")))).toEqual([14n, 14n, null, null]);
    expect(values(d, col("d").mul(3))).toEqual([21n, -21n, null, 9n]);
    // Float factors and true division truncate toward zero; floor division floors.
    expect(values(d, col("d").mul(-0.5))).toEqual([-3n, 3n, null, -1n]);
    expect(values(d, col("d").div(2))).toEqual([3n, -3n, null, 1n]);
    expect(dtypeOf(d, col("d").div(2))).toBe("duration[ms]");
    expect(values(d, col("d").floorDiv(2))).toEqual([3n, -4n, null, 1n]);
    expect(values(d, col("d").neg())).toEqual([-7n, 7n, null, -3n]);
    expect(values(d, col("d").abs())).toEqual([7n, 7n, null, 3n]);
    expect(values(d, col("s").eq(duration({ milliseconds: 1000 }, { unit: "ms" })))).toEqual([true, true, true, false]);
    expect(values(d, col("d").lt(col("s")))).toEqual([true, true, null, false]);
    expect(values(d, col("d").isIn([]))).toEqual([false, false, null, false]);
    expect(values(d, col("d").fillNull(duration({ seconds: 1 }, { unit: "s" })))).toEqual([7n, -7n, 1000n, 3n]);
    expect(values(d, col("d").add(lit(null)))).toEqual([null, null, null, null]);
  });

  it("other mixes are typed errors that name both sides", () => {
    const d = df.withColumns(col("a").sub(col("b")).alias("ab"));
    for (const e of [
      col("a").add(col("b")), col("ab").sub(col("a")), col("ab").mul(col("ab")), col("a").mul(2),
      col("ab").add(5), col("ab").gt(5), col("ab").eq(col("a")), col("ab").floorDiv(1.5), col("da").add(col("a")),
    ]) {
      expectCode(() => d.select(e), "ERR_DTYPE");
    }
    expect(() => d.select(col("ab").add(5))).toThrow(/duration\[ms\] and the number 5/);
  });
});

describe("dt.total* and casts", () => {
  const d = frame([ms([90_061_001, -90_061_001, null, 999, 9_223_372_036_854_775_807n])]);

  it("dt.total* count whole units toward zero; finer counts past int64 are null", () => {
    expect(values(d, col("d").dt.totalDays())).toEqual([1n, -1n, null, 0n, 106_751_991_167n]);
    expect(values(d, col("d").dt.totalHours())).toEqual([25n, -25n, null, 0n, 2_562_047_788_015n]);
    expect(values(d, col("d").dt.totalMinutes())).toEqual([1501n, -1501n, null, 0n, 153_722_867_280_912n]);
    expect(values(d, col("d").dt.totalSeconds())).toEqual([90_061n, -90_061n, null, 0n, 9_223_372_036_854_775n]);
    expect(values(d, col("d").dt.totalMilliseconds())).toEqual([90_061_001n, -90_061_001n, null, 999n, 9_223_372_036_854_775_807n]);
    expect(values(d, col("d").dt.totalMicroseconds())).toEqual([90_061_001_000n, -90_061_001_000n, null, 999_000n, null]);
    expect(values(d, col("d").dt.totalNanoseconds())).toEqual([90_061_001_000_000n, -90_061_001_000_000n, null, 999_000_000n, null]);
    expect(dtypeOf(d, col("d").dt.totalDays())).toBe("int64");
    expectCode(() => d.select(col("d").cast("int64").dt.totalDays()), "ERR_DTYPE");
  });

  it("casts between units (toward zero going coarser, null past int64 going finer)", () => {
    expect(values(d, col("d").cast("duration[s]"))).toEqual([90_061n, -90_061n, null, 0n, 9_223_372_036_854_775n]);
    expect(values(d, col("d").cast("duration[us]"))).toEqual([90_061_001_000n, -90_061_001_000n, null, 999_000n, null]);
    expect(() => d.select(col("d").cast("duration[us]", { strict: true }))).toThrow(CastError);
    expect(values(d, col("d").cast("int64"))).toEqual([90_061_001n, -90_061_001n, null, 999n, 9_223_372_036_854_775_807n]);
    expect(values(d, col("d").cast("int32"))).toEqual([90_061_001, -90_061_001, null, 999, null]);
    expect(values(d, col("d").cast("float64"))).toEqual([90_061_001, -90_061_001, null, 999, 9_223_372_036_854_775_807]);
    const f = new DataFrame({ f: [1.9, -1.9, NaN, 1e300] });
    expect(values(f, col("f").cast("duration[ms]"))).toEqual([1n, -1n, null, null]);
    expectCode(() => d.select(col("d").cast("timestamp[ms]")), "ERR_DTYPE");
    expectCode(() => d.select(col("d").cast("bool")), "ERR_DTYPE");
  });

  it("casts to and from ISO 8601 duration text", () => {
    const text = values(d, col("d").cast("utf8"));
    expect(text).toEqual(["P1DT1H1M1.001S", "-P1DT1H1M1.001S", null, "PT0.999S", "P106751991167DT7H12M55.807S"]);
    expect(values(d, col("d").dt.toString())).toEqual(text);
    const zero = frame([new Series("z", [0n, 86_400n, 60n, -1n], "duration[s]")]);
    expect(values(zero, col("z").cast("utf8"))).toEqual(["PT0S", "P1D", "PT1M", "-PT1S"]);
    const ns = frame([new Series("n", [1n, 1_500_000_000n], "duration[ns]")]);
    expect(values(ns, col("n").cast("utf8"))).toEqual(["PT0.000000001S", "PT1.5S"]);
    // Text back: the same values, and the forms a writer may choose (weeks, lower case, no T part).
    const back = new DataFrame({ t: text as (string | null)[] });
    expect(values(back, col("t").cast("duration[ms]"))).toEqual(values(d, col("d")));
    const forms = new DataFrame({ t: ["P1W", "p2dt3h", "PT1.5S", "+PT90M", "P1D", "PT1.0001S", "P1M", "1h", "PT", "P1DT", "-PT9223372036854775.808S", "PT9223372036854775.808S"] });
    expect(values(forms, col("t").cast("duration[ms]"))).toEqual([
      604_800_000n, 183_600_000n, 1500n, 5_400_000n, 86_400_000n, null, null, null, null, null, -(2n ** 63n), null,
    ]);
    expect(() => forms.select(col("t").cast("duration[ms]", { strict: true }))).toThrow(/row 5 \("PT1.0001S"\)/);
  });
});

describe("duration literals", () => {
  const df = new DataFrame({ x: [1] });
  it("from parts or a fixed-length string, in us unless told", () => {
    expect(dtypeOf(df, duration({ days: 1, hours: -1 }))).toBe("duration[us]");
    expect(values(df, duration({ days: 1, hours: -1 }))).toEqual([82_800_000_000n]);
    expect(values(df, duration({ weeks: 1, minutes: 1, seconds: 1, milliseconds: 1, microseconds: 1 }))).toEqual([604_861_001_001n]);
    expect(dtypeOf(df, duration({ nanoseconds: 5 }))).toBe("duration[ns]");
    expect(values(df, duration("-1d12h", { unit: "s" }))).toEqual([-129_600n]);
    expect(values(df, duration({ seconds: 2n ** 40n }, { unit: "s" }))).toEqual([2n ** 40n]);
  });
  it("rejects what is not a fixed duration of that unit", () => {
    expectCode(() => duration("1mo"), "ERR_INVALID_ARGUMENT");
    expectCode(() => duration({ days: 1.5 }), "ERR_INVALID_ARGUMENT");
    expectCode(() => duration({ fortnights: 1 } as never), "ERR_INVALID_ARGUMENT");
    expectCode(() => duration({ milliseconds: 1 }, { unit: "s" }), "ERR_INVALID_ARGUMENT");
    expectCode(() => duration({ days: 2n ** 40n }, { unit: "ns" }), "ERR_INVALID_ARGUMENT");
    expectCode(() => duration({ days: 1 }, { unit: "h" as never }), "ERR_INVALID_ARGUMENT");
  });
});

describe("aggregations and windows", () => {
  const df = frame([new Series("g", ["a", "b", "a", "b", "a"]), ms([1, 10, 4, null, -2])]);
  it("sum, mean, median, std, min, max stay durations; var is refused", () => {
    const out = df.select(
      col("d").sum().alias("sum"), col("d").mean().alias("mean"), col("d").median().alias("median"),
      col("d").min().alias("min"), col("d").max().alias("max"), col("d").std().alias("std"), col("d").count().alias("n"),
    );
    expect(out.dtypes).toEqual(["duration[ms]", "duration[ms]", "duration[ms]", "duration[ms]", "duration[ms]", "duration[ms]", "int64"]);
    // mean 13/4 = 3.25 -> 3; median of -2 1 4 10 = 2.5 -> 2; sample std of those = 5.05... -> 5.
    expect(out.toRecords()).toEqual([{ sum: 13n, mean: 3n, median: 2n, min: -2n, max: 10n, std: 5n, n: 4n }]);
    expectCode(() => df.select(col("d").var()), "ERR_DTYPE");
    expectCode(() => df.select(col("d").product()), "ERR_DTYPE");
    expect(df.getColumn("d").sum()).toBe(13n);
  });
  it("per group, over partitions and lazily give the same answers", () => {
    const aggs = [col("d").sum().alias("s"), col("d").mean().alias("m"), col("d").max().alias("x")];
    const want = [{ g: "a", s: 3n, m: 1n, x: 4n }, { g: "b", s: 10n, m: 10n, x: 10n }];
    expect(df.groupBy("g", { sort: true }).agg(...aggs).toRecords()).toEqual(want);
    expect(df.lazy().groupBy("g").agg(...aggs).sort("g").collectSync().toRecords()).toEqual(want);
    expect(values(df, col("d").sum().over("g"))).toEqual([3n, 10n, 3n, 10n, 3n]);
    expect(values(df, col("d").cumSum())).toEqual([1n, 11n, 15n, null, 13n]);
    expect(values(df, col("d").cumMax().over("g"))).toEqual([1n, 10n, 4n, null, 4n]);
    expect(values(df, col("d").rank())).toEqual([2, 4, 3, null, 1]);
    expect(values(df, col("d").rollingMax(2))).toEqual([null, 10n, 10n, null, null]);
    expect(values(df, col("d").rollingSum(2, { minPeriods: 1 }))).toEqual([1n, 11n, 14n, 4n, -2n]);
    expect(values(df, col("d").rollingMean(2, { minPeriods: 1 }))).toEqual([1n, 5n, 7n, 4n, -2n]);
    expect(dtypeOf(df, col("d").rollingMedian(3))).toBe("duration[ms]");
    expectCode(() => df.select(col("d").rollingVar(2)), "ERR_DTYPE");
    expect(df.lazy().select(col("d").mul(2).alias("o")).collectSync().getColumn("o").toArray()).toEqual([2n, 20n, 8n, null, -4n]);
    expect(df.lazy().select(col("d").mul(2).alias("o")).collectSync().dtypes).toEqual(["duration[ms]"]);
  });
  it("groupByDynamic aggregates durations per window", () => {
    const t = frame([new Series("t", [0n, 3_600_000n, 86_400_000n, 90_000_000n], "int64"), ms([5, 7, null, -1])]).select(
      col("t").cast("timestamp[ms]"), col("d"));
    const out = t.groupByDynamic("t", { every: "1d" }).agg(col("d").sum().alias("s"), col("d").mean().alias("m"), col("d").max().alias("x"));
    expect(out.dtypes).toEqual(["timestamp[ms]", "duration[ms]", "duration[ms]", "duration[ms]"]);
    expect(out.select("s", "m", "x").toRecords()).toEqual([{ s: 12n, m: 6n, x: 7n }, { s: -1n, m: -1n, x: -1n }]);
  });
  it("sorts, groups and joins on duration keys", () => {
    expect(df.sort("d").getColumn("d").toArray()).toEqual([-2n, 1n, 4n, 10n, null]);
    const other = frame([ms([4, 10]), new Series("w", ["four", "ten"])]);
    expect(df.join(other, { on: "d" }).sort("d").select("g", "d", "w").toRecords()).toEqual([
      { g: "a", d: 4n, w: "four" }, { g: "b", d: 10n, w: "ten" },
    ]);
    expect(df.groupBy("d", { sort: true }).agg(col("g").count().alias("n")).getColumn("d").toArray()).toEqual([-2n, 1n, 4n, 10n, null]);
  });
});

describe("readers and writers", () => {
  const dir = mkdtempSync(join(tmpdir(), "gpudf-duration-"));
  const df = frame([ms([90_061_001, -1, null, 0]), new Series("n", [1n, 2n, 3n, -1_500_000_000n], "duration[ns]")]);
  it("writeCSV writes ISO 8601 text, and readCSV with the dtype reads it back", async () => {
    const path = join(dir, "d.csv");
    await df.writeCSV(path);
    const back = await readCSV(path, { dtypes: { d: "duration[ms]", n: "duration[ns]" } });
    expect(back.dtypes).toEqual(["duration[ms]", "duration[ns]"]);
    expect(back.toRecords()).toEqual(df.toRecords());
    expect((await readCSV(path)).getColumn("d").toArray()).toEqual(["P1DT1H1M1.001S", "-PT0.001S", null, "PT0S"]);
  });
  it("Parquet keeps the dtype through the Arrow schema; NDJSON writes counts and reads counts or text", async () => {
    const path = join(dir, "d.parquet");
    await df.writeParquet(path);
    const back = await readParquet(path);
    expect(back.dtypes).toEqual(["duration[ms]", "duration[ns]"]);
    expect(back.toRecords()).toEqual(df.toRecords());
    const nd = join(dir, "d.ndjson");
    await df.writeNDJSON(nd);
    const dtypes: Record<string, DType> = { d: "duration[ms]", n: "duration[ns]" };
    expect((await readNDJSON(nd, { dtypes })).toRecords()).toEqual(df.toRecords());
  });
});

describe("against DuckDB's intervals on random instants", () => {
  const N = 2000;
  const r = uniform(77);
  const span = 200n * 365n * 86_400_000_000n;
  const rand = () => BigInt(Math.floor(r() * 2 ** 52)) % span - span / 2n;
  const a = Array.from({ length: N }, (_, i) => (i % 97 === 5 ? null : rand()));
  const b = Array.from({ length: N }, (_, i) => (i % 89 === 3 ? null : rand()));
  const d = Array.from({ length: N }, (_, i) => (i % 83 === 1 ? null : rand() / 1000n));
  const df = frame([
    new Series("a", a, "int64"), new Series("b", b, "int64"), new Series("d", d, "duration[us]"),
  ]).select(col("a").cast("timestamp[us]"), col("b").cast("timestamp[us]"), col("d"));
  let conn: DuckDBConnection;
  beforeAll(async () => {
    conn = await duckdbConnection();
    await duckdbAddTable(conn, "t", { a, b, d }, { a: "int64", b: "int64", d: "int64" });
  });
  afterAll(() => conn?.closeSync());
  const duck = async (sql: string) =>
    (await duckdbRows(conn, `SELECT ${sql} AS v FROM (SELECT make_timestamp(a) AS a, make_timestamp(b) AS b, to_microseconds(d) AS d, rowid FROM t) ORDER BY rowid`))
      .map((x) => (x.v === null ? null : BigInt(x.v as number | bigint)));

  it("timestamp - timestamp, timestamp ± duration and the duration's parts", async () => {
    expect(values(df, col("a").sub(col("b")))).toEqual(await duck("date_diff('microsecond', b, a)"));
    expect(values(df, col("a").add(col("d")).cast("int64"))).toEqual(await duck("epoch_us(a + d)"));
    expect(values(df, col("a").sub(col("d")).cast("int64"))).toEqual(await duck("epoch_us(a - d)"));
    expect(values(df, col("a").sub(col("b")).add(col("b")).cast("int64"))).toEqual(await duck("epoch_us(b + (a - b))"));
    expect(values(df, col("d").dt.totalMicroseconds())).toEqual(d);
    // The whole-unit parts, against BigInt division (toward zero, as Polars).
    const trunc = (u: bigint) => d.map((x) => (x === null ? null : x / u));
    expect(values(df, col("d").dt.totalSeconds())).toEqual(trunc(1_000_000n));
    expect(values(df, col("d").dt.totalHours())).toEqual(trunc(3_600_000_000n));
    expect(values(df, col("d").dt.totalDays())).toEqual(trunc(86_400_000_000n));
  });
});
