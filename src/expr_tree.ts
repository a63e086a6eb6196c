/**
 * Structural helpers over expression trees (ExprNode), shared by the eager groupBy planner and
 * the lazy engine's optimizer: identity of subtrees, the columns a tree reads, rewriting.
 */
import { createHash } from "node:crypto";

import type { ExprNode, LiteralValue } from "./expr.js";

/*
 * Expression trees may share subtrees (`e = e.add(e)` thirty times is 31 distinct nodes but
 * 2^31 paths), so every walk here visits each distinct node once: results are memoised by node
 * identity (nodes are immutable once built) and structural keys stay short.
 */

/** A literal's identity for deduplication (bigint, -0, Date and string kept apart). */
function literalKey(v: LiteralValue | undefined): string {
  if (v === undefined) return "u";
  if (v === null) return "null";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  if (v instanceof Date) return `D${v.getTime()}`;
  return JSON.stringify(v);
}

/** An argument's key as it appears inside its parent's: long ones by their SHA-1 digest. */
const KEY_INLINE = 64;
function argumentKey(key: string): string {
  return key.length <= KEY_INLINE ? key : `#${createHash("sha1").update(key).digest("base64")}`;
}

/**
 * A structural key of a subtree: equal keys compute the same column. Arguments' keys longer
 * than KEY_INLINE characters appear as their digest, so a key's length is bounded by its node's
 * own fields and the walk is linear in the distinct nodes.
 */
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
    `${node.zone ?? ""}${node.local ? "/local" : ""}`,
    node.agg ? `${node.agg.kind}/${node.agg.ddof}/${node.agg.q}/${JSON.stringify(node.agg.sep ?? "")}/${node.agg.ignoreNulls ?? true}` : "",
  ];
  const key = `${parts.join("|")}(${node.args.map((a) => argumentKey(nodeKey(a, memo))).join(";")})`;
  memo.set(node, key);
  return key;
}

/** The column names a tree reads (inside aggregations too). */
export function columnsOf(node: ExprNode, out: Set<string> = new Set(), seen: Set<ExprNode> = new Set()): Set<string> {
  if (seen.has(node)) return out;
  seen.add(node);
  if (node.op === "col") out.add(node.name as string);
  for (const a of node.args) columnsOf(a, out, seen);
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

/** `test` memoised per node over an immutable tree: a node's answer from its own and its arguments'. */
export function memoisedPredicate(test: (node: ExprNode, args: (a: ExprNode) => boolean) => boolean): (node: ExprNode) => boolean {
  const memo = new WeakMap<ExprNode, boolean>();
  const ask = (node: ExprNode): boolean => {
    let v = memo.get(node);
    if (v === undefined) {
      v = test(node, ask);
      memo.set(node, v);
    }
    return v;
  };
  return ask;
}

/** The ops whose value at a row depends on other rows (src/expr_window.ts), besides aggregations. */
export const WINDOW_OPS: ReadonlySet<string> = new Set([
  "over", "cumSum", "cumProd", "cumMin", "cumMax", "cumCount", "shift", "diff", "pctChange", "rank",
  "isFirstDistinct", "isDuplicated", "isUnique",
  // src/expr_rolling.ts
  ...["Sum", "Mean", "Min", "Max", "Std", "Var", "Median", "Quantile"].flatMap((k) => [`rolling${k}`, `rolling${k}By`]),
]);

/** Ops whose value at a row depends on other rows (fills from neighbouring rows). */
const NEIGHBOUR_OPS = new Set(["forwardFill", "backwardFill", "interpolate"]);

/** True when the tree fills from neighbouring rows (forwardFill, backwardFill, interpolate). */
export const fillsFromNeighbours: (node: ExprNode) => boolean = memoisedPredicate(
  (node, ask) => NEIGHBOUR_OPS.has(node.op) || node.args.some(ask),
);

/**
 * True when the tree reads values of rows other than its own (an aggregation, a window op or a
 * fill from neighbouring rows): filtering or slicing below it would change its values.
 */
export const readsOtherRows: (node: ExprNode) => boolean = memoisedPredicate(
  (node, ask) => node.op === "agg" || NEIGHBOUR_OPS.has(node.op) || WINDOW_OPS.has(node.op) || node.args.some(ask),
);

/**
 * True when the tree holds an aggregation or a window op (anything not row-wise: rewrites that
 * move rows under an expression, such as pushing a filter below it, must not apply).
 */
export const hasAggregates: (node: ExprNode) => boolean = memoisedPredicate(
  (node, ask) => node.op === "agg" || WINDOW_OPS.has(node.op) || node.args.some(ask),
);

/** The column a tree only passes through (col, possibly aliased), else undefined. */
export function plainColumn(node: ExprNode): string | undefined {
  const n = stripAlias(node);
  return n.op === "col" ? (n.name as string) : undefined;
}

/**
 * How many times each distinct node occurs in the trees when shared subtrees are counted per
 * occurrence (each root once), computed over the distinct nodes only.
 */
export function occurrences(roots: readonly ExprNode[]): Map<ExprNode, number> {
  const order: ExprNode[] = [];
  const seen = new Set<ExprNode>();
  const post = (n: ExprNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    for (const a of n.args) post(a);
    order.push(n);
  };
  roots.forEach(post);
  const count = new Map<ExprNode, number>();
  for (const r of roots) count.set(r, (count.get(r) ?? 0) + 1);
  // Reverse post-order visits every parent before its arguments.
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i] as ExprNode;
    const c = count.get(n) ?? 0;
    for (const a of n.args) count.set(a, (count.get(a) ?? 0) + c);
  }
  return count;
}

/** The number of nodes of a tree (shared subtrees counted once). */
export function treeSize(node: ExprNode, seen: Set<ExprNode> = new Set()): number {
  if (seen.has(node)) return 0;
  seen.add(node);
  return 1 + node.args.reduce((s, a) => s + treeSize(a, seen), 0);
}
