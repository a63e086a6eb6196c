/**
 * Predicate helpers for the rules: splitting a filter into its AND-ed parts and joining them.
 * Filtering by `a AND b` keeps exactly the rows a filter by `a` then by `b` keeps (Kleene AND is
 * true only when both are true), so the parts may move independently.
 */
import { Expr, type ExprNode } from "../../expr.js";

/** The parts of a predicate joined by AND. */
export function conjuncts(node: ExprNode): ExprNode[] {
  return node.op === "and" && node.args.length === 2 ? [...conjuncts(node.args[0] as ExprNode), ...conjuncts(node.args[1] as ExprNode)] : [node];
}

/** The parts joined with AND, left to right (at least one). */
export function andAll(parts: readonly ExprNode[]): ExprNode {
  return parts.slice(1).reduce((acc, p) => new Expr(acc).and(new Expr(p)).node, parts[0] as ExprNode);
}
