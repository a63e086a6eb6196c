/**
 * mergeFilters: consecutive filters become one, their predicates joined with AND (a row passes
 * both filters exactly when both predicates are true; null counts as false either way).
 */
import { readsOtherRows } from "../../expr_tree.js";
import { filterNode, type LogicalPlan } from "../plan.js";
import { andAll } from "./predicates.js";
import { mapPlan } from "./walk.js";

export function mergeFilters(plan: LogicalPlan): LogicalPlan {
  return mapPlan(plan, (p) => {
    if (p.kind !== "filter" || p.input.kind !== "filter") return p;
    const inner = p.input;
    // A predicate that is not row-wise (an aggregation or window op) sees only the rows the
    // filter below it passed, so the two stay apart.
    if (readsOtherRows(p.predicate) || readsOtherRows(inner.predicate)) return p;
    return filterNode(inner.input, andAll([inner.predicate, p.predicate]));
  });
}
