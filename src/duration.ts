/**
 * Duration strings as Polars writes them ("1h", "3d12h", "1mo2d", "-15m"): a sequence of
 * integer + unit, where the units are ns, us, ms, s, m (minutes), h, d, w (fixed lengths, UTC)
 * and mo, q (3 months), y (12 months) (calendar months). A leading "-" negates the whole.
 */
import { InvalidArgumentError } from "./errors.js";

/** An interval split into calendar months and a fixed part (seconds + nanoseconds, same sign). */
export interface Interval {
  readonly months: number;
  readonly seconds: number;
  readonly nanos: number;
}

const FIXED_NS: Record<string, bigint> = {
  ns: 1n, us: 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
  d: 86_400_000_000_000n, w: 604_800_000_000_000n,
};
const MONTHS: Record<string, bigint> = { mo: 1n, q: 3n, y: 12n };

export function parseInterval(text: unknown, fn: string): Interval {
  if (typeof text !== "string" || text.length === 0) throw new InvalidArgumentError(`${fn} expects a duration string such as "1d" or "1mo2d"`);
  const neg = text.startsWith("-");
  const body = neg ? text.slice(1) : text;
  const re = /(\d+)(ns|us|ms|mo|s|m|h|d|w|q|y)/gy;
  let months = 0n, ns = 0n, pos = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    const n = BigInt(m[1] as string), unit = m[2] as string;
    if (unit in MONTHS) months += n * (MONTHS[unit] as bigint);
    else ns += n * (FIXED_NS[unit] as bigint);
    pos = re.lastIndex;
  }
  if (pos !== body.length || body.length === 0) {
    throw new InvalidArgumentError(`${fn}: "${text}" is not a duration (write e.g. "1h30m", "2w", "1mo", "-3d"; units ns us ms s m h d w mo q y)`);
  }
  const sign = neg ? -1n : 1n;
  const secs = (ns / 1_000_000_000n) * sign, rest = (ns % 1_000_000_000n) * sign;
  if (months > 1_000_000n || secs > BigInt(Number.MAX_SAFE_INTEGER) / 1_000_000_000n) throw new InvalidArgumentError(`${fn}: "${text}" is too long`);
  return { months: Number(months * sign), seconds: Number(secs), nanos: Number(rest) };
}

/** Ticks per second of each duration dtype. */
const TICKS: Record<string, bigint> = {
  "duration[s]": 1n, "duration[ms]": 1000n, "duration[us]": 1_000_000n, "duration[ns]": 1_000_000_000n,
};

/**
 * A duration count as Polars prints it: days, hours, minutes, seconds and the sub-second parts
 * that are not zero, each with its sign ("1d 2h 3m", "-1h -30m", "1s 500ms"); zero is "0" in
 * the column's unit ("0ms").
 */
export function formatDuration(count: bigint, dtype: string): string {
  const perSecond = TICKS[dtype] ?? 1n;
  const neg = count < 0n;
  let mag = neg ? -count : count;
  const parts: string[] = [];
  const put = (v: bigint, unit: string) => {
    if (v !== 0n) parts.push(`${neg ? "-" : ""}${v}${unit}`);
  };
  const sub = mag % perSecond;
  mag /= perSecond;
  put(mag / 86400n, "d");
  put((mag / 3600n) % 24n, "h");
  put((mag / 60n) % 60n, "m");
  put(mag % 60n, "s");
  const subUnits: [bigint, string][] = [[1_000_000n, "ms"], [1000n, "µs"], [1n, "ns"]];
  // The sub-second count in nanoseconds, split into ms, µs and ns.
  const nanos = sub * (1_000_000_000n / perSecond);
  for (const [size, unit] of subUnits) put((nanos / size) % 1000n, unit);
  if (parts.length > 0) return parts.join(" ");
  return `0${{ "duration[s]": "s", "duration[ms]": "ms", "duration[us]": "µs", "duration[ns]": "ns" }[dtype] ?? ""}`;
}

/** The parts of a duration literal (each an integer; they may differ in sign). */
export interface DurationParts {
  weeks?: number | bigint;
  days?: number | bigint;
  hours?: number | bigint;
  minutes?: number | bigint;
  seconds?: number | bigint;
  milliseconds?: number | bigint;
  microseconds?: number | bigint;
  nanoseconds?: number | bigint;
}

const PART_NS: Record<keyof DurationParts, bigint> = {
  weeks: 604_800_000_000_000n, days: 86_400_000_000_000n, hours: 3_600_000_000_000n, minutes: 60_000_000_000n,
  seconds: 1_000_000_000n, milliseconds: 1_000_000n, microseconds: 1000n, nanoseconds: 1n,
};

/**
 * A duration's count of `unit` ticks from parts ({ days: 1, hours: 2 }) or a fixed-length
 * duration string ("1d2h", "-90s"; no calendar months). ERR_INVALID_ARGUMENT for unknown parts,
 * non-integers, calendar months, a value finer than the unit or beyond int64.
 */
export function durationCount(value: DurationParts | string, unit: "s" | "ms" | "us" | "ns", fn: string): bigint {
  let ns = 0n;
  if (typeof value === "string") {
    const iv = parseInterval(value, fn);
    if (iv.months !== 0) throw new InvalidArgumentError(`${fn}: "${value}" has calendar months, which have no fixed length; use dt.offsetBy for them`);
    ns = BigInt(iv.seconds) * 1_000_000_000n + BigInt(iv.nanos);
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      const size = PART_NS[k as keyof DurationParts];
      if (size === undefined) throw new InvalidArgumentError(`${fn}: unknown part "${k}" (expected ${Object.keys(PART_NS).join(", ")})`);
      if (v === undefined) continue;
      if (typeof v === "bigint") ns += v * size;
      else if (typeof v === "number" && Number.isInteger(v)) ns += BigInt(v) * size;
      else throw new InvalidArgumentError(`${fn}: ${k} must be an integer, got ${String(v)}`);
    }
  } else {
    throw new InvalidArgumentError(`${fn} expects parts ({ days: 1, hours: 2 }) or a duration string ("1d2h")`);
  }
  const perSecond = TICKS[`duration[${String(unit)}]`];
  if (perSecond === undefined) throw new InvalidArgumentError(`${fn}: unit must be "s", "ms", "us" or "ns", got ${String(unit)}`);
  const tick = 1_000_000_000n / perSecond;
  if (ns % tick !== 0n) throw new InvalidArgumentError(`${fn}: the duration is finer than the unit "${unit}"`);
  const count = ns / tick;
  if (count > 9_223_372_036_854_775_807n || count < -9_223_372_036_854_775_808n) throw new InvalidArgumentError(`${fn}: the duration does not fit int64 ${unit}`);
  return count;
}
