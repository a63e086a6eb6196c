/**
 * Aggregations over chosen rows: an aggregation whose input is `v.filter(p)` or
 * `v.sortBy(keys)` reads v's rows where p holds, or in the keys' order. The values and the
 * group ids go through the native filter / sortTable together before the reduction, so every
 * kind (first, last, len, mean, ...) sees exactly the chosen rows of each group. The query
 * engine does the same natively (native/ops/groupby/group_input.hpp).
 */
import { InvalidArgumentError } from "../errors.js";
import type { ExprNode } from "../expr.js";
import { hasAggregates } from "../expr_tree.js";
import { native, type ColumnHandle } from "../native/addon.js";

/** The ops that choose an aggregation's rows; valid only as an aggregation's input. */
export const ROW_OPS: ReadonlySet<string> = new Set(["filter", "sortBy"]);

/** An aggregation's row choice: the value, the op and its predicate or keys. */
export interface RowChoice {
  readonly value: ExprNode;
  readonly op: "filter" | "sortBy";
  /** The predicate (filter) or the sort keys (sortBy). */
  readonly extra: readonly ExprNode[];
  readonly descending: readonly boolean[];
  readonly nullsLast: readonly boolean[];
}

function hasRowOp(node: ExprNode, seen = new Set<ExprNode>()): boolean {
  if (seen.has(node)) return false;
  seen.add(node);
  return ROW_OPS.has(node.op) || node.args.some((a) => hasRowOp(a, seen));
}

/** The row choice of an aggregation node, if its input is a filter or a sortBy. */
export function rowChoiceOf(agg: ExprNode): RowChoice | undefined {
  const input = agg.args[0];
  if (input === undefined || !ROW_OPS.has(input.op)) return undefined;
  if (agg.args.length !== 1) throw new InvalidArgumentError(`${agg.agg?.kind}: filter / sortBy inputs are supported for one-input aggregations`);
  const [value, ...extra] = input.args as ExprNode[];
  for (const n of [value as ExprNode, ...extra]) {
    if (hasRowOp(n)) throw new InvalidArgumentError("an aggregation's input takes one filter or sortBy (as its last step), not several");
    if (hasAggregates(n)) throw new InvalidArgumentError("filter / sortBy: the values, predicate and keys may not contain aggregations");
  }
  const k = extra.length;
  const flags = (input.params ?? []).map((p) => p !== 0);
  return { value: value as ExprNode, op: input.op as "filter" | "sortBy", extra, descending: flags.slice(0, k), nullsLast: flags.slice(k, 2 * k) };
}

/**
 * InvalidArgumentError unless every filter / sortBy in the tree is an aggregation's input
 * (`col("v").filter(p).sum()`); elsewhere they would change the number or order of rows.
 */
export function checkRowOps(root: ExprNode): void {
  const seen = new Set<ExprNode>();
  const visit = (n: ExprNode, underAgg: boolean): void => {
    if (ROW_OPS.has(n.op) && !underAgg) {
      throw new InvalidArgumentError(`${n.op} is supported as the input of an aggregation (e.g. col("v").${n.op}(...).sum()), not on its own`);
    }
    if (seen.has(n)) return;
    seen.add(n);
    const chosen = n.op === "agg" ? n.args[0] : undefined;
    if (chosen && ROW_OPS.has(chosen.op)) rowChoiceOf(n);
    n.args.forEach((a) => visit(a, a === chosen));
  };
  visit(root, false);
}

/**
 * The values (and the group ids, when grouped) through the choice, natively: filtered (grouped:
 * the ids of the rows left out become -1, which the group folds ignore), or in the keys' order.
 * `evaluate` gives the predicate / keys over the frame (new handles, released here). The results
 * are new handles: [values] or [values, groups].
 */
export function chooseRows(choice: RowChoice, values: ColumnHandle, groups: ColumnHandle | null, evaluate: (node: ExprNode) => ColumnHandle): ColumnHandle[] {
  const extra: ColumnHandle[] = [];
  try {
    for (const n of choice.extra) extra.push(evaluate(n));
    return native.chooseRows(choice.op === "sortBy", values, groups, extra, [...choice.descending], [...choice.nullsLast]);
  } finally {
    for (const h of extra) h.dispose();
  }
}

/** How many of an aggregation slot's inputs are evaluated: a chosen input always is (len counts its rows). */
export function slotArity(inputs: readonly ExprNode[], arity: number): number {
  return inputs[0] !== undefined && ROW_OPS.has(inputs[0].op) ? 1 : arity;
}
