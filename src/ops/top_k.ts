/**
 * topK / bottomK: the n rows with the largest / smallest value of a column or expression, per
 * group (GroupBy.topK) or over the whole frame (DataFrame.topK). The rows are chosen natively
 * (groupTopRows, native/ops/groupby/group_top.hpp) without sorting the frame. Rules:
 * docs/semantics.md, "topK / bottomK".
 */
import { InvalidArgumentError } from "../errors.js";
import { Expr, lit, serializeExpr } from "../expr.js";
import { rowCount } from "../handles.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { share, type FrameParts, type FrameResult } from "./frame.js";
import { columnIndex, evaluate } from "./select.js";

/** What topK / bottomK order by: a column name or an expression evaluated over every row. */
export type TopKBy = string | Expr;

/** Checks topK's arguments before any work: n a non-negative integer, `by` a name or an Expr. */
export function checkTopK(n: number, by: unknown): void {
  rowCount(n);
  if (typeof by !== "string" && !(by instanceof Expr)) {
    throw new InvalidArgumentError(`topK/bottomK: \`by\` must be a column name or an expression, got ${String(by)}`);
  }
}

/** The values to order by (owned): the named column (shared) or the expression over every row. */
export function topKValues(frame: FrameParts, by: TopKBy): ColumnHandle {
  if (typeof by === "string") return share(frame.columns[columnIndex(frame, by)] as ColumnHandle);
  return evaluate(frame, by, frame.height);
}

/**
 * int64 rows: each group's (ascending id) n rows with the largest (`largest`) or smallest `by`,
 * best first, nulls last, ties in frame order.
 */
export function topKRows(frame: FrameParts, groups: ColumnHandle, count: number, n: number, by: TopKBy, largest: boolean): ColumnHandle {
  const values = topKValues(frame, by);
  try {
    return native.groupTopRows(groups, count, values, n, largest);
  } finally {
    values.dispose();
  }
}

/** DataFrame.topK / bottomK: the frame as one group; every column, the chosen rows best first. */
export function frameTopK(frame: FrameParts, n: number, by: TopKBy, largest: boolean): FrameResult {
  checkTopK(n, by);
  const zeros = native.evalExpr(serializeExpr(lit(0, "int32").node), [], [], frame.height);
  try {
    const rows = topKRows(frame, zeros, frame.height > 0 ? 1 : 0, n, by, largest);
    try {
      return { names: [...frame.names], columns: native.take([...frame.columns], rows, frame.height) };
    } finally {
      rows.dispose();
    }
  } finally {
    zeros.dispose();
  }
}
