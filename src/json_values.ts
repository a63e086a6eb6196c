/**
 * Values as JSON gives them (DataFrame.toJSON, Series.toJSON): nothing JSON.stringify refuses.
 * int64 / uint64 and durations (bigint counts of their unit) become numbers when they are safe integers (|v| <= 2^53 - 1) and
 * decimal strings otherwise, so no digit is lost; date32 becomes "YYYY-MM-DD"; timestamps
 * become ISO 8601 strings in UTC with milliseconds (as Date.toJSON writes them); NaN and
 * ±Infinity become null (as JSON.stringify writes them).
 */
import type { DType } from "./dtypes.js";

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** One value made JSON-safe (see the module's comment). */
export function jsonValue(value: unknown, dtype: DType): unknown {
  if (typeof value === "bigint") return value <= SAFE && value >= -SAFE ? Number(value) : value.toString();
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    const iso = value.toISOString();
    return dtype === "date32" ? iso.slice(0, iso.indexOf("T")) : iso;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  return value;
}

/** Whether a dtype's values need jsonValue (others are JSON-safe as toArray gives them). */
export function needsJsonValue(dtype: DType): boolean {
  return dtype === "int64" || dtype === "uint64" || dtype.startsWith("duration") || dtype === "date32" || dtype === "float32" || dtype === "float64" || dtype.startsWith("timestamp");
}

/** Records as toRecords gives them, made JSON-safe in place (the columns whose dtype needs jsonValue). */
export function jsonRecords(records: Record<string, unknown>[], names: readonly string[], dtypes: readonly DType[]): Record<string, unknown>[] {
  const convert = dtypes.map((d, i) => [names[i] as string, d] as const).filter(([, d]) => needsJsonValue(d));
  if (convert.length === 0) return records;
  for (const r of records) for (const [name, d] of convert) r[name] = jsonValue(r[name], d);
  return records;
}
