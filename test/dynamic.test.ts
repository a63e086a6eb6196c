// groupByDynamic and rolling: hand-computed windows for every closed/label/startBy option,
// offsets, overlapping and gapped periods, calendar windows (weeks, months across month ends and
// leap days, quarters, years), date, timestamp and integer indexes, groupBy, empty frames and the
// typed errors; then random sorted timestamps with nulls in the values against DuckDB (range
// joins of each row to its windows, and time_bucket), eager and lazy; and nodejs-polars where
// its (older) window rules agree (integer indexes; sub-day, daily and weekly windows no longer
// than every: it also opens windows before the first truncated start, and aligns months and
// multi-day durations differently).
import { createRequire } from "node:module";

import { describe, expect, it } from "vitest";

import { col, DataFrame, GpudfError, len, type ClosedWindow, type DType, type StartBy } from "../src/index.js";
import { duckdbRows, duckdbTable } from "./support/duckdb.js";
import { Rng } from "./support/random.js";

const H = 3_600_000;
const ms = (iso: string): number => Date.parse(iso);

/** The frame's columns as plain arrays, temporal columns as raw ticks (numbers). */
function raw(df: DataFrame): Record<string, unknown[]> {
  const s = df.schema;
  const casted = df.select(
    Object.keys(s).map((n) => (s[n] === "date32" ? col(n).cast("int32") : s[n]?.startsWith("timestamp") ? col(n).cast("int64") : col(n))),
  );
  const out: Record<string, unknown[]> = {};
  for (const n of Object.keys(s)) out[n] = casted.getColumn(n).toArray().map((v) => (typeof v === "bigint" ? Number(v) : v));
  return out;
}

function ints(t: number[], v: (number | null)[] = t.map((_, i) => i)): DataFrame {
  return new DataFrame({ t: BigInt64Array.from(t, BigInt), v });
}

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GpudfError);
    return (e as GpudfError).code;
  }
  return undefined;
}

function dates(iso: string[]): DataFrame {
  return new DataFrame({ s: iso }).select(col("s").str.toDate().alias("d"), col("s").str.toDatetime(undefined, { unit: "us" }).alias("t"));
}
const days = (iso: string): number => ms(iso) / 86_400_000;

describe("groupByDynamic", () => {
  const t = [0, 1, 2, 5, 9, 10].map((h) => new Date(Date.UTC(2024, 0, 1, h)));
  const df = new DataFrame({ t, v: [1, 2, null, 4, 5, 6] });

  it("windows of every 3h over timestamps, with boundaries", () => {
    const out = df.groupByDynamic("t", { every: "3h", includeBoundaries: true }).agg(col("v").sum(), col("v").count().alias("n"), len());
    expect(out.columns).toEqual(["_lower_boundary", "_upper_boundary", "t", "v", "n", "len"]);
    expect(out.dtypes.slice(0, 4)).toEqual(["timestamp[ms]", "timestamp[ms]", "timestamp[ms]", "float64"]);
    const base = ms("2024-01-01T00:00:00Z");
    expect(raw(out)).toEqual({
      _lower_boundary: [0, 3, 9].map((h) => base + h * H),
      _upper_boundary: [3, 6, 12].map((h) => base + h * H),
      t: [0, 3, 9].map((h) => base + h * H),
      v: [3, 4, 11],
      n: [2, 1, 2],
      len: [3, 1, 2],
    });
  });

  it("closed left, right, both and none over an integer index", () => {
    const f = ints([0, 1, 2, 3, 4, 5, 6]);
    const run = (closed: ClosedWindow) => raw(f.groupByDynamic("t", { every: "2i", closed }).agg(col("v").alias("rows").count().alias("n"), col("v").min().alias("lo")));
    expect(run("left")).toEqual({ t: [0, 2, 4, 6], n: [2, 2, 2, 1], lo: [0, 2, 4, 6] });
    // Right-closed: the first window is shifted back so that t = 0 falls in (-2, 0].
    expect(run("right")).toEqual({ t: [-2, 0, 2, 4], n: [1, 2, 2, 2], lo: [0, 1, 3, 5] });
    expect(run("both")).toEqual({ t: [0, 2, 4, 6], n: [3, 3, 3, 1], lo: [0, 2, 4, 6] });
    expect(run("none")).toEqual({ t: [0, 2, 4], n: [1, 1, 1], lo: [1, 3, 5] });
  });

  it("labels left, right and datapoint", () => {
    const f = ints([1, 2, 7]);
    const label = (l: "left" | "right" | "datapoint") => raw(f.groupByDynamic("t", { every: "5i", label: l }).len()).t;
    expect(label("left")).toEqual([0, 5]);
    expect(label("right")).toEqual([5, 10]);
    expect(label("datapoint")).toEqual([1, 7]);
  });

  it("overlapping and gapped periods, offsets, startBy datapoint", () => {
    const f = ints([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // every 3, period 5: [0,5) [3,8) [6,11) [9,14)
    expect(raw(f.groupByDynamic("t", { every: "3i", period: "5i" }).agg(col("v").sum()))).toEqual({ t: [0, 3, 6, 9], v: [10, 25, 30, 9] });
    // every 5, period 2: [0,2) [5,7): rows 2..4 and 7..9 are in no window
    expect(raw(f.groupByDynamic("t", { every: "5i", period: "2i" }).agg(col("v").sum()))).toEqual({ t: [0, 5], v: [1, 11] });
    // offset -1: [-1,2) [2,5) [5,8) [8,11)
    expect(raw(f.groupByDynamic("t", { every: "3i", offset: "-1i" }).agg(col("v").max()))).toEqual({ t: [-1, 2, 5, 8], v: [1, 4, 7, 9] });
    // offset +1 puts the first start after t = 0: shifted back by every to [-2,1)
    expect(raw(f.groupByDynamic("t", { every: "3i", offset: "1i" }).len())).toEqual({ t: [-2, 1, 4, 7], len: [1, 3, 3, 3] });
    const g = ints([3, 4, 8, 9]);
    expect(raw(g.groupByDynamic("t", { every: "5i", startBy: "datapoint" }).len())).toEqual({ t: [3, 8], len: [2, 2] });
    expect(raw(g.groupByDynamic("t", { every: "5i" }).len())).toEqual({ t: [0, 5], len: [2, 2] });
  });

  it("calendar windows: weeks from Monday, months across month ends and leap days, quarters, years", () => {
    const f = dates(["2023-02-28", "2024-01-03", "2024-01-31", "2024-02-01", "2024-02-29", "2024-03-01", "2024-03-31", "2024-12-31"]);
    const monthly = raw(f.groupByDynamic("d", { every: "1mo" }).len());
    expect(monthly.d).toEqual(["2023-02-01", "2024-01-01", "2024-02-01", "2024-03-01", "2024-12-01"].map(days));
    expect(monthly.len).toEqual([1, 2, 2, 2, 1]);
    // Timestamps: 2024-02-29 is in February's window, 2024-03-01 in March's.
    const ts = raw(f.groupByDynamic("t", { every: "1mo", period: "2mo", includeBoundaries: true }).len());
    expect(ts._upper_boundary?.slice(0, 3)).toEqual(["2023-04-01", "2024-02-01", "2024-03-01"].map((d) => ms(d) * 1000));
    expect(ts.len).toEqual([1, 2, 4, 4, 2, 1, 1]);
    expect(ts.t).toEqual(["2023-02-01", "2023-12-01", "2024-01-01", "2024-02-01", "2024-03-01", "2024-11-01", "2024-12-01"].map((d) => ms(d) * 1000));
    expect(raw(f.groupByDynamic("d", { every: "1q" }).len())).toEqual({ d: ["2023-01-01", "2024-01-01", "2024-10-01"].map(days), len: [1, 6, 1] });
    expect(raw(f.groupByDynamic("d", { every: "1y" }).len())).toEqual({ d: ["2023-01-01", "2024-01-01"].map(days), len: [1, 7] });
    // 2024-01-03 was a Wednesday: its week starts Monday 2024-01-01; "7d" counts from 1970-01-01 (a Thursday).
    const weekly = raw(f.slice(1, 1).groupByDynamic("d", { every: "1w" }).len());
    expect(weekly.d).toEqual([days("2024-01-01")]);
    expect(raw(f.slice(1, 1).groupByDynamic("d", { every: "7d" }).len()).d).toEqual([days("2023-12-28")]);
    // A month offset from a month start: windows [Jan 15, Feb 15), ...
    expect(raw(f.slice(1, 5).groupByDynamic("d", { every: "1mo", offset: "14d" }).len())).toEqual({ d: ["2023-12-15", "2024-01-15", "2024-02-15"].map(days), len: [1, 2, 2] });
  });

  it("startBy a weekday: the first window starts at 00:00 of that weekday on or before the first value", () => {
    // 2024-01-03 was a Wednesday.
    const f = dates(["2024-01-03", "2024-01-05", "2024-01-11"]);
    const run = (startBy: StartBy, o: { every?: string; closed?: ClosedWindow; offset?: string } = {}) =>
      raw(f.groupByDynamic("d", { every: "1w", ...o, startBy }).len());
    expect(run("friday")).toEqual({ d: ["2023-12-29", "2024-01-05"].map(days), len: [1, 2] });
    expect(run("wednesday")).toEqual({ d: ["2024-01-03", "2024-01-10"].map(days), len: [2, 1] });
    expect(run("sunday")).toEqual({ d: ["2023-12-31", "2024-01-07"].map(days), len: [2, 1] });
    expect(run("monday")).toEqual(raw(f.groupByDynamic("d", { every: "1w" }).len()));
    // Right-closed: a start equal to the first value would leave it out, so the week before.
    expect(run("wednesday", { closed: "right" })).toEqual({ d: ["2023-12-27", "2024-01-03", "2024-01-10"].map(days), len: [1, 1, 1] });
    // Every 2 weeks: Friday 2024-01-05 lies after the first value, so it moves back by every.
    expect(run("friday", { every: "2w" })).toEqual({ d: ["2023-12-22", "2024-01-05"].map(days), len: [1, 2] });
    // The offset moves the weekday's start: Tuesday + 1d is Wednesday 00:00.
    expect(run("tuesday", { offset: "1d" })).toEqual(run("wednesday"));
    // Not weeks: Saturday 2024-01-06 of the first value's week, moved back by one "3d" to
    // 2024-01-03; the windows step from there.
    expect(run("saturday", { every: "3d" })).toEqual({ d: ["2024-01-03", "2024-01-09"].map(days), len: [2, 1] });
    // Timestamps: the weekday's 00:00, whatever the first value's time of day.
    const hours = new DataFrame({ t: [new Date(Date.UTC(2024, 0, 3, 5)), new Date(Date.UTC(2024, 0, 10, 23))] });
    expect(raw(hours.groupByDynamic("t", { every: "1w", startBy: "wednesday" }).len())).toEqual({ t: [ms("2024-01-03"), ms("2024-01-10")], len: [1, 1] });
    const ts = raw(f.groupByDynamic("t", { every: "1w", startBy: "thursday", includeBoundaries: true }).len());
    expect(ts).toEqual({
      _lower_boundary: ["2023-12-28", "2024-01-04", "2024-01-11"].map((d) => ms(d) * 1000),
      _upper_boundary: ["2024-01-04", "2024-01-11", "2024-01-18"].map((d) => ms(d) * 1000),
      t: ["2023-12-28", "2024-01-04", "2024-01-11"].map((d) => ms(d) * 1000),
      len: [1, 1, 1],
    });
    // Per group: each group's own first value picks its week.
    const g = new DataFrame({ s: ["2024-01-03", "2024-01-20", "2024-01-22"], k: ["a", "b", "b"] }).select(col("s").str.toDate().alias("d"), "k");
    expect(raw(g.groupByDynamic("d", { every: "1w", startBy: "saturday", groupBy: "k" }).len())).toEqual({
      k: ["a", "b"],
      d: ["2023-12-30", "2024-01-20"].map(days),
      len: [1, 2],
    });
  });

  it("windows per groupBy group, sorted by key then start", () => {
    const f = new DataFrame({ t: BigInt64Array.from([5, 0, 6, 1, 10, 2], BigInt), g: ["b", "a", "b", "a", "b", null], v: [1, 2, 3, 4, 5, 6] });
    const out = f.groupByDynamic("t", { every: "5i", groupBy: "g" }).agg(col("v").sum(), col("v").first().alias("first"));
    expect(out.dtypes.slice(0, 2)).toEqual(["utf8", "int64"]);
    expect(raw(out)).toEqual({ g: ["a", "b", "b", null], t: [0, 5, 10, 0], v: [6, 4, 5, 6], first: [2, 1, 5, 6] });
    // Expressions as keys, several keys.
    const two = f.groupByDynamic("t", { every: "100i", groupBy: [col("v").mod(2).alias("odd"), "g"] }).len();
    expect(raw(two)).toEqual({ odd: [0, 0, 1], g: ["a", null, "b"], t: [0, 0, 0], len: [2, 1, 3] });
  });

  it("shortcuts aggregate every column but the index and the keys; int32 and date indexes", () => {
    const f = new DataFrame({ t: Int32Array.from([1, 2, 7]), v: [1.5, 2, 4], s: ["x", "y", "z"] });
    expect(raw(f.groupByDynamic("t", { every: "5i" }).sum())).toEqual({ t: [0, 5], v: [3.5, 4] });
    expect(f.groupByDynamic("t", { every: "5i" }).max().dtypes).toEqual(["int32", "float64", "utf8"]);
    expect(raw(f.groupByDynamic("t", { every: "5i" }).max())).toEqual({ t: [0, 5], v: [2, 4], s: ["y", "z"] });
    // The shortcut's columns come in the frame's order (as GroupBy's), names like "2" too.
    const g = new DataFrame({ t: Int32Array.from([1, 2]), "2": [1, 2], "1": [3, 4] }).select("t", "2", "1");
    const sums = g.rolling("t", { period: "2i" }).sum();
    expect(sums.columns).toEqual(["t", "2", "1"]);
    expect(raw(sums)).toEqual({ t: [1, 2], "2": [1, 3], "1": [3, 7] });
    // A lazy frame keeps that order too (its scan's schema is the frame's columns).
    expect(g.lazy().columns).toEqual(["t", "2", "1"]);
    expect(g.lazy().collectSync().columns).toEqual(["t", "2", "1"]);
  });

  it("an empty frame gives no windows, with the dtypes", () => {
    const f = new DataFrame({ t: new BigInt64Array(0), v: new Float64Array(0) }).select(col("t").cast("timestamp[ms]"), "v");
    const out = f.groupByDynamic("t", { every: "1d", includeBoundaries: true, groupBy: col("v").alias("k") }).agg(col("v").sum().alias("s"));
    expect(out.height).toBe(0);
    expect(out.columns).toEqual(["k", "_lower_boundary", "_upper_boundary", "t", "s"]);
    expect(out.dtypes).toEqual(["float64", "timestamp[ms]", "timestamp[ms]", "timestamp[ms]", "float64"]);
    expect(f.rolling("t", { period: "1d" }).len().height).toBe(0);
  });

  it("typed errors, and the frame stays intact", () => {
    const unsorted = ints([0, 5, 3]);
    expect(code(() => unsorted.groupByDynamic("t", { every: "2i" }).len())).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => unsorted.rolling("t", { period: "2i" }).len())).toBe("ERR_INVALID_ARGUMENT");
    expect(raw(unsorted).t).toEqual([0, 5, 3]);
    const withNull = new DataFrame({ t: [1, null, 3] }).select(col("t").cast("int64"));
    expect(code(() => withNull.groupByDynamic("t", { every: "2i" }).len())).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1x" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "2i" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1mo1d" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "-1h" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1ns" }))).toBe("ERR_INVALID_ARGUMENT"); // finer than ms
    expect(code(() => ints([1]).groupByDynamic("t", { every: "1h" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1h", closed: "open" as ClosedWindow }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1h", bogus: 1 } as never))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1w", startBy: "Monday" as StartBy }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1w", startBy: "weekday" as StartBy }))).toBe("ERR_INVALID_ARGUMENT");
    // An integer index has no weekdays.
    expect(code(() => ints([1]).groupByDynamic("t", { every: "7i", startBy: "monday" }))).toBe("ERR_INVALID_ARGUMENT");
    // Months from a weekday: refused (window starts would clamp to different days of the month).
    expect(code(() => df.groupByDynamic("t", { every: "1mo", startBy: "monday" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("v", { every: "1h" }))).toBe("ERR_DTYPE");
    expect(code(() => df.groupByDynamic("nope", { every: "1h" }))).toBe("ERR_COLUMN_NOT_FOUND");
    expect(code(() => df.rolling("t", { period: "0h" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1h" }).agg(col("v")))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.groupByDynamic("t", { every: "1h" }).agg(col("v").sum().alias("t")))).toBe("ERR_INVALID_ARGUMENT");
    expect(df.height).toBe(6);
  });
});

describe("rolling", () => {
  it("one window per row looking back period, closed right by default", () => {
    const f = ints([1, 2, 3, 6, 7, 7, 20], [1, null, 3, 4, 5, 6, 7]);
    expect(raw(f.rolling("t", { period: "3i" }).agg(col("v").sum(), len()))).toEqual({
      t: [1, 2, 3, 6, 7, 7, 20],
      v: [1, 1, 4, 4, 15, 15, 7],
      len: [1, 2, 3, 1, 3, 3, 1],
    });
    expect(raw(f.rolling("t", { period: "3i", closed: "both" }).len()).len).toEqual([1, 2, 3, 2, 3, 3, 1]);
    expect(raw(f.rolling("t", { period: "3i", closed: "left" }).len()).len).toEqual([0, 1, 2, 1, 1, 1, 0]);
    expect(raw(f.rolling("t", { period: "3i", closed: "none" }).len()).len).toEqual([0, 1, 2, 0, 1, 1, 0]);
    // Forward-looking: [t, t + 3)
    expect(raw(f.rolling("t", { period: "3i", offset: "0i", closed: "left" }).agg(col("v").max())).v).toEqual([3, 3, 3, 6, 6, 6, 7]);
  });

  it("per groupBy group, rows grouped by key in frame order", () => {
    const f = new DataFrame({ t: BigInt64Array.from([1, 1, 2, 4, 3], BigInt), g: ["a", "b", "a", "b", "a"], v: [1, 2, 3, 4, 5] });
    expect(raw(f.rolling("t", { period: "2i", groupBy: "g" }).agg(col("v").sum()))).toEqual({ g: ["a", "a", "a", "b", "b"], t: [1, 2, 3, 1, 4], v: [1, 4, 8, 2, 4] });
  });

  it("calendar periods over dates: (t - 1mo, t], the day clamped to the month's length", () => {
    const f = dates(["2024-01-31", "2024-02-29", "2024-03-30", "2024-03-31"]);
    expect(raw(f.rolling("d", { period: "1mo" }).len())).toEqual({ d: ["2024-01-31", "2024-02-29", "2024-03-30", "2024-03-31"].map(days), len: [1, 2, 1, 2] });
  });
});

describe("against DuckDB on random sorted timestamps", () => {
  const CLOSED: ClosedWindow[] = ["left", "right", "both", "none"];
  const cond = (closed: ClosedWindow, lo: string, hi: string, t: string): string =>
    `${t} ${closed === "left" || closed === "both" ? ">=" : ">"} ${lo} AND ${t} ${closed === "right" || closed === "both" ? "<=" : "<"} ${hi}`;

  function randomFrame(seed: number, rows: number): { t: number[]; g: string[]; v: (number | null)[] } {
    const rng = new Rng(seed);
    const t: number[] = [], g: string[] = [], v: (number | null)[] = [];
    const groups = ["a", "b", "c"];
    for (const key of groups) {
      let cur = ms("2024-02-27T00:00:00Z") + Math.floor(rng.next() * 5 * H);
      const n = Math.floor(rows / 3);
      for (let i = 0; i < n; i++) {
        const r = rng.next();
        cur += r < 0.15 ? 0 : r < 0.9 ? Math.floor(rng.next() * 40 * 60_000) : Math.floor(rng.next() * 30 * H);
        t.push(cur);
        g.push(key);
        v.push(rng.next() < 0.2 ? null : Math.floor(rng.next() * 1000) - 500);
      }
    }
    // Interleave the groups (the index is sorted within each group only).
    const order = t.map((_, i) => i).sort((a, b) => (t[a] as number) - (t[b] as number) || a - b);
    return { t: order.map((i) => t[i] as number), g: order.map((i) => g[i] as string), v: order.map((i) => v[i] ?? null) };
  }

  /** Polars' first window start for a group whose first value is t0 (fixed durations). */
  function anchor(t0: number, every: number, offset: number, closed: ClosedWindow): number {
    let a = t0 - (((t0 % every) + every) % every) + offset;
    const after = (s: number) => (closed === "left" || closed === "both" ? s > t0 : s >= t0);
    while (after(a)) a -= every;
    return a;
  }

  const frameOf = (d: { t: number[]; g: string[]; v: (number | null)[] }) =>
    new DataFrame({ t: BigInt64Array.from(d.t, BigInt), g: d.g, v: d.v }).select(col("t").cast("timestamp[ms]"), "g", "v");
  const AGGS = [col("v").sum().alias("s"), col("v").min().alias("lo"), col("v").max().alias("hi"), col("v").count().alias("n"), col("v").mean().alias("m"), len()];
  const SQL_AGGS = `sum(v) AS s, min(v) AS lo, max(v) AS hi, count(v) AS n, avg(v) AS m, count(*) AS len`;
  const num = (x: unknown): number | null => (x === null || x === undefined ? null : Number(x));

  function expectRows(got: Record<string, unknown[]>, want: Record<string, unknown>[], names: string[], what: string): void {
    expect(got[names[0] as string]?.length, what).toBe(want.length);
    want.forEach((w, r) => {
      for (const n of names) {
        // An empty or all-null window sums to 0 (DuckDB: NULL).
        const a = num(got[n]?.[r]), b = n === "s" && Number(w.n) === 0 ? 0 : num(w[n]);
        if (a === null || b === null) expect(a, `${what} row ${r} ${n}`).toBe(b);
        else expect(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what} row ${r} ${n}: ${a} vs ${b}`).toBe(true);
      }
    });
  }

  it("groupByDynamic for every closed rule, overlapping and gapped periods, offsets", async () => {
    const d = randomFrame(7, 600);
    const df = frameOf(d);
    const conn = await duckdbTable({ t: d.t.map(BigInt), g: d.g, v: d.v.map((x) => (x === null ? null : BigInt(x))) }, { t: "int64", g: "utf8", v: "int64" } as Record<string, DType>);
    try {
      for (const closed of CLOSED) {
        for (const [every, period, offset] of [[H, H, 0], [H, 150 * 60_000, 0], [2 * H, 30 * 60_000, 15 * 60_000], [H, 3 * H, -20 * 60_000]] as const) {
          const starts = new Map<string, number>();
          for (let i = d.t.length - 1; i >= 0; i--) starts.set(d.g[i] as string, d.t[i] as number);
          const anchors = [...starts].map(([k, t0]) => `('${k}', ${anchor(t0, every, offset, closed)}::BIGINT)`).join(", ");
          const sql = `WITH a(g, a) AS (VALUES ${anchors}),
            w AS (SELECT a.g, a.a + j * ${every} AS wlo, a.a + j * ${every} + ${period} AS whi
                  FROM a, range(0, 2000) r(j)),
            m AS (SELECT w.g, w.wlo, w.whi, t.v FROM w JOIN t ON t.g = w.g AND ${cond(closed, "w.wlo", "w.whi", "t.t")})
            SELECT g, wlo, whi, ${SQL_AGGS} FROM m GROUP BY g, wlo, whi ORDER BY g, wlo`;
          const want = await duckdbRows(conn, sql);
          const opts = { every: `${every / 60_000}m`, period: `${period / 60_000}m`, offset: `${offset < 0 ? "-" : ""}${Math.abs(offset) / 60_000}m`, closed, groupBy: "g", includeBoundaries: true } as const;
          const eager = raw(df.groupByDynamic("t", opts).agg(AGGS));
          const lazy = raw(df.lazy().groupByDynamic("t", opts).agg(AGGS).collectSync());
          const what = `closed ${closed} every ${every} period ${period} offset ${offset}`;
          for (const got of [eager, lazy]) {
            expect(got.g).toEqual(want.map((w) => w.g));
            expect(got._lower_boundary).toEqual(want.map((w) => Number(w.wlo)));
            expect(got._upper_boundary).toEqual(want.map((w) => Number(w.whi)));
            expectRows(got, want, ["s", "lo", "hi", "n", "m", "len"], what);
          }
        }
      }
    } finally {
      conn.closeSync();
    }
  });

  it("hourly and monthly windows equal DuckDB's time_bucket", async () => {
    const d = randomFrame(11, 450);
    const df = frameOf(d);
    const conn = await duckdbTable({ t: d.t.map(BigInt), v: d.v.map((x) => (x === null ? null : BigInt(x))) }, { t: "int64", v: "int64" } as Record<string, DType>);
    try {
      const hourly = await duckdbRows(conn, `SELECT epoch_ms(time_bucket(INTERVAL '1 hour', epoch_ms(t))) AS b, ${SQL_AGGS} FROM t GROUP BY b ORDER BY b`);
      const got = raw(df.groupByDynamic("t", { every: "1h" }).agg(AGGS));
      expect(got.t).toEqual(hourly.map((w) => Number(w.b)));
      expectRows(got, hourly, ["s", "lo", "hi", "n", "m", "len"], "hourly");
      const monthly = await duckdbRows(
        conn,
        `SELECT (time_bucket(INTERVAL '1 month', epoch_ms(t)::DATE) - DATE '1970-01-01')::BIGINT AS b, ${SQL_AGGS} FROM t GROUP BY b ORDER BY b`,
      );
      const byMonth = raw(df.select(col("t").cast("date32").alias("d"), "v").groupByDynamic("d", { every: "1mo" }).agg(AGGS));
      expect(byMonth.d).toEqual(monthly.map((w) => Number(w.b)));
      expectRows(byMonth, monthly, ["s", "lo", "hi", "n", "m", "len"], "monthly");
    } finally {
      conn.closeSync();
    }
  });

  it("rolling for every closed rule and offset, per group, eager and lazy", async () => {
    const d = randomFrame(5, 450);
    const df = frameOf(d);
    const conn = await duckdbTable(
      { id: d.t.map((_, i) => BigInt(i)), t: d.t.map(BigInt), g: d.g, v: d.v.map((x) => (x === null ? null : BigInt(x))) },
      { id: "int64", t: "int64", g: "utf8", v: "int64" } as Record<string, DType>,
    );
    try {
      for (const closed of CLOSED) {
        for (const [period, offset] of [[2 * H, -2 * H], [90 * 60_000, -30 * 60_000], [H, 0]] as const) {
          const sql = `SELECT a.g, sum(b.v) AS s, min(b.v) AS lo, max(b.v) AS hi, count(b.v) AS n, avg(b.v) AS m, count(b.t) AS len
            FROM t a LEFT JOIN t b ON b.g = a.g AND ${cond(closed, `a.t + ${offset}`, `a.t + ${offset + period}`, "b.t")}
            GROUP BY a.g, a.t, a.id ORDER BY a.g, a.t, a.id`;
          const want = await duckdbRows(conn, sql);
          const opts = { period: `${period / 60_000}m`, offset: `${offset < 0 ? "-" : ""}${Math.abs(offset) / 60_000}m`, closed, groupBy: "g" } as const;
          const eager = raw(df.rolling("t", opts).agg(AGGS));
          const lazy = raw(await df.lazy().rolling("t", opts).agg(AGGS).collect());
          for (const got of [eager, lazy]) {
            expect(got.g).toEqual(want.map((w) => w.g));
            expectRows(got, want, ["s", "lo", "hi", "n", "m", "len"], `rolling ${closed} ${period} ${offset}`);
          }
        }
      }
    } finally {
      conn.closeSync();
    }
  });
});

describe("lazy groupByDynamic and rolling", () => {
  const df = new DataFrame({ t: BigInt64Array.from([0, 1, 2, 5, 9, 10, 11], BigInt), g: ["a", "b", "a", "b", "a", "a", "b"], v: [1, 2, null, 4, 5, 6, 7] });

  it("plan-time schema and errors, the plan below and above, sync and async", async () => {
    const lf = df.lazy().filter(col("v").neq(5)).groupByDynamic("t", { every: "4i", groupBy: "g", includeBoundaries: true }).agg(col("v").sum(), len());
    expect(Object.keys(lf.schema)).toEqual(["g", "_lower_boundary", "_upper_boundary", "t", "v", "len"]);
    expect(Object.values(lf.schema).slice(0, 5)).toEqual(["utf8", "int64", "int64", "int64", "float64"]);
    const eager = df.filter(col("v").neq(5)).groupByDynamic("t", { every: "4i", groupBy: "g", includeBoundaries: true }).agg(col("v").sum(), len());
    expect(eager.schema).toEqual(lf.schema);
    const top = lf.filter(col("v").gt(1)).select("g", "t", "v");
    expect(top.explain()).toContain('SCAN GROUPBYDYNAMIC over "t" by g');
    const want = raw(eager.filter(col("v").gt(1)).select("g", "t", "v"));
    expect(raw(top.collectSync())).toEqual(want);
    expect(raw(await top.collect())).toEqual(want);
    // v != 5 drops t = 9 (and the null at t = 2): a in [0,4) and [8,12), b in [0,4), [4,8), [8,12).
    expect(want).toEqual({ g: ["a", "b", "b", "b"], t: [8, 0, 4, 8], v: [6, 2, 4, 7] });
    expect(code(() => df.lazy().groupByDynamic("t", { every: "1h" }))).toBe("ERR_INVALID_ARGUMENT");
    expect(code(() => df.lazy().rolling("nope", { period: "1i" }))).toBe("ERR_COLUMN_NOT_FOUND");
    expect(code(() => df.lazy().rolling("t", { period: "1i" }).agg(col("v")))).toBe("ERR_INVALID_ARGUMENT");
    const f = dates(["2024-01-03", "2024-01-05", "2024-01-11", "2024-01-30"]).withColumns(col("d").cast("int32").alias("v"));
    const weekly = f.lazy().groupByDynamic("t", { every: "2w", startBy: "sunday", closed: "both" }).agg(col("v").sum());
    expect(raw(weekly.collectSync())).toEqual(raw(f.groupByDynamic("t", { every: "2w", startBy: "sunday", closed: "both" }).agg(col("v").sum())));
    expect(weekly.collectSync().height).toBe(3);
    expect(code(() => df.lazy().groupByDynamic("t", { every: "2i", startBy: "friday" }))).toBe("ERR_INVALID_ARGUMENT");
    const rolled = df.lazy().rolling("t", { period: "3i" }).mean();
    expect(raw(rolled.collectSync())).toEqual(raw(df.rolling("t", { period: "3i" }).mean()));
  });
});

describe("against nodejs-polars", () => {
  const pl = createRequire(import.meta.url)("nodejs-polars");
  const rowsOf = (records: Record<string, unknown>[], names: string[]) => records.map((r) => names.map((n) => (r[n] === null || r[n] === undefined ? null : typeof r[n] === "string" ? r[n] : Number(r[n]))));

  it("groupByDynamic and rolling over an integer index, every option", () => {
    const t = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 30];
    const pdf = pl.DataFrame({ t, v: t.map((x) => x * 10) }).withColumns(pl.col("t").cast(pl.Int64));
    const gdf = new DataFrame({ t: BigInt64Array.from(t, BigInt), v: t.map((x) => x * 10) });
    for (const closed of ["left", "right", "both", "none"] as const) {
      for (const [every, period, offset] of [["3i", "3i", "0i"], ["3i", "5i", "0i"], ["5i", "2i", "0i"], ["3i", "3i", "-1i"], ["3i", "3i", "1i"], ["4i", "6i", "2i"]] as const) {
        for (const startBy of ["window", "datapoint"] as const) {
          const o = { every, period, offset, closed, startBy, includeBoundaries: true };
          const want = pl.DataFrame(pdf).groupByDynamic({ indexColumn: "t", ...o }).agg(pl.col("v").sum().alias("s"), pl.len().alias("n")).sort("_lower_boundary");
          const got = gdf.groupByDynamic("t", o).agg(col("v").sum().alias("s"), len().alias("n"));
          const names = ["_lower_boundary", "_upper_boundary", "t", "s", "n"];
          expect(rowsOf(got.toRecords(), names), JSON.stringify(o)).toEqual(rowsOf(want.toRecords(), names));
        }
      }
      for (const [period, offset] of [["3i", undefined], ["3i", "0i"], ["4i", "-1i"]] as const) {
        const want = pdf.groupByRolling({ indexColumn: "t", period, offset, closed }).agg(pl.col("v").sum().alias("s"), pl.len().alias("n"));
        const got = gdf.rolling("t", { period, offset, closed }).agg(col("v").sum().alias("s"), len().alias("n"));
        expect(rowsOf(got.toRecords(), ["t", "s", "n"]), `rolling ${closed} ${period} ${offset}`).toEqual(rowsOf(want.toRecords(), ["t", "s", "n"]));
      }
    }
  });

  it("startBy monday (its only weekday) for weekly, daily and sub-day every, offsets, closed and groupBy", () => {
    const ms = ["2023-02-28", "2024-01-03", "2024-01-04", "2024-01-31", "2024-02-01", "2024-02-29", "2024-03-01", "2024-03-31"].map((s, i) => Date.parse(s) + (i % 3) * 7 * H);
    const g = ["a", "b", "a", "a", "b", "a", "b", "a"];
    const pdf = pl.DataFrame({ t: ms, g, v: ms.map((_, i) => i) }).withColumns(pl.col("t").cast(pl.Datetime("ms")));
    const gdf = new DataFrame({ t: BigInt64Array.from(ms, BigInt), g, v: ms.map((_, i) => i) }).select(col("t").cast("timestamp[ms]"), "g", "v");
    let checked = 0;
    for (const closed of ["left", "right", "both", "none"] as const) {
      for (const [every, period, offset] of [["1w", "1w", "0d"], ["2w", "1w", "0d"], ["1w", "3d", "1d"], ["1w", "1w", "-2d"], ["3d", "3d", "0h"], ["5h", "5h", "0h"], ["1d", "2d", "6h"]] as const) {
        for (const by of [undefined, "g"]) {
          const o = { every, period, offset, closed, startBy: "monday" as const, includeBoundaries: true };
          const want = pdf.groupByDynamic({ indexColumn: "t", ...o, by }).agg(pl.col("v").sum().alias("s"), pl.len().alias("n")).sort(by ? ["g", "_lower_boundary"] : ["_lower_boundary"]);
          const got = gdf.groupByDynamic("t", { ...o, groupBy: by }).agg(col("v").sum().alias("s"), len().alias("n"));
          const names = [...(by ? ["g"] : []), "_lower_boundary", "_upper_boundary", "t", "s", "n"];
          expect(rowsOf(got.toRecords(), names), `${JSON.stringify(o)} by ${by}`).toEqual(rowsOf(want.toRecords(), names));
          checked += got.height;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("timestamps with hourly, daily and weekly windows, labels and groupBy", () => {
    const ms = ["2023-02-28", "2024-01-03", "2024-01-31", "2024-02-01", "2024-02-29", "2024-03-01", "2024-03-31", "2024-12-31"].map((s) => Date.parse(s) + 5 * H);
    const g = ["a", "b", "a", "a", "b", "a", "b", "a"];
    const pdf = pl.DataFrame({ t: ms, g, v: ms.map((_, i) => i) }).withColumns(pl.col("t").cast(pl.Datetime("ms")));
    const gdf = new DataFrame({ t: BigInt64Array.from(ms, BigInt), g, v: ms.map((_, i) => i) }).select(col("t").cast("timestamp[ms]"), "g", "v");
    for (const closed of ["left", "right", "both", "none"] as const) {
      for (const [every, period, offset] of [["1w", "1w", "0d"], ["1d", "1d", "-3h"], ["6h", "4h", "0h"], ["2h", "2h", "30m"]] as const) {
        for (const label of ["left", "right", "datapoint"] as const) {
          for (const by of [undefined, "g"]) {
            const o = { every, period, offset, closed, label, includeBoundaries: true };
            const want = pdf.groupByDynamic({ indexColumn: "t", ...o, by }).agg(pl.col("v").sum().alias("s"), pl.len().alias("n")).sort(by ? ["g", "_lower_boundary"] : ["_lower_boundary"]);
            const got = gdf.groupByDynamic("t", { ...o, groupBy: by }).agg(col("v").sum().alias("s"), len().alias("n"));
            const names = [...(by ? ["g"] : []), "_lower_boundary", "_upper_boundary", "t", "s", "n"];
            expect(rowsOf(got.toRecords(), names), `${JSON.stringify(o)} by ${by}`).toEqual(rowsOf(want.toRecords(), names));
          }
        }
      }
    }
  });
});
