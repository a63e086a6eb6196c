/**
 * commonSubexpressions: a subexpression that a projection's outputs (or an aggregation's
 * inputs) compute more than once is computed once, as a column of a projection added below,
 * and read from there. Only row-wise subtrees that read columns qualify (no aggregation inside,
 * not a bare column or literal); the largest repeated one is taken first.
 */
import { col, type ExprNode } from "../../expr.js";
import { columnsOf, hasAggregates, memoisedPredicate, nodeKey, occurrences, rewrite, treeSize } from "../../expr_tree.js";
import { aggregateNode, keepsHeight, projectNode, type LogicalPlan, type NamedNode } from "../plan.js";
import { mapPlan, parentCounts } from "./walk.js";
import { ROW_OPS } from "../../ops/agg_rows.js";

const cseName = (i: number): string => `__gpudf_cse_${i}`;

function candidate(n: ExprNode): boolean {
  // A filter / sortBy chooses an aggregation's rows: not a column of its own.
  return n.op !== "col" && n.op !== "lit" && n.op !== "alias" && n.op !== "agg" && !ROW_OPS.has(n.op) && !hasAggregates(n) && readsAnyColumn(n);
}

const readsAnyColumn = memoisedPredicate((n, ask) => n.op === "col" || n.args.some(ask));

/** Occurrences of each candidate subtree (by structure) in the trees, counted per occurrence. */
function counts(roots: readonly ExprNode[]): Map<string, { node: ExprNode; count: number }> {
  const out = new Map<string, { node: ExprNode; count: number }>();
  const memo = new Map<ExprNode, string>();
  // Each distinct node once, with how often it occurs (shared subtrees would make a walk per
  // occurrence exponential).
  for (const [n, times] of occurrences(roots)) {
    if (!candidate(n)) continue;
    const k = nodeKey(n, memo);
    const e = out.get(k);
    if (e) e.count += times;
    else out.set(k, { node: n, count: times });
  }
  return out;
}

/** The trees with repeated subtrees replaced by columns, and those columns' definitions. */
function extract(roots: readonly ExprNode[], taken: Set<string>): { roots: ExprNode[]; defs: NamedNode[] } {
  let current = [...roots];
  const defs: NamedNode[] = [];
  for (;;) {
    const repeated = [...counts(current).values()].filter((e) => e.count > 1);
    if (repeated.length === 0) return { roots: current, defs };
    repeated.sort((a, b) => treeSize(b.node) - treeSize(a.node));
    const best = (repeated[0] as { node: ExprNode }).node;
    let i = defs.length;
    while (taken.has(cseName(i))) i++;
    const name = cseName(i);
    taken.add(name);
    defs.push({ name, node: best });
    const key = nodeKey(best);
    const memo = new Map<ExprNode, string>();
    current = current.map((r) => rewrite(r, (n) => (candidate(n) && nodeKey(n, memo) === key ? col(name).node : n)));
  }
}

/** The projection added below: the input columns the rewritten consumer reads, then the definitions. */
function below(input: LogicalPlan, reads: Set<string>, defs: readonly NamedNode[]): LogicalPlan {
  const cols = input.schema.names.filter((n) => reads.has(n)).map((n) => ({ name: n, node: col(n).node }));
  return projectNode(input, [...cols, ...defs], true);
}

export function commonSubexpressions(plan: LogicalPlan): LogicalPlan {
  const shared = parentCounts(plan);
  return mapPlan(plan, (p) => {
    if ((shared.get(p) ?? 0) > 1) return p;
    if (p.kind === "project") {
      const { roots, defs } = extract(
        p.exprs.map((e) => e.node),
        new Set(p.input.schema.names),
      );
      if (defs.length === 0) return p;
      const reads = new Set<string>();
      for (const r of roots) columnsOf(r, reads);
      const exprs = p.exprs.map((e, i) => ({ name: e.name, node: roots[i] as ExprNode }));
      return projectNode(below(p.input, reads, defs), exprs, keepsHeight(p.broadcastHeight, p.exprs));
    }
    if (p.kind === "aggregate") {
      // Repeats among the aggregations' inputs (an input used whole by two aggregations is
      // already computed once when the plan is lowered, so count each distinct input once).
      const inputs = new Map<string, ExprNode>();
      const memo = new Map<ExprNode, string>();
      const collected = new Set<ExprNode>();
      const collect = (n: ExprNode): void => {
        if (collected.has(n)) return;
        collected.add(n);
        if (n.op === "agg") for (const a of n.args) inputs.set(nodeKey(a, memo), a);
        else n.args.forEach(collect);
      };
      p.aggs.forEach((a) => collect(a.node));
      const distinct = [...inputs.values()];
      const { roots, defs } = extract(distinct, new Set(p.input.schema.names));
      if (defs.length === 0) return p;
      const replaced = new Map(distinct.map((d, i) => [d, roots[i] as ExprNode]));
      const aggs = p.aggs.map((a) => ({
        name: a.name,
        node: rewrite(a.node, (n) => (n.op === "agg" ? { ...n, args: n.args.map((x) => replaced.get(inputs.get(nodeKey(x, memo)) as ExprNode) ?? x) } : n)),
      }));
      const reads = new Set<string>();
      for (const k of p.keys) columnsOf(k.node, reads);
      for (const a of aggs) columnsOf(a.node, reads);
      return aggregateNode(below(p.input, reads, defs), p.keys, aggs, p.options);
    }
    return p;
  });
}
