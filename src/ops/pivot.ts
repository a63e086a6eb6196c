/**
 * pivot: the cells (one per distinct index + `on` pair) are one native groupBy aggregation;
 * the index rows and the `on` values are numbered natively by first appearance (groupRows),
 * the grid of cells is scattered natively (pivotCells), and each output column is one
 * gather of a cell column through its slice of the grid (null where a pair has no rows).
 */
import { InvalidArgumentError } from "../errors.js";
import { col, Expr, len } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkOptions } from "../suggest.js";
import { checkUniqueNames, disposeOnError, type FrameParts, type FrameResult } from "./frame.js";
import { checkColumns, columnOf, disposeAll, nameList } from "./reshape_util.js";
import { dtypeOfId } from "../dtypes.js";

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
}

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
  if (typeof v === "number" && isFloat && Number.isInteger(v)) return `${v}.0`;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

export function pivot(frame: FrameParts, options: PivotOptions, aggregateCells: CellAggregation): FrameResult {
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("pivot expects an options object with `on`");
  checkOptions("pivot", options, ["on", "index", "values", "aggregateFunction", "separator", "sortColumns"]);
  const on = nameList(options.on, "pivot `on`");
  if (on === undefined || on.length !== 1) throw new InvalidArgumentError("pivot `on` must name exactly one column");
  checkColumns(frame, on);
  const onName = on[0] as string;
  let index = nameList(options.index, "pivot `index`");
  let values = nameList(options.values, "pivot `values`");
  if (index === undefined && values === undefined) throw new InvalidArgumentError("pivot needs `index` or `values` (or both)");
  if (index !== undefined) checkColumns(frame, index);
  if (values !== undefined) checkColumns(frame, values);
  index ??= frame.names.filter((n) => n !== onName && !(values as string[]).includes(n));
  values ??= frame.names.filter((n) => n !== onName && !(index as string[]).includes(n));
  if (index.length === 0) throw new InvalidArgumentError("pivot needs at least one index column");
  if (values.length === 0) throw new InvalidArgumentError("pivot needs at least one values column");
  if (index.includes(onName)) throw new InvalidArgumentError(`pivot: "${onName}" is both \`on\` and an index column`);
  checkUniqueNames([...index, onName], " among the pivot's index and on columns");
  const separator = options.separator ?? "_";
  if (typeof separator !== "string") throw new InvalidArgumentError("pivot `separator` must be a string");
  const sortColumns = options.sortColumns ?? false;
  if (typeof sortColumns !== "boolean") throw new InvalidArgumentError("pivot `sortColumns` must be a boolean");
  const fn = options.aggregateFunction;
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
  const keys = [...index, onName];
  const cells = aggregateCells(keys, exprs);
  try {
    const c = cells.parts;
    if (fn === undefined && c.height < frame.height) {
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
      const texts = native.toValues(onValues[0] as ColumnHandle, 0, cols).map((v) => valueText(v, isFloat));
      // The new columns' order: first appearance, or sorted by the on value (natively).
      let order = texts.map((_, j) => j);
      if (sortColumns && cols > 0) {
        const perm = native.argSort([onValues[0] as ColumnHandle], [false], [true]);
        temps.push(perm);
        order = native.toValues(perm, 0, cols).map(Number);
      }
      const names = [...index];
      for (const v of values) for (const j of order) names.push(values.length === 1 ? (texts[j] as string) : `${v}${separator}${texts[j] as string}`);
      checkUniqueNames(names, " in the pivot output");
      const made: ColumnHandle[] = [];
      return disposeOnError(made, () => {
        made.push(...native.take(indexKeys, rowsOf.firstRows, c.height));
        for (const vals of cellValues) {
          for (const j of order) {
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
