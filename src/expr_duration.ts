/**
 * Duration literals: `duration({ days: 1, hours: 2 })` or `duration("1d2h")`, an Expr of dtype
 * duration[unit] to add to timestamps and dates, compare with durations or scale.
 */
import { durationCount, type DurationParts } from "./duration.js";
import { lit, type Expr } from "./expr.js";

/** Options of `duration`. */
export interface DurationOptions {
  /** The unit of the literal's dtype (default "us", as Polars; "ns" when nanoseconds are given). */
  unit?: "s" | "ms" | "us" | "ns";
}

/**
 * A duration literal from parts (integers, any sign) or a fixed-length duration string ("1h30m",
 * "-2d", "1w"; no calendar months — use `dt.offsetBy` for those).
 * @example col("ts").add(duration({ hours: 1, minutes: 30 }))
 * @example col("end").sub(col("start")).gt(duration("1d", { unit: "ms" }))
 */
export function duration(value: DurationParts | string, options: DurationOptions = {}): Expr {
  const unit = options.unit ?? (typeof value === "object" && value !== null && value.nanoseconds !== undefined ? "ns" : "us");
  return lit(durationCount(value, unit, "duration"), `duration[${unit}]`);
}

export type { DurationParts };
