/**
 * LazyFrame.pivot. A pivot's columns are its `on` values, so the plan needs them before it
 * runs: given as `onColumns` they fix the output schema when the verb is called and nothing
 * runs until collect; without them the verb first runs the plan below for the distinct `on`
 * values (in order of first appearance, or sorted with `sortColumns`) and continues as if they
 * had been listed. At collect the plan below runs (optimised on its own), the eager pivot
 * (src/ops/pivot.ts) runs over its result with the values listed, and the rest of the plan
 * scans that frame (a scan of source type "eager", as lazy_dynamic.ts does): filters,
 * projections and limits above are pushed into that scan, not through the pivot.
 */
import type { DType } from "../dtypes.js";
import { col } from "../expr.js";
import { planAggregations } from "../ops/groupby.js";
import { pivotNames, resolvePivot, type PivotOptions, type PivotValue, type ResolvedPivot } from "../ops/pivot.js";
import { collectPlan, eagerSource } from "./collect.js";
import { dtypeOfColumn, projectNode, scanNode, sortNode, typeOf, uniqueNode, type LogicalPlan, type Schema } from "./plan.js";

/** The distinct `on` values of the plan's result, as the eager pivot would order its columns. */
function onValuesOf(input: LogicalPlan, r: ResolvedPivot): PivotValue[] {
  const only = projectNode(input, [{ name: r.on, node: col(r.on).node }], false);
  const distinct = uniqueNode(only, null, 0, true);
  const plan = r.sortColumns ? sortNode(distinct, [col(r.on).node], [false], [true]) : distinct;
  const df = collectPlan(plan, {}, true);
  try {
    return df.getColumn(r.on).toArray() as PivotValue[];
  } finally {
    df.dispose();
  }
}

/** The pivot's output schema: the index columns, then the cells' dtype per values column and `on` text. */
function outputSchema(input: Schema, r: ResolvedPivot, texts: readonly string[]): Schema {
  planAggregations(r.exprs);
  const names = pivotNames(r, texts);
  const cellTypes = r.exprs.map((e) => typeOf(e.node, input));
  const dtypes: DType[] = [...r.index.map((n) => dtypeOfColumn(input, n)), ...cellTypes.flatMap((t) => texts.map(() => t))];
  return { names, dtypes };
}

const short = (texts: readonly string[]): string => (texts.length <= 6 ? texts.join(", ") : `${texts.slice(0, 5).join(", ")}, ... (${texts.length})`);

/** The plan of `input.pivot(options)`. */
export function pivotPlan(input: LogicalPlan, options: PivotOptions): LogicalPlan {
  const r = resolvePivot(input.schema.names, (n) => dtypeOfColumn(input.schema, n), options);
  const listed = r.listed?.values ?? onValuesOf(input, r);
  const fixed: PivotOptions = { ...options, onColumns: listed, sortColumns: false };
  // Resolved again with the values listed: the texts (and their checks) the eager run will use.
  const texts = resolvePivot(input.schema.names, (n) => dtypeOfColumn(input.schema, n), fixed).listed?.texts ?? [];
  const schema = outputSchema(input.schema, r, texts);
  const fn = options.aggregateFunction;
  const how = fn === undefined ? "" : typeof fn === "string" ? ` (${fn})` : " (expression)";
  const label = `PIVOT "${r.on}" [${short(texts)}] BY ${r.index.join(", ")} OF ${r.values.join(", ")}${how}`;
  return scanNode(eagerSource(input, label, (df) => df.pivot(fixed)), schema);
}
