/**
 * fillNull strategies over frames: which columns each strategy fills, and the fill itself.
 */
import { dtypeOfId, valueKindOf, type DType } from "../dtypes.js";
import { col, type Expr } from "../expr.js";
import type { FillNullStrategy } from "../expr_fill.js";
import type { ColumnHandle } from "../native/addon.js";
import { disposeOnError, share, type FrameParts, type FrameResult } from "./frame.js";
import { evaluate } from "./select.js";

/**
 * The columns a frame's fillNull({ strategy }) fills, each with its expression: "forward" and
 * "backward" fill every column; "min" and "max" the numeric, string and temporal columns;
 * "mean", "zero" and "one" the numeric columns (others are left as they are).
 */
export function strategyTargets(names: readonly string[], dtypes: readonly DType[], s: FillNullStrategy): Map<number, Expr> {
  const out = new Map<number, Expr>();
  dtypes.forEach((d, i) => {
    const kind = valueKindOf(d);
    const fills =
      s.strategy === "forward" || s.strategy === "backward" ? true
      : s.strategy === "min" || s.strategy === "max" ? kind !== "boolean"
      : kind === "number";
    if (fills) out.set(i, col(names[i] as string).fillNull(s).alias(names[i] as string));
  });
  return out;
}

/** DataFrame.fillNull({ strategy }). */
export function fillNullByStrategy(frame: FrameParts, s: FillNullStrategy): FrameResult {
  const targets = strategyTargets(frame.names, frame.columns.map((h) => dtypeOfId(h.typeId)), s);
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    const columns = frame.columns.map((h, i) => {
      const e = targets.get(i);
      const out = e === undefined ? share(h) : evaluate(frame, e, frame.height);
      made.push(out);
      return out;
    });
    return { names: [...frame.names], columns };
  });
}
