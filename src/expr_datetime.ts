/**
 * The `.dt` namespace of Expr: calendar fields, formatting, intervals, durations' parts and time
 * zones. It builds nodes only; types are checked natively, zones by src/expr_zones.ts.
 */
import { parseInterval } from "./duration.js";
import { InvalidArgumentError } from "./errors.js";
import type { Expr, ExprNode } from "./expr.js";
import { Namespace, type Make } from "./expr_namespaces.js";
import { AMBIGUOUS, NON_EXISTENT, checkZone } from "./expr_zones.js";

/** Options of dt.replaceTimeZone. */
export interface ReplaceTimeZoneOptions {
  /** A local time the zone repeats: "raise" (default, ERR_TIME_ZONE), "earliest", "latest" or "null". */
  ambiguous?: keyof typeof AMBIGUOUS;
  /** A local time the zone skips: "raise" (default), "null", "shiftForward" or "shiftBackward". */
  nonExistent?: keyof typeof NON_EXISTENT;
}

/** The days an interval's "d" and "w" units add up to ("1w2d" is 9). */
function calendarDays(text: string): number {
  let days = 0;
  for (const m of text.matchAll(/(\d+)(ns|us|ms|mo|s|m|h|d|w|q|y)/g)) {
    if (m[2] === "d") days += Number(m[1]);
    if (m[2] === "w") days += 7 * Number(m[1]);
  }
  return text.startsWith("-") ? -days : days;
}

/** Date/time fields of an Expr over date32 or timestamp columns (UTC), and the parts of durations. */
export class ExprDateTime extends Namespace {
  /** @internal */
  constructor(node: ExprNode, make: Make) {
    super("dt", node, make);
  }

  /**
   * Formats as utf8 by a chrono-style `format` (docs/semantics.md lists the specifiers); without
   * one, ISO 8601: "%Y-%m-%d" for dates, "%Y-%m-%d %H:%M:%S" plus the unit's fraction digits for
   * timestamps. @example col("ts").dt.toString("%d %b %Y, %H:%M")   // "05 Mar 2024, 14:30"
   */
  override toString(format?: string): Expr {
    if (format !== undefined && typeof format !== "string") throw new InvalidArgumentError("dt.toString expects a format string");
    return this.op("toString", format === undefined ? {} : { value: format });
  }
  /** `toString(format)`. @example col("d").dt.strftime("%Y/%m/%d") */
  strftime(format: string): Expr {
    if (typeof format !== "string") throw new InvalidArgumentError("dt.strftime expects a format string");
    return this.toString(format);
  }

  /** The year (int32). @example col("d").dt.year() */
  year(): Expr {
    return this.op("year");
  }
  /** The month 1..12 (int8). @example col("d").dt.month() */
  month(): Expr {
    return this.op("month");
  }
  /** The day of the month 1..31 (int8). @example col("d").dt.day() */
  day(): Expr {
    return this.op("day");
  }
  /** The hour 0..23 (int8; timestamps only). @example col("ts").dt.hour() */
  hour(): Expr {
    return this.op("hour");
  }
  /** The minute 0..59 (int8; timestamps only). @example col("ts").dt.minute() */
  minute(): Expr {
    return this.op("minute");
  }
  /** The second 0..59 (int8; timestamps only). @example col("ts").dt.second() */
  second(): Expr {
    return this.op("second");
  }
  /** ISO weekday: 1 = Monday .. 7 = Sunday (int8). @example col("d").dt.weekday() */
  weekday(): Expr {
    return this.op("weekday");
  }
  /** The quarter 1..4 (int8). @example col("d").dt.quarter() */
  quarter(): Expr {
    return this.op("quarter");
  }
  /** The ISO 8601 week 1..53 (int8; weeks start on Monday, week 1 holds the year's first Thursday). */
  week(): Expr {
    return this.op("week");
  }
  /** The ISO 8601 week-numbering year (int32): 2021-01-01 is in ISO year 2020. */
  isoYear(): Expr {
    return this.op("isoYear");
  }
  /** The day of the year 1..366 (int16). @example col("d").dt.ordinalDay() */
  ordinalDay(): Expr {
    return this.op("ordinalDay");
  }
  /** Milliseconds within the second 0..999 (int32; timestamps only). */
  millisecond(): Expr {
    return this.op("millisecond");
  }
  /** Microseconds within the second 0..999999 (int32; timestamps only). */
  microsecond(): Expr {
    return this.op("microsecond");
  }
  /** Nanoseconds within the second 0..999999999 (int32; timestamps only). */
  nanosecond(): Expr {
    return this.op("nanosecond");
  }
  /**
   * The count of `unit` since 1970-01-01 (int64, floored): "s", "ms", "us" (default, as Polars),
   * "ns" or "d". @example col("ts").dt.epoch("s")
   */
  epoch(unit: "s" | "ms" | "us" | "ns" | "d" = "us"): Expr {
    const code = ["s", "ms", "us", "ns", "d"].indexOf(unit);
    if (code < 0) throw new InvalidArgumentError(`dt.epoch: unknown unit "${String(unit)}"`);
    return this.op("epoch", { params: [code] });
  }
  /** The first day of the month, at the same time of day (same dtype). */
  monthStart(): Expr {
    return this.op("monthStart");
  }
  /** The last day of the month, at the same time of day (same dtype). */
  monthEnd(): Expr {
    return this.op("monthEnd");
  }
  /**
   * The start of the interval `every` holding each value: calendar months ("1mo", "1q", "1y")
   * from 1970-01, or fixed lengths ("15m", "1h", "1d"; "1w" from Mondays) from 1970-01-01.
   * @example col("ts").dt.truncate("15m")
   */
  truncate(every: string): Expr {
    const i = parseInterval(every, "dt.truncate");
    return this.op("truncate", { params: [i.months, i.seconds, i.nanos] });
  }
  /** The nearer boundary of `every`'s intervals (halfway rounds up). @example col("ts").dt.round("1h") */
  round(every: string): Expr {
    const i = parseInterval(every, "dt.round");
    return this.op("round", { params: [i.months, i.seconds, i.nanos] });
  }
  /**
   * Moves by a duration: calendar months first (the day clamped to the month's end: Jan 31 +
   * "1mo" is Feb 28 or 29), then the fixed part. Negative with a leading "-".
   * @example col("d").dt.offsetBy("1mo2d")
   */
  offsetBy(by: string): Expr {
    const i = parseInterval(by, "dt.offsetBy");
    // On a zoned timestamp, months, weeks and days are calendar units of local time ("1d" is the
    // same local time the next day, 23 or 25 hours at a DST change), the rest fixed: split them.
    const days = calendarDays(by);
    if (i.months === 0 && days === 0) return this.op("offsetBy", { params: [i.months, i.seconds, i.nanos] });
    const subDay = i.seconds - days * 86400;
    const calendar = this.make({ op: "dt.offsetBy", args: [this.node], params: [i.months, days * 86400, 0], local: true });
    if (subDay === 0 && i.nanos === 0) return calendar;
    return calendar.dt.offsetBy(`${subDay < 0 || i.nanos < 0 ? "-" : ""}${Math.abs(subDay)}s${Math.abs(i.nanos)}ns`);
  }

  // ---- time zones ----

  /**
   * The same instants in another time zone (an IANA name from the system's tz database): only
   * how they read as local time changes. The timestamp must have a zone (ERR_DTYPE otherwise;
   * give it one with `replaceTimeZone`). An unknown zone is an ERR_TIME_ZONE.
   * @example col("ts").dt.convertTimeZone("Asia/Tokyo")
   */
  convertTimeZone(timeZone: string): Expr {
    return this.op("convertTimeZone", { value: checkZone(timeZone, "dt.convertTimeZone") });
  }
  /**
   * The same local times in another zone (a different instant), or `null` for a plain
   * timestamp of the local times. A local time the zone skips (spring forward) or repeats (fall
   * back) is an ERR_TIME_ZONE naming the row unless `nonExistent` / `ambiguous` say otherwise.
   * @example col("ts").dt.replaceTimeZone("Europe/Berlin", { ambiguous: "earliest" })
   */
  replaceTimeZone(timeZone: string | null, options: ReplaceTimeZoneOptions = {}): Expr {
    const zone = timeZone === null ? null : checkZone(timeZone, "dt.replaceTimeZone");
    const ambiguous = AMBIGUOUS[options.ambiguous ?? "raise"];
    const nonExistent = NON_EXISTENT[options.nonExistent ?? "raise"];
    if (ambiguous === undefined) throw new InvalidArgumentError(`dt.replaceTimeZone: ambiguous must be one of ${Object.keys(AMBIGUOUS).join(", ")}`);
    if (nonExistent === undefined) throw new InvalidArgumentError(`dt.replaceTimeZone: nonExistent must be one of ${Object.keys(NON_EXISTENT).join(", ")}`);
    return this.op("replaceTimeZone", { value: zone, params: [ambiguous, nonExistent] });
  }

  // ---- parts of a duration (int64, truncated toward zero, as Polars) ----

  /** Whole days of a duration (int64, toward zero: -1d -1h is -1). @example col("ts").sub(col("start")).dt.totalDays() */
  totalDays(): Expr {
    return this.op("totalDays");
  }
  /** Whole hours of a duration (int64, toward zero). */
  totalHours(): Expr {
    return this.op("totalHours");
  }
  /** Whole minutes of a duration (int64, toward zero). */
  totalMinutes(): Expr {
    return this.op("totalMinutes");
  }
  /** Whole seconds of a duration (int64, toward zero). */
  totalSeconds(): Expr {
    return this.op("totalSeconds");
  }
  /** Whole milliseconds of a duration (int64; null where a finer count would pass int64). */
  totalMilliseconds(): Expr {
    return this.op("totalMilliseconds");
  }
  /** Whole microseconds of a duration (int64; null past int64). */
  totalMicroseconds(): Expr {
    return this.op("totalMicroseconds");
  }
  /** Nanoseconds of a duration (int64; null past int64). */
  totalNanoseconds(): Expr {
    return this.op("totalNanoseconds");
  }
}
