// Shared by sort/unique/take tests: key data with duplicates, a reference order written from the
// documented rules (JS comparisons, UTF-8 byte order), and readers of a frame's raw values.
import { DataFrame, fromArrow } from "../src/index.js";
import type { DType } from "../src/index.js";
import { type NullPattern, type Raw, isValidAt, makeArrowData, rawValues, valueAt } from "./helpers.js";
import { Table, makeVector } from "apache-arrow";

/** Raw values with many duplicates (and every special value of the dtype) over `length` rows. */
export function dupColumn(dtype: DType, length: number, nulls: NullPattern, seed = 0): Raw[] {
  const out: Raw[] = [];
  for (let i = 0; i < length; i++) out.push(isValidAt(nulls, i + seed) ? valueAt(dtype, ((i + seed) * 7) % 23) : null);
  return out;
}

/** A frame of raw columns (name -> [dtype, raw]) plus an int32 "id" column 0..n-1. */
export function frameOf(cols: Record<string, [DType, Raw[]]>, length: number): DataFrame {
  const vectors: Record<string, ReturnType<typeof makeVector>> = {};
  for (const [name, [dtype, raw]] of Object.entries(cols)) vectors[name] = makeVector(makeArrowData(dtype, raw));
  vectors.id = makeVector(Int32Array.from({ length }, (_, i) => i));
  return fromArrow(new Table(vectors));
}

const enc = new TextEncoder();

/** Three-way comparison of two non-null raw values: NaN above everything, -0 equal to 0. */
export function compareRaw(a: Exclude<Raw, null>, b: Exclude<Raw, null>): number {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) === Number.isNaN(b) ? 0 : Number.isNaN(a) ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "string" && typeof b === "string") return Buffer.compare(enc.encode(a), enc.encode(b));
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The stable order of row indices by the keys (Array.prototype.sort is stable). */
export function referenceOrder(keys: Raw[][], descending: boolean[], nullsLast: boolean[]): number[] {
  const n = keys[0]?.length ?? 0;
  const idx = Array.from({ length: n }, (_, i) => i);
  return idx.sort((x, y) => {
    for (let k = 0; k < keys.length; k++) {
      const a = keys[k]![x]!;
      const b = keys[k]![y]!;
      if (a === null || b === null) {
        if (a === b) continue;
        return (a === null) === nullsLast[k] ? 1 : -1;
      }
      const c = compareRaw(a, b);
      if (c !== 0) return descending[k] ? -c : c;
    }
    return 0;
  });
}

/** A column's raw values (exact: bigint for 64-bit and timestamps). */
export function rawOf(df: DataFrame, name: string): Raw[] {
  return rawValues(df.toArrow().getChild(name)!);
}

/** The "id" column as numbers. */
export function ids(df: DataFrame): number[] {
  return rawOf(df, "id") as number[];
}

/** Canonical key of a raw value for equality (NaN == NaN, -0 == 0, null == null). */
export function keyOf(v: Raw): string {
  if (v === null) return "null";
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : Object.is(v, -0) ? "0" : String(v);
  if (typeof v === "bigint") return `${v}n`;
  return JSON.stringify(v);
}
