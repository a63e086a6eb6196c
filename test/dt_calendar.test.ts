// Calendar fields and calendar arithmetic on dates and timestamps (dt.quarter / week / isoYear /
// ordinalDay / millisecond / microsecond / nanosecond / epoch / monthStart / monthEnd /
// truncate / round / offsetBy) against DuckDB run side by side on the same instants, and JS
// Date where it is exact.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDBConnection } from "@duckdb/node-api";
import { col, DataFrame } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { duckdbAddTable, duckdbConnection, duckdbRows } from "./support/duckdb.js";
import { uniform } from "./support/random.js";


const N = 3000;
const r = uniform(21);
const lo = Date.UTC(1890, 0, 1), hi = Date.UTC(2110, 0, 1);
// Microseconds since the epoch; every 97th a month end, every 89th a null.
const micros: (bigint | null)[] = Array.from({ length: N }, (_, i) => {
  if (i % 89 === 7) return null;
  if (i % 97 === 3) return BigInt(Date.UTC(1900 + (i % 200), (i % 12) + 1, 0, 13, 5)) * 1000n;
  return BigInt(Math.floor(lo + r() * (hi - lo))) * 1000n + BigInt(Math.floor(r() * 1000));
});
const floorDiv = (a: bigint, b: bigint) => (a >= 0n || a % b === 0n ? a / b : a / b - 1n);
const days = micros.map((u) => (u === null ? null : Number(floorDiv(u, 86_400_000_000n))));

const ts = new DataFrame({ us: micros as bigint[] }).select(col("us").cast("timestamp[us]").alias("t"));
const ds = new DataFrame({ d: days as number[] }).select(col("d").cast("int32").cast("date32").alias("d"));
const out = (df: DataFrame, e: ReturnType<typeof col>) => df.select(e.alias("o")).getColumn("o");
const asUs = (df: DataFrame, e: ReturnType<typeof col>) => out(df, e.cast("int64")).toArray() as (bigint | null)[];

let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await duckdbConnection();
  await duckdbAddTable(conn, "t", { us: micros, d: days }, { us: "int64", d: "int32" });
});
afterAll(() => conn?.closeSync());

async function duck(expr: string): Promise<unknown[]> {
  const rows = await duckdbRows(conn, `SELECT ${expr} AS v FROM (SELECT make_timestamp(us) AS t, DATE '1970-01-01' + d AS d, rowid FROM t) ORDER BY rowid`);
  return rows.map((x) => (x.v === null ? null : Number(x.v)));
}

describe("calendar fields", () => {
  it("quarter, ISO week and year, ordinal day match DuckDB", async () => {
    for (const [df, c, sql] of [[ts, "t", "t"], [ds, "d", "d"]] as const) {
      expect(out(df, col(c).dt.quarter()).toArray()).toEqual(await duck(`quarter(${sql})`));
      expect(out(df, col(c).dt.week()).toArray()).toEqual(await duck(`week(${sql})`));
      expect(out(df, col(c).dt.isoYear()).toArray()).toEqual(await duck(`isoyear(${sql})`));
      expect(out(df, col(c).dt.ordinalDay()).toArray()).toEqual(await duck(`dayofyear(${sql})`));
    }
    expect(out(ts, col("t").dt.week()).dtype).toBe("int8");
    expect(out(ts, col("t").dt.isoYear()).dtype).toBe("int32");
    expect(out(ts, col("t").dt.ordinalDay()).dtype).toBe("int16");
  });

  it("sub-second parts and epochs", async () => {
    const sub = micros.map((u) => (u === null ? null : Number(((u % 1_000_000n) + 1_000_000n) % 1_000_000n)));
    expect(out(ts, col("t").dt.microsecond()).toArray()).toEqual(sub);
    expect(out(ts, col("t").dt.millisecond()).toArray()).toEqual(sub.map((v) => (v === null ? null : Math.floor(v / 1000))));
    expect(out(ts, col("t").dt.nanosecond()).toArray()).toEqual(sub.map((v) => (v === null ? null : v * 1000)));
    expect(out(ts, col("t").dt.epoch()).toArray()).toEqual(micros);
    // Floored, as casts between units (DuckDB's epoch_ms truncates toward zero before 1970).
    expect(out(ts, col("t").dt.epoch("ms")).toArray()).toEqual(micros.map((u) => (u === null ? null : floorDiv(u, 1000n))));
    expect(out(ts, col("t").dt.epoch("s")).toArray()).toEqual(micros.map((u) => (u === null ? null : floorDiv(u, 1_000_000n))));
    expect(out(ts, col("t").dt.epoch("ns")).toArray()).toEqual(micros.map((u) => (u === null ? null : u * 1000n)));
    expect(out(ds, col("d").dt.epoch("d")).toArray()).toEqual(days.map((d) => (d === null ? null : BigInt(d))));
    expect(out(ds, col("d").dt.epoch("s")).toArray()).toEqual(days.map((d) => (d === null ? null : BigInt(d) * 86400n)));
    expectCode(() => ds.select(col("d").dt.millisecond()), "ERR_DTYPE");
  });
});

describe("calendar arithmetic", () => {
  it("monthStart / monthEnd keep the time of day", async () => {
    const toUs = (v: unknown[]) => v.map((x) => (x === null ? null : BigInt(x as number)));
    expect(asUs(ts, col("t").dt.monthStart())).toEqual(toUs(await duck("epoch_us(date_trunc('month', t) + (t - date_trunc('day', t)))")));
    expect(asUs(ts, col("t").dt.monthEnd())).toEqual(toUs(await duck("epoch_us(last_day(t) + (t - date_trunc('day', t)))")));
    expect(out(ds, col("d").dt.monthEnd()).dtype).toBe("date32");
  });

  it("truncate and round by fixed and calendar intervals", async () => {
    const toUs = (v: unknown[]) => v.map((x) => (x === null ? null : BigInt(x as number)));
    for (const [every, sql] of [["1mo", "month"], ["1q", "quarter"], ["1y", "year"], ["1d", "day"], ["1h", "hour"], ["1w", "week"]] as const) {
      expect(asUs(ts, col("t").dt.truncate(every))).toEqual(toUs(await duck(`epoch_us(date_trunc('${sql}', t))`)));
    }
    expect(asUs(ts, col("t").dt.truncate("15m"))).toEqual(toUs(await duck(`epoch_us(time_bucket(INTERVAL '15 minutes', t, TIMESTAMP '1970-01-01'))`)));
    expect(asUs(ts, col("t").dt.truncate("2h30m"))).toEqual(micros.map((u) => (u === null ? null : floorDiv(u, 9_000_000_000n) * 9_000_000_000n)));
    // Round: the nearer boundary, halfway up.
    const hour = 3_600_000_000n;
    expect(asUs(ts, col("t").dt.round("1h"))).toEqual(micros.map((u) => (u === null ? null : floorDiv(u + hour / 2n, hour) * hour)));
    const mid = new DataFrame({ us: [BigInt(Date.UTC(2024, 1, 15, 12)) * 1000n, BigInt(Date.UTC(2024, 1, 15, 11)) * 1000n] })
      .select(col("us").cast("timestamp[us]").alias("t"));
    // February 2024 is 29 days: its midpoint is the 15th at 12:00.
    expect(asUs(mid, col("t").dt.round("1mo"))).toEqual([BigInt(Date.UTC(2024, 2, 1)) * 1000n, BigInt(Date.UTC(2024, 1, 1)) * 1000n]);
    expect(out(ds, col("d").dt.truncate("1mo")).toArray()).toEqual(
      (await duck("date_trunc('month', d)")).map((x) => (x === null ? null : new Date(x as number))),
    );
    expectCode(() => ts.select(col("t").dt.truncate("1mo1d")), "ERR_INVALID_ARGUMENT");
    expectCode(() => ts.select(col("t").dt.truncate("-1h")), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("t").dt.truncate("1x"), "ERR_INVALID_ARGUMENT");
    expectCode(() => ds.select(col("d").dt.truncate("1h")), "ERR_INVALID_ARGUMENT");
  });

  it("offsetBy adds calendar months (clamped to the month's end) then fixed time", async () => {
    const toUs = (v: unknown[]) => v.map((x) => (x === null ? null : BigInt(x as number)));
    for (const [by, sql] of [["1mo", "INTERVAL 1 MONTH"], ["-1mo", "- INTERVAL 1 MONTH"], ["1y2mo", "INTERVAL 14 MONTH"], ["1mo2d3h", "INTERVAL 1 MONTH + INTERVAL 2 DAY + INTERVAL 3 HOUR"], ["-36h", "- INTERVAL 36 HOUR"], ["1q", "INTERVAL 3 MONTH"]] as const) {
      const want = toUs(await duck(`epoch_us(t ${sql.startsWith("-") ? "" : "+"} ${sql})`));
      expect(asUs(ts, col("t").dt.offsetBy(by))).toEqual(want);
    }
    const jan31 = new DataFrame({ s: ["2024-01-31", "2023-01-31", "2024-02-29", "2024-03-31"] }).select(col("s").str.toDate().alias("d"));
    expect(out(jan31, col("d").dt.offsetBy("1mo")).toArray()).toEqual(
      ["2024-02-29", "2023-02-28", "2024-03-29", "2024-04-30"].map((s) => new Date(s)),
    );
    expect(out(jan31, col("d").dt.offsetBy("-1y")).toArray()).toEqual(["2023-01-31", "2022-01-31", "2023-02-28", "2023-03-31"].map((s) => new Date(s)));
    expectCode(() => jan31.select(col("d").dt.offsetBy("1h")), "ERR_INVALID_ARGUMENT");
    expectCode(() => new DataFrame({ s: ["2024-01-01"] }).select(col("s").str.toDatetime(undefined, { unit: "s" }).dt.offsetBy("1ms")), "ERR_INVALID_ARGUMENT");
  });
});

describe("dates and timestamps against ISO strings", () => {
  it("compare as the parsed instant, in the column's dtype, both sides", () => {
    const s = ["2024-01-01", "2024-03-05", null, "2023-12-31", "2024-03-05"];
    const df = new DataFrame({ s }).select(col("s").str.toDate().alias("d"), col("s").str.toDatetime(undefined, { unit: "ns" }).alias("t"));
    expect(df.filter(col("d").gte("2024-01-01")).height).toBe(3);
    expect(df.filter(col("d").eq("2024-03-05")).height).toBe(2);
    expect(df.filter(col("t").lt("2024-03-05T00:00:00.000000001")).height).toBe(4);
    expect(df.filter(col("t").gt("2024-01-01 00:00:00+01:00")).height).toBe(3);  // 2023-12-31 23:00 UTC
    expect(df.filter(col("t").gte("2023-12-31T00:00Z")).height).toBe(4);
    expect(df.select(col("d").lt("2024-02-01").alias("o")).getColumn("o").toArray()).toEqual([true, false, null, true, false]);
    expectCode(() => df.filter(col("d").eq("2024-03-05 10:00")), "ERR_DTYPE");
    expectCode(() => df.filter(col("t").eq("soon")), "ERR_DTYPE");
  });
});
