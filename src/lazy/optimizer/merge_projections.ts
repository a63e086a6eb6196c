/**
 * mergeProjections: a projection over a projection becomes one, the outer expressions written
 * over the inner one's input (column references replaced by their definitions). Only when
 * nothing changes but the number of steps: the inner projection keeps its input's height and
 * holds no whole-frame aggregation, and each inner expression that is more than a column is read
 * at most once above (so no work is repeated).
 */
import type { ExprNode } from "../../expr.js";
import { hasAggregates, substituteColumns } from "../../expr_tree.js";
import { keepsHeight, projectNode, type LogicalPlan } from "../plan.js";
import { mapPlan, parentCounts } from "./walk.js";

function uses(node: ExprNode, name: string): number {
  return (node.op === "col" && node.name === name ? 1 : 0) + node.args.reduce((s, a) => s + uses(a, name), 0);
}

export function mergeProjections(plan: LogicalPlan): LogicalPlan {
  const shared = parentCounts(plan);
  return mapPlan(plan, (p) => {
    if (p.kind !== "project" || p.input.kind !== "project" || (shared.get(p.input) ?? 0) > 1) return p;
    const inner = p.input;
    if (inner.exprs.some((e) => hasAggregates(e.node))) return p;
    if (!keepsHeight(inner.broadcastHeight, inner.exprs)) return p;
    const defs = new Map<string, ExprNode>(inner.exprs.map((e) => [e.name, e.node]));
    for (const e of inner.exprs) {
      const n = e.node.op === "alias" ? (e.node.args[0] as ExprNode) : e.node;
      if (n.op === "col" || n.op === "lit") continue;
      const count = p.exprs.reduce((s, o) => s + uses(o.node, e.name), 0);
      if (count > 1) return p;
    }
    // An outer output that reads only literal definitions would stop reading columns.
    const broadcast = keepsHeight(p.broadcastHeight, p.exprs);
    const exprs = p.exprs.map((o) => {
      const node = substituteColumns(o.node, defs);
      return { name: o.name, node: node.op === "col" && node.name !== o.name ? { op: "alias", args: [node], name: o.name } : node };
    });
    return projectNode(inner.input, exprs, broadcast);
  });
}
