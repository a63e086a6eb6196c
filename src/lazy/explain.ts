/**
 * Plan printing: one line per node, children indented under their parent (explain()), and the
 * one-line label each physical operator carries into profile().
 */
import { formatExpr } from "../expr_format.js";
import { inputsOf, type LogicalPlan, type NamedNode } from "./plan.js";

const list = (xs: readonly NamedNode[]): string =>
  xs.map((x) => (formatExpr(x.node).endsWith(`.alias(${JSON.stringify(x.name)})`) || x.node.op === "col" && x.node.name === x.name ? formatExpr(x.node) : `${formatExpr(x.node)} as ${JSON.stringify(x.name)}`)).join(", ");

function groupFlags(o: { maintainOrder: boolean; sort: boolean; dropNulls: boolean }): string {
  const flags = [o.sort ? "sorted" : "", o.maintainOrder && !o.sort ? "in order" : "", o.dropNulls ? "null keys dropped" : ""].filter(Boolean);
  return flags.length ? ` (${flags.join(", ")})` : "";
}

function sourceText(plan: Extract<LogicalPlan, { kind: "scan" }>): string {
  const s = plan.source;
  const what = s.type === "frame" ? "DataFrame" : s.type === "eager" ? s.label : `${s.type.toUpperCase()} ${JSON.stringify(s.path)}`;
  const total = plan.sourceSchema.names.length;
  const cols = plan.columns.length === total ? `${total} columns` : `${plan.columns.length} of ${total} columns: ${plan.columns.join(", ")}`;
  const extra = [plan.predicate ? `filter ${formatExpr(plan.predicate)}` : "", plan.nRows !== null ? `first ${plan.nRows} rows` : ""].filter(Boolean);
  return `SCAN ${what} [${cols}]${extra.length ? `; ${extra.join("; ")}` : ""}`;
}

/** One line describing a node (no children). */
export function describeNode(plan: LogicalPlan): string {
  switch (plan.kind) {
    case "scan":
      return sourceText(plan);
    case "filter":
      return `FILTER ${formatExpr(plan.predicate)}`;
    case "project":
      return `SELECT ${list(plan.exprs)}`;
    case "aggregate":
      return `AGGREGATE ${list(plan.aggs)} BY ${list(plan.keys)}${groupFlags(plan.options)}`;
    case "join": {
      const o = plan.layout.options;
      const on = o.how === "cross" ? "" : ` ON ${o.leftOn.map((l, i) => (l === o.rightOn[i] ? l : `${l} = ${o.rightOn[i]}`)).join(", ")}`;
      const flags = [...(o.order !== "none" ? [`order: ${o.order}`] : []), ...(plan.reducerRatio ? [`reducer: when left rows >= ${plan.reducerRatio} x right rows`] : [])];
      return `${o.how.toUpperCase()} JOIN${on}${flags.length ? ` (${flags.join("; ")})` : ""}`;
    }
    case "sort": {
      const keys = plan.by.map((b, i) => `${formatExpr(b)}${plan.descending[i] ? " DESC" : ""}${plan.nullsLast[i] ? "" : " NULLS FIRST"}`);
      return `SORT BY ${keys.join(", ")}${plan.limit !== null ? ` LIMIT ${plan.limit}` : ""}`;
    }
    case "slice":
      return `SLICE offset ${plan.offset}${plan.length !== null ? `, length ${plan.length}` : ""}`;
    case "topK": {
      const by = `${plan.largest ? "TOP" : "BOTTOM"} ${plan.n} BY ${formatExpr(plan.by)}`;
      return plan.keys === null ? by : `${by} PER GROUP OF ${list(plan.keys)}${groupFlags(plan.options)}`;
    }
    case "groupSlice":
      return `${plan.fromEnd ? "LAST" : "FIRST"} ${plan.n} ROWS PER GROUP OF ${list(plan.keys)}${groupFlags(plan.options)}`;
    case "unique": {
      const keep = ["first", "last", "any", "none"][plan.keep];
      return `UNIQUE${plan.subset ? ` ON ${plan.subset.join(", ")}` : ""} (keep ${keep}${plan.maintainOrder ? ", in order" : ""})`;
    }
    case "union":
      return `UNION of ${plan.inputs.length}`;
  }
}

/** The plan as an indented tree, the root first; a subplan used twice is printed at each use. */
export function formatPlan(plan: LogicalPlan, indent = ""): string {
  const lines = [indent + describeNode(plan)];
  for (const child of inputsOf(plan)) lines.push(formatPlan(child, indent + "  "));
  return lines.join("\n");
}
