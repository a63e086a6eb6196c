/**
 * pivot: the cells (one per distinct index + `on` pair) are one native groupBy aggregation;
 * the index rows and the `on` values are numbered natively by first appearance (groupRows),
 * the grid of cells is scattered natively (pivotCells), and each output column is one
 * gather of a cell column through its slice of the grid (null where a pair has no rows).
 * resolvePivot checks the options against a schema alone, so LazyFrame.pivot (src/lazy/
 * lazy_pivot.ts) shares it and names its columns with pivotNames as the eager verb does.
 */
import { DtypeError, InvalidArgumentError } from "../errors.js";
import { col, Expr, len } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkOptions, columnNotFound } from "../suggest.js";
import { checkUniqueNames, disposeOnError, type FrameParts, type FrameResult } from "./frame.js";
import { disposeAll, nameList, nullColumn } from "./reshape_util.js";
import { dtypeOfId, type DType } from "../dtypes.js";

/** The predefined aggregations of `pivot`. */
export type PivotAggregate = "first" | "last" | "sum" | "mean" | "median" | "min" | "max" | "count" | "len";

/** Options of `DataFrame.pivot` (Polars' names). */
export interface PivotOptions {
  /** The column whose distinct values become the output columns. */
  on: string | readonly string[];
  /** Columns identifying the output rows. Default: every column not in `on` or `values`. */
  index?: string | readonly string[];
  /** Columns whose values fill the cells. Default: every column not in `on` or `index`. */
  values?: string | readonly string[];
  /**
   * How the rows of one cell are reduced: a name, or a function from the values column to an
   * aggregation expression (`(v) => v.sum().mul(2)`). Default: none (a cell with more than one
   * row is an InvalidArgumentError).
   */
  aggregateFunction?: PivotAggregate | ((value: Expr) => Expr);
  /** Joins the values column name and the `on` value when there are several values columns. Default "_". */
  separator?: string;
  /** Order the new columns by the `on` value (ascending, null last) instead of first appearance. Default false. */
  sortColumns?: boolean;
  /**
   * The `on` values that become columns, in this order, whatever the data holds: a listed value
   * the data lacks gives an all-null column, a value the data has but the list lacks is left
   * out. Fixes the output's columns in advance (what keeps LazyFrame.pivot lazy). Values are
   * matched by the column name they make (a float 1 is "1.0", a Date its ISO text).
   */
  onColumns?: readonly PivotValue[] | undefined;
}

/** An `on` value as `onColumns` lists it. */
export type PivotValue = string | number | bigint | boolean | Date | null;

const AGGREGATES: Record<PivotAggregate, (v: Expr) => Expr> = {
  first: (v) => v.first(),
  last: (v) => v.last(),
  sum: (v) => v.sum(),
  mean: (v) => v.mean(),
  median: (v) => v.median(),
  min: (v) => v.min(),
  max: (v) => v.max(),
  count: (v) => v.count(),
  len: () => len(),
};

/** The groupBy a pivot runs: done by the DataFrame (pivot cannot import it). */
export type CellAggregation = (keys: string[], exprs: Expr[]) => { parts: FrameParts; release: () => void };

/** The text an `on` value names its column with (Polars: floats keep a ".0"). */
function valueText(v: unknown, isFloat: boolean): string {
  if (v === null || v === undefined) return "null";
  if (isFloat && (typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v)))) return `${v}.0`;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

/** What an `on` value is matched by: its text, null apart from the string "null". */
function matchKey(v: unknown, isFloat: boolean): string {
  return v === null || v === undefined ? "\u0000null" : `=${valueText(v, isFloat)}`;
}

/** The pivot's options, checked against the input's column names and dtypes. */
export interface ResolvedPivot {
  readonly on: string;
  readonly index: readonly string[];
  readonly values: readonly string[];
  readonly separator: string;
  readonly sortColumns: boolean;
  /** False without an aggregateFunction (a cell of several rows is then an error). */
  readonly aggregated: boolean;
  /** One aggregation per values column, aliased "__gpudf_pivot_{k}". */
  readonly exprs: readonly Expr[];
  /** onColumns: the listed values, their column texts and match keys; null when not given. */
  readonly listed: { readonly values: readonly PivotValue[]; readonly texts: readonly string[]; readonly keys: readonly string[] } | null;
}

function listedValues(v: unknown, onType: DType): ResolvedPivot["listed"] {
  if (v === undefined) return null;
  if (!Array.isArray(v)) throw new InvalidArgumentError("pivot `onColumns` must be an array of the `on` column's values");
  const fits = (x: unknown): boolean => {
    if (x === null) return true;
    if (onType === "utf8" || onType === "large_utf8") return typeof x === "string";
    if (onType === "bool") return typeof x === "boolean";
    if (onType === "date32" || onType.startsWith("timestamp")) return x instanceof Date;
    return typeof x === "number" || typeof x === "bigint";
  };
  for (const x of v as unknown[]) {
    if (!fits(x)) throw new DtypeError(`pivot \`onColumns\`: ${typeof x === "bigint" ? `${x}n` : JSON.stringify(x) ?? String(x)} is not a value of the ${onType} \`on\` column`);
  }
  const isFloat = onType.startsWith("float");
  const values = [...(v as PivotValue[])];
  const keys = values.map((x) => matchKey(x, isFloat));
  if (new Set(keys).size !== keys.length) throw new InvalidArgumentError("pivot `onColumns` lists a value twice");
  return { values, texts: values.map((x) => valueText(x, isFloat)), keys };
}

/** Checks `options` against the input's columns (names and dtypes, no data). */
export function resolvePivot(names: readonly string[], dtypeOf: (name: string) => DType, options: unknown): ResolvedPivot {
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("pivot expects an options object with `on`");
  checkOptions("pivot", options, ["on", "index", "values", "aggregateFunction", "separator", "sortColumns", "onColumns"]);
  const o = options as PivotOptions;
  const exists = (list: readonly string[]): void => {
    for (const n of list) if (!names.includes(n)) throw columnNotFound(n, names);
  };
  const on = nameList(o.on, "pivot `on`");
  if (on === undefined || on.length !== 1) throw new InvalidArgumentError("pivot `on` must name exactly one column");
  exists(on);
  const onName = on[0] as string;
  let index = nameList(o.index, "pivot `index`");
  let values = nameList(o.values, "pivot `values`");
  if (index === undefined && values === undefined) throw new InvalidArgumentError("pivot needs `index` or `values` (or both)");
  if (index !== undefined) exists(index);
  if (values !== undefined) exists(values);
  index ??= names.filter((n) => n !== onName && !(values as string[]).includes(n));
  values ??= names.filter((n) => n !== onName && !(index as string[]).includes(n));
  if (index.length === 0) throw new InvalidArgumentError("pivot needs at least one index column");
  if (values.length === 0) throw new InvalidArgumentError("pivot needs at least one values column");
  if (index.includes(onName)) throw new InvalidArgumentError(`pivot: "${onName}" is both \`on\` and an index column`);
  checkUniqueNames([...index, onName], " among the pivot's index and on columns");
  const separator = o.separator ?? "_";
  if (typeof separator !== "string") throw new InvalidArgumentError("pivot `separator` must be a string");
  const sortColumns = o.sortColumns ?? false;
  if (typeof sortColumns !== "boolean") throw new InvalidArgumentError("pivot `sortColumns` must be a boolean");
  const listed = listedValues(o.onColumns, dtypeOf(onName));
  if (listed !== null && sortColumns) throw new InvalidArgumentError("pivot: `onColumns` fixes the columns' order; pass them sorted instead of `sortColumns`");
  const fn = o.aggregateFunction;
  let agg: (v: Expr) => Expr;
  if (fn === undefined) agg = (v) => v.first();
  else if (typeof fn === "function") agg = fn;
  else if (typeof fn === "string" && Object.hasOwn(AGGREGATES, fn)) agg = AGGREGATES[fn];
  else throw new InvalidArgumentError(`pivot \`aggregateFunction\` must be one of ${Object.keys(AGGREGATES).join(", ")} or a function`);
  const exprs = values.map((v, k) => {
    const e = agg(col(v));
    if (!(e instanceof Expr)) throw new InvalidArgumentError("pivot `aggregateFunction` must return an Expr");
    return e.alias(`__gpudf_pivot_${k}`);
  });
  return { on: onName, index, values, separator, sortColumns, aggregated: fn !== undefined, exprs, listed };
}

/** The output's names: the index, then per values column one per `on` text (checked unique). */
export function pivotNames(r: ResolvedPivot, texts: readonly string[]): string[] {
  const names = [...r.index];
  for (const v of r.values) for (const t of texts) names.push(r.values.length === 1 ? t : `${v}${r.separator}${t}`);
  checkUniqueNames(names, " in the pivot output");
  return names;
}

export function pivot(frame: FrameParts, options: PivotOptions, aggregateCells: CellAggregation): FrameResult {
  const r = resolvePivot(frame.names, (name) => dtypeOfId((frame.columns[frame.names.indexOf(name)] as ColumnHandle).typeId), options);
  const index = r.index;
  const cells = aggregateCells([...index, r.on], [...r.exprs]);
  try {
    const c = cells.parts;
    if (!r.aggregated && c.height < frame.height) {
      throw new InvalidArgumentError("pivot: a cell has more than one row; pass an aggregateFunction");
    }
    const indexKeys = c.columns.slice(0, index.length);
    const onKey = c.columns[index.length] as ColumnHandle;
    const cellValues = c.columns.slice(index.length + 1);
    const rowsOf = native.groupRows(indexKeys, false, true);
    const colsOf = native.groupRows([onKey], false, true);
    const temps: ColumnHandle[] = [rowsOf.groups, rowsOf.firstRows, colsOf.groups, colsOf.firstRows];
    try {
      const rows = rowsOf.count;
      const cols = colsOf.count;
      const grid = native.pivotCells(rowsOf.groups, colsOf.groups, rows, cols);
      temps.push(grid);
      const onValues = native.take([onKey], colsOf.firstRows, c.height);
      temps.push(...onValues);
      const isFloat = dtypeOfId(onKey.typeId).startsWith("float");
      const found = native.toValues(onValues[0] as ColumnHandle, 0, cols);
      // The new columns: the data's `on` values (j) by first appearance or sorted by value
      // (natively), or the listed ones, -1 where the data lacks one.
      let order = found.map((_, j) => j);
      if (r.listed !== null) {
        const at = new Map(found.map((v, j) => [matchKey(v, isFloat), j]));
        order = r.listed.keys.map((k) => at.get(k) ?? -1);
      } else if (r.sortColumns && cols > 0) {
        const perm = native.argSort([onValues[0] as ColumnHandle], [false], [true]);
        temps.push(perm);
        order = native.toValues(perm, 0, cols).map(Number);
      }
      const names = pivotNames(r, r.listed?.texts ?? order.map((j) => valueText(found[j], isFloat)));
      const made: ColumnHandle[] = [];
      return disposeOnError(made, () => {
        made.push(...native.take(indexKeys, rowsOf.firstRows, c.height));
        for (const vals of cellValues) {
          for (const j of order) {
            if (j < 0) {
              made.push(nullColumn(dtypeOfId(vals.typeId), rows));
              continue;
            }
            const slice = grid.slice(j * rows, rows);
            try {
              made.push(native.gatherOrNull(vals, slice));
            } finally {
              slice.dispose();
            }
          }
        }
        return { names, columns: [...made] };
      });
    } finally {
      disposeAll(temps);
    }
  } finally {
    cells.release();
  }
}
