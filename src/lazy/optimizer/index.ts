/**
 * The optimizer: rule-based rewrites of the logical plan, one rule per file, applied in a fixed
 * order. Every rule keeps the result exactly the same (rows, order where promised, dtypes) and
 * can be turned off alone (collect({ optimizations: { <rule>: false } })).
 */
import { InvalidArgumentError } from "../../errors.js";
import type { LogicalPlan } from "../plan.js";
import { commonSubexpressions } from "./common_subexpressions.js";
import { mergeFilters } from "./merge_filters.js";
import { mergeProjections } from "./merge_projections.js";
import { predicatePushdown } from "./predicate_pushdown.js";
import { projectionPushdown } from "./projection_pushdown.js";
import { semiJoinReduction } from "./semi_join_reduction.js";
import { simplify } from "./simplify.js";
import { slicePushdown } from "./slice_pushdown.js";

/** The rules, each on by default. */
export interface OptimizationFlags {
  simplify: boolean;
  mergeFilters: boolean;
  mergeProjections: boolean;
  predicatePushdown: boolean;
  projectionPushdown: boolean;
  slicePushdown: boolean;
  semiJoinReduction: boolean;
  commonSubexpressions: boolean;
  /**
   * Not a rewrite: the executor may run an aggregation and the row-wise projections below it
   * as one morsel pipeline (native/exec/pipeline.cpp). Off: the operators run one by one.
   */
  pipelines: boolean;
}

/** A rule: a plan in, an equivalent plan out. */
export type Rule = (plan: LogicalPlan) => LogicalPlan;

/** In order: each rule runs on what the rules before it left. */
const RULES: [keyof OptimizationFlags, Rule][] = [
  ["simplify", simplify],
  ["mergeFilters", mergeFilters],
  ["predicatePushdown", predicatePushdown],
  ["mergeFilters", mergeFilters],
  ["mergeProjections", mergeProjections],
  ["projectionPushdown", projectionPushdown],
  ["slicePushdown", slicePushdown],
  // After the pushdowns: the other side it reads twice is already pruned to what the plan uses.
  ["semiJoinReduction", semiJoinReduction],
  ["commonSubexpressions", commonSubexpressions],
];

/** Every flag resolved (unknown names are an error, so a typo does not silently keep a rule on). */
export function resolveFlags(given: Partial<OptimizationFlags> | undefined): OptimizationFlags {
  const flags: OptimizationFlags = {
    simplify: true,
    mergeFilters: true,
    mergeProjections: true,
    predicatePushdown: true,
    projectionPushdown: true,
    slicePushdown: true,
    semiJoinReduction: true,
    commonSubexpressions: true,
    pipelines: true,
  };
  if (given === undefined) return flags;
  if (given === null || typeof given !== "object") throw new InvalidArgumentError("optimizations must be an object");
  for (const [k, v] of Object.entries(given)) {
    if (!Object.hasOwn(flags, k)) throw new InvalidArgumentError(`unknown optimization "${k}" (they are ${Object.keys(flags).join(", ")})`);
    if (typeof v !== "boolean") throw new InvalidArgumentError(`optimization "${k}" must be a boolean`);
    flags[k as keyof OptimizationFlags] = v;
  }
  return flags;
}

/** The plan after every enabled rule. */
export function optimize(plan: LogicalPlan, flags: OptimizationFlags): LogicalPlan {
  let out = plan;
  for (const [name, rule] of RULES) if (flags[name]) out = rule(out);
  return out;
}
