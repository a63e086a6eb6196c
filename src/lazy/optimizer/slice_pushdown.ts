/**
 * slicePushdown: a head / slice moves below the operators that keep rows one for one, so less
 * is computed above the rows that are kept:
 * - slice of slice: one slice (non-negative offsets);
 * - through projections that keep their input's rows (no whole-frame aggregation);
 * - into sorts as a limit (only the first offset + length rows of the order are kept);
 * - into scans without a predicate as a row limit (a CSV scan then parses only those rows);
 * - into each input of a union (a head of a union is a head of the first inputs).
 */
import { readsOtherRows } from "../../expr_tree.js";
import { keepsHeight, projectNode, sliceNode, unionNode, type LogicalPlan, type SliceNode } from "../plan.js";
import { mapPlan, parentCounts } from "./walk.js";

function pushSlice(s: SliceNode, shared: Map<LogicalPlan, number>): LogicalPlan {
  const input = s.input;
  if ((shared.get(input) ?? 0) > 1) return s;
  const head = s.offset >= 0 && s.length !== null;
  switch (input.kind) {
    case "slice": {
      if (s.offset < 0 || input.offset < 0) return s;
      const len = input.length === null ? s.length : Math.max(0, input.length - s.offset);
      const length = s.length === null ? len : len === null ? s.length : Math.min(s.length, len);
      return pushSlice(sliceNode(input.input, input.offset + s.offset, length), shared);
    }
    case "project": {
      const rowWise = !input.exprs.some((e) => readsOtherRows(e.node)) && keepsHeight(input.broadcastHeight, input.exprs);
      if (!rowWise) return s;
      const below = pushSlice(sliceNode(input.input, s.offset, s.length), shared);
      return projectNode(below, input.exprs, input.broadcastHeight);
    }
    case "sort": {
      if (!head) return s;
      const limit = s.offset + (s.length as number);
      if (input.limit !== null && input.limit <= limit) return s;
      return sliceNode({ ...input, limit }, s.offset, s.length);
    }
    case "scan": {
      if (!head || s.offset !== 0 || input.predicate !== null) return s;
      const n = Math.min(s.length as number, input.nRows ?? Infinity);
      return { ...input, nRows: n };
    }
    case "union": {
      if (!head || s.offset !== 0) return s;
      const inputs = input.inputs.map((p) => pushSlice(sliceNode(p, 0, s.length), shared));
      return sliceNode(unionNode(inputs), 0, s.length);
    }
    default:
      return s;
  }
}

export function slicePushdown(plan: LogicalPlan): LogicalPlan {
  const shared = parentCounts(plan);
  return mapPlan(plan, (p) => (p.kind === "slice" ? pushSlice(p, shared) : p));
}
