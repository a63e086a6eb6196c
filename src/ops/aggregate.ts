/**
 * Aggregations inside expressions: each aggregation node is computed first (its input evaluated
 * natively, then reduced natively) and replaced by a literal of its exact value and dtype, so
 * the rest of the expression runs as one fused native program with the value broadcast.
 * `aggregateGroups` / `aggregateGroupsMany` are the per-group forms groupBy uses (src/ops/groupby.ts); the ungrouped
 * corr/cov run through it with one group.
 */
import { dtypeOfId, typeIdOf } from "../dtypes.js";
import type { AggKind, ExprNode, LiteralValue } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { REDUCE_KINDS } from "./reduce.js";
import { chooseRows, rowChoiceOf, type RowChoice } from "./agg_rows.js";

/** An aggregation node's resolved parameters. */
export type AggSpec = NonNullable<ExprNode["agg"]>;

/** How many evaluated inputs an aggregation takes (len: none; corr/cov: two). */
export function aggArity(kind: AggKind): number {
  return kind === "len" ? 0 : kind === "corr" || kind === "cov" ? 2 : 1;
}

/**
 * One aggregation per group: `groups` holds a group id per row (-1: ignored), `count` groups.
 * len counts rows with `groups` itself as the values. The result has one row per group.
 */
export function aggregateGroups(agg: AggSpec, inputs: readonly ColumnHandle[], groups: ColumnHandle, count: number): ColumnHandle {
  if (agg.kind === "corr" || agg.kind === "cov") {
    return native.groupCorr(inputs[0] as ColumnHandle, inputs[1] as ColumnHandle, groups, count, agg.kind === "cov", agg.ddof);
  }
  if (agg.kind === "mode") return native.groupMode(inputs[0] as ColumnHandle, groups, count);
  if (agg.kind === "strJoin") return native.groupJoin(inputs[0] as ColumnHandle, groups, count, agg.sep ?? "", agg.ignoreNulls ?? true);
  const values = agg.kind === "len" ? groups : (inputs[0] as ColumnHandle);
  return native.groupAggregate(values, groups, count, REDUCE_KINDS[agg.kind as Exclude<AggKind, OnItsOwn>], agg.ddof, agg.q);
}

/** The aggregations that are not a native ReduceKind: each has its own native function. */
type OnItsOwn = "corr" | "cov" | "mode" | "strJoin";
const ON_ITS_OWN: ReadonlySet<AggKind> = new Set<AggKind>(["corr", "cov", "mode", "strJoin"]);

/**
 * aggregateGroups of several aggregations over the same groups, in order: the single-input
 * ones go to the native side together (which folds the one-pass kinds in one pass over the
 * rows); corr/cov run on their own. On error every handle made here is released.
 */
export function aggregateGroupsMany(
  aggs: readonly { agg: AggSpec; inputs: readonly ColumnHandle[] }[],
  groups: ColumnHandle,
  count: number,
): ColumnHandle[] {
  const onItsOwn = (kind: AggKind): kind is OnItsOwn => ON_ITS_OWN.has(kind);
  const single = aggs.filter(({ agg }) => !onItsOwn(agg.kind));
  const made = native.groupAggregateMany(
    single.map(({ agg, inputs }) => (agg.kind === "len" ? groups : (inputs[0] as ColumnHandle))),
    groups,
    count,
    single.map(({ agg }) => REDUCE_KINDS[agg.kind as Exclude<AggKind, OnItsOwn>]),
    single.map(({ agg }) => agg.ddof),
    single.map(({ agg }) => agg.q),
  );
  const out: ColumnHandle[] = [];
  try {
    let next = 0;
    for (const a of aggs) {
      out.push(onItsOwn(a.agg.kind) ? aggregateGroups(a.agg, a.inputs, groups, count) : (made[next++] as ColumnHandle));
    }
    return out;
  } catch (e) {
    for (const h of made) h.dispose();
    for (const h of out) if (!made.includes(h)) h.dispose();
    throw e;
  }
}

/** A literal node of one int32 zero: broadcast, the group ids of "one group". */
const ZERO_GROUP: ExprNode = { op: "lit", args: [], value: 0, dtype: typeIdOf("int32") };

/** The one value of a one-row column as a literal node of its dtype (temporal values as raw ticks). */
export function literalOf(one: ColumnHandle): ExprNode {
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

/** The one-row result of an aggregation over the whole frame (inputs evaluated). */
function aggregateAll(agg: AggSpec, inputs: readonly ColumnHandle[], evaluate: (node: ExprNode) => ColumnHandle): ColumnHandle {
  if (agg.kind === "strJoin") return native.groupJoin(inputs[0] as ColumnHandle, null, 1, agg.sep ?? "", agg.ignoreNulls ?? true);
  if (!ON_ITS_OWN.has(agg.kind)) {
    return native.reduce(inputs[0] as ColumnHandle, REDUCE_KINDS[agg.kind as Exclude<AggKind, OnItsOwn>], agg.ddof, agg.q);
  }
  const zeros = evaluate(ZERO_GROUP);
  try {
    return aggregateGroups(agg, inputs, zeros, 1);
  } finally {
    zeros.dispose();
  }
}

/** The one-row result of an aggregation over the rows its filter / sortBy input chooses. */
function reduceChosen(agg: AggSpec, choice: RowChoice, evaluate: (node: ExprNode) => ColumnHandle): ColumnHandle {
  const value = evaluate(choice.value);
  try {
    const [chosen] = chooseRows(choice, value, null, evaluate) as [ColumnHandle];
    try {
      if (agg.kind === "strJoin") return native.groupJoin(chosen, null, 1, agg.sep ?? "", agg.ignoreNulls ?? true);
      return native.reduce(chosen, REDUCE_KINDS[agg.kind as keyof typeof REDUCE_KINDS], agg.ddof, agg.q);
    } finally {
      chosen.dispose();
    }
  } finally {
    value.dispose();
  }
}

/**
 * The tree with every aggregation replaced by its value. `evaluate` runs an aggregation-free
 * tree over the frame (a new handle the caller owns); `height` is the frame's (for len()).
 */
export function resolveAggregates(root: ExprNode, evaluate: (node: ExprNode) => ColumnHandle, height: number): ExprNode {
  const done = new Map<ExprNode, ExprNode>();
  const visit = (node: ExprNode): ExprNode => {
    const seen = done.get(node);
    if (seen) return seen;
    if (node.op === "over") return node;  // its aggregations are per partition (native)
    const args = node.args.map(visit);
    let out: ExprNode = args.every((a, i) => a === node.args[i]) ? node : { ...node, args };
    const choice = out.op === "agg" ? rowChoiceOf(node) : undefined;
    if (choice && out.agg) {
      const one = reduceChosen(out.agg, choice, evaluate);
      try {
        out = literalOf(one);
      } finally {
        one.dispose();
      }
    } else if (out.op === "agg" && out.agg) {
      if (out.agg.kind === "len") {
        out = { op: "lit", args: [], value: BigInt(height), dtype: typeIdOf("int64") };
      } else {
        const inputs: ColumnHandle[] = [];
        try {
          for (const a of args) inputs.push(evaluate(a));
          const one = aggregateAll(out.agg, inputs, evaluate);
          try {
            out = literalOf(one);
          } finally {
            one.dispose();
          }
        } finally {
          for (const h of inputs) h.dispose();
        }
      }
    }
    done.set(node, out);
    return out;
  };
  return visit(root);
}

export { hasAggregates } from "../expr_tree.js";
