/**
 * Aggregations inside expressions: each aggregation node is computed first (its input evaluated
 * natively, then reduced natively) and replaced by a literal of its exact value and dtype, so
 * the rest of the expression runs as one fused native program with the value broadcast.
 */
import { dtypeOfId, typeIdOf } from "../dtypes.js";
import type { ExprNode, LiteralValue } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { REDUCE_KINDS } from "./reduce.js";

/** The one value of a one-row column as a literal node (temporal values as raw ticks). */
function literalOf(one: ColumnHandle): ExprNode {
  const dtype = dtypeOfId(one.typeId);
  let value: LiteralValue;
  if (dtype === "date32" || dtype.startsWith("timestamp")) {
    const out = native.exportArrow(one);
    value =
      out.nullCount > 0
        ? null
        : dtype === "date32"
          ? BigInt(new Int32Array(out.values)[0] as number)
          : (new BigInt64Array(out.values)[0] as bigint);
  } else {
    value = native.toValues(one, 0, 1)[0] as LiteralValue;
  }
  return { op: "lit", args: [], value, dtype: typeIdOf(dtype) };
}

/**
 * The tree with every aggregation replaced by its value. `evaluate` runs an aggregation-free
 * tree over the frame (a new handle the caller owns).
 */
export function resolveAggregates(root: ExprNode, evaluate: (node: ExprNode) => ColumnHandle): ExprNode {
  const done = new Map<ExprNode, ExprNode>();
  const visit = (node: ExprNode): ExprNode => {
    const seen = done.get(node);
    if (seen) return seen;
    const args = node.args.map(visit);
    let out: ExprNode = args.every((a, i) => a === node.args[i]) ? node : { ...node, args };
    if (out.op === "agg" && out.agg) {
      const input = evaluate(args[0] as ExprNode);
      try {
        const one = native.reduce(input, REDUCE_KINDS[out.agg.kind], out.agg.ddof, out.agg.q);
        try {
          out = literalOf(one);
        } finally {
          one.dispose();
        }
      } finally {
        input.dispose();
      }
    }
    done.set(node, out);
    return out;
  };
  return visit(root);
}

/** True when the tree holds an aggregation. */
export function hasAggregates(node: ExprNode): boolean {
  return node.op === "agg" || node.args.some(hasAggregates);
}
