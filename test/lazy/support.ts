/**
 * Shared by the optimizer rule tests: a plan printed before and after one rule, and the check
 * that the rule leaves the result unchanged.
 */
import type { LazyFrame, OptimizationFlags } from "gpudf";
import { formatPlan } from "../../src/lazy/explain.js";
import type { LogicalPlan } from "../../src/lazy/plan.js";
import { expectSameFrame } from "../helpers.js";

/** The plan after `rule` alone, as explain() prints it. */
export function after(lf: LazyFrame, rule: (p: LogicalPlan) => LogicalPlan): string {
  return formatPlan(rule(lf.plan));
}

/** Collecting with every rule, and with `flag` alone turned off, gives the same frame. */
export function sameWithAndWithout(lf: LazyFrame, flag: keyof OptimizationFlags): void {
  const on = lf.collectSync();
  const off = lf.collectSync({ optimizations: { [flag]: false } });
  expectSameFrame(on, off);
}
