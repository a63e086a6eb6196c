// Independent reference semantics for the expression tests: BigInt arithmetic for integers
// (wrapping by BigInt.asIntN/asUintN), JS doubles (Math.fround for float32), exact mixed
// comparisons (JS compares bigint and number exactly). None of this calls gpudf.
import { Table, type Vector } from "apache-arrow";
import { DataFrame, fromArrow, type DType, type Expr } from "../src/index.js";
import { makeArrowVector, type Raw } from "./helpers.js";

export const INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"] as const;
export const FLOAT_DTYPES = ["float32", "float64"] as const;
export const NUMERIC_DTYPES: readonly DType[] = [...INT_DTYPES, ...FLOAT_DTYPES];

const BITS: Record<string, [number, boolean]> = {
  int8: [8, true], int16: [16, true], int32: [32, true], int64: [64, true],
  uint8: [8, false], uint16: [16, false], uint32: [32, false], uint64: [64, false],
};

export function isInt(dt: DType): boolean {
  return dt in BITS;
}

/** Two's-complement wrap of a bigint to dtype dt, as toArray() shows it. */
export function wrapInt(dt: DType, x: bigint): number | bigint {
  const [bits, signed] = BITS[dt] as [number, boolean];
  const w = signed ? BigInt.asIntN(bits, x) : BigInt.asUintN(bits, x);
  return bits === 64 ? w : Number(w);
}

export function big(x: Raw): bigint {
  return BigInt(x as number | bigint);
}

export function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

export function modBig(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
}

export function modFloat(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && !Number.isNaN(r) && (r < 0) !== (b < 0) ? r + b : r;
}

/** Three-way comparison with Polars' total order for floats (NaN == NaN, NaN above all). */
export function cmpRef(a: number | bigint, b: number | bigint): number {
  const na = typeof a === "number" && Number.isNaN(a);
  const nb = typeof b === "number" && Number.isNaN(b);
  if (na || nb) return na && nb ? 0 : na ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A frame from raw columns of given dtypes (built through Arrow, not through gpudf ops). */
export function frameOf(cols: Record<string, [DType, readonly Raw[]]>): DataFrame {
  const vecs: Record<string, Vector> = {};
  for (const [name, [dt, raw]] of Object.entries(cols)) vecs[name] = makeArrowVector(dt, raw);
  return fromArrow(new Table(vecs));
}

/** Evaluates one expression; its dtype and values. */
export function run(df: DataFrame, e: Expr): { dtype: DType; values: unknown[] } {
  const out = df.select(e.alias("out"));
  const s = out.getColumn("out");
  return { dtype: s.dtype, values: s.toArray() };
}

/** Applies f to each row pair; null when either side is null (or when f returns null). */
export function zipRef<T>(a: readonly Raw[], b: readonly Raw[], f: (x: Raw, y: Raw) => T | null): (T | null)[] {
  return a.map((x, i) => (x === null || b[i] === null ? null : f(x, b[i] as Raw)));
}
