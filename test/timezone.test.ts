// Zoned timestamps end to end: the dtype, Arrow in and out, replaceTimeZone / convertTimeZone,
// calendar fields and formatting in local time (against JS's Intl on random instants), local
// truncation and calendar offsets across DST changes, zoned parsing, the zone kept through the
// verbs eager and lazy, printing, and the errors.
import { describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Table, Timestamp, TimeUnit, makeData, makeVector } from "apache-arrow";

import { col, concat, DataFrame, fromArrow, len, lit, parquetMetadata, readCSV, readIPC, readParquet, scanParquet, Series, type DType } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { uniform } from "./support/random.js";

const BERLIN = "Europe/Berlin";
const utc = (text: string): number => Date.parse(`${text}Z`);

/** A frame of one naive timestamp[ms] column "t" holding these UTC instants (ms). */
const instants = (ms: readonly (number | null)[]): DataFrame =>
  new DataFrame({ t: new Series("t", ms.map((m) => (m === null ? null : new Date(m))), "timestamp[ms]") });

/** The same frame with "t" zoned (values unchanged: UTC instants). */
const zoned = (ms: readonly (number | null)[], zone: string): DataFrame =>
  instants(ms).withColumns(col("t").dt.replaceTimeZone("UTC").dt.convertTimeZone(zone));

const times = (df: DataFrame, name = "t"): (number | null)[] =>
  df.getColumn(name).toArray().map((d) => (d === null ? null : (d as Date).getTime()));

/** Local calendar fields of an instant in a zone, by Intl. */
function intlFields(ms: number, zone: string): Record<string, number> {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric",
    hour: "numeric", minute: "numeric", second: "numeric", weekday: "short",
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return {
    year: Number(p["year"]), month: Number(p["month"]), day: Number(p["day"]), hour: Number(p["hour"]),
    minute: Number(p["minute"]), second: Number(p["second"]),
    weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(p["weekday"] as string) + 1,
  };
}

describe("the zoned dtype", () => {
  it("comes from Arrow and goes back with the zone", () => {
    const values = BigInt64Array.from([utc("2024-03-31T00:30:00"), utc("2024-07-01T12:00:00")].map((m) => BigInt(m) * 1000n));
    const type = new Timestamp(TimeUnit.MICROSECOND, BERLIN);
    const table = new Table({ t: makeVector(makeData({ type, length: 2, nullCount: 0, data: values })) });
    const df = fromArrow(table);
    expect(df.dtypes).toEqual(["timestamp[us, tz=Europe/Berlin]"]);
    const back = df.toArrow();
    const t = back.schema.fields[0]?.type as Timestamp;
    expect(t.timezone).toBe(BERLIN);
    expect(t.unit).toBe(TimeUnit.MICROSECOND);
    expect(times(df)).toEqual([utc("2024-03-31T00:30:00"), utc("2024-07-01T12:00:00")]);
  });

  it("reads fixed-offset Arrow zones as Etc/GMT zones and refuses part-hour ones", () => {
    const make = (tz: string) =>
      new Table({ t: makeVector(makeData({ type: new Timestamp(TimeUnit.SECOND, tz), length: 1, nullCount: 0, data: BigInt64Array.of(0n) })) });
    expect(fromArrow(make("+02:00")).dtypes).toEqual(["timestamp[s, tz=Etc/GMT-2]"]);
    expect(fromArrow(make("-05:00")).dtypes).toEqual(["timestamp[s, tz=Etc/GMT+5]"]);
    expect(fromArrow(make("+00:00")).dtypes).toEqual(["timestamp[s, tz=UTC]"]);
    expectCode(() => fromArrow(make("+05:30")), "ERR_DTYPE");
  });

  it("prints local times with their offsets", () => {
    const df = zoned([utc("2024-03-31T00:30:00"), utc("2024-03-31T01:30:00"), null], BERLIN);
    const text = df.toString();
    expect(text).toContain("timestamp[ms, tz=Europe/Berlin]");
    expect(text).toContain("2024-03-31 01:30:00+01:00");
    expect(text).toContain("2024-03-31 03:30:00+02:00");
    expect(df.getColumn("t").toString()).toContain("2024-03-31 03:30:00+02:00");
  });

  it("casts to a zoned dtype and parses zoned dtypes", () => {
    const df = instants([utc("2024-01-01T00:00:00")]).select(col("t").cast("timestamp[ms, tz=Asia/Tokyo]"));
    expect(df.dtypes).toEqual(["timestamp[ms, tz=Asia/Tokyo]"]);
    expect(df.select(col("t").dt.hour()).getColumn("t").toArray()).toEqual([9]);
    expectCode(() => col("t").cast("timestamp[ms, tz=Mars/Base]" as DType), "ERR_TIME_ZONE");
  });
});

describe("zoned Series", () => {
  it("are built with a zoned dtype, keep it through Series methods, and print local time", () => {
    const s = new Series("t", [new Date(utc("2024-03-31T00:30:00")), null, new Date(utc("2024-03-31T01:30:00"))], "timestamp[ms, tz=Europe/Berlin]");
    expect(s.dtype).toBe("timestamp[ms, tz=Europe/Berlin]");
    expect(s.dt.hour().toArray()).toEqual([1, null, 3]);
    expect(s.sort().dtype).toBe("timestamp[ms, tz=Europe/Berlin]");
    expect(s.shift(1).dtype).toBe("timestamp[ms, tz=Europe/Berlin]");
    expect(s.dt.replaceTimeZone(null).dtype).toBe("timestamp[ms]");
    expect(new Series("u", s).dtype).toBe("timestamp[ms, tz=Europe/Berlin]");
    expect(s.toString()).toContain("2024-03-31 03:30:00+02:00");
  });

  it("are refused as a reader's dtype", async () => {
    await expect(readCSV(Buffer.from("t\n2024-01-01 00:00\n"), { dtypes: { t: "timestamp[ms, tz=Europe/Berlin]" } })).rejects.toMatchObject({
      code: "ERR_INVALID_ARGUMENT",
    });
  });
});

describe("replaceTimeZone", () => {
  const local = (texts: string[]) => instants(texts.map(utc));

  it("reads naive values as local times of the zone", () => {
    const df = local(["2024-03-31T01:30:00", "2024-07-01T12:00:00", "2024-12-24T23:59:59"]).select(col("t").dt.replaceTimeZone(BERLIN));
    expect(df.dtypes).toEqual(["timestamp[ms, tz=Europe/Berlin]"]);
    expect(times(df)).toEqual([utc("2024-03-31T00:30:00"), utc("2024-07-01T10:00:00"), utc("2024-12-24T22:59:59")]);
  });

  it("raises, nulls or shifts a local time the zone skips", () => {
    const gap = local(["2024-03-31T02:30:00", "2024-03-31T03:30:00"]);
    expectCode(() => gap.select(col("t").dt.replaceTimeZone(BERLIN)), "ERR_TIME_ZONE");
    expect(times(gap.select(col("t").dt.replaceTimeZone(BERLIN, { nonExistent: "null" })))).toEqual([null, utc("2024-03-31T01:30:00")]);
    expect(times(gap.select(col("t").dt.replaceTimeZone(BERLIN, { nonExistent: "shiftForward" })))).toEqual([
      utc("2024-03-31T01:00:00"),
      utc("2024-03-31T01:30:00"),
    ]);
    expect(times(gap.select(col("t").dt.replaceTimeZone(BERLIN, { nonExistent: "shiftBackward" })))).toEqual([
      utc("2024-03-31T01:00:00") - 1,
      utc("2024-03-31T01:30:00"),
    ]);
  });

  it("raises or picks one of a local time the zone repeats", () => {
    const fold = local(["2024-10-27T02:30:00"]);
    expectCode(() => fold.select(col("t").dt.replaceTimeZone(BERLIN)), "ERR_TIME_ZONE");
    expect(times(fold.select(col("t").dt.replaceTimeZone(BERLIN, { ambiguous: "earliest" })))).toEqual([utc("2024-10-27T00:30:00")]);
    expect(times(fold.select(col("t").dt.replaceTimeZone(BERLIN, { ambiguous: "latest" })))).toEqual([utc("2024-10-27T01:30:00")]);
    expect(times(fold.select(col("t").dt.replaceTimeZone(BERLIN, { ambiguous: "null" })))).toEqual([null]);
  });

  it("keeps the local time when moving between zones, and drops the zone with null", () => {
    const df = zoned([utc("2024-07-01T10:00:00")], BERLIN);
    const ny = df.select(col("t").dt.replaceTimeZone("America/New_York"));
    expect(ny.dtypes).toEqual(["timestamp[ms, tz=America/New_York]"]);
    expect(times(ny)).toEqual([utc("2024-07-01T16:00:00")]);
    const naive = df.select(col("t").dt.replaceTimeZone(null));
    expect(naive.dtypes).toEqual(["timestamp[ms]"]);
    expect(times(naive)).toEqual([utc("2024-07-01T12:00:00")]);
  });

  it("rejects unknown zones and bad options", () => {
    expectCode(() => col("t").dt.replaceTimeZone("Mars/Base"), "ERR_TIME_ZONE");
    expectCode(() => col("t").dt.replaceTimeZone("../../etc/passwd"), "ERR_TIME_ZONE");
    expectCode(() => col("t").dt.replaceTimeZone(BERLIN, { ambiguous: "first" as "earliest" }), "ERR_INVALID_ARGUMENT");
  });
});

describe("convertTimeZone", () => {
  it("changes the zone and not the instants", () => {
    const df = zoned([utc("2024-01-15T12:00:00")], BERLIN).select(col("t").dt.convertTimeZone("Asia/Kolkata"));
    expect(df.dtypes).toEqual(["timestamp[ms, tz=Asia/Kolkata]"]);
    expect(times(df)).toEqual([utc("2024-01-15T12:00:00")]);
    expect(df.select(col("t").dt.hour(), col("t").dt.minute().alias("m")).toRecords()).toEqual([{ t: 17, m: 30 }]);
  });

  it("needs a zoned timestamp and a known zone", () => {
    expectCode(() => instants([0]).select(col("t").dt.convertTimeZone(BERLIN)), "ERR_DTYPE");
    expectCode(() => col("t").dt.convertTimeZone("Nowhere/Land"), "ERR_TIME_ZONE");
    expectCode(() => new DataFrame({ a: [1] }).select(col("a").dt.convertTimeZone("UTC")), "ERR_DTYPE");
  });
});

describe("local fields", () => {
  const ZONES = [BERLIN, "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo", "UTC", "Etc/GMT+5"];
  const rand = uniform(20261207);
  // Random instants 1975..2035, plus the minutes around this year's changes in Berlin and New York.
  const ms = [
    ...Array.from({ length: 400 }, () => Math.floor(157766400000 + rand() * 1.9e12)),
    ...[-1, 0, 1, 3599, 3600].map((s) => utc("2024-03-31T01:00:00") + s * 1000),
    ...[-1, 0, 1, 3599, 3600].map((s) => utc("2024-11-03T06:00:00") + s * 1000),
  ];
  for (const zone of ZONES) {
    it(`year .. weekday equal Intl's in ${zone}`, () => {
      const out = zoned(ms, zone).select(
        col("t").dt.year().alias("year"),
        col("t").dt.month().alias("month"),
        col("t").dt.day().alias("day"),
        col("t").dt.hour().alias("hour"),
        col("t").dt.minute().alias("minute"),
        col("t").dt.second().alias("second"),
        col("t").dt.weekday().alias("weekday"),
      );
      expect(out.toRecords()).toEqual(ms.map((m) => intlFields(m, zone)));
    });
  }

  it("formats, casts to date32 and to text in local time", () => {
    const df = zoned([utc("2024-06-30T22:30:00")], BERLIN);
    const out = df.select(
      col("t").dt.toString("%Y-%m-%d %H:%M").alias("s"),
      col("t").cast("date32").alias("d"),
      col("t").dt.ordinalDay().alias("o"),
    );
    expect(out.getColumn("s").toArray()).toEqual(["2024-07-01 00:30"]);
    expect((out.getColumn("d").toArray()[0] as Date).toISOString()).toBe("2024-07-01T00:00:00.000Z");
    expect(out.getColumn("o").toArray()).toEqual([183]);
  });

  it("writes each row's offset for %z and %:z", () => {
    const df = zoned([utc("2024-01-15T12:00:00"), utc("2024-07-15T12:00:00"), null], BERLIN);
    const out = df.select(
      col("t").dt.toString("%Y-%m-%dT%H:%M:%S%z").alias("a"),
      col("t").dt.toString("%H:%M %:z (100%%)").alias("b"),
      col("t").dt.convertTimeZone("America/St_Johns").dt.strftime("%:z").alias("c"),
    );
    expect(out.toRecords()).toEqual([
      { a: "2024-01-15T13:00:00+0100", b: "13:00 +01:00 (100%)", c: "-03:30" },
      { a: "2024-07-15T14:00:00+0200", b: "14:00 +02:00 (100%)", c: "-02:30" },
      { a: null, b: null, c: null },
    ]);
    expectCode(() => df.select(col("t").dt.toString("%H %Z")), "ERR_INVALID_ARGUMENT");
  });

  it("leaves the epoch and differences on the instants", () => {
    const df = zoned([utc("2024-03-31T00:00:00"), utc("2024-04-01T00:00:00")], BERLIN);
    expect(df.select(col("t").dt.epoch("s")).getColumn("t").toArray()).toEqual([
      BigInt(utc("2024-03-31T00:00:00") / 1000),
      BigInt(utc("2024-04-01T00:00:00") / 1000),
    ]);
    const d = df.select(col("t").sub(col("t").shift(1)).dt.totalHours().alias("h"));
    expect(d.getColumn("h").toArray()).toEqual([null, 24n]);
  });
});

describe("calendar arithmetic in local time", () => {
  // Berlin, 2024-03-30 12:00 CET; the next day has 23 hours.
  const noon = zoned([utc("2024-03-30T11:00:00")], BERLIN);

  it("offsetBy a day keeps the local time; by 24 hours keeps the length", () => {
    const out = noon.select(col("t").dt.offsetBy("1d").alias("d"), col("t").dt.offsetBy("24h").alias("h"), col("t").dt.offsetBy("1d2h").alias("dh"));
    expect(out.dtypes).toEqual(Array(3).fill("timestamp[ms, tz=Europe/Berlin]"));
    expect(times(out, "d")).toEqual([utc("2024-03-31T10:00:00")]);
    expect(times(out, "h")).toEqual([utc("2024-03-31T11:00:00")]);
    expect(times(out, "dh")).toEqual([utc("2024-03-31T12:00:00")]);
    expect(times(noon.select(col("t").dt.offsetBy("1mo")))).toEqual([utc("2024-04-30T10:00:00")]);
  });

  it("truncates to local days, months and hours", () => {
    const df = zoned([utc("2024-03-31T22:30:00"), utc("2024-01-10T05:45:00")], "Asia/Kolkata");
    const out = df.select(col("t").dt.truncate("1d").alias("d"), col("t").dt.truncate("1h").alias("h"), col("t").dt.truncate("1mo").alias("m"));
    // Kolkata is UTC+5:30: 2024-03-31T22:30Z is 04:00 on 2024-04-01 there.
    expect(times(out, "d")).toEqual([utc("2024-03-31T18:30:00"), utc("2024-01-09T18:30:00")]);
    expect(times(out, "h")).toEqual([utc("2024-03-31T22:30:00"), utc("2024-01-10T05:30:00")]);
    expect(times(out, "m")).toEqual([utc("2024-03-31T18:30:00"), utc("2023-12-31T18:30:00")]);
  });

  it("monthStart and monthEnd keep the local time of day", () => {
    const out = noon.select(col("t").dt.monthStart().alias("s"), col("t").dt.monthEnd().alias("e"));
    expect(times(out, "s")).toEqual([utc("2024-03-01T11:00:00")]);
    expect(times(out, "e")).toEqual([utc("2024-03-31T10:00:00")]);
  });
});

describe("zoned parsing", () => {
  const text = new DataFrame({ s: ["2024-03-31 01:30", "2024-10-27 03:00", null] });

  it("reads text without an offset as local time of the zone", () => {
    const df = text.select(col("s").str.toDatetime("%Y-%m-%d %H:%M", { timeZone: BERLIN, unit: "ms" }));
    expect(df.dtypes).toEqual(["timestamp[ms, tz=Europe/Berlin]"]);
    expect(times(df, "s")).toEqual([utc("2024-03-31T00:30:00"), utc("2024-10-27T02:00:00"), null]);
    expectCode(() => new DataFrame({ s: ["2024-03-31 02:30"] }).select(col("s").str.toDatetime("%Y-%m-%d %H:%M", { timeZone: BERLIN })), "ERR_TIME_ZONE");
  });

  it("converts text with an offset", () => {
    const df = new DataFrame({ s: ["2024-07-01 12:00+0000"] }).select(col("s").str.strptime("timestamp[ms, tz=America/New_York]", "%Y-%m-%d %H:%M%z"));
    expect(times(df, "s")).toEqual([utc("2024-07-01T12:00:00")]);
    expect(df.select(col("s").dt.hour()).getColumn("s").toArray()).toEqual([8]);
  });
});

describe("the zone through the verbs", () => {
  const df = zoned([utc("2024-01-01T00:00:00"), utc("2024-06-01T00:00:00"), utc("2024-03-01T00:00:00"), null], BERLIN).withColumns(
    lit(1).alias("k"),
    col("t").dt.month().alias("m"),
  );
  const ZONED = "timestamp[ms, tz=Europe/Berlin]";

  it("keeps it eagerly", () => {
    expect(df.filter(col("m").gt(1)).dtypes[0]).toBe(ZONED);
    expect(df.sort("t").dtypes[0]).toBe(ZONED);
    expect(df.head(2).dtypes[0]).toBe(ZONED);
    expect(df.slice(1, 2).dtypes[0]).toBe(ZONED);
    expect(df.take([0, 2]).dtypes[0]).toBe(ZONED);
    expect(df.unique().dtypes[0]).toBe(ZONED);
    expect(df.select("t").dtypes).toEqual([ZONED]);
    expect(df.getColumn("t").dtype).toBe(ZONED);
    expect(concat([df, df]).dtypes[0]).toBe(ZONED);
    const g = df.groupBy("k").agg(col("t").max().alias("latest"), col("t").max().dt.hour().alias("h"));
    expect(g.dtypes).toEqual(["int32", ZONED, "int8"]);
    expect(times(g, "latest")).toEqual([utc("2024-06-01T00:00:00")]);
    expect(g.getColumn("h").toArray()).toEqual([2]);
    const other = new DataFrame({ k: [1], x: [5] });
    const j = df.join(other, { on: "k" });
    expect(j.dtypes[0]).toBe(ZONED);
    const j2 = other.join(df.rename({ t: "x" }), { on: "k" });
    // other's k and x are float64 (JS numbers); df's x comes out as x_right.
    expect(j2.columns).toEqual(["k", "x", "x_right", "m"]);
    expect(j2.dtypes).toEqual(["float64", "float64", ZONED, "int8"]);
    expect(df.select(col("t").max()).dtypes).toEqual([ZONED]);
    expect(df.select(col("t").max().dt.hour()).getColumn("t").toArray()).toEqual([2]);
  });

  it("keeps it lazily, with the eager results", () => {
    const q = df
      .lazy()
      .filter(col("t").dt.hour().eq(1))
      .withColumns(col("t").dt.convertTimeZone("Asia/Tokyo").alias("tokyo"), col("t").dt.day().alias("d"))
      .sort("t");
    expect(q.schema).toEqual({ t: ZONED, k: "int32", m: "int8", tokyo: "timestamp[ms, tz=Asia/Tokyo]", d: "int8" });
    const out = q.collectSync();
    expect(out.dtypes).toEqual([ZONED, "int32", "int8", "timestamp[ms, tz=Asia/Tokyo]", "int8"]);
    expect(out.toRecords()).toEqual(
      df
        .filter(col("t").dt.hour().eq(1))
        .withColumns(col("t").dt.convertTimeZone("Asia/Tokyo").alias("tokyo"), col("t").dt.day().alias("d"))
        .sort("t")
        .toRecords(),
    );
    expect(out.select(col("tokyo").dt.hour()).getColumn("tokyo").toArray()).toEqual([9, 9]);
    const g = df.lazy().groupBy("k").agg(col("t").min().dt.hour().alias("h"), col("t").min().alias("first")).collectSync();
    expect(g.dtypes).toEqual(["int32", "int8", ZONED]);
    expect(g.getColumn("h").toArray()).toEqual([1]);
  });

  it("lays groupByDynamic windows out in local time and keeps the zone", () => {
    // Berlin local times 2024-03-31 00:30 CET, 2024-03-31 23:30 CEST, 2024-04-01 00:30 CEST.
    const t = zoned([utc("2024-03-30T23:30:00"), utc("2024-03-31T21:30:00"), utc("2024-03-31T22:30:00")], BERLIN).withColumns(lit(1).alias("n"));
    const g = t.groupByDynamic("t", { every: "1d", includeBoundaries: true }).agg(col("n").sum(), col("t").max().dt.hour().alias("h"), col("t").min().alias("first"));
    expect(g.columns).toEqual(["_lower_boundary", "_upper_boundary", "t", "n", "h", "first"]);
    expect(g.dtypes).toEqual([ZONED, ZONED, ZONED, "int64", "int8", ZONED]);
    // The local days start at 2024-03-31 00:00 CET (23:00Z the day before) and 2024-04-01 00:00 CEST (22:00Z).
    expect(times(g, "_lower_boundary")).toEqual([utc("2024-03-30T23:00:00"), utc("2024-03-31T22:00:00")]);
    expect(times(g, "_upper_boundary")).toEqual([utc("2024-03-31T22:00:00"), utc("2024-04-01T22:00:00")]);
    expect(times(g)).toEqual(times(g, "_lower_boundary"));
    expect(g.getColumn("n").toArray()).toEqual([2n, 1n]);
    expect(g.getColumn("h").toArray()).toEqual([23, 0]);
    expect(times(g, "first")).toEqual([utc("2024-03-30T23:30:00"), utc("2024-03-31T22:30:00")]);
    const lazy = t.lazy().groupByDynamic("t", { every: "1d", includeBoundaries: true }).agg(col("n").sum(), col("t").max().dt.hour().alias("h"), col("t").min().alias("first")).collectSync();
    expect(lazy.dtypes).toEqual(g.dtypes);
    expect(lazy.toRecords()).toEqual(g.toRecords());
    // With group keys (the rows reordered by key) and the datapoint label: the first instant of each window.
    const keyed = t.withColumns(col("n").cumSum().mod(2).alias("g")).sort("g", { descending: true });
    const gk = keyed.groupByDynamic("t", { every: "1d", groupBy: "g", label: "datapoint" }).agg(len());
    expect(gk.dtypes[1]).toBe(ZONED);
    expect(gk.toRecords().map((r) => [r["g"], (r["t"] as Date).getTime(), r["len"]])).toEqual([
      [0, utc("2024-03-31T21:30:00"), 1n],
      [1, utc("2024-03-30T23:30:00"), 1n],
      [1, utc("2024-03-31T22:30:00"), 1n],
    ]);
    // rolling: the last day (local) before each point.
    const r = t.rolling("t", { period: "1d" }).agg(col("n").sum().alias("s"));
    expect(r.dtypes[0]).toBe(ZONED);
    expect(times(r)).toEqual(times(t));
    expect(r.getColumn("s").toArray()).toEqual([1n, 2n, 2n]);
  });

  it("refuses to concatenate different zones", () => {
    const tokyo = df.withColumns(col("t").dt.convertTimeZone("Asia/Tokyo"));
    expect(() => concat([df, tokyo])).toThrow();
  });
});

describe("the zone in files", () => {
  const dir = mkdtempSync(join(tmpdir(), "gpudf-tz-"));
  const df = zoned([utc("2024-03-31T00:30:00"), null, utc("2024-10-27T00:30:00")], "America/Sao_Paulo").withColumns(lit(2).alias("n"));

  it("keeps it through Parquet (the footer's Arrow schema), eagerly and in a scan", async () => {
    const path = join(dir, "z.parquet");
    await df.writeParquet(path);
    expect(parquetMetadata(path).schema.map((c) => c.dtype)).toEqual(["timestamp[ms, tz=America/Sao_Paulo]", "int32"]);
    const back = await readParquet(path);
    expect(back.dtypes).toEqual(df.dtypes);
    expect(times(back)).toEqual(times(df));
    const scanned = await scanParquet(path).select(col("t"), col("t").dt.hour().alias("h")).collect();
    expect(scanned.dtypes).toEqual(["timestamp[ms, tz=America/Sao_Paulo]", "int8"]);
    expect(scanned.getColumn("h").toArray()).toEqual([21, null, 21]);
  });

  it("keeps it through Arrow IPC", async () => {
    const path = join(dir, "z.arrow");
    await df.writeIPC(path);
    const back = await readIPC(path);
    expect(back.dtypes).toEqual(df.dtypes);
    expect(times(back)).toEqual(times(df));
  });
});
