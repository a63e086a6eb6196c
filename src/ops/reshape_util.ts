/**
 * Column helpers of the reshaping verbs (reshape.ts, concat_how.ts): a common supertype, casts,
 * null and constant columns. Each is one native call (an expression or a native query); none
 * reads rows in JS.
 */
import { dtypeOfId, typeIdOf, type DType } from "../dtypes.js";
import { DtypeError, InvalidArgumentError } from "../errors.js";
import { col, lit, type LiteralValue } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { share, type FrameParts } from "./frame.js";
import { columnIndex, evaluate } from "./select.js";

const NO_COLUMNS: FrameParts = { names: [], columns: [], height: 0 };

/** The dtype values of all these dtypes can be held in (the fillNull/when supertype), or DtypeError. */
export function supertypeOf(dtypes: readonly DType[], what: string): DType {
  let t = dtypes[0] as DType;
  for (const d of dtypes.slice(1)) {
    if (d === t) continue;
    try {
      t = dtypeOfId(native.keySupertype(typeIdOf(t), typeIdOf(d)));
    } catch (err) {
      if (err instanceof DtypeError) throw new DtypeError(`${what}: dtypes ${t} and ${d} have no common supertype`);
      throw err;
    }
  }
  return t;
}

/** `h` as `dtype` (a new handle; shared when it already is). */
export function castTo(h: ColumnHandle, dtype: DType): ColumnHandle {
  if (dtypeOfId(h.typeId) === dtype) return share(h);
  return evaluate({ names: ["v"], columns: [h], height: h.length }, col("v").cast(dtype), h.length);
}

/** `rows` nulls of `dtype`. */
export function nullColumn(dtype: DType, rows: number): ColumnHandle {
  return evaluate({ ...NO_COLUMNS, height: rows }, lit(null, dtype), rows);
}

/** `rows` copies of `value`. */
export function constantColumn(value: LiteralValue, rows: number): ColumnHandle {
  return evaluate({ ...NO_COLUMNS, height: rows }, lit(value), rows);
}

/** `h` followed by `extra` nulls of its dtype. */
export function padWithNulls(h: ColumnHandle, extra: number): ColumnHandle {
  if (extra === 0) return share(h);
  const nulls = nullColumn(dtypeOfId(h.typeId), extra);
  try {
    return native.concat([h, nulls]);
  } finally {
    nulls.dispose();
  }
}

/** A verb's column-name argument (a name or an array of names) as a list; undefined stays. */
export function nameList(value: unknown, what: string): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((n) => typeof n !== "string")) {
    throw new InvalidArgumentError(`${what} must be a column name or an array of column names`);
  }
  return [...(list as string[])];
}

/** Checks each name exists in the frame (ColumnNotFoundError naming the nearest). */
export function checkColumns(frame: FrameParts, names: readonly string[]): void {
  for (const n of names) columnIndex(frame, n);
}

/** The handle of column `name`. */
export function columnOf(frame: FrameParts, name: string): ColumnHandle {
  return frame.columns[columnIndex(frame, name)] as ColumnHandle;
}

/** Disposes every handle. */
export function disposeAll(handles: readonly ColumnHandle[]): void {
  for (const h of handles) h.dispose();
}
