/**
 * DataFrame: named, equal-length native columns. Verbs are immutable and return new frames that
 * share buffers with their input (selecting and slicing copy no data).
 */
import { inspect } from "node:util";

import type { ColumnValues } from "./columns.js";
import { type DType } from "./dtypes.js";
import { carryZones, displayValues, dtypeOfHandle } from "./zones.js";
import { DisposedError, InvalidArgumentError } from "./errors.js";
import { formatFrame } from "./format.js";
import { rowCount, sliceBounds } from "./handles.js";
import { native, type ColumnHandle } from "./native/addon.js";
import { describeFrame } from "./ops/reduce.js";
import { schemaOfHandles, sortColumns, sortKeyNames, uniqueFrame, type SortBy, type SortOptions, type UniqueOptions } from "./ops/sort.js";
import { sampleColumns, takeColumns, type SampleOptions, type TakeIndices } from "./ops/take.js";
import { HandleBox, Series } from "./series.js";
import { Expr, lit, type LiteralValue } from "./expr.js";
import { share, type FrameParts, type FrameResult } from "./ops/frame.js";
import { columnsFromArrow, columnsFromObject, recordsToColumns } from "./ops/construct.js";
import { dropNulls as dropNullsOp, fillNull as fillNullOp, filterFrame } from "./ops/filter.js";
import { joinFrames, type JoinOptions } from "./ops/join.js";
import { columnIndex, flattenItems, namesAfterDrop, namesAfterRename, selectColumns, withColumns as withColumnsOp, withSeries, type DropItem, type SelectItem } from "./ops/select.js";
import { GroupBy, type GroupByOptions, type GroupKey } from "./ops/groupby.js";
import { frameTopK, type TopKBy } from "./ops/top_k.js";
import type { FrameVerbs } from "./ops/verbs.js";
import { lazyOf, type LazyFrame } from "./lazy/lazy_frame.js";
import { isFillNullStrategy, type FillNullStrategy } from "./expr_fill.js";
import { fillNullByStrategy } from "./ops/fill.js";
import { unpivot as unpivotOp, type UnpivotOptions } from "./ops/reshape.js";

/** Input accepted per column by `new DataFrame({...})`. */
export type ColumnInput = ColumnValues | Series;

let fromHandles: (names: string[], columns: ColumnHandle[]) => DataFrame;
let partsOf: (df: DataFrame) => { names: string[]; handles: ColumnHandle[]; height: number };

/**
 * A table of named columns on the active device (cpu or cuda).
 *
 * @example
 * import { DataFrame } from "gpudf";
 * const df = new DataFrame({ city: ["NYC", "SF", null], fare: [12.5, 8, 30] });
 * df.shape;   // [3, 2]
 * df.dtypes;  // ["utf8", "float64"]
 * console.log(df.head(2).toString());
 */
export class DataFrame implements FrameVerbs<DataFrame, GroupBy, DataFrame> {
  #names: string[] = [];
  #columns: ColumnHandle[] = [];
  #height = 0;
  #disposed = false;

  static {
    fromHandles = (names, columns) => {
      const df = new DataFrame();
      df.#names = names;
      df.#columns = columns;
      df.#height = columns[0]?.length ?? 0;
      return df;
    };
    partsOf = (df) => ({ names: [...df.#names], handles: df.#live(), height: df.#height });
  }

  /**
   * @param columns column name -> values. JS arrays are inferred (number -> float64,
   *   bigint -> int64, string -> utf8, boolean -> bool, Date -> timestamp[ms], null/undefined ->
   *   null); typed arrays keep their type; a Series is shared, not copied.
   */
  constructor(columns?: Record<string, ColumnInput>) {
    if (columns === undefined) return;
    const { names, handles } = columnsFromObject(columns);
    this.#names = names;
    this.#columns = handles;
    this.#height = handles[0]?.length ?? 0;
  }

  /**
   * A frame from row objects; columns in order of first appearance, missing keys are null.
   *
   * @example
   * DataFrame.fromRecords([{ a: 1, b: "x" }, { a: 2 }]).toRecords(); // [{a:1,b:"x"},{a:2,b:null}]
   */
  static fromRecords(rows: readonly Record<string, unknown>[]): DataFrame {
    return new DataFrame(recordsToColumns(rows));
  }

  /**
   * A frame from an apache-arrow Table (any copy of apache-arrow: recognised by shape).
   * Record batches are concatenated, slices honoured, dictionaries decoded, date64 becomes
   * timestamp[ms]. Unsupported Arrow types throw DtypeError.
   *
   * @example
   * import { tableFromArrays } from "apache-arrow";
   * const df = DataFrame.fromArrow(tableFromArrays({ a: Int32Array.from([1, 2]) }));
   */
  static fromArrow(table: unknown): DataFrame {
    const { names, handles } = columnsFromArrow(table);
    return fromHandles(names, handles);
  }

  #live(): ColumnHandle[] {
    if (this.#disposed) throw new DisposedError("this DataFrame was disposed");
    return this.#columns;
  }

  #index(name: string): number {
    return columnIndex(this.#parts(), name);
  }

  /** A frame of these columns (shared buffers), under the given names. */
  #derive(names: string[], handles: ColumnHandle[]): DataFrame {
    return fromHandles(names, handles.map(share));
  }

  /** [height, width]. */
  get shape(): [number, number] {
    this.#live();
    return [this.#height, this.#names.length];
  }

  /** Number of rows. */
  get height(): number {
    this.#live();
    return this.#height;
  }

  /** Number of columns. */
  get width(): number {
    this.#live();
    return this.#names.length;
  }

  /** Column names in order. */
  get columns(): string[] {
    this.#live();
    return [...this.#names];
  }

  /** Dtype of each column, in order. */
  get dtypes(): DType[] {
    return this.#live().map(dtypeOfHandle);
  }

  /** Column name -> dtype. */
  get schema(): Record<string, DType> {
    const dtypes = this.dtypes;
    return Object.fromEntries(this.#names.map((n, i) => [n, dtypes[i] as DType]));
  }

  /** True after dispose(). */
  get disposed(): boolean {
    return this.#disposed;
  }

  /**
   * Columns by name (shared, no copy) and expressions (evaluated natively), in the order given.
   * Literal-only expressions give one row, broadcast to the height when a column is selected.
   *
   * @example
   * df.select("a", col("b").mul(2).alias("b2")); df.select(["a", "b"]);
   */
  select(...items: (SelectItem | readonly SelectItem[])[]): DataFrame {
    return this.#apply(selectColumns(this.#parts(), flattenItems(items)));
  }

  /**
   * Adds expression results as columns: a result replaces the column of the same name in place,
   * other results are appended.
   *
   * @example
   * df.withColumns(col("fare").mul(col("rate")).alias("usd"), col("a").fillNull(0));
   */
  withColumns(...exprs: (Expr | readonly Expr[])[]): DataFrame {
    return this.#apply(withColumnsOp(this.#parts(), exprs.flat() as Expr[]));
  }

  /**
   * A uint32 row number column `name` (default "index") first, counting from `offset` (default 0),
   * then the columns (as Polars' with_row_index).
   *
   * @example
   * new DataFrame({ a: ["x", "y"] }).withRowIndex("i", 1).toRecords(); // [{ i: 1, a: "x" }, { i: 2, a: "y" }]
   */
  withRowIndex(name = "index", offset = 0): DataFrame {
    if (typeof name !== "string") throw new InvalidArgumentError("withRowIndex: name must be a string");
    if (!Number.isSafeInteger(offset) || offset < 0 || offset + this.height > 2 ** 32) {
      throw new InvalidArgumentError(`withRowIndex: offset must be an integer >= 0 and offset + height fit uint32, got ${String(offset)}`);
    }
    const index = lit(0).cumCount().sub(1).add(offset).alias(name);
    return this.select(index, ...this.columns);
  }

  /**
   * The rows where the predicate is true (a null predicate counts as false).
   *
   * @example
   * df.filter(col("fare").gt(0).and(col("city").eq("NYC")));
   * df.filter(new Series("keep", [true, false, true]));
   */
  filter(predicate: Expr | Series): DataFrame {
    return this.#apply(filterFrame(this.#parts(), predicate));
  }

  /** Rows without a null in any of the named columns (default: all columns). @example df.dropNulls(); df.dropNulls("a", "b") */
  dropNulls(...subset: (string | readonly string[])[]): DataFrame {
    const names = subset.flat() as string[];
    return this.#apply(dropNullsOp(this.#parts(), names.length > 0 ? names : undefined));
  }

  /**
   * Nulls replaced: a single value fills every column whose values are of its kind (numbers,
   * strings, booleans, Dates) and leaves the others unchanged; a { column: value } object fills
   * exactly those columns (an incompatible value there throws DtypeError).
   * A `{ strategy, limit? }` object fills by strategy instead (see Expr.fillNull): "forward" and
   * "backward" fill every column, "min"/"max" the numeric, string and temporal ones,
   * "mean"/"zero"/"one" the numeric ones.
   *
   * @example
   * df.fillNull(0); df.fillNull({ city: "unknown", fare: 0 }); df.fillNull({ strategy: "forward" });
   */
  fillNull(value: LiteralValue | Record<string, LiteralValue> | FillNullStrategy): DataFrame {
    if (isFillNullStrategy(value)) return this.#apply(fillNullByStrategy(this.#parts(), value));
    return this.#apply(fillNullOp(this.#parts(), value));
  }

  /**
   * Wide to long (Polars' unpivot): the `index` columns repeated for each `on` column (default:
   * every other column), a utf8 "variable" column naming it and a "value" column holding its
   * values, cast to the `on` columns' common supertype (else DtypeError). All rows of the first
   * `on` column come first, then the next's.
   *
   * @example
   * new DataFrame({ id: [1, 2], a: [3, 4], b: [5, 6] }).unpivot({ index: "id" }).toRecords();
   * // [{id:1,variable:"a",value:3},{id:2,variable:"a",value:4},{id:1,variable:"b",value:5},{id:2,variable:"b",value:6}]
   */
  unpivot(options?: UnpivotOptions): DataFrame {
    return this.#apply(unpivotOp(this.#parts(), options));
  }

  /** unpivot under its older name. @example df.melt({ index: "id", on: ["a", "b"] }) */
  melt(options?: UnpivotOptions): DataFrame {
    return this.unpivot(options);
  }

  #parts(): FrameParts {
    return { names: this.#names, columns: this.#live(), height: this.#height };
  }

  /** A frame of a verb's result; columns of the same names as this frame's keep their zones. */
  #apply(result: FrameResult): DataFrame {
    carryZones(this.#parts(), result);
    return fromHandles(result.names, result.columns);
  }

  /** Every column but the named ones. @example df.drop("tmp") */
  drop(...names: (DropItem | readonly DropItem[])[]): DataFrame {
    const columns = this.#live();
    const keep = namesAfterDrop(this.#names, names, schemaOfHandles(this.#names, columns));
    return this.#derive(keep, keep.map((n) => columns[this.#names.indexOf(n)] as ColumnHandle));
  }

  /** Renames columns by an { old: new } mapping. @example df.rename({ fare: "fare_usd" }) */
  rename(mapping: Record<string, string>): DataFrame {
    return this.#derive(namesAfterRename(this.#names, mapping), this.#live());
  }

  /**
   * One column as a Series (sharing the buffers; it stays valid after this frame is disposed).
   *
   * @example
   * df.getColumn("fare").toArray();
   */
  getColumn(name: string): Series {
    const h = this.#columns[this.#index(name)] as ColumnHandle;
    return new Series(name, new HandleBox(share(h)));
  }

  /**
   * A frame with `series` replacing the column of the same name (in place) or appended.
   *
   * @example
   * df.withColumn(new Series("flag", [true, false, true]));
   */
  withColumn(series: Series): DataFrame {
    return this.#apply(withSeries(this.#parts(), series));
  }

  /**
   * Rows [offset, offset + length); a negative offset counts from the end; clamped to the
   * frame. O(1): the result shares this frame's buffers.
   *
   * @example
   * df.slice(10, 5); df.slice(-3);
   */
  slice(offset: number, length?: number): DataFrame {
    this.#live();
    const [start, end] = sliceBounds(this.#height, offset, length);
    return this.#apply({ names: [...this.#names], columns: this.#columns.map((h) => h.slice(start, end - start)) });
  }

  /** The first n rows (all when n > height). */
  head(n = 5): DataFrame {
    this.#live();
    return this.slice(0, rowCount(n));
  }

  /** The first n rows (as head). @example df.limit(10) */
  limit(n = 5): DataFrame {
    return this.head(n);
  }

  /**
   * A LazyFrame over this frame: verbs then build a plan, optimised and run natively as a whole
   * by `collect()`.
   *
   * @example
   * const out = await df.lazy().filter(col("fare").gt(0)).groupBy("city").agg(col("fare").sum()).collect();
   */
  lazy(): LazyFrame {
    this.#live();
    return lazyOf(this);
  }

  /** The last n rows (all when n > height). */
  tail(n = 5): DataFrame {
    this.#live();
    const k = Math.min(rowCount(n), this.#height);
    return this.slice(this.#height - k, k);
  }

  /**
   * Summary statistics, as Polars' describe: a "statistic" column (count, null_count, mean,
   * std, min, 25%, 50%, 75%, max), then one float64 column per numeric (int, float, bool)
   * column; other columns are left out. Percentiles interpolate linearly; bool columns have no
   * std or percentiles (null).
   *
   * @example
   * new DataFrame({ a: [1, 2, 3, null] }).describe().toRecords()[0]; // { statistic: "count", a: 3 }
   */
  describe(): DataFrame {
    this.#live();
    return describeFrame(this);
  }

  /**
   * Rows ordered by one or more key columns. Stable: rows with equal keys keep their order.
   * `descending` and `nullsLast` are a boolean for every key or an array with one per key; nulls
   * go last by default, whatever the direction. NaN sorts above +Infinity; -0 equals 0.
   *
   * @example
   * df.sort("fare");
   * df.sort(["city", "fare"], { descending: [false, true], nullsLast: true });
   */
  sort(by: SortBy, options?: SortOptions): DataFrame {
    const keys = sortKeyNames(by, schemaOfHandles(this.#names, this.#columns)).map((n) => this.#columns[this.#index(n)] as ColumnHandle);
    return this.#apply({ names: [...this.#names], columns: sortColumns(this.#live(), keys, options) });
  }

  /**
   * The n rows with the largest `by` (a column name or an expression), largest first: the first
   * n rows of `sort(by, { descending: true })`, without sorting the frame. Ties keep frame
   * order; nulls come after every value. `bottomK`: the smallest, smallest first.
   *
   * @example
   * df.topK(3, "fare"); df.bottomK(1, col("fare").abs());
   */
  topK(n: number, by: TopKBy): DataFrame {
    return this.#apply(frameTopK(this.#parts(), n, by, true));
  }

  /** The n rows with the smallest `by`, smallest first (see topK). @example df.bottomK(2, "fare") */
  bottomK(n: number, by: TopKBy): DataFrame {
    return this.#apply(frameTopK(this.#parts(), n, by, false));
  }

  /**
   * Rows without duplicates of the `subset` columns (all columns by default). Nulls equal each
   * other and NaN equals NaN. `keep`: "first", "last", "any" (default) or "none" (drop every
   * duplicated key). Without `maintainOrder` the row order is unspecified (but deterministic).
   *
   * @example
   * df.unique({ subset: "id", keep: "last", maintainOrder: true });
   */
  unique(options?: UniqueOptions): DataFrame {
    return this.#apply(uniqueFrame(options, () => this.#parts()));
  }

  /**
   * Rows of this frame combined with rows of `other` whose keys are equal (a hash join).
   * `how`: "inner" (default), "left", "right", "full", "semi", "anti", "cross". Keys: `on`, or
   * `leftOn` + `rightOn`; key dtypes are promoted to a common one (int32 with int64 -> int64;
   * utf8 with a number is a DtypeError). Null keys never match unless `nullsEqual`; NaN
   * matches NaN. Right names clashing with left ones get `suffix` ("_right"). Keys appear
   * once (except "full", which keeps `k` and `k_right` unless `coalesce: true`). Row order:
   * see docs/semantics.md ("Joins"); `maintainOrder: "left"` keeps this frame's order.
   *
   * @example
   * const trips = new DataFrame({ city: ["NYC", "SF", "LA"], fare: [12, 8, 30] });
   * const cities = new DataFrame({ city: ["NYC", "SF"], state: ["NY", "CA"] });
   * trips.join(cities, { on: "city", how: "left", maintainOrder: "left" }).toRecords();
   * // [{ city: "NYC", fare: 12, state: "NY" }, { city: "SF", fare: 8, state: "CA" },
   * //  { city: "LA", fare: 30, state: null }]
   */
  join(other: DataFrame, options?: JoinOptions): DataFrame {
    if (!(other instanceof DataFrame)) throw new InvalidArgumentError("join expects a DataFrame");
    const result = joinFrames(this.#parts(), other.#parts(), options);
    // The left frame's names first, then the right's, under their names or with the suffix.
    const right = other.#parts();
    const suffix = options?.suffix ?? "_right";
    carryZones(this.#parts(), result);
    carryZones(right, result, new Map(right.names.map((n, i) => [`${n}${suffix}`, right.columns[i] as ColumnHandle])));
    return fromHandles(result.names, result.columns);
  }

  /**
   * The rows at the given 0-based indices, in that order (repeats allowed). Indices: a JS array
   * of numbers or bigints, an integer typed array, or an integer Series without nulls. A
   * negative or out-of-range index throws InvalidArgumentError.
   *
   * @example
   * df.take([2, 0, 0]); df.take(Int32Array.of(1, 3));
   */
  take(indices: TakeIndices): DataFrame {
    return this.#apply({ names: [...this.#names], columns: takeColumns(this.#live(), this.#height, indices) });
  }

  /**
   * n random rows. The same `seed` gives the same rows on every backend (splitmix64, see
   * docs/semantics.md); without a seed the rows differ per call. Without replacement (the
   * default) n must not exceed the height.
   *
   * @example
   * df.sample(100, { seed: 42 });
   * df.sample(1000, { withReplacement: true });
   */
  sample(n: number, options?: SampleOptions): DataFrame {
    return this.#apply({ names: [...this.#names], columns: sampleColumns(this.#live(), this.#height, n, options) });
  }

  /**
   * Groups rows by keys (names or expressions; an array, or several arguments) for `agg`,
   * the shortcuts (`sum`, `mean`, …, `len`) and `head`/`tail`. Null keys form a group unless
   * `dropNulls`; the group order is unspecified unless `maintainOrder` or `sort`.
   *
   * @example
   * df.groupBy("city").agg(col("fare").sum());
   * df.groupBy(["id1", "id2"], { sort: true }).len();
   * df.groupBy("a", col("b").mod(2).alias("parity")).mean();
   */
  groupBy(keys: GroupKey | readonly GroupKey[], options?: GroupByOptions): GroupBy;
  groupBy(...keys: (GroupKey | readonly GroupKey[])[]): GroupBy;
  groupBy(...keysThenOptions: [...(GroupKey | readonly GroupKey[])[], GroupByOptions]): GroupBy;
  groupBy(...args: unknown[]): GroupBy {
    this.#live();
    return new GroupBy(() => this.#parts(), (r) => this.#apply(r), args);
  }

  /** Frees this frame's native buffers now (those not shared with a live frame or series). Idempotent. */
  dispose(): void {
    if (this.#disposed) return;
    for (const h of this.#columns) h.dispose();
    this.#columns = [];
    this.#disposed = true;
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** A boxed table with shape and dtypes; frames over 10 rows or 8 columns are truncated. */
  toString(): string {
    const handles = this.#live();
    return formatFrame(this.#names, this.dtypes, this.#height, (start, count) => handles.map((h) => displayValues(h, start, count)));
  }

  [inspect.custom](): string {
    return this.#disposed ? "DataFrame (disposed)" : this.toString();
  }
}

/** @internal A frame's names, live handles (borrowed) and height (the lazy engine's scans). */
export function framePartsOf(df: DataFrame): { names: string[]; handles: ColumnHandle[]; height: number } {
  return partsOf(df);
}

/** @internal A frame owning these native columns (used by the readers). */
export function frameFromColumns(names: string[], columns: ColumnHandle[]): DataFrame {
  return fromHandles(names, columns);
}

/**
 * A DataFrame from an apache-arrow Table (see DataFrame.fromArrow).
 *
 * @example
 * import { fromArrow } from "gpudf";
 * const df = fromArrow(arrowTable);
 */
export function fromArrow(table: unknown): DataFrame {
  return DataFrame.fromArrow(table);
}
