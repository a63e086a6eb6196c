/**
 * Structural helpers over expression trees (ExprNode), shared by the eager groupBy planner and
 * the lazy engine's optimizer: identity of subtrees, the columns a tree reads, rewriting.
 */
import type { ExprNode, LiteralValue } from "./expr.js";

/** A literal's identity for deduplication (bigint, -0, Date and string kept apart). */
function literalKey(v: LiteralValue | undefined): string {
  if (v === undefined) return "u";
  if (v === null) return "null";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v instanceof Date) return `D${v.getTime()}`;
  return JSON.stringify(v);
}

/** A structural key of a subtree: equal keys compute the same column. */
export function nodeKey(node: ExprNode, memo: Map<ExprNode, string> = new Map()): string {
  const seen = memo.get(node);
  if (seen !== undefined) return seen;
  const parts = [
    node.op,
    node.name === undefined ? "" : JSON.stringify(node.name),
    "value" in node ? literalKey(node.value) : "",
    String(node.dtype ?? ""),
    (node.params ?? []).join(","),
    (node.list ?? []).map(literalKey).join(","),
    node.agg ? `${node.agg.kind}/${node.agg.ddof}/${node.agg.q}` : "",
  ];
  const key = `${parts.join("|")}(${node.args.map((a) => nodeKey(a, memo)).join(";")})`;
  memo.set(node, key);
  return key;
}

/** The column names a tree reads (inside aggregations too). */
export function columnsOf(node: ExprNode, out: Set<string> = new Set()): Set<string> {
  if (node.op === "col") out.add(node.name as string);
  for (const a of node.args) columnsOf(a, out);
  return out;
}

/**
 * The tree rewritten bottom-up: `fn` sees each node with its arguments already rewritten and
 * returns the replacement (or the node itself). Unchanged subtrees keep their identity.
 */
export function rewrite(node: ExprNode, fn: (n: ExprNode) => ExprNode, memo: Map<ExprNode, ExprNode> = new Map()): ExprNode {
  const seen = memo.get(node);
  if (seen !== undefined) return seen;
  const args = node.args.map((a) => rewrite(a, fn, memo));
  const rebuilt = args.every((a, i) => a === node.args[i]) ? node : { ...node, args };
  const out = fn(rebuilt);
  memo.set(node, out);
  return out;
}

/** Every `col(name)` replaced by `map.get(name)` where the map has it (aliases stripped there). */
export function substituteColumns(node: ExprNode, map: ReadonlyMap<string, ExprNode>): ExprNode {
  return rewrite(node, (n) => (n.op === "col" && map.has(n.name as string) ? stripAlias(map.get(n.name as string) as ExprNode) : n));
}

/** The node under any `alias` wrappers. */
export function stripAlias(node: ExprNode): ExprNode {
  let n = node;
  while (n.op === "alias" && n.args[0] !== undefined) n = n.args[0];
  return n;
}

/** True when the tree holds an aggregation. */
export function hasAggregates(node: ExprNode): boolean {
  return node.op === "agg" || node.args.some(hasAggregates);
}

/** The column a tree only passes through (col, possibly aliased), else undefined. */
export function plainColumn(node: ExprNode): string | undefined {
  const n = stripAlias(node);
  return n.op === "col" ? (n.name as string) : undefined;
}

/** The number of nodes of a tree (shared subtrees counted once). */
export function treeSize(node: ExprNode, seen: Set<ExprNode> = new Set()): number {
  if (seen.has(node)) return 0;
  seen.add(node);
  return 1 + node.args.reduce((s, a) => s + treeSize(a, seen), 0);
}
