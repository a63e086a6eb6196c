/**
 * Plan traversal for the rules: a bottom-up rewrite that visits a shared subplan once (so a
 * subplan used twice stays one node, and runs once).
 */
import { inputsOf, withInputs, type LogicalPlan } from "../plan.js";

/** The plan rewritten bottom-up: `fn` sees each node with its inputs already rewritten. */
export function mapPlan(plan: LogicalPlan, fn: (p: LogicalPlan) => LogicalPlan, memo: Map<LogicalPlan, LogicalPlan> = new Map()): LogicalPlan {
  const seen = memo.get(plan);
  if (seen !== undefined) return seen;
  const rebuilt = withInputs(plan, inputsOf(plan).map((p) => mapPlan(p, fn, memo)));
  const out = fn(rebuilt);
  memo.set(plan, out);
  return out;
}

/** How many parents each node has in the plan (a node with two is a shared subplan). */
export function parentCounts(plan: LogicalPlan, out: Map<LogicalPlan, number> = new Map()): Map<LogicalPlan, number> {
  for (const child of inputsOf(plan)) {
    const seen = out.has(child);
    out.set(child, (out.get(child) ?? 0) + 1);
    if (!seen) parentCounts(child, out);
  }
  return out;
}
