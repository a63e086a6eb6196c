/**
 * simplify: constant folding and expression simplification, and the plan nodes that then do
 * nothing.
 * - Expressions: `x & true` and `x | false` are x; `not(not(x))` is x; nested aliases keep the
 *   outer name; a cast to the dtype the value already has is dropped; a subtree of literals
 *   that all have a fixed dtype (strings, booleans, Dates, or a dtype given) is computed once,
 *   natively, and becomes its value (numbers without a dtype adapt to what they meet, so they
 *   are left as written).
 * - Plans: a filter by `true`, a projection that passes its input through unchanged, and a
 *   slice of everything are removed.
 */
import { ensureDevice } from "../../device.js";
import { serializeExpr, type ExprNode } from "../../expr.js";
import { columnsOf, hasAggregates, memoisedPredicate, rewrite } from "../../expr_tree.js";
import { native } from "../../native/addon.js";
import { literalOf } from "../../ops/aggregate.js";
import { aggregateNode, filterNode, projectNode, typeOf, type LogicalPlan, type NamedNode, type Schema } from "../plan.js";
import { mapPlan } from "./walk.js";

const isTrue = (n: ExprNode): boolean => n.op === "lit" && n.value === true;
const isFalse = (n: ExprNode): boolean => n.op === "lit" && n.value === false;

/** A literal whose dtype does not depend on what it meets. */
function fixedLiteral(n: ExprNode): boolean {
  if (n.op !== "lit") return false;
  if (n.dtype !== undefined) return true;
  const v = n.value;
  return typeof v === "string" || typeof v === "boolean" || v instanceof Date;
}

const foldable = memoisedPredicate((n, ask) =>
  n.op === "lit" ? fixedLiteral(n) : n.op !== "col" && n.op !== "agg" && n.args.length > 0 && n.args.every(ask),
);

function fold(n: ExprNode): ExprNode {
  ensureDevice();
  const one = native.evalExpr(serializeExpr(n), [], [], 1);
  try {
    return literalOf(one);
  } finally {
    one.dispose();
  }
}

/** The expression simplified (over `schema`, for the dtype rules). */
export function simplifyExpr(node: ExprNode, schema: Schema): ExprNode {
  return rewrite(node, (n) => {
    const [a, b] = n.args;
    if (n.op === "and" && a && b) {
      if (isTrue(b)) return a;
      if (isTrue(a)) return b;
    }
    if (n.op === "or" && a && b) {
      if (isFalse(b)) return a;
      if (isFalse(a)) return b;
    }
    if (n.op === "not" && a?.op === "not" && a.args[0]) return a.args[0];
    if (n.op === "alias" && a?.op === "alias" && a.args[0]) return { ...n, args: [a.args[0]] };
    if (n.op === "cast" && a && !hasAggregates(a) && columnsOf(a).size > 0 && typeOf(a, schema) === typeOf(n, schema)) return a;
    if (n.op !== "lit" && n.op !== "alias" && foldable(n)) return fold(n);
    return n;
  });
}

const simplifyNamed = (xs: readonly NamedNode[], schema: Schema): NamedNode[] => xs.map((x) => ({ name: x.name, node: simplifyExpr(x.node, schema) }));

function isIdentity(p: Extract<LogicalPlan, { kind: "project" }>): boolean {
  const names = p.input.schema.names;
  return p.exprs.length === names.length && names.length > 0 && p.exprs.every((e, i) => e.name === names[i] && e.node.op === "col" && e.node.name === names[i]);
}

export function simplify(plan: LogicalPlan): LogicalPlan {
  return mapPlan(plan, (p) => {
    switch (p.kind) {
      case "filter": {
        const pred = simplifyExpr(p.predicate, p.input.schema);
        if (isTrue(pred)) return p.input;
        return pred === p.predicate ? p : filterNode(p.input, pred);
      }
      case "project": {
        if (isIdentity(p)) return p.input;
        const exprs = simplifyNamed(p.exprs, p.input.schema);
        return exprs.every((e, i) => e.node === p.exprs[i]?.node) ? p : projectNode(p.input, exprs, p.broadcastHeight);
      }
      case "aggregate": {
        const aggs = simplifyNamed(p.aggs, p.input.schema);
        return aggs.every((a, i) => a.node === p.aggs[i]?.node) ? p : aggregateNode(p.input, p.keys, aggs, p.options);
      }
      case "slice":
        return p.offset === 0 && p.length === null ? p.input : p;
      default:
        return p;
    }
  });
}
