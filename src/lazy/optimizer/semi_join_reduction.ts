/**
 * semiJoinReduction: a join with an aggregation on one side keeps only the groups whose key
 * the other side has. The aggregation's input first goes through a semi join with the other
 * side's keys, so rows of groups the join would drop are never grouped (TPC-H Q20: a year of
 * lineitem grouped by part and supplier, joined with the few partsupp rows of "forest" parts).
 *
 * Row counts are not known when the plan is made, so the added semi join is a reducer: the
 * executor runs it only when its input has at least REDUCER_RATIO times the other side's rows,
 * and otherwise passes the rows through. The result is the same either way; the other side is
 * read by both joins and runs once.
 *
 * Where it applies: inner joins (the aggregation on either side), left joins (on the right),
 * right joins (on the left), semi joins (either side) and anti joins (on the right), by the join
 * keys that are group keys and plain columns of the aggregation's input (at least one; a key
 * that is an aggregation's result, as TPC-H Q2's minimum cost, is left to the join); filters
 * between the join and the aggregation are looked through (they keep or drop whole groups). Not
 * where the aggregation (or a filter above it) is read by another node too.
 */
import type { ExprNode } from "../../expr.js";
import { inputsOf, joinNode, projectNode, withInputs, type JoinNode, type LogicalPlan } from "../plan.js";
import { parentCounts } from "./walk.js";

/** The reducer runs when its input has at least this many times the other side's rows. */
export const REDUCER_RATIO = 8;

type Side = "left" | "right";

/** The sides of a join of kind `how` where an aggregation may be reduced by the other side. */
function reducibleSides(how: string): Side[] {
  switch (how) {
    case "inner":
    case "semi":
      return ["left", "right"];
    case "left":
    case "anti":
      return ["right"];
    case "right":
      return ["left"];
    default:
      return [];
  }
}

/** The aggregation at or below `plan` through unshared filters, and the filters above it. */
function aggregateBelow(plan: LogicalPlan, parents: Map<LogicalPlan, number>): LogicalPlan[] | null {
  const chain: LogicalPlan[] = [];
  for (let p = plan; ; p = (p as { input: LogicalPlan }).input) {
    if ((parents.get(p) ?? 0) > 1) return null;
    chain.push(p);
    if (p.kind === "aggregate") return chain;
    if (p.kind !== "filter") return null;
  }
}

const column = (name: string): ExprNode => ({ op: "col", args: [], name });

/** `join` (rebuilt, `original` as planned) with the aggregation on one side reduced, or as it is. */
function reduce(join: JoinNode, original: JoinNode, parents: Map<LogicalPlan, number>): LogicalPlan {
  const { options, leftKeys, rightKeys } = join.layout;
  for (const side of reducibleSides(options.how)) {
    // Checked on the original nodes (their parents were counted); rebuilt along the new ones.
    if (aggregateBelow(original[side], parents) === null) continue;
    const chain = aggregateBelow(join[side], new Map()) as LogicalPlan[];
    const agg = chain[chain.length - 1];
    if (agg === undefined || agg.kind !== "aggregate") continue;
    const other = side === "left" ? join.right : join.left;
    const [mine, theirs] = side === "left" ? [leftKeys, rightKeys] : [rightKeys, leftKeys];
    // The join keys of this side that are group keys and columns of the aggregation's input (a
    // group whose value of any one of them the other side lacks cannot match: reducing by a
    // subset of the keys is exact too), with the other side's columns they are compared with.
    const inputColumns: string[] = [];
    const otherColumns: string[] = [];
    mine.forEach((k, i) => {
      const key = agg.keys.find((g) => g.name === join[side].schema.names[k]);
      if (key === undefined || key.node.op !== "col" || key.node.name === undefined) return;
      inputColumns.push(key.node.name);
      otherColumns.push(other.schema.names[theirs[i] as number] as string);
    });
    if (inputColumns.length === 0 || new Set(otherColumns).size !== otherColumns.length) continue;
    const keysOnly = projectNode(other, otherColumns.map((n) => ({ name: n, node: column(n) })), false);
    const reducer: JoinNode = {
      ...joinNode(agg.input, keysOnly, {
        how: "semi",
        leftOn: inputColumns,
        rightOn: otherColumns,
        nullsEqual: options.nullsEqual,
        maintainOrder: agg.options.maintainOrder ? "left" : "none",
      }),
      reducerRatio: REDUCER_RATIO,
    };
    // The aggregation over the reduced rows, then the filters above it again.
    let rebuilt: LogicalPlan = withInputs(agg, [reducer]);
    for (let i = chain.length - 2; i >= 0; i--) rebuilt = withInputs(chain[i] as LogicalPlan, [rebuilt]);
    return side === "left" ? withInputs(join, [rebuilt, join.right]) : withInputs(join, [join.left, rebuilt]);
  }
  return join;
}

export function semiJoinReduction(plan: LogicalPlan): LogicalPlan {
  const parents = parentCounts(plan);
  const memo = new Map<LogicalPlan, LogicalPlan>();
  const go = (p: LogicalPlan): LogicalPlan => {
    const seen = memo.get(p);
    if (seen !== undefined) return seen;
    const rebuilt = withInputs(p, inputsOf(p).map(go));
    const out = rebuilt.kind === "join" && p.kind === "join" ? reduce(rebuilt, p, parents) : rebuilt;
    memo.set(p, out);
    return out;
  };
  return go(plan);
}
