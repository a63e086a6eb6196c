/**
 * Series: one named, typed column on the active device.
 */
import { inspect } from "node:util";

import type * as arrow from "apache-arrow";

import { columnToArrowData } from "./arrow.js";
import { columnFromValues, type ColumnValues } from "./columns.js";
import { dtypeOfId, parseDType, type DType } from "./dtypes.js";
import { DisposedError, InvalidArgumentError } from "./errors.js";
import { formatSeries } from "./format.js";
import { rowCount, sliceBounds } from "./handles.js";
import { native, type ColumnHandle } from "./native/addon.js";
import { argSortColumn, sortColumns, type SeriesSortOptions } from "./ops/sort.js";
import { makeVector } from "apache-arrow";

/** Wraps an existing native handle (internal; not exported from the package). */
export class HandleBox {
  constructor(readonly handle: ColumnHandle) {}
}

/**
 * A named column.
 *
 * @example
 * import { Series } from "gpudf";
 * const s = new Series("price", [1.5, null, 3]);
 * s.dtype;      // "float64"
 * s.nullCount;  // 1
 * s.toArray();  // [1.5, null, 3]
 */
export class Series {
  #handle: ColumnHandle | null;
  #name: string;

  /**
   * @param name   the column name
   * @param values a JS array (dtype inferred as in DataFrame), a typed array (keeps its type),
   *   or another Series (shared, not copied)
   * @param dtype  convert the values to this dtype
   */
  constructor(name: string, values: ColumnValues | Series | HandleBox, dtype?: DType) {
    if (typeof name !== "string") throw new InvalidArgumentError("a Series name must be a string");
    this.#name = name;
    if (values instanceof HandleBox) {
      this.#handle = values.handle;
    } else if (values instanceof Series) {
      // Shares the other series' buffers; a dtype that differs converts through JS values.
      this.#handle =
        dtype === undefined || parseDType(dtype) === values.dtype
          ? values.shareHandle()
          : columnFromValues(values.toArray(), dtype);
    } else {
      this.#handle = columnFromValues(values, dtype === undefined ? undefined : parseDType(dtype));
    }
  }

  #live(): ColumnHandle {
    if (this.#handle === null) throw new DisposedError(`Series "${this.#name}" was disposed`);
    return this.#handle;
  }

  /** @internal A new handle sharing this column's buffers (the caller owns it). */
  shareHandle(): ColumnHandle {
    const h = this.#live();
    return h.slice(0, h.length);
  }

  /** The column name. */
  get name(): string {
    this.#live();
    return this.#name;
  }

  /** The dtype, e.g. "int64". */
  get dtype(): DType {
    return dtypeOfId(this.#live().typeId);
  }

  /** Number of values, nulls included. */
  get length(): number {
    return this.#live().length;
  }

  /** Number of nulls. */
  get nullCount(): number {
    return this.#live().nullCount();
  }

  /** True after dispose(). */
  get disposed(): boolean {
    return this.#handle === null;
  }

  /**
   * The values as a JS array: null for nulls, bigint for int64/uint64, Date for date32 and
   * timestamps (sub-millisecond digits truncated), number, string or boolean otherwise.
   *
   * @example
   * new Series("n", [1n, null]).toArray(); // [1n, null]
   */
  toArray(): unknown[] {
    const h = this.#live();
    return native.toValues(h, 0, h.length);
  }

  /** The same data under another name. */
  rename(name: string): Series {
    return new Series(name, new HandleBox(this.shareHandle()));
  }

  /** Rows [offset, offset + length); a negative offset counts from the end (O(1)). */
  slice(offset: number, length?: number): Series {
    const h = this.#live();
    const [start, end] = sliceBounds(h.length, offset, length);
    return new Series(this.#name, new HandleBox(h.slice(start, end - start)));
  }

  /** The first n values. */
  head(n = 5): Series {
    return this.slice(0, Math.min(rowCount(n), this.length));
  }

  /** The last n values. */
  tail(n = 5): Series {
    const len = this.length;
    const k = Math.min(rowCount(n), len);
    return this.slice(len - k, k);
  }

  /**
   * The values in order (stable); nulls last by default, NaN above +Infinity.
   *
   * @example
   * new Series("x", [3, null, 1]).sort({ descending: true }).toArray(); // [3, 1, null]
   */
  sort(options?: SeriesSortOptions): Series {
    const h = this.#live();
    const [out] = sortColumns([h], [h], options) as [ColumnHandle];
    return new Series(this.#name, new HandleBox(out));
  }

  /**
   * The row indices (int64) that would sort the values; ties keep their order.
   *
   * @example
   * new Series("x", [3, null, 1]).argSort().toArray(); // [2n, 0n, 1n]
   */
  argSort(options?: SeriesSortOptions): Series {
    return new Series(this.#name, new HandleBox(argSortColumn(this.#live(), options)));
  }

  /** An apache-arrow Vector built straight from the native buffers. */
  toArrow(): arrow.Vector {
    return makeVector(columnToArrowData(this.#live(), this.dtype));
  }

  /** Frees the native buffers now (unless shared with a live frame or series). Idempotent. */
  dispose(): void {
    this.#handle?.dispose();
    this.#handle = null;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** A boxed, truncated table of the values. */
  toString(): string {
    const h = this.#live();
    return formatSeries(this.#name, this.dtype, h.length, (start, count) => native.toValues(h, start, count));
  }

  [inspect.custom](): string {
    return this.disposed ? `Series "${this.#name}" (disposed)` : this.toString();
  }
}
