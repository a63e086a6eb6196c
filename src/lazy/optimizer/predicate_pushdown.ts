/**
 * predicatePushdown: each AND-ed part of a filter moves down the plan as far as it keeps its
 * meaning, so fewer rows flow through the operators above it:
 * - through projections (the columns it reads replaced by their row-wise definitions; not
 *   through outputs holding whole-frame aggregations, whose values the filter would change),
 *   sorts (a stable sort commutes with a filter), unions (to every input);
 * - through joins to the side it reads (inner, cross, semi and anti: either side's columns; left:
 *   the left side only; right: the right side only; full: none), a key read through the
 *   coalesced key going to the side it is taken from;
 * - through groupBy (aggregate, per-group top-k, head/tail) when it reads only key columns (it
 *   then keeps or drops whole groups; the keys' expressions are substituted), and through
 *   unique when it reads only the subset;
 * - into scans without a row limit (applied as the scan's rows are produced).
 * It stops at slices, sorts with a limit, whole-frame top-k and subplans used twice.
 */
import type { ExprNode } from "../../expr.js";
import { columnsOf, readsOtherRows, substituteColumns } from "../../expr_tree.js";
import { filterNode, inputsOf, keepsHeight, withInputs, type JoinNode, type LogicalPlan, type NamedNode } from "../plan.js";
import { andAll, conjuncts } from "./predicates.js";
import { parentCounts } from "./walk.js";

/** Parent counts, and each shared subplan's rewrite (done once, so it stays one node). */
interface Shared {
  parents: Map<LogicalPlan, number>;
  done: Map<LogicalPlan, LogicalPlan>;
}

function reads(pred: ExprNode): Set<string> {
  return columnsOf(pred);
}

function applyOnTop(plan: LogicalPlan, preds: readonly ExprNode[]): LogicalPlan {
  return preds.length === 0 ? plan : filterNode(plan, andAll(preds));
}

/** Group keys without aggregations: output name -> the key's expression over the input. */
function keyDefinitions(keys: readonly NamedNode[]): Map<string, ExprNode> {
  return new Map(keys.filter((k) => !readsOtherRows(k.node)).map((k) => [k.name, k.node]));
}

/** Moves `preds` (filters above `plan`) into `plan` as far as they go. */
function push(plan: LogicalPlan, preds: ExprNode[], shared: Shared): LogicalPlan {
  const recurse = (p: LogicalPlan, ps: ExprNode[]): LogicalPlan => push(p, ps, shared);
  if ((shared.parents.get(plan) ?? 0) > 1) {
    let once = shared.done.get(plan);
    if (once === undefined) {
      shared.parents.set(plan, 1);
      once = push(plan, [], shared);
      shared.parents.set(plan, 2);
      shared.done.set(plan, once);
    }
    return applyOnTop(once, preds);
  }
  switch (plan.kind) {
    case "filter":
      // A predicate that is not row-wise (aggregation, window op) must see exactly its input's
      // rows: it stays, and nothing above moves below it.
      if (readsOtherRows(plan.predicate)) return applyOnTop({ ...plan, input: recurse(plan.input, []) }, preds);
      return recurse(plan.input, [...conjuncts(plan.predicate), ...preds]);
    case "scan": {
      if (preds.length === 0 || plan.nRows !== null) return applyOnTop(plan, preds);
      const all = plan.predicate === null ? preds : [...conjuncts(plan.predicate), ...preds];
      return { ...plan, predicate: andAll(all) };
    }
    case "project": {
      const defs = new Map<string, ExprNode>(plan.exprs.map((e) => [e.name, e.node]));
      // Fewer rows below would change every whole-frame aggregation of the projection, and a
      // projection of one row (literals and aggregations only) has no rows to filter below it.
      const rowWise = !plan.exprs.some((e) => readsOtherRows(e.node)) && keepsHeight(plan.broadcastHeight, plan.exprs);
      const down: ExprNode[] = [];
      const stay: ExprNode[] = [];
      for (const p of preds) {
        const cols = [...reads(p)];
        const ok = rowWise && cols.length > 0 && cols.every((c) => defs.has(c));
        if (ok) down.push(substituteColumns(p, defs));
        else stay.push(p);
      }
      return applyOnTop(withInputs(plan, [recurse(plan.input, down)]), stay);
    }
    case "sort":
      if (plan.limit !== null) break;
      return withInputs(plan, [recurse(plan.input, preds)]);
    case "union":
      return withInputs(
        plan,
        plan.inputs.map((p) => recurse(p, preds)),
      );
    case "join":
      return pushJoin(plan, preds, shared);
    case "aggregate":
    case "groupSlice":
    case "topK": {
      if (plan.kind === "topK" && plan.keys === null) break;
      const keys = keyDefinitions(plan.keys ?? []);
      const down: ExprNode[] = [];
      const stay: ExprNode[] = [];
      for (const p of preds) {
        const cols = [...reads(p)];
        if (cols.length > 0 && cols.every((c) => keys.has(c))) down.push(substituteColumns(p, keys));
        else stay.push(p);
      }
      return applyOnTop(withInputs(plan, [recurse(plan.input, down)]), stay);
    }
    case "unique": {
      const subset = new Set(plan.subset ?? plan.schema.names);
      const down = preds.filter((p) => [...reads(p)].every((c) => subset.has(c)));
      const stay = preds.filter((p) => !down.includes(p));
      return applyOnTop(withInputs(plan, [recurse(plan.input, down)]), stay);
    }
    default:
      break;
  }
  // Barriers (slices, limited sorts, whole-frame top-k): the predicates stay above.
  return applyOnTop(withInputs(plan, inputsOf(plan).map((c) => recurse(c, []))), preds);
}

function pushJoin(plan: JoinNode, preds: ExprNode[], shared: Shared): LogicalPlan {
  const { layout } = plan;
  const how = layout.options.how;
  // Output name -> (side, input name), only where the dtype is unchanged.
  const toLeft = new Map<string, string>();
  const toRight = new Map<string, string>();
  plan.schema.names.forEach((name, i) => {
    const c = layout.outputs[i];
    if (c === undefined) return;
    const dtype = plan.schema.dtypes[i];
    const add = (side: "left" | "right", index: number): void => {
      const input = side === "left" ? plan.left : plan.right;
      if (input.schema.dtypes[index] === dtype) (side === "left" ? toLeft : toRight).set(name, input.schema.names[index] as string);
    };
    if (c.from === "left") add("left", c.index);
    else if (c.from === "right") add("right", c.index);
    else {
      // A coalesced key: equal to both sides' keys on every inner-join row; otherwise to the
      // side it is taken from (left for left joins, right for right joins).
      if (how === "inner" || how === "left") add("left", layout.leftKeys[c.index] as number);
      if (how === "inner" || how === "right") add("right", layout.rightKeys[c.index] as number);
    }
  });
  const leftOk = how === "inner" || how === "left" || how === "semi" || how === "anti" || how === "cross";
  const rightOk = how === "inner" || how === "right" || how === "cross";
  const left: ExprNode[] = [];
  const right: ExprNode[] = [];
  const stay: ExprNode[] = [];
  const rename = (p: ExprNode, map: Map<string, string>): ExprNode =>
    substituteColumns(p, new Map([...reads(p)].map((c) => [c, { op: "col", args: [], name: map.get(c) as string }])));
  for (const p of preds) {
    const cols = [...reads(p)];
    const onLeft = leftOk && cols.length > 0 && cols.every((c) => toLeft.has(c));
    const onRight = rightOk && cols.length > 0 && cols.every((c) => toRight.has(c));
    if (onLeft) left.push(rename(p, toLeft));
    if (onRight) right.push(rename(p, toRight));
    if (!onLeft && !onRight) stay.push(p);
  }
  const l = push(plan.left, left, shared);
  const r = push(plan.right, right, shared);
  return applyOnTop(withInputs(plan, [l, r]), stay);
}

export function predicatePushdown(plan: LogicalPlan): LogicalPlan {
  return push(plan, [], { parents: parentCounts(plan), done: new Map() });
}
