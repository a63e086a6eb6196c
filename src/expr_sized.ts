/**
 * Expressions whose length is their own rather than the frame's: `intRange(start, end, step)`
 * (a column of the integers in [start, end) by step) and `Expr.mode()` (every most frequent
 * value, sorted). They run in DataFrame.select / withColumns; rules: docs/semantics.md,
 * "intRange and mode".
 */
import { parseDType, typeIdOf, type DType } from "./dtypes.js";
import { InvalidArgumentError } from "./errors.js";
import { col, Expr, lit, readsColumns, type ExprNode } from "./expr.js";
import { hasAggregates, rewrite, stripAlias } from "./expr_tree.js";
import { native, type ColumnHandle } from "./native/addon.js";
import { REDUCE_KINDS } from "./ops/reduce.js";

declare module "./expr.js" {
  interface Expr {
    /**
     * Every most frequent value of the input, sorted ascending (null, a value as in
     * valueCounts, last): as many rows as there are modes. A DataFrame.select item of its own
     * (under an alias at most); elsewhere an InvalidArgumentError.
     * @example df.select(col("city").mode())
     */
    mode(): Expr;
  }
}

Expr.prototype.mode = function mode(this: Expr): Expr {
  return new Expr({ op: "mode", args: [this.node] });
};

const INTEGER_DTYPES: readonly DType[] = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"];

function bound(v: unknown, what: string): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  throw new InvalidArgumentError(`intRange: ${what} must be an integer (a number or a bigint), got ${String(v)}`);
}

/**
 * A column of the integers start, start + step, ... below `end` (above it for a negative
 * step), of `dtype` (default int64), named "literal" (alias it). `end` may be `len()`: the
 * frame's height. In DataFrame.select alone it gives its own number of rows; with columns of
 * the frame (and in withColumns) it must have the frame's height.
 *
 * @example
 * import { intRange, len } from "gpudf";
 * df.select(intRange(0, 5).alias("i"));                // 0..4
 * df.withColumns(intRange(0, len()).mul(2).alias("even")); // 0, 2, 4, ... one per row
 */
export function intRange(start: number | bigint, end: number | bigint | Expr, step: number | bigint = 1, options: { dtype?: DType } = {}): Expr {
  const s = bound(start, "start");
  const st = bound(step, "step");
  if (st === 0n) throw new InvalidArgumentError("intRange: step must not be 0");
  const dtype = parseDType(options.dtype ?? "int64");
  if (!INTEGER_DTYPES.includes(dtype)) throw new InvalidArgumentError(`intRange: dtype must be an integer dtype, got ${dtype}`);
  const toHeight = end instanceof Expr;
  if (toHeight && !(end.node.op === "agg" && end.node.agg?.kind === "len" && end.node.args.length === 0)) {
    throw new InvalidArgumentError("intRange: end must be an integer or len()");
  }
  const e = toHeight ? 0n : bound(end, "end");
  // list: start, end, step; params: [1] when end is the frame's height.
  return new Expr({ op: "intRange", args: [], list: [s, e, st], dtype: typeIdOf(dtype), params: [toHeight ? 1 : 0] });
}

/** The number of rows of an intRange node over a frame of `height` rows. */
function rangeLength(node: ExprNode, height: number): number {
  const [s, e0, st] = node.list as [bigint, bigint, bigint];
  const e = node.params?.[0] === 1 ? BigInt(height) : e0;
  const n = st > 0n ? (e - s + st - 1n) / st : (s - e - st - 1n) / -st;
  if (n > 2n ** 31n) throw new InvalidArgumentError(`intRange: ${n} rows is more than a column may have here`);
  return n > 0n ? Number(n) : 0;
}

/** True when the tree holds an op of its own length. */
function sizedOps(root: ExprNode): ExprNode[] {
  const out: ExprNode[] = [];
  const seen = new Set<ExprNode>();
  const visit = (n: ExprNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.op === "intRange" || n.op === "mode") out.push(n);
    n.args.forEach(visit);
  };
  visit(root);
  return out;
}

/** InvalidArgumentError for intRange / mode where they cannot run (`where`: the verb). */
export function refuseSized(root: ExprNode, where: string): void {
  const found = sizedOps(root)[0];
  if (found) throw new InvalidArgumentError(`${found.op === "mode" ? "mode()" : "intRange"} is not supported in ${where}; use it in DataFrame.select or withColumns`);
}

/**
 * Inside groupBy().agg (and the other per-group aggregations): `mode()`, or `mode().first()` /
 * `mode().min()`, becomes the per-group aggregation "mode" (the smallest most frequent value,
 * null last; native group_mode). Any other use of a mode's rows there is refused.
 */
export function modeAggregations(root: ExprNode): ExprNode {
  const made = new Set<ExprNode>();
  const out = rewrite(root, (n) => {
    if (n.op === "mode") {
      const m: ExprNode = { op: "agg", args: n.args, agg: { kind: "mode", ddof: 1, q: 0.5 } };
      made.add(m);
      return m;
    }
    if (n.op === "agg" && (n.agg?.kind === "first" || n.agg?.kind === "min") && made.has(n.args[0] as ExprNode)) return n.args[0] as ExprNode;
    if (n.op === "agg" && n.args.some((a) => made.has(a))) {
      throw new InvalidArgumentError(`mode() in an aggregation: only mode(), mode().first() and mode().min() are supported per group (the smallest mode), not mode().${n.agg?.kind}()`);
    }
    return n;
  });
  return out;
}

/** The mode node at the root (under aliases), if any; a mode anywhere else is refused. */
function rootMode(root: ExprNode): ExprNode | undefined {
  const n = stripAlias(root);
  const found = sizedOps(root).filter((m) => m.op === "mode");
  if (found.length === 0) return undefined;
  if (found.length > 1 || found[0] !== n) throw new InvalidArgumentError("mode() must be a select item of its own (an alias at most)");
  return n;
}

/** The modes of a column, sorted (native value counts, the largest count kept, then sorted). */
function modesOf(values: ColumnHandle): ColumnHandle {
  const [distinct, counts] = native.valueCounts(values, false);
  try {
    const top = native.reduce(counts, REDUCE_KINDS.max, 1, 0.5);
    try {
      const most = native.toValues(top, 0, 1)[0] ?? 0n;
      const nodes = [
        { op: "col", args: [], name: "c" },
        { op: "lit", args: [], value: most as bigint, dtype: typeIdOf("int64") },
        { op: "eq", args: [0, 1] },
      ];
      const mask = native.evalExpr(nodes, ["c"], [counts], counts.length);
      try {
        // value counts without sort come by value ascending, null last: already sorted.
        return native.filter([distinct], mask)[0] as ColumnHandle;
      } finally {
        mask.dispose();
      }
    } finally {
      top.dispose();
    }
  } finally {
    distinct.dispose();
    counts.dispose();
  }
}

/** An intRange node as an expression over a frame of its rows: start + step * row number. */
function rangeExpr(node: ExprNode): ExprNode {
  const [s, , st] = node.list as [bigint, bigint, bigint];
  const row = lit(0).cumCount().cast("int64").sub(1);
  return row.mul(lit(st, "int64")).add(lit(s, "int64")).cast(parseDTypeOf(node)).node;
}

const parseDTypeOf = (node: ExprNode): DType => INTEGER_DTYPES.find((d) => typeIdOf(d) === node.dtype) as DType;

/** A tree with its intRange nodes as expressions over the rows (see rangeExpr). */
export function withRanges(root: ExprNode): ExprNode {
  return rewrite(root, (n) => (n.op === "intRange" ? rangeExpr(n) : n));
}

/** A select / withColumns item of its own length: a mode's column (owned), or a tree to run over `length` rows. */
export type SizedItem = { length: number; column: ColumnHandle } | { length: number; node: ExprNode };

/**
 * The item's own length and what to evaluate: a root mode computed now (`evaluate` runs its
 * input over the frame), intRange nodes rewritten over their rows. undefined: an ordinary item.
 */
export function sizedItem(root: ExprNode, height: number, evaluate: (node: ExprNode) => ColumnHandle): SizedItem | undefined {
  const ops = sizedOps(root);
  if (ops.length === 0) return undefined;
  const mode = rootMode(root);
  if (mode) {
    const input = evaluate(withRanges(mode.args[0] as ExprNode));
    try {
      const column = modesOf(input);
      return { length: column.length, column };
    } finally {
      input.dispose();
    }
  }
  const lengths = new Set(ops.map((n) => rangeLength(n, height)));
  if (lengths.size > 1) throw new InvalidArgumentError("intRange: the ranges of one expression differ in length");
  return { length: [...lengths][0] as number, node: withRanges(root) };
}

/**
 * True when the items of a select read nothing of the frame (no columns, no aggregations) and
 * one holds an intRange with a constant end: their rows are known without the data, so a lazy
 * plan can compute them as DataFrame.select would.
 */
export function standaloneRanges(roots: readonly ExprNode[]): boolean {
  const ops = roots.flatMap(sizedOps);
  return (
    ops.length > 0 &&
    ops.every((n) => n.op === "intRange" && n.params?.[0] !== 1) &&
    roots.every((r) => !readsColumns(r) && !hasAggregates(r))
  );
}

/**
 * For lazy queries, whose plans fix expression lengths before any data is seen: an
 * `intRange(0, len())` (step 1: exactly one value per row) becomes the row number, counted over
 * the frame's first column so that it has the frame's height. Other intRanges and modes stay,
 * and are refused when the plan is typed.
 */
export function rowNumberRanges(root: ExprNode, firstColumn: string | undefined): ExprNode {
  return rewrite(root, (n) => {
    const [s, , st] = (n.list ?? []) as bigint[];
    if (n.op !== "intRange" || n.params?.[0] !== 1 || s !== 0n || st !== 1n || firstColumn === undefined) return n;
    const row = col(firstColumn).isNull().cumCount().cast("int64").sub(lit(1n, "int64"));
    return row.cast(parseDTypeOf(n)).node;
  });
}
