/**
 * Dtypes: the one place that maps gpudf's dtype strings to native type ids and Arrow types.
 * The ids are the native TypeId values (native/core/types.hpp); change both together.
 */
import * as arrow from "apache-arrow";

import { DtypeError, InvalidArgumentError } from "./errors.js";

/** Every dtype gpudf stores. */
export const DTYPES = [
  "bool",
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "float32",
  "float64",
  "utf8",
  "large_utf8",
  "date32",
  "timestamp[s]",
  "timestamp[ms]",
  "timestamp[us]",
  "timestamp[ns]",
  "duration[s]",
  "duration[ms]",
  "duration[us]",
  "duration[ns]",
] as const;

/** A dtype without a time zone: one of DTYPES. */
export type BaseDType = (typeof DTYPES)[number];

/** A timestamp's unit. */
export type TimeUnit = "s" | "ms" | "us" | "ns";

/**
 * A time-zone-aware timestamp, e.g. `"timestamp[us, tz=Europe/Berlin]"`: the values are UTC
 * instants (as in a plain timestamp) and the IANA zone says how they read as local times.
 */
export type ZonedTimestamp = `timestamp[${TimeUnit}, tz=${string}]`;

/**
 * A column's logical type, e.g. `"int32"`, `"utf8"`, `"timestamp[ms]"`, `"duration[us]"`, or a
 * zoned timestamp `"timestamp[ms, tz=America/New_York]"`.
 */
export type DType = BaseDType | ZonedTimestamp;

const ZONED = /^timestamp\[(s|ms|us|ns), tz=([A-Za-z0-9_+\-/]+)\]$/;

/** True when `value` names a gpudf dtype. */
export function isDType(value: unknown): value is DType {
  if (typeof value !== "string") return false;
  return (DTYPES as readonly string[]).includes(value) || ZONED.test(value);
}

/** The dtype without its time zone (itself when it has none). */
export function baseDType(dtype: DType): BaseDType {
  const m = ZONED.exec(dtype);
  return m ? (`timestamp[${m[1]}]` as BaseDType) : (dtype as BaseDType);
}

/** A zoned timestamp's time zone; undefined for every other dtype. */
export function timeZoneOf(dtype: DType): string | undefined {
  return ZONED.exec(dtype)?.[2];
}

/** `dtype` (a timestamp) with time zone `zone`, or without one when `zone` is undefined. */
export function withTimeZone(dtype: DType, zone: string | undefined): DType {
  const base = baseDType(dtype);
  if (zone === undefined || !base.startsWith("timestamp[")) return base;
  return `${base.slice(0, -1)}, tz=${zone}]` as ZonedTimestamp;
}

/**
 * The native type id of a reader's dtype option: the readers parse plain types, so a zoned
 * timestamp is an InvalidArgumentError there (read it plain, then dt.replaceTimeZone).
 */
export function readerTypeId(value: unknown, reader: string): number {
  const d = parseDType(value);
  if (timeZoneOf(d) !== undefined) {
    throw new InvalidArgumentError(`${reader}: dtype ${d} has a time zone; read the column as ${baseDType(d)}, then use dt.replaceTimeZone`);
  }
  return typeIdOf(d);
}

/** The native type id of a dtype (a zoned timestamp's is its unit's: the zone is not native). */
export function typeIdOf(dtype: DType): number {
  return DTYPES.indexOf(baseDType(dtype));
}

/** The dtype of a native type id. */
export function dtypeOfId(id: number): DType {
  const d = DTYPES[id];
  if (d === undefined) throw new DtypeError(`unknown native type id ${id}`);
  return d;
}

/** A value as an error message shows it (JSON where it has one; bigints and the rest as text). */
function shown(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Validates a user-supplied dtype string. */
export function parseDType(value: unknown): DType {
  if (!isDType(value)) {
    throw new DtypeError(`unknown dtype ${shown(value)}; expected one of ${DTYPES.join(", ")}, or a zoned timestamp such as "timestamp[us, tz=Europe/Berlin]"`);
  }
  return value;
}

// Arrow's Type enum values. Read from `type.typeId`, never by instanceof, so tables made by
// another copy of apache-arrow are understood too.
const A_INT = 2;
const A_FLOAT = 3;
const A_UTF8 = 5;
const A_BOOL = 6;
const A_DATE = 8;
const A_TIMESTAMP = 10;
const A_DURATION = 18;
const A_LARGE_UTF8 = 20;
const A_DICTIONARY = -1;

/** The structural view of an Arrow DataType that gpudf reads. */
export interface ArrowTypeLike {
  typeId: number;
  bitWidth?: number;
  isSigned?: boolean;
  precision?: number;
  unit?: number;
  timezone?: string | null;
  dictionary?: ArrowTypeLike;
  indices?: ArrowTypeLike;
  toString?(): string;
}

const TIME_UNITS: readonly DType[] = ["timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]"];
const DURATION_UNITS: readonly DType[] = ["duration[s]", "duration[ms]", "duration[us]", "duration[ns]"];

/** True for the duration dtypes (a signed count of s, ms, us or ns, stored as int64). */
export function isDuration(dtype: DType): boolean {
  return dtype.startsWith("duration[");
}

/** The dtype an Arrow type is stored as; DtypeError when gpudf does not support it. */
export function dtypeFromArrow(type: ArrowTypeLike): DType {
  switch (type.typeId) {
    case A_BOOL:
      return "bool";
    case A_INT: {
      const bits = type.bitWidth;
      const name = `${type.isSigned ? "int" : "uint"}${bits}`;
      if (isDType(name)) return name;
      break;
    }
    case A_FLOAT:
      if (type.precision === 1) return "float32";
      if (type.precision === 2) return "float64";
      break;
    case A_UTF8:
      return "utf8";
    case A_LARGE_UTF8:
      return "large_utf8";
    case A_DATE:
      // date64 (milliseconds) has no gpudf twin; its values are exactly timestamp[ms].
      return type.unit === 0 ? "date32" : "timestamp[ms]";
    case A_TIMESTAMP: {
      const d = TIME_UNITS[type.unit ?? -1];
      if (d) return type.timezone ? withTimeZone(d, arrowZone(type.timezone)) : d;
      break;
    }
    case A_DURATION: {
      const d = DURATION_UNITS[type.unit ?? -1];
      if (d) return d;
      break;
    }
    case A_DICTIONARY:
      if (type.dictionary) return dtypeFromArrow(type.dictionary);
      break;
  }
  throw new DtypeError(`unsupported Arrow type ${String(type.toString?.() ?? type.typeId)}`);
}

/**
 * An Arrow timestamp's timezone as gpudf keeps it: an IANA name as is; a fixed offset such as
 * "+01:00" or "-05:30" as the tz database's Etc/GMT name when it is whole hours (note the sign:
 * Etc/GMT-1 is UTC+1), else a DtypeError; "Z" and "+00:00" as UTC.
 */
function arrowZone(tz: string): string {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(tz);
  if (tz === "Z" || tz === "z") return "UTC";
  if (!m) {
    if (!/^[A-Za-z0-9_+\-/]+$/.test(tz)) throw new DtypeError(`unsupported Arrow timestamp timezone ${JSON.stringify(tz)}`);
    return tz;
  }
  const hours = Number(m[2]);
  if (m[3] !== "00" || hours > 14) throw new DtypeError(`unsupported Arrow timestamp timezone ${JSON.stringify(tz)}: only whole-hour offsets map to a zone`);
  if (hours === 0) return "UTC";
  return `Etc/GMT${m[1] === "+" ? "-" : "+"}${hours}`;
}

/** True for Arrow dictionary types. */
export function isArrowDictionary(type: ArrowTypeLike): boolean {
  return type.typeId === A_DICTIONARY;
}

/** The apache-arrow type gpudf exports a dtype as. */
export function arrowTypeOf(dtype: DType): arrow.DataType {
  const zone = timeZoneOf(dtype);
  if (zone !== undefined) {
    const unit = TIME_UNITS.indexOf(baseDType(dtype)) as arrow.TimeUnit;
    return new arrow.Timestamp(unit, zone);
  }
  switch (dtype as BaseDType) {
    case "bool": return new arrow.Bool();
    case "int8": return new arrow.Int8();
    case "int16": return new arrow.Int16();
    case "int32": return new arrow.Int32();
    case "int64": return new arrow.Int64();
    case "uint8": return new arrow.Uint8();
    case "uint16": return new arrow.Uint16();
    case "uint32": return new arrow.Uint32();
    case "uint64": return new arrow.Uint64();
    case "float32": return new arrow.Float32();
    case "float64": return new arrow.Float64();
    case "utf8": return new arrow.Utf8();
    case "large_utf8": return new arrow.LargeUtf8();
    case "date32": return new arrow.DateDay();
    case "timestamp[s]": return new arrow.TimestampSecond();
    case "timestamp[ms]": return new arrow.TimestampMillisecond();
    case "timestamp[us]": return new arrow.TimestampMicrosecond();
    case "timestamp[ns]": return new arrow.TimestampNanosecond();
    case "duration[s]": return new arrow.DurationSecond();
    case "duration[ms]": return new arrow.DurationMillisecond();
    case "duration[us]": return new arrow.DurationMicrosecond();
    case "duration[ns]": return new arrow.DurationNanosecond();
  }
}

/** The dtype a TypedArray holds (typed arrays keep their type), or undefined. */
export function dtypeOfTypedArray(values: unknown): DType | undefined {
  if (values instanceof Float64Array) return "float64";
  if (values instanceof Float32Array) return "float32";
  if (values instanceof Int8Array) return "int8";
  if (values instanceof Int16Array) return "int16";
  if (values instanceof Int32Array) return "int32";
  if (values instanceof BigInt64Array) return "int64";
  if (values instanceof Uint8Array || values instanceof Uint8ClampedArray) return "uint8";
  if (values instanceof Uint16Array) return "uint16";
  if (values instanceof Uint32Array) return "uint32";
  if (values instanceof BigUint64Array) return "uint64";
  return undefined;
}

/** The kind of JS value a dtype holds: what `fillNull(value)` matches a scalar against. */
export type ValueKind = "number" | "string" | "boolean" | "date";

/** The kind of JS value a dtype's values are (numbers and bigints both count as "number"). */
export function valueKindOf(dtype: DType): ValueKind {
  switch (baseDType(dtype)) {
    case "bool":
      return "boolean";
    case "utf8":
    case "large_utf8":
      return "string";
    case "date32":
    case "timestamp[s]":
    case "timestamp[ms]":
    case "timestamp[us]":
    case "timestamp[ns]":
      return "date";
    default:
      return "number";
  }
}
