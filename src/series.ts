/**
 * Series: one named, typed column on the active device.
 */
import { inspect } from "node:util";

import type * as arrow from "apache-arrow";

import { columnToArrowData } from "./arrow.js";
import { columnFromValues, type ColumnValues } from "./columns.js";
import { parseDType, type DType } from "./dtypes.js";
import { displayValues, dtypeOfHandle, sameZone, tagDType } from "./zones.js";
import { DisposedError, DtypeError, InvalidArgumentError } from "./errors.js";
import { ensureDevice } from "./device.js";
import { formatSeries } from "./format.js";
import { rowCount, sliceBounds } from "./handles.js";
import { native, type ColumnHandle } from "./native/addon.js";
import { reduceColumn, valueCountsFrame, type ReduceKind, type ReduceOptions, type ReduceValue } from "./ops/reduce.js";
import type { DataFrame } from "./dataframe.js";
import { argSortColumn, sortColumns, type SeriesSortOptions } from "./ops/sort.js";
import { jsonValue, needsJsonValue } from "./json_values.js";
import { makeVector } from "apache-arrow";
import { col, serializeExpr, type Expr, type ExprInput } from "./expr.js";
import type { CumOptions, RankOptions } from "./expr_window.js";

/** @internal Wraps an existing native handle (not exported from the package). */
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
  constructor(name: string, values: ColumnValues | Series, dtype?: DType);
  /** @internal A Series over an existing native handle. */
  constructor(name: string, values: HandleBox);
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
          : tagDType(columnFromValues(values.toArray(), dtype), parseDType(dtype));
    } else {
      const d = dtype === undefined ? undefined : parseDType(dtype);
      this.#handle = columnFromValues(values, d);
      if (d !== undefined) tagDType(this.#handle, d);
    }
  }

  #live(): ColumnHandle {
    if (this.#handle === null) throw new DisposedError(`Series "${this.#name}" was disposed`);
    return this.#handle;
  }

  /** @internal A new handle sharing this column's buffers (the caller owns it). */
  shareHandle(): ColumnHandle {
    const h = this.#live();
    return sameZone(h, h.slice(0, h.length));
  }

  /** @internal Runs fn with the live native handle (not kept beyond the call). */
  withHandle<R>(fn: (handle: ColumnHandle) => R): R {
    return fn(this.#live());
  }

  #reduce(kind: ReduceKind, options?: ReduceOptions): ReduceValue {
    return reduceColumn(this.#live(), kind, options);
  }

  /** The column name. */
  get name(): string {
    this.#live();
    return this.#name;
  }

  /** The dtype, e.g. "int64". */
  get dtype(): DType {
    return dtypeOfHandle(this.#live());
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

  /**
   * The values JSON-safe, so `JSON.stringify(series)` writes them (the rules of DataFrame.toJSON).
   *
   * @example
   * JSON.stringify(new Series("n", [1n, null])); // "[1,null]"
   */
  toJSON(): unknown[] {
    const values = this.toArray();
    const dtype = this.dtype;
    return needsJsonValue(dtype) ? values.map((v) => jsonValue(v, dtype)) : values;
  }

  /** The same data under another name. */
  rename(name: string): Series {
    return new Series(name, new HandleBox(this.shareHandle()));
  }

  /** Rows [offset, offset + length); a negative offset counts from the end (O(1)). */
  slice(offset: number, length?: number): Series {
    const h = this.#live();
    const [start, end] = sliceBounds(h.length, offset, length);
    return new Series(this.#name, new HandleBox(sameZone(h, h.slice(start, end - start))));
  }

  /**
   * The values where the bool `mask` is true (null counts as false).
   *
   * @example
   * new Series("a", [1, 2, 3]).filter(new Series("m", [true, null, true])).toArray(); // [1, 3]
   */
  filter(mask: Series): Series {
    const h = this.#live();
    if (!(mask instanceof Series)) throw new InvalidArgumentError("filter expects a bool Series");
    if (mask.dtype !== "bool") throw new DtypeError(`filter needs a bool mask, got ${mask.dtype}`);
    const m = mask.shareHandle();
    try {
      const [out] = native.filter([h], m);
      return new Series(this.#name, new HandleBox(sameZone(h, out as ColumnHandle)));
    } finally {
      m.dispose();
    }
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
    return new Series(this.#name, new HandleBox(sameZone(h, out)));
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

  // ---- Reductions. Each runs natively and returns the one value as toArray() would give it
  // for the result dtype (int64 -> bigint, ...). Rules: docs/semantics.md, "Reductions".

  /**
   * Sum of the non-null values; 0 when there are none. Integers sum in int64 (uint64 for
   * unsigned), wrapping on overflow; bool counts the trues (int64); floats keep their dtype.
   *
   * @example
   * new Series("a", [1, 2, null]).sum(); // 3
   * new Series("n", [1n, 2n]).sum();      // 3n
   */
  sum(): number | bigint {
    return this.#reduce("sum") as number | bigint;
  }

  /**
   * Mean of the non-null values (float64); null when there are none. Bool: the fraction of trues.
   *
   * @example
   * new Series("a", [1, 2, null]).mean(); // 1.5
   */
  mean(): number | null {
    return this.#reduce("mean") as number | null;
  }

  /**
   * Smallest non-null value (the column's dtype); null when none. NaN is ignored unless every
   * value is NaN; strings compare byte-wise; false < true.
   *
   * @example
   * new Series("a", [3, NaN, 1]).min(); // 1
   */
  min(): ReduceValue {
    return this.#reduce("min");
  }

  /**
   * Largest non-null value (the column's dtype); null when none. NaN as for min().
   *
   * @example
   * new Series("s", ["b", "a"]).max(); // "b"
   */
  max(): ReduceValue {
    return this.#reduce("max");
  }

  /**
   * Number of non-null values (int64, so a bigint).
   *
   * @example
   * new Series("a", [1, null]).count(); // 1n
   */
  count(): bigint {
    return this.#reduce("count") as bigint;
  }

  /**
   * Number of distinct non-null values (int64). NaN counts as one value; -0.0 equals 0.0.
   *
   * @example
   * new Series("a", [1, 1, null, 2]).nUnique(); // 2n
   */
  nUnique(): bigint {
    return this.#reduce("nUnique") as bigint;
  }

  /**
   * Standard deviation (float64) with divisor count - ddof; null when count <= ddof.
   *
   * @example
   * new Series("a", [1, 2, 3, 4]).std(); // 1.2909944487358056
   */
  std(ddof = 1): number | null {
    return this.#reduce("std", { ddof }) as number | null;
  }

  /**
   * Variance (float64) with divisor count - ddof; null when count <= ddof.
   *
   * @example
   * new Series("a", [1, 2, 3, 4]).var(0); // 1.25
   */
  var(ddof = 1): number | null {
    return this.#reduce("var", { ddof }) as number | null;
  }

  /**
   * Median (float64) of the non-null values; null when none. NaN sorts above +Infinity.
   *
   * @example
   * new Series("a", [1, 2, 3, 4]).median(); // 2.5
   */
  median(): number | null {
    return this.#reduce("median") as number | null;
  }

  /**
   * The q-quantile (float64), linear interpolation between the closest ranks; null when there
   * are no non-null values. q outside [0, 1] throws InvalidArgumentError.
   *
   * @example
   * new Series("a", [1, 2, 3, 4]).quantile(0.25); // 1.75
   */
  quantile(q: number): number | null {
    return this.#reduce("quantile", { q }) as number | null;
  }

  /**
   * True when some non-null value is true (bool columns; nulls ignored; false when empty).
   *
   * @example
   * new Series("b", [null, true]).any(); // true
   */
  any(): boolean {
    return this.#reduce("any") as boolean;
  }

  /**
   * True when no non-null value is false (bool columns; nulls ignored; true when empty).
   *
   * @example
   * new Series("b", [null, true]).all(); // true
   */
  all(): boolean {
    return this.#reduce("all") as boolean;
  }

  /**
   * The first row's value; null when that row is null or the series is empty.
   *
   * @example
   * new Series("a", [null, 2]).first(); // null
   */
  first(): ReduceValue {
    return this.#reduce("first");
  }

  /**
   * The last row's value; null when that row is null or the series is empty.
   *
   * @example
   * new Series("a", [1, 2]).last(); // 2
   */
  last(): ReduceValue {
    return this.#reduce("last");
  }

  /**
   * Index (int64) of the first smallest non-null value, as min() picks it; null when none.
   *
   * @example
   * new Series("a", [3, 1, 1]).argMin(); // 1n
   */
  argMin(): bigint | null {
    return this.#reduce("argMin") as bigint | null;
  }

  /**
   * Index (int64) of the first largest non-null value, as max() picks it; null when none.
   *
   * @example
   * new Series("a", [3, 5, 5]).argMax(); // 1n
   */
  argMax(): bigint | null {
    return this.#reduce("argMax") as bigint | null;
  }

  /**
   * Each distinct value (null included) and how often it occurs: a frame with this series'
   * name (same dtype) and "count" (int64). sort (default true): by count descending, then value
   * ascending, null last among equal counts; sort false: by value ascending, null last.
   *
   * @example
   * new Series("c", ["x", "y", "x"]).valueCounts().toRecords();
   * // [{ c: "x", count: 2n }, { c: "y", count: 1n }]
   */
  valueCounts(options: { sort?: boolean } = {}): DataFrame {
    this.#live();
    return valueCountsFrame(this, options.sort ?? true);
  }

  /** The expression `build(col(name))` over this series alone, as a series of the same name. */
  #window(build: (c: Expr) => Expr): Series {
    const h = this.#live();
    ensureDevice();
    const e = build(col(this.#name));
    return new Series(this.#name, new HandleBox(sameZone(h, native.evalExpr(serializeExpr(e.node), [this.#name], [h], h.length))));
  }

  // Sequence functions: as the Expr methods of the same names (docs/semantics.md "Window functions").

  /** Running sum (nulls skipped, kept null). @example new Series("x", [1, null, 2]).cumSum().toArray(); // [1n, null, 3n] */
  cumSum(options?: CumOptions): Series { return this.#window((c) => c.cumSum(options)); }
  /** Running product. */
  cumProd(options?: CumOptions): Series { return this.#window((c) => c.cumProd(options)); }
  /** Running minimum. */
  cumMin(options?: CumOptions): Series { return this.#window((c) => c.cumMin(options)); }
  /** Running maximum. */
  cumMax(options?: CumOptions): Series { return this.#window((c) => c.cumMax(options)); }
  /** Running count of non-null values (uint32). */
  cumCount(options?: CumOptions): Series { return this.#window((c) => c.cumCount(options)); }
  /** The value n rows before (null or `fillValue` where none). */
  shift(n = 1, options?: { fillValue?: ExprInput }): Series { return this.#window((c) => c.shift(n, options)); }
  /** this - this.shift(n). */
  diff(n = 1): Series { return this.#window((c) => c.diff(n)); }
  /** Fractional change from n rows before (nulls filled forward first). */
  pctChange(n = 1): Series { return this.#window((c) => c.pctChange(n)); }
  /** Rank of each value (ties by method, default "average"). @example new Series("x", [3, 1, 3]).rank().toArray(); // [2.5, 1, 2.5] */
  rank(options?: RankOptions): Series { return this.#window((c) => c.rank(options)); }
  /** True at the first row of each distinct value. */
  isFirstDistinct(): Series { return this.#window((c) => c.isFirstDistinct()); }
  /** True where the value occurs more than once. */
  isDuplicated(): Series { return this.#window((c) => c.isDuplicated()); }
  /** True where the value occurs exactly once. */
  isUnique(): Series { return this.#window((c) => c.isUnique()); }

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
    return formatSeries(this.#name, this.dtype, h.length, (start, count) => displayValues(h, start, count));
  }

  [inspect.custom](): string {
    return this.disposed ? `Series "${this.#name}" (disposed)` : this.toString();
  }
}
