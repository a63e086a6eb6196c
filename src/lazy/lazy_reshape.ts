/**
 * LazyFrame.unpivot as a plan: one projection per `on` column (the index columns, the column's
 * name as a literal, its values cast to the supertype), stacked by a union. Runs natively like
 * any other plan; the optimizer sees ordinary projections.
 */
import { col, lit } from "../expr.js";
import { resolveUnpivot, type UnpivotOptions } from "../ops/reshape.js";
import { projectNode, sliceNode, unionNode, type LogicalPlan } from "./plan.js";

export function unpivotPlan(plan: LogicalPlan, options?: UnpivotOptions): LogicalPlan {
  const { index, on, names, valueType } = resolveUnpivot(plan.schema.names, plan.schema.dtypes, options);
  const [variableName, valueName] = names.slice(index.length) as [string, string];
  const keys = index.map((n) => ({ name: n, node: col(n).node }));
  if (on.length === 0) {
    const none = lit(null, "utf8").node;
    return sliceNode(projectNode(plan, [...keys, { name: variableName, node: none }, { name: valueName, node: none }], true), 0, 0);
  }
  const parts = on.map((n) =>
    projectNode(
      plan,
      [...keys, { name: variableName, node: lit(n).node }, { name: valueName, node: col(n).cast(valueType).node }],
      true,
    ),
  );
  return parts.length === 1 ? (parts[0] as LogicalPlan) : unionNode(parts);
}
