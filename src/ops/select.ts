/**
 * select / withColumns: evaluate expressions over a frame natively and assemble the result.
 */
import { ensureDevice } from "../device.js";
import { InvalidArgumentError } from "../errors.js";
import { Expr, readsColumns, serializeExpr, type ExprNode } from "../expr.js";
import { hasAggregates, resolveAggregates } from "./aggregate.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkUniqueNames, disposeOnError, share, type FrameParts, type FrameResult } from "./frame.js";
import { columnNotFound } from "../suggest.js";
import { columnsOf } from "../expr_tree.js";
import { expandExprs, expandItems, schemaOfHandles, type ExpandSchema } from "../expr_expand.js";
import { checkRowOps } from "./agg_rows.js";
import { refuseSized, sizedItem } from "../expr_sized.js";
import { Series } from "../series.js";
import { localizeZones } from "../expr_zones.js";
import { dtypeOfHandle, tagZone } from "../zones.js";

/** What select() accepts per argument. */
export type SelectItem = string | Expr;

/** Index of a column by name, or ColumnNotFoundError. */
export function columnIndex(frame: FrameParts, name: string): number {
  const i = frame.names.indexOf(name);
  if (i < 0) throw columnNotFound(name, frame.names);
  return i;
}

/**
 * Evaluates one expression over `rows` rows of the frame (a new handle). `predicate`: a filter's
 * mask is wanted (where the result is null it may say false).
 */
export function evaluate(frame: FrameParts, expr: Expr, rows: number, predicate = false): ColumnHandle {
  ensureDevice();
  // A misspelt col() is reported here, with the columns that exist and the nearest one.
  for (const name of columnsOf(expr.node)) if (!frame.names.includes(name)) throw columnNotFound(name, frame.names);
  checkRowOps(expr.node);
  refuseSized(expr.node, "this expression (a filter, a key or an aggregation's input)");
  const run = (node: ExprNode, n: number, mask = false): ColumnHandle =>
    (mask ? native.evalPredicate : native.evalExpr)(serializeExpr(node), [...frame.names], [...frame.columns], n);
  // Zones first (over the whole tree, aggregations included), then aggregations (each over the
  // whole frame), then the rest as one fused program.
  const { node: local, zone } = localizeZones(expr.node, { names: frame.names, dtypes: frame.columns.map(dtypeOfHandle) });
  const node = hasAggregates(local) ? resolveAggregates(local, (input) => run(input, frame.height), frame.height) : local;
  return tagZone(run(node, rows, predicate), zone);
}

/**
 * Runs `fn` (one select / withColumns, whose expressions are evaluated one native call each)
 * with the native over() cache open: overs with the same partition (and order) share one
 * grouping pass and one sort, as they do in a lazy projection.
 */
function sharingOverGroupings<T>(fn: () => T): T {
  native.overCacheOpen();
  try {
    return fn();
  } finally {
    native.overCacheClose();
  }
}

/** What drop() takes: names, or selectors (cs.*, col("^re$"), col("a", "b")) given the schema. */
export type DropItem = string | Expr;

/** The names left by drop(...names): ColumnNotFoundError for a name the frame lacks. */
export function namesAfterDrop(names: readonly string[], dropped: readonly (DropItem | readonly DropItem[])[], schema?: ExpandSchema): string[] {
  const frame: FrameParts = { names, columns: [], height: 0 };
  let flat = dropped.flat() as DropItem[];
  if (schema !== undefined) flat = expandItems(flat, schema).map((d) => (d instanceof Expr && d.node.op === "col" ? (d.node.name as string) : d));
  for (const d of flat) if (typeof d !== "string") throw new InvalidArgumentError(`drop expects column names or selectors, got ${String(d)}`);
  const gone = new Set((flat as string[]).map((n) => names[columnIndex(frame, n)]));
  return names.filter((n) => !gone.has(n));
}

/** The names after rename(mapping): every old name must exist, new names be strings and unique. */
export function namesAfterRename(names: readonly string[], mapping: Record<string, string>): string[] {
  const frame: FrameParts = { names, columns: [], height: 0 };
  for (const [from, to] of Object.entries(mapping)) {
    columnIndex(frame, from);
    if (typeof to !== "string") throw new InvalidArgumentError(`new name for "${from}" must be a string`);
  }
  const out = names.map((n) => (Object.hasOwn(mapping, n) ? (mapping[n] as string) : n));
  checkUniqueNames(out);
  return out;
}

/** Names and Exprs, flattened from select's rest arguments. */
export function flattenItems(items: readonly (SelectItem | readonly SelectItem[])[]): SelectItem[] {
  const flat = items.flat() as SelectItem[];
  for (const item of flat) {
    if (typeof item !== "string" && !(item instanceof Expr)) {
      throw new InvalidArgumentError("select expects column names or expressions");
    }
  }
  return flat;
}

/**
 * select: plain names share their column; expressions are evaluated. Literal-only
 * expressions give one row, broadcast to the frame's height when anything reads a column.
 */
export function selectColumns(frame: FrameParts, given: readonly SelectItem[]): FrameResult {
  const items = expandItems(given, schemaOfHandles(frame.names, frame.columns));
  const names = items.map((it) => (typeof it === "string" ? it : it.outputName));
  checkUniqueNames(names, "; use alias()");
  const made: ColumnHandle[] = [];
  return sharingOverGroupings(() => disposeOnError(made, () => {
    // Items of their own length (intRange, mode) set the height when nothing reads the frame.
    const sized = items.map((it) => (typeof it === "string" ? undefined : sizedItem(it.node, frame.height, (n) => evaluate(frame, new Expr(n), frame.height))));
    for (const s of sized) if (s && "column" in s) made.push(s.column);
    const anyColumn = items.some((it, i) => sized[i] === undefined && (typeof it === "string" || readsColumns(it.node)));
    const lengths = new Set(sized.flatMap((s) => (s ? [s.length] : [])));
    const own = [...lengths][0];
    if (lengths.size > 1 || (own !== undefined && anyColumn && own !== frame.height)) {
      throw new InvalidArgumentError(`select: the items' lengths differ (${[...lengths, ...(anyColumn ? [frame.height] : [])].join(", ")})`);
    }
    const rows = anyColumn ? frame.height : (own ?? 1);
    const columns = items.map((it, i) => {
      const s = sized[i];
      if (s && "column" in s) return s.column;
      const h = typeof it === "string" ? share(frame.columns[columnIndex(frame, it)] as ColumnHandle) : evaluate(frame, s ? new Expr(s.node) : it, rows);
      made.push(h);
      return h;
    });
    return { names, columns };
  }));
}

/** withColumns: each result replaces the column of its name in place, or is appended. */
export function withColumns(frame: FrameParts, given: readonly Expr[]): FrameResult {
  for (const e of given) {
    if (!(e instanceof Expr)) throw new InvalidArgumentError("withColumns expects expressions");
  }
  const exprs = expandExprs(given, schemaOfHandles(frame.names, frame.columns));
  const outNames = exprs.map((e) => e.outputName);
  checkUniqueNames(outNames, "; use alias()");
  const made: ColumnHandle[] = [];
  return sharingOverGroupings(() => disposeOnError(made, () => {
    for (const e of exprs) {
      const s = sizedItem(e.node, frame.height, (n) => evaluate(frame, new Expr(n), frame.height));
      if (s && "column" in s) made.push(s.column);
      if (s && s.length !== frame.height) throw new InvalidArgumentError(`withColumns: "${e.outputName}" has ${s.length} rows, the frame ${frame.height}`);
      if (!s || !("column" in s)) made.push(evaluate(frame, s ? new Expr(s.node) : e, frame.height));
    }
    const names = [...frame.names];
    const columns = frame.columns.map(share);
    made.push(...columns);
    exprs.forEach((_, k) => {
      const at = names.indexOf(outNames[k] as string);
      if (at >= 0) {
        (columns[at] as ColumnHandle).dispose();
        columns[at] = made[k] as ColumnHandle;
      } else {
        names.push(outNames[k] as string);
        columns.push(made[k] as ColumnHandle);
      }
    });
    return { names, columns };
  }));
}

/** withColumn: `series` (shared) replacing the column of its name in place, or appended. */
export function withSeries(frame: FrameParts, series: Series): FrameResult {
  if (!(series instanceof Series)) throw new InvalidArgumentError("withColumn expects a Series");
  if (frame.names.length > 0 && series.length !== frame.height) {
    throw new InvalidArgumentError(`Series "${series.name}" has ${series.length} rows; the frame has ${frame.height}`);
  }
  const incoming = series.shareHandle();
  const names = [...frame.names];
  const columns = frame.columns.map(share);
  const at = names.indexOf(series.name);
  if (at >= 0) {
    (columns[at] as ColumnHandle).dispose();
    columns[at] = incoming;
  } else {
    names.push(series.name);
    columns.push(incoming);
  }
  return { names, columns };
}
