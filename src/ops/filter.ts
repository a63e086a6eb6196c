/**
 * filter / dropNulls / fillNull: a predicate evaluated natively to a bool column, then every
 * column stream-compacted natively; fillNull is a per-column fillNull expression.
 */
import { dtypeOfId, valueKindOf, type DType, type ValueKind } from "../dtypes.js";
import { DtypeError, InvalidArgumentError } from "../errors.js";
import { col, Expr, lit, type LiteralValue } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { disposeOnError, share, type FrameParts, type FrameResult } from "./frame.js";
import { columnIndex, evaluate } from "./select.js";
import { Series } from "../series.js";
import { columnNotFound } from "../suggest.js";
import { expandPredicate, schemaOfHandles } from "../expr_expand.js";

/** Columns per dropNulls pass (each pass is one expression; programs are capped natively). */
const DROP_NULLS_GROUP = 64;

/** The rows where `mask` (a bool column of the frame's height) is true. */
function filterByMask(frame: FrameParts, mask: ColumnHandle): FrameResult {
  if (dtypeOfId(mask.typeId) !== "bool") throw new DtypeError(`filter needs a bool predicate, got ${dtypeOfId(mask.typeId)}`);
  if (frame.columns.length > 0 && mask.length !== frame.height) {
    throw new InvalidArgumentError(`filter mask has ${mask.length} rows; the frame has ${frame.height}`);
  }
  return { names: [...frame.names], columns: native.filter([...frame.columns], mask) };
}

/** filter: an Expr predicate evaluated, or a bool Series as the mask; then compact. */
export function filterFrame(frame: FrameParts, predicate: Expr | Series): FrameResult {
  let mask: ColumnHandle;
  if (predicate instanceof Expr) {
    mask = evaluate(frame, expandPredicate(predicate, schemaOfHandles(frame.names, frame.columns)), frame.height, true);
  } else {
    if (!(predicate instanceof Series)) throw new InvalidArgumentError("filter expects an Expr or a bool Series");
    mask = predicate.shareHandle();
  }
  try {
    return filterByMask(frame, mask);
  } finally {
    mask.dispose();
  }
}

/** dropNulls: rows with a null in any of `subset` (default: every column) removed. */
export function dropNulls(frame: FrameParts, subset: readonly string[] | undefined): FrameResult {
  const names = subset ?? frame.names;
  // Only columns that hold nulls matter; each pass ANDs up to DROP_NULLS_GROUP of them.
  const nullable = names.filter((n) => (frame.columns[columnIndex(frame, n)] as ColumnHandle).nullCount() > 0);
  let current: FrameResult = { names: [...frame.names], columns: frame.columns.map(share) };
  for (let k = 0; k < nullable.length; k += DROP_NULLS_GROUP) {
    const group = nullable.slice(k, k + DROP_NULLS_GROUP);
    const pred = group.map((n) => col(n).isNotNull()).reduce((a, b) => a.and(b));
    const parts: FrameParts = { ...current, height: current.columns[0]?.length ?? 0 };
    const next = disposeOnError(current.columns, () => filterFrame(parts, pred));
    for (const h of current.columns) h.dispose();
    current = next;
  }
  return current;
}

function kindOfValue(v: unknown): ValueKind | undefined {
  if (typeof v === "number" || typeof v === "bigint") return "number";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "boolean";
  if (v instanceof Date) return "date";
  return undefined;
}

/**
 * Which columns fillNull(value) fills and with what: every column whose values are of the
 * value's kind (number, string, boolean, Date) for a single value; exactly the named columns
 * for a { col: value } object (an incompatible value there is a DtypeError, raised natively).
 */
export function fillNullTargets(names: readonly string[], dtypes: readonly DType[], value: LiteralValue | Record<string, LiteralValue>): Map<number, LiteralValue> {
  const targets = new Map<number, LiteralValue>();
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    for (const [name, v] of Object.entries(value)) {
      if (kindOfValue(v) === undefined && v !== null) throw new InvalidArgumentError(`fillNull: unsupported value for "${name}"`);
      const i = names.indexOf(name);
      if (i < 0) throw columnNotFound(name, names);
      targets.set(i, v);
    }
  } else {
    const kind = kindOfValue(value);
    if (kind === undefined && value !== null) throw new InvalidArgumentError("fillNull expects a value or a { column: value } object");
    dtypes.forEach((d, i) => {
      if (kind !== undefined && valueKindOf(d) === kind) targets.set(i, value);
    });
  }
  return targets;
}

/** fillNull: the columns fillNullTargets picks get col.fillNull(value); the others are shared. */
export function fillNull(frame: FrameParts, value: LiteralValue | Record<string, LiteralValue>): FrameResult {
  const targets = fillNullTargets(frame.names, frame.columns.map((h) => dtypeOfId(h.typeId)), value);
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    const columns = frame.columns.map((h, i) => {
      const out = targets.has(i)
        ? evaluate(frame, col(frame.names[i] as string).fillNull(lit(targets.get(i) as LiteralValue)), frame.height)
        : share(h);
      made.push(out);
      return out;
    });
    return { names: [...frame.names], columns };
  });
}
