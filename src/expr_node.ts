/**
 * Expression trees as data: the node shape an Expr wraps, its flat serialised form for the
 * native compiler (`serializeExpr`), the depth limit checked as each node is made, and the
 * per-node facts every verb asks (output name, whether whole columns are read).
 */
import { InvalidArgumentError } from "./errors.js";
import type { LiteralValue } from "./expr.js";
import { memoisedPredicate } from "./expr_tree.js";

/** @internal One node of an expression tree. */
export interface ExprNode {
  readonly op: string;
  readonly args: readonly ExprNode[];
  readonly name?: string;
  readonly value?: LiteralValue;
  readonly dtype?: number;
  readonly params?: readonly number[];
  readonly list?: readonly LiteralValue[];
  /** A cast's or str.strptime's target zone (not serialized: src/expr_zones.ts rewrites it). */
  readonly zone?: string;
  /** dt.offsetBy of calendar units (days and longer): done in local time on a zoned value. */
  readonly local?: boolean;
  /** Aggregation nodes: the reduction (a Series reduction's name) and its options. */
  readonly agg?: {
    readonly kind: AggKind;
    readonly ddof: number;
    readonly q: number;
    /** strJoin: the separator, and whether nulls are skipped (else a null makes the result null). */
    readonly sep?: string;
    readonly ignoreNulls?: boolean;
  };
}

/**
 * The reductions usable as expressions: the Series reductions, `product`, and the top-level
 * `len()` (no input: the rows), `corr(a, b)` and `cov(a, b)` (two inputs).
 */
export type AggKind =
  | "sum" | "mean" | "min" | "max" | "count" | "nullCount" | "nUnique" | "std" | "var"
  | "median" | "quantile" | "any" | "all" | "first" | "last" | "argMin" | "argMax"
  | "product" | "len" | "corr" | "cov"
  // per group only: Expr.mode() inside groupBy().agg (src/expr_sized.ts, modeAggregations)
  | "mode"
  // str.join: the strings joined by a separator (not a native ReduceKind: group_join_strings)
  | "strJoin";

/** @internal The flat form handed to the native layer: args index earlier entries. */
export interface SerializedNode {
  op: string;
  args: number[];
  name?: string;
  value?: LiteralValue;
  dtype?: number;
  params?: number[];
  list?: LiteralValue[];
  agg?: { kind: AggKind; ddof: number; q: number; sep?: string; ignoreNulls?: boolean };
}

/** The most nodes one expression may have (native/ops/expr/program.hpp, kMaxNodes). */
const MAX_EXPR_NODES = 256;

const DEPTHS = new WeakMap<ExprNode, number>();

/** A tree's nesting depth, cached per node (each Expr's children were measured when made). */
function depthOf(n: ExprNode): number {
  let d = DEPTHS.get(n);
  if (d === undefined) {
    d = 1;
    for (const a of n.args) d = Math.max(d, depthOf(a) + 1);
    DEPTHS.set(n, d);
  }
  return d;
}

/** @internal Throws InvalidArgumentError when a new node nests deeper than an expression may. */
export function checkDepth(node: ExprNode): void {
  if (depthOf(node) > MAX_EXPR_NODES) {
    // Deeper means more distinct nodes than an expression may have; said now, before any
    // recursion over the tree could overflow the JS stack.
    throw new InvalidArgumentError(`expression nests deeper than ${MAX_EXPR_NODES} (the most nodes an expression may have)`);
  }
}

/** @internal The output name of a node (Polars: alias, else the leftmost leaf's name). */
export function outputName(node: ExprNode): string {
  for (let n = node; ; ) {
    if (n.op === "alias" || n.op === "col") return n.name as string;
    if (n.op === "agg" && n.agg?.kind === "len" && n.args.length === 0) return "len";
    if (n.op === "lit") return "literal";
    const next = n.op === "when" ? n.args[1] : n.args[0];
    if (next === undefined) return "literal";
    n = next;
  }
}

/**
 * @internal True when the tree reads whole columns (else its result is one row: literals and
 * aggregations).
 */
export const readsColumns: (node: ExprNode) => boolean = memoisedPredicate(
  (node, ask) => node.op === "col" || node.op === "over" || (node.op !== "agg" && node.args.some(ask)),
);

/** @internal Post-order, shared subtrees once: the flat node list for the native compiler. */
export function serializeExpr(root: ExprNode): SerializedNode[] {
  const out: SerializedNode[] = [];
  const index = new Map<ExprNode, number>();
  const visit = (n: ExprNode): number => {
    const seen = index.get(n);
    if (seen !== undefined) return seen;
    const args = n.args.map(visit);
    const s: SerializedNode = { op: n.op, args };
    if (n.name !== undefined) s.name = n.name;
    if ("value" in n) s.value = n.value ?? null;
    if (n.dtype !== undefined) s.dtype = n.dtype;
    if (n.params !== undefined) s.params = [...n.params];
    if (n.list !== undefined) s.list = [...n.list];
    if (n.agg !== undefined) s.agg = { ...n.agg };
    out.push(s);
    index.set(n, out.length - 1);
    return out.length - 1;
  };
  visit(root);
  return out;
}
