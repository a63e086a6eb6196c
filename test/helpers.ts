// Shared generators and comparison helpers for the gpudf vitest suite.
//
// Values are described in their *physical* Arrow form ("raw"): numbers for 8..32-bit ints,
// floats and date32 (days), bigint for int64/uint64, every timestamp and duration unit, boolean for bool,
// string for utf8/large_utf8, null for a null slot. `toJsValue` turns a raw value into what
// `series.toArray()` / `df.toRecords()` must return for it.
import {
  Bool,
  Data,
  DataType,
  DateDay,
  DurationMicrosecond,
  DurationMillisecond,
  DurationNanosecond,
  DurationSecond,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeUtf8,
  makeData,
  RecordBatch,
  Schema,
  Table,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Type,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  Vector,
  makeVector,
} from "apache-arrow";
import { expect } from "vitest";

import { DTYPES, GpudfError, device, memory } from "../src/index.js";
import type { BaseDType, DataFrame, DType } from "../src/index.js";

export type Raw = number | bigint | boolean | string | null;
export type NullPattern = "none" | "some" | "all";

export const ALL_DTYPES: readonly BaseDType[] = DTYPES;

/** Lengths every op must handle: empty, around the 32/64 bit-word edges, and multi-block. */
export const LENGTHS: readonly number[] = [0, 1, 31, 32, 33, 64, 65, 100_003];
export const SMALL_LENGTHS: readonly number[] = [0, 1, 31, 32, 33, 64, 65];
export const NULL_PATTERNS: readonly NullPattern[] = ["none", "some", "all"];

export const I64_MIN = -(2n ** 63n);
export const I64_MAX = 2n ** 63n - 1n;
export const U64_MAX = 2n ** 64n - 1n;

export const NON_ASCII: readonly string[] = ["héllo", "日本語", "🦀", "Ünïcödé ✓ 🦀🦀"];
export const LONG_STRING = "a string that is definitely longer than thirty-two characters ✓";

/** The row at index i is valid under the pattern ("some": every third row, from row 1, is null). */
export function isValidAt(pattern: NullPattern, i: number): boolean {
  if (pattern === "none") return true;
  if (pattern === "all") return false;
  return i % 3 !== 1;
}

export interface GenOptions {
  /**
   * Keep every temporal value inside the JS Date range and avoid negative sub-millisecond
   * values, so that the expected Date of toArray() is unambiguous. Off: int64/int32 extremes
   * are used for temporal columns too (pure storage round trips).
   */
  dateSafe?: boolean;
}

function pick<T>(specials: readonly T[], i: number, formula: (i: number) => T): T {
  // Specials recur every 11 rows so that they also show up near the end of long columns.
  const k = i % 11;
  return k < specials.length ? specials[k]! : formula(i);
}

/** The non-null value of a column of `dtype` at row i (physical representation). */
export function valueAt(dtype: DType, i: number, opts: GenOptions = {}): Exclude<Raw, null> {
  const safe = opts.dateSafe ?? false;
  switch (dtype as BaseDType) {
    case "bool":
      return i % 3 === 0 || i % 7 === 2;
    case "int8":
      return pick([-128, 127, 0, -1], i, (j) => ((j * 37) % 256) - 128);
    case "int16":
      return pick([-32768, 32767, 0, -1], i, (j) => ((j * 7919) % 65536) - 32768);
    case "int32":
      return pick([-2147483648, 2147483647, 0, -1], i, (j) => ((j * 2654435761) % 4294967296) - 2147483648);
    case "int64":
      return pick([I64_MIN, I64_MAX, 0n, -1n, 2n ** 53n + 1n], i, (j) => BigInt(j) * 12_345_678_901_234n - 6n * 10n ** 17n);
    case "uint8":
      return pick([0, 255, 1], i, (j) => (j * 37) % 256);
    case "uint16":
      return pick([0, 65535, 1], i, (j) => (j * 7919) % 65536);
    case "uint32":
      return pick([0, 4294967295, 2147483648], i, (j) => (j * 2654435761) % 4294967296);
    case "uint64":
      return pick([0n, U64_MAX, 2n ** 63n, 2n ** 53n + 1n], i, (j) => BigInt(j) * 123_456_789_012_345n);
    case "float32":
      return pick([NaN, Infinity, -Infinity, -0, 3.4028234663852886e38, Math.fround(1e-40), 1.5], i, (j) => Math.fround(j * 0.3 - 7));
    case "float64":
      return pick([NaN, Infinity, -Infinity, -0, Number.MAX_VALUE, Number.MIN_VALUE, 0.1], i, (j) => j * 1.25 - 1e6 + 1 / 3);
    case "utf8":
    case "large_utf8":
      return pick(["", ...NON_ASCII, LONG_STRING], i, (j) => `s${j}`);
    case "date32":
      return safe
        ? pick([0, -1, 19_358, -719_162, 2_932_896], i, (j) => j - 50_000)
        : pick([0, -1, 19_358, -2147483648, 2147483647], i, (j) => j * 3 - 150_000);
    case "timestamp[s]":
      return safe
        ? pick([0n, -1n, 1_700_000_000n, -62_135_596_800n, 253_402_300_799n], i, (j) => BigInt(j) * 86_399n - 10n ** 9n)
        : pick([0n, -1n, 1_700_000_000n, I64_MIN, I64_MAX], i, (j) => BigInt(j) * 86_399n - 10n ** 9n);
    case "timestamp[ms]":
      return safe
        ? pick([0n, -1n, 1_700_000_000_123n, -62_135_596_800_000n], i, (j) => BigInt(j) * 86_399_123n - 10n ** 12n)
        : pick([0n, -1n, 1_700_000_000_123n, I64_MIN, I64_MAX], i, (j) => BigInt(j) * 86_399_123n - 10n ** 12n);
    case "timestamp[us]":
      // dateSafe: negative values are whole milliseconds, so truncation and flooring agree.
      return safe
        ? pick([0n, 1n, 999n, 1_700_000_000_123_456n, -86_400_000_000n], i, (j) => BigInt(j) * 86_399_123_457n)
        : pick([0n, -1n, 1_700_000_000_123_456n, I64_MIN, I64_MAX], i, (j) => BigInt(j) * 86_399_123_457n - 10n ** 15n);
    case "timestamp[ns]":
      return safe
        ? pick([0n, 1n, 999_999n, 1_700_000_000_123_456_789n, -86_400_000_000_000n], i, (j) => BigInt(j) * 86_399_123_456_789n)
        : pick([0n, -1n, 1_700_000_000_123_456_789n, I64_MIN, I64_MAX], i, (j) => BigInt(j) * 86_399_123_456_789n - 10n ** 18n);
    case "duration[s]":
    case "duration[ms]":
    case "duration[us]":
    case "duration[ns]":
      // Counts of the unit: the int64 extremes, signs, and spans of days with sub-second parts.
      return pick([0n, -1n, 1n, I64_MIN, I64_MAX, 90_061_001n], i, (j) => BigInt(j) * 86_399_123_457n - 10n ** 13n);
  }
}

/** Raw column: the value for valid rows, null for null rows. */
export function rawColumn(dtype: DType, length: number, nulls: NullPattern, opts: GenOptions = {}): Raw[] {
  const out: Raw[] = new Array(length);
  for (let i = 0; i < length; i++) out[i] = isValidAt(nulls, i) ? valueAt(dtype, i, opts) : null;
  return out;
}

export function arrowTypeFor(dtype: DType): DataType {
  switch (dtype as BaseDType) {
    case "bool": return new Bool();
    case "int8": return new Int8();
    case "int16": return new Int16();
    case "int32": return new Int32();
    case "int64": return new Int64();
    case "uint8": return new Uint8();
    case "uint16": return new Uint16();
    case "uint32": return new Uint32();
    case "uint64": return new Uint64();
    case "float32": return new Float32();
    case "float64": return new Float64();
    case "utf8": return new Utf8();
    case "large_utf8": return new LargeUtf8();
    case "date32": return new DateDay();
    case "timestamp[s]": return new TimestampSecond();
    case "timestamp[ms]": return new TimestampMillisecond();
    case "timestamp[us]": return new TimestampMicrosecond();
    case "timestamp[ns]": return new TimestampNanosecond();
    case "duration[s]": return new DurationSecond();
    case "duration[ms]": return new DurationMillisecond();
    case "duration[us]": return new DurationMicrosecond();
    case "duration[ns]": return new DurationNanosecond();
  }
}

function packBits(bits: readonly boolean[]): Uint8Array {
  // Padded to 64 bytes as Arrow recommends (and as arrow's own builders do).
  const out = new Uint8Array(Math.max(64, Math.ceil(bits.length / 8 / 64) * 64));
  for (let i = 0; i < bits.length; i++) if (bits[i]) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

/**
 * Build an arrow Data for `dtype` from a raw column. Null slots still hold a (non-zero) value
 * underneath, as Arrow allows, so that nothing may read values without checking validity.
 */
export function makeArrowData(dtype: DType, raw: readonly Raw[], opts: GenOptions = {}): Data {
  const length = raw.length;
  const valid = raw.map((v) => v !== null);
  const nullCount = valid.filter((v) => !v).length;
  const filled = raw.map((v, i) => (v === null ? valueAt(dtype, i, opts) : v));
  const validity = nullCount > 0 ? { nullBitmap: packBits(valid), nullCount } : { nullCount: 0 };
  const type = arrowTypeFor(dtype);
  switch (dtype) {
    case "bool":
      return makeData({ type: type as Bool, length, ...validity, data: packBits(filled as boolean[]) });
    case "utf8":
    case "large_utf8": {
      const enc = new TextEncoder();
      const parts = (filled as string[]).map((s) => enc.encode(s));
      const total = parts.reduce((n, p) => n + p.length, 0);
      const bytes = new Uint8Array(total);
      const offsets = new Array<number>(length + 1);
      let pos = 0;
      offsets[0] = 0;
      parts.forEach((p, i) => {
        bytes.set(p, pos);
        pos += p.length;
        offsets[i + 1] = pos;
      });
      if (dtype === "utf8") {
        return makeData({ type: type as Utf8, length, ...validity, valueOffsets: Int32Array.from(offsets), data: bytes });
      }
      return makeData({
        type: type as LargeUtf8,
        length,
        ...validity,
        valueOffsets: BigInt64Array.from(offsets, (o) => BigInt(o)),
        data: bytes,
      });
    }
    default: {
      const T = (type as unknown as { ArrayType: new (xs: ArrayLike<number | bigint>) => ArrayLike<number | bigint> }).ArrayType;
      const data = new T(filled as (number | bigint)[]);
      return makeData({ type, length, ...validity, data } as never) as Data;
    }
  }
}

export function makeArrowVector(dtype: DType, raw: readonly Raw[], opts: GenOptions = {}): Vector {
  return makeVector(makeArrowData(dtype, raw, opts));
}

/** An arrow Table with one column per dtype (column name = the dtype string). */
export function makeArrowTable(
  length: number,
  nulls: NullPattern,
  dtypes: readonly DType[] = ALL_DTYPES,
  opts: GenOptions = {},
): Table {
  const cols: Record<string, Vector> = {};
  for (const dt of dtypes) cols[dt] = makeArrowVector(dt, rawColumn(dt, length, nulls, opts), opts);
  return new Table(cols);
}

/**
 * A Table made of several record batches: rows [0, n) split at the given cut points, each batch
 * built separately (so every batch has its own buffers and offset 0).
 */
export function makeBatchedTable(
  cuts: readonly number[],
  length: number,
  nulls: NullPattern,
  dtypes: readonly DType[] = ALL_DTYPES,
  opts: GenOptions = {},
): Table {
  const bounds = [0, ...cuts, length];
  const schema = new Schema(dtypes.map((dt) => new Field(dt, arrowTypeFor(dt), true)));
  const batches: RecordBatch[] = [];
  for (let b = 0; b + 1 < bounds.length; b++) {
    const lo = bounds[b]!;
    const hi = bounds[b + 1]!;
    const cols: Record<string, Data> = {};
    for (const dt of dtypes) cols[dt] = makeArrowData(dt, rawColumn(dt, length, nulls, opts).slice(lo, hi), opts);
    batches.push(new RecordBatch(cols));
  }
  return new Table(schema, batches);
}

// ---------------------------------------------------------------------------------------------
// Reading arrow vectors back (raw, exact: bigint stays bigint, timestamps keep their unit).

interface DataLike {
  type: DataType;
  offset: number;
  length: number;
  values: ArrayLike<number | bigint> & { [i: number]: number | bigint };
  valueOffsets: ArrayLike<number | bigint>;
  getValid(i: number): boolean;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function rawAtData(d: DataLike, i: number): Raw {
  if (!d.getValid(i)) return null;
  const t = d.type;
  if (t.typeId === Type.Bool) {
    // Bool values are not re-based by arrow's slice: the bit offset is data.offset.
    const pos = d.offset + i;
    return ((Number(d.values[pos >> 3]) >> (pos & 7)) & 1) === 1;
  }
  if (t.typeId === Type.Utf8 || t.typeId === Type.LargeUtf8) {
    // valueOffsets are re-based by slice (they index the full values buffer).
    const a = Number(d.valueOffsets[i]);
    const b = Number(d.valueOffsets[i + 1]);
    return decoder.decode((d.values as unknown as Uint8Array).subarray(a, b));
  }
  // Fixed width: arrow re-bases the values buffer on slice, so values[i] is row i.
  return d.values[i] as number | bigint;
}

/** Every row of a vector as a raw value (null for nulls), across all chunks. */
export function rawValues(vec: Vector): Raw[] {
  const out: Raw[] = [];
  for (const d of vec.data as unknown as DataLike[]) for (let i = 0; i < d.length; i++) out.push(rawAtData(d, i));
  return out;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return Object.is(a.getTime(), b.getTime());
  return Object.is(a, b);
}

function show(v: unknown): string {
  if (typeof v === "bigint") return `${v}n`;
  if (v instanceof Date) return `Date(${v.getTime()})`;
  if (typeof v === "string") return JSON.stringify(v);
  if (Object.is(v, -0)) return "-0";
  return String(v);
}

/**
 * Null when `got` equals `want` element by element (Object.is: NaN equals NaN, -0 differs from
 * 0, bigint by value; Dates by time), else a description of the first mismatch. Used instead
 * of one expect per element so that 100k-row columns compare quickly.
 */
export function diffValues(got: readonly unknown[], want: readonly unknown[]): string | null {
  if (got.length !== want.length) return `length ${got.length} != ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    if (!sameValue(got[i], want[i])) return `row ${i}: got ${show(got[i])} (${typeof got[i]}), want ${show(want[i])} (${typeof want[i]})`;
  }
  return null;
}

/** Same names, dtypes and values (diffValues: null positions, NaN, -0 and bigints exact) in every column. */
export function expectSameFrame(got: DataFrame, want: DataFrame): void {
  expect(got.columns).toEqual(want.columns);
  expect(got.dtypes).toEqual(want.dtypes);
  const g = got.toArrow();
  const w = want.toArrow();
  for (const name of want.columns) {
    expect(diffValues(rawValues(g.getChild(name)!), rawValues(w.getChild(name)!)), name).toBeNull();
  }
}

/** fn throws a GpudfError with this stable `code`. */
export function expectCode(fn: () => unknown, code: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(GpudfError);
  expect((caught as GpudfError).code).toBe(code);
}

/** Describes an arrow type by the properties that matter (typeId, bitWidth, sign, precision, unit). */
export function typeSignature(t: DataType): string {
  const x = t as unknown as { typeId: number; bitWidth?: number; isSigned?: boolean; precision?: number; unit?: number };
  switch (x.typeId) {
    case Type.Int:
      return `Int(${x.bitWidth},${x.isSigned ? "signed" : "unsigned"})`;
    case Type.Float:
      return `Float(precision=${x.precision})`;
    case Type.Date:
      return `Date(unit=${x.unit})`;
    case Type.Timestamp:
      return `Timestamp(unit=${x.unit})`;
    default:
      return `Type(${x.typeId})`;
  }
}

// ---------------------------------------------------------------------------------------------
// JS values as series.toArray() returns them.

const MS_PER_DAY = 86_400_000;

export function toJsValue(dtype: DType, raw: Raw): unknown {
  if (raw === null) return null;
  switch (dtype) {
    case "date32":
      return new Date((raw as number) * MS_PER_DAY);
    case "timestamp[s]":
      return new Date(Number(raw as bigint) * 1000);
    case "timestamp[ms]":
      return new Date(Number(raw as bigint));
    case "timestamp[us]":
      return new Date(Number((raw as bigint) / 1000n));
    case "timestamp[ns]":
      return new Date(Number((raw as bigint) / 1_000_000n));
    default:
      return raw;
  }
}

export function expectedJs(dtype: DType, length: number, nulls: NullPattern): unknown[] {
  return rawColumn(dtype, length, nulls, { dateSafe: true }).map((r) => toJsValue(dtype, r));
}

// ---------------------------------------------------------------------------------------------
// Memory of the active device.

export interface MemStat {
  liveBytes: number;
  peakBytes: number;
}

/** memory() entry of the device that is running (cuda when device().name is "cuda"). */
export function activeMemory(): MemStat {
  const m = memory();
  if (device().name === "cuda") {
    if (!m.cuda) throw new Error("memory().cuda missing while device is cuda");
    return m.cuda;
  }
  return m.cpu;
}
