// Text <-> dates and timestamps (str.strptime / toDate / toDatetime, dt.toString / strftime)
// against references that do not call gpudf: JS Date's UTC getters build the texts and the
// expected values, and DuckDB's strftime / strptime run side by side on the same values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuckDBConnection } from "@duckdb/node-api";
import { col, DataFrame, type DType } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { duckdbAddTable, duckdbConnection, duckdbRows } from "./support/duckdb.js";
import { uniform } from "./support/random.js";

const pad = (v: number, w = 2) => String(v).padStart(w, "0");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];


/** Random instants in microseconds since the epoch, 1900..2100. */
function randomMicros(n: number, seed: number): bigint[] {
  const r = uniform(seed);
  const lo = Date.UTC(1900, 0, 1), hi = Date.UTC(2100, 0, 1);
  return Array.from({ length: n }, () => BigInt(Math.floor(lo + r() * (hi - lo))) * 1000n + BigInt(Math.floor(r() * 1000)));
}

const iso = (d: Date) =>
  `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

function values(df: DataFrame, name = "out"): unknown[] {
  return df.getColumn(name).toArray() as unknown[];
}

function one(df: DataFrame, e: ReturnType<typeof col>): { dtype: DType; values: unknown[] } {
  const out = df.select(e.alias("out"));
  return { dtype: out.getColumn("out").dtype, values: values(out) };
}

/** The timestamps of `micros` as a timestamp[us] column of a frame. */
function timestamps(micros: readonly (bigint | null)[]): DataFrame {
  return new DataFrame({ us: micros as bigint[] }).select(col("us").cast("timestamp[us]").alias("ts"), col("us"));
}

describe("str.strptime / toDate / toDatetime", () => {
  it("parses dates by explicit formats (exact values, nulls, every row)", () => {
    const r = uniform(7);
    const days: number[] = Array.from({ length: 5000 }, () => Math.floor((r() - 0.5) * 200_000));
    const dates = days.map((d) => new Date(d * 86_400_000));
    const forms: [string, (d: Date) => string][] = [
      ["%Y-%m-%d", (d) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`],
      ["%d/%m/%Y", (d) => `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCFullYear(), 4)}`],
      ["%Y%m%d", (d) => `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`],
      ["%b %e, %Y", (d) => `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, " ")}, ${pad(d.getUTCFullYear(), 4)}`],
      ["%a %d %B %Y", (d) => `${DAYS[d.getUTCDay()]} ${pad(d.getUTCDate())} ${d.toLocaleString("en", { month: "long", timeZone: "UTC" })} ${pad(d.getUTCFullYear(), 4)}`],
      ["%Y-%j", (d) => `${pad(d.getUTCFullYear(), 4)}-${pad(Math.round((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3)}`],
    ];
    const inRange = dates.map((d) => d.getUTCFullYear() >= 0 && d.getUTCFullYear() <= 9999);
    for (const [fmt, text] of forms) {
      const s = dates.map((d, i) => (i % 17 === 3 || !inRange[i] ? null : text(d)));
      const got = one(new DataFrame({ s }), col("s").str.toDate(fmt));
      expect(got.dtype).toBe("date32");
      const want = dates.map((d, i) => (s[i] === null ? null : d.getTime()));
      expect(got.values.map((v) => (v === null ? null : (v as Date).getTime()))).toEqual(want);
    }
  });

  it("parses timestamps in every unit, fractions truncated to the unit", () => {
    const micros = randomMicros(3000, 11);
    const text = micros.map((u) => {
      const frac = ((u % 1_000_000n) + 1_000_000n) % 1_000_000n;
      const d = new Date(Number((u - frac) / 1000n));
      return `${iso(d)}.${String(frac).padStart(6, "0")}`;
    });
    const df = new DataFrame({ s: text });
    for (const [unit, per] of [["s", 1_000_000n], ["ms", 1000n], ["us", 1n]] as const) {
      const got = df.select(col("s").str.toDatetime("%Y-%m-%d %H:%M:%S%.f", { unit }).cast("int64").alias("out"));
      const floorDiv = (a: bigint, b: bigint) => (a >= 0n || a % b === 0n ? a / b : a / b - 1n);
      expect(values(got)).toEqual(micros.map((u) => floorDiv(u, per)));
    }
    const ns = df.select(col("s").str.strptime("timestamp[ns]", "%Y-%m-%d %H:%M:%S%.6f").cast("int64").alias("out"));
    expect(values(ns)).toEqual(micros.map((u) => u * 1000n));
  });

  it("applies offsets (%z), 12-hour clocks, epochs and whitespace rules", () => {
    const df = new DataFrame({
      s: ["2024-03-05T14:30:00+02:00", "2024-03-05T14:30:00-0130", "2024-03-05T14:30:00Z", "2024-03-05T14:30:00+05"],
    });
    const got = values(df.select(col("s").str.toDatetime("%Y-%m-%dT%H:%M:%S%z", { unit: "s" }).cast("int64").alias("out")));
    const base = BigInt(Date.UTC(2024, 2, 5, 14, 30) / 1000);
    expect(got).toEqual([base - 7200n, base + 5400n, base, base - 18000n]);

    const clock = new DataFrame({ s: ["12:05 AM 01/02/2020", "12:05 pm 01/02/2020", "1:00 PM 01/02/2020", "13:00 PM 01/02/2020"] });
    const c = values(clock.select(col("s").str.toDatetime("%I:%M %p %d/%m/%Y", { unit: "s", strict: false }).cast("int64").alias("out")));
    const day = BigInt(Date.UTC(2020, 1, 1) / 1000);
    expect(c).toEqual([day + 300n, day + 12n * 3600n + 300n, day + 13n * 3600n, null]);

    const epoch = new DataFrame({ s: ["0", "1700000000", "-86400"] });
    expect(values(epoch.select(col("s").str.toDatetime("%s", { unit: "ms" }).cast("int64").alias("out")))).toEqual([
      0n, 1_700_000_000_000n, -86_400_000n,
    ]);
    // A space in the format matches any run of whitespace, none included; numbers may lead with spaces.
    const ws = new DataFrame({ s: ["2024-01-02  10:00", "2024-01-0210:00", "2024-01-02\t10:00"] });
    expect(values(ws.select(col("s").str.toDatetime("%Y-%m-%d %H:%M", { unit: "s" }).cast("int64").alias("out")))).toEqual(
      Array(3).fill(BigInt(Date.UTC(2024, 0, 2, 10) / 1000)),
    );
  });

  it("rejects what does not match: whole-string, ranges, leap days", () => {
    const s = ["2024-02-29", "2023-02-29", "2024-13-01", "2024-04-31", "2024-01-01x", "24-1-1", "", " 2024-01-01", null];
    const got = one(new DataFrame({ s }), col("s").str.toDate("%Y-%m-%d", { strict: false }));
    const ms = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
    expect(got.values.map((v) => (v === null ? null : (v as Date).getTime()))).toEqual([
      ms(2024, 2, 29), null, null, null, null, new Date(0).setUTCFullYear(24, 0, 1), null, ms(2024, 1, 1), null,
    ]);
  });

  it("is strict by default: ERR_CAST naming the first bad row and its text", () => {
    const df = new DataFrame({ s: ["2024-01-01", null, "2024-01-02", "2024-1x-03", "nope"] });
    let message = "";
    try {
      df.select(col("s").str.toDate("%Y-%m-%d"));
    } catch (e) {
      expect((e as { code: string }).code).toBe("ERR_CAST");
      message = (e as Error).message;
    }
    expect(message).toContain("row 3");
    expect(message).toContain("2024-1x-03");
    // The frame is intact afterwards.
    expect(values(df, "s")).toEqual(["2024-01-01", null, "2024-01-02", "2024-1x-03", "nope"]);
  });

  it("infers the format from the first non-null value", () => {
    const cases: [string[], DType, number[]][] = [
      [["2024-03-05", "1999-12-31"], "date32", [Date.UTC(2024, 2, 5), Date.UTC(1999, 11, 31)]],
      [["05/03/2024", "31/12/1999"], "date32", [Date.UTC(2024, 2, 5), Date.UTC(1999, 11, 31)]],
      [["20240305"], "date32", [Date.UTC(2024, 2, 5)]],
      [["2024-03-05T14:30:15.250", "2024-03-05T14:30:15"], "timestamp[ms]", [Date.UTC(2024, 2, 5, 14, 30, 15, 250), Date.UTC(2024, 2, 5, 14, 30, 15)]],
      [["2024-03-05 14:30:15+01:00"], "timestamp[ms]", [Date.UTC(2024, 2, 5, 13, 30, 15)]],
      [["2024-03-05 14:30"], "timestamp[ms]", [Date.UTC(2024, 2, 5, 14, 30)]],
      [["2024-03-05"], "timestamp[ms]", [Date.UTC(2024, 2, 5)]],
    ];
    for (const [s, dtype, want] of cases) {
      const got = one(new DataFrame({ s: [null, ...s] }), col("s").str.strptime(dtype));
      expect(got.dtype).toBe(dtype);
      expect(got.values.map((v) => (v === null ? null : (v as Date).getTime()))).toEqual([null, ...want]);
    }
    expectCode(() => new DataFrame({ s: ["5 o'clock"] }).select(col("s").str.toDate()), "ERR_CAST");
  });

  it("gives typed errors for bad formats, dtypes and options", () => {
    const df = new DataFrame({ s: ["2024-01-01"], n: [1] });
    expectCode(() => df.select(col("s").str.toDate("%Y-%Q")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("s").str.toDate("%Y-%m-%")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("s").str.toDate("%Z")), "ERR_INVALID_ARGUMENT");
    expectCode(() => df.select(col("n").str.toDate("%Y")), "ERR_DTYPE");
    expectCode(() => df.select(col("s").str.strptime("int32", "%Y")), "ERR_DTYPE");
    expectCode(() => df.select(col("s").str.toDatetime(undefined, { timeZone: "Europe/Nowhere" })), "ERR_TIME_ZONE");
    expectCode(() => df.select(col("s").dt.toString("%Y")), "ERR_DTYPE");
    expect(() => df.select(col("s").str.toDate("%Y-%m-%d"))).not.toThrow();
  });
});

describe("dt.toString / strftime", () => {
  let conn: DuckDBConnection;
  const micros = randomMicros(4000, 5);
  beforeAll(async () => {
    conn = await duckdbConnection();
    await duckdbAddTable(conn, "t", { us: micros, d: micros.map((u) => Number(u / 86_400_000_000n) - (u < 0n && u % 86_400_000_000n !== 0n ? 1 : 0)) }, { us: "int64", d: "int32" });
  });
  afterAll(() => conn?.closeSync());

  it("matches DuckDB's strftime on timestamps and dates", async () => {
    const df = timestamps(micros);
    const formats = ["%Y-%m-%d %H:%M:%S", "%a %b %d %y %I:%M:%S %p", "%A %B %j %w %u", "%Y%m%dT%H%M%S.%f", "%y/%m/%d %% %H"];
    for (const fmt of formats) {
      const got = values(df.select(col("ts").dt.strftime(fmt).alias("out")));
      const rows = await duckdbRows(conn, `SELECT strftime(make_timestamp(us), '${fmt}') AS s FROM t ORDER BY rowid`);
      // DuckDB's %f is microseconds (6 digits), ours nanoseconds (9, as chrono): compare after mapping.
      const want = rows.map((r) => (fmt.includes("%f") ? (r.s as string) + "000" : r.s));
      expect(got).toEqual(want);
    }
    const dates = new DataFrame({ d: Int32Array.from(micros, (u) => Number(u / 86_400_000_000n) - (u < 0n && u % 86_400_000_000n !== 0n ? 1 : 0)) })
      .select(col("d").cast("date32").alias("d"));
    const got = values(dates.select(col("d").dt.toString("%d.%m.%Y (%a)").alias("out")));
    const rows = await duckdbRows(conn, `SELECT strftime(DATE '1970-01-01' + d, '%d.%m.%Y (%a)') AS s FROM t ORDER BY rowid`);
    expect(got).toEqual(rows.map((r) => r.s));
  });

  it("matches DuckDB's strptime on the texts it formats", async () => {
    const fmt = "%d/%m/%Y %H:%M:%S";
    const rows = await duckdbRows(
      conn,
      `SELECT strftime(make_timestamp(us), '${fmt}') AS s, epoch_us(strptime(strftime(make_timestamp(us), '${fmt}'), '${fmt}')) AS back FROM t ORDER BY rowid`,
    );
    const df = new DataFrame({ s: rows.map((r) => r.s as string) });
    const got = values(df.select(col("s").str.toDatetime(fmt).cast("int64").alias("out")));
    expect(got).toEqual(rows.map((r) => BigInt(r.back as number | bigint)));
  });

  it("defaults to ISO 8601 at the unit's precision, and round-trips through strptime", () => {
    const df = timestamps([0n, 1_709_649_015_123_456n, -1n, null]);
    expect(values(df.select(col("ts").dt.toString().alias("out")))).toEqual([
      "1970-01-01 00:00:00.000000", "2024-03-05 14:30:15.123456", "1969-12-31 23:59:59.999999", null,
    ]);
    for (const unit of ["s", "ms", "ns"] as const) {
      const t = df.select(col("ts").cast(`timestamp[${unit}]`).alias("ts"));
      const text = t.select(col("ts").dt.toString().alias("s"));
      const back = text.select(col("s").str.toDatetime(undefined, { unit }).alias("ts"));
      expect(values(back, "ts")).toEqual(values(t, "ts"));
    }
    const micros = randomMicros(2000, 9);
    const fmt = "%Y-%m-%dT%H:%M:%S%.6f%z";
    const t = timestamps(micros);
    const back = t.select(col("ts").dt.toString(fmt).str.toDatetime(fmt).cast("int64").alias("out"));
    expect(values(back)).toEqual(micros);
  });

  it("formats %.f with as many digits as needed, %e space-padded, years past 9999 signed", () => {
    const df = timestamps([0n, 5_000n, 5_000_000n - 1n, 1n]);
    expect(values(df.select(col("ts").cast("timestamp[ns]").dt.toString("%S%.f|%e").alias("out")))).toEqual([
      "00| 1", "00.005| 1", "04.999999| 1", "00.000001| 1",
    ]);
    const far = new DataFrame({ d: Int32Array.from([3_000_000, -800_000]) }).select(col("d").cast("date32").dt.toString("%Y-%m-%d").alias("out"));
    const ymd = (days: number) => {
      const d = new Date(days * 86_400_000);
      const y = d.getUTCFullYear();
      const year = y > 9999 ? `+${y}` : y < 0 ? `-${pad(-y, 4)}` : pad(y, 4);
      return `${year}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    };
    expect(values(far)).toEqual([ymd(3_000_000), ymd(-800_000)]);
  });
});

describe("in the lazy engine", () => {
  it("parsing, formatting and calendar functions give the eager answers, through the optimizer", async () => {
    const df = new DataFrame({ s: [" 2024-01-31 ", "2024-02-10", null, "2023-12-24"], n: ["1.5", "x", "3", "-2e3"] });
    const exprs = [
      col("s").str.strip().str.toDate().dt.offsetBy("1mo").alias("next"),
      col("s").str.strip().str.toDate().dt.strftime("%d %b").alias("txt"),
      col("n").cast("float64").alias("f"),
    ];
    const eager = df.filter(col("s").str.strip().str.toDate().gt("2024-01-01")).select(...exprs);
    const lazy = await df.lazy().filter(col("s").str.strip().str.toDate().gt("2024-01-01")).select(...exprs).collect();
    expect(lazy.toRecords()).toEqual(eager.toRecords());
    expect(eager.height).toBe(2);
    expect(df.lazy().select(col("s").str.strptime("date32", "%Y").alias("d")).explain()).toContain('str.strptime("date32", "%Y")');
  });
});
