/**
 * Slicing and bounds rules shared by DataFrame and Series (Polars semantics).
 */
import { InvalidArgumentError } from "./errors.js";

function integer(value: number, what: string): number {
  if (!Number.isInteger(value)) throw new InvalidArgumentError(`${what} must be an integer, got ${String(value)}`);
  return value;
}

/**
 * [start, end) of slice(offset, length) over `height` rows: a negative offset counts from the
 * end; both ends are clamped to the rows that exist.
 */
export function sliceBounds(height: number, offset: number, length?: number): [number, number] {
  integer(offset, "offset");
  if (length !== undefined) {
    integer(length, "length");
    if (length < 0) throw new InvalidArgumentError(`length must be >= 0, got ${length}`);
  }
  const start = offset < 0 ? height + offset : offset;
  const end = length === undefined ? height : start + length;
  const s = Math.min(Math.max(start, 0), height);
  const e = Math.min(Math.max(end, s), height);
  return [s, e];
}

/** Validates head/tail's n. */
export function rowCount(n: number): number {
  integer(n, "n");
  if (n < 0) throw new InvalidArgumentError(`n must be >= 0, got ${n}`);
  return n;
}
