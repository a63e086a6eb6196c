/**
 * projectionPushdown: only the columns something above reads flow through the plan. Scans read
 * (and CSV scans parse) only those; projections drop unread outputs; aggregations drop unread
 * aggregations; joins, filters, sorts and group operators pass down what they read themselves
 * plus what is read above them. The root keeps all of its columns.
 *
 * Shapes are kept exactly: a projection whose remaining outputs no longer read a column keeps
 * its input's height; a join keeps the columns whose names decide its output names (a right
 * column clashing with a left one keeps its suffix); union inputs are cut to one column order.
 */
import type { ExprNode } from "../../expr.js";
import { columnsOf } from "../../expr_tree.js";
import {
  aggregateNode,
  filterNode,
  groupSliceNode,
  joinNode,
  keepsHeight,
  projectNode,
  sliceNode,
  sortNode,
  topKNode,
  uniqueNode,
  unionNode,
  type LogicalPlan,
} from "../plan.js";
import { parentCounts } from "./walk.js";

/** null: every column. */
type Needed = ReadonlySet<string> | null;

function union(a: Needed, ...nodes: readonly ExprNode[]): Set<string> {
  const out = new Set<string>(a ?? []);
  for (const n of nodes) columnsOf(n, out);
  return out;
}

function keep(names: readonly string[], needed: Needed): string[] {
  return needed === null ? [...names] : names.filter((n) => needed.has(n));
}

function prune(plan: LogicalPlan, needed: Needed, shared: Map<LogicalPlan, number>, memo: Map<LogicalPlan, LogicalPlan>): LogicalPlan {
  // A subplan used twice is pruned once, for everything any of its parents might read.
  if ((shared.get(plan) ?? 0) > 1) needed = null;
  const key = needed === null ? plan : undefined;
  if (key !== undefined && memo.has(key)) return memo.get(key) as LogicalPlan;
  const go = (p: LogicalPlan, n: Needed): LogicalPlan => prune(p, n, shared, memo);
  let out: LogicalPlan;
  switch (plan.kind) {
    case "scan": {
      const want = union(needed, ...(plan.predicate ? [plan.predicate] : []));
      let columns = needed === null ? [...plan.columns] : plan.columns.filter((c) => want.has(c));
      // A CSV reader asked for no column reads them all, an NDJSON one reads no rows: keep one to count the rows.
      if (columns.length === 0 && (plan.source.type === "csv" || plan.source.type === "ndjson") && plan.columns.length > 0) columns = [plan.columns[0] as string];
      if (columns.length === plan.columns.length) {
        out = plan;
        break;
      }
      const dtypes = columns.map((c) => plan.schema.dtypes[plan.schema.names.indexOf(c)] as (typeof plan.schema.dtypes)[number]);
      out = { ...plan, columns, schema: { names: columns, dtypes } };
      break;
    }
    case "filter":
      out = filterNode(go(plan.input, needed === null ? null : union(needed, plan.predicate)), plan.predicate);
      break;
    case "project": {
      const kept = needed === null ? plan.exprs : plan.exprs.filter((e) => needed.has(e.name));
      // Same height as before: if the dropped outputs were what read a column, say so.
      const broadcast = plan.broadcastHeight || (keepsHeight(false, plan.exprs) && !keepsHeight(false, kept));
      const input = go(plan.input, union(new Set(), ...kept.map((e) => e.node)));
      out = kept.length === plan.exprs.length && input === plan.input && broadcast === plan.broadcastHeight ? plan : projectNode(input, kept, broadcast);
      break;
    }
    case "aggregate": {
      const aggs = needed === null ? plan.aggs : plan.aggs.filter((a) => needed.has(a.name));
      const input = go(plan.input, union(new Set(), ...plan.keys.map((k) => k.node), ...aggs.map((a) => a.node)));
      out = aggs.length === plan.aggs.length && input === plan.input ? plan : aggregateNode(input, plan.keys, aggs, plan.options);
      break;
    }
    case "join": {
      const o = plan.layout;
      const ls = plan.left.schema.names;
      const rs = plan.right.schema.names;
      const wantLeft = new Set<string>(o.leftKeys.map((i) => ls[i] as string));
      const wantRight = new Set<string>(o.rightKeys.map((i) => rs[i] as string));
      plan.schema.names.forEach((name, i) => {
        if (needed !== null && !needed.has(name)) return;
        const c = o.outputs[i];
        if (c === undefined || c.from === "key") return;
        (c.from === "left" ? wantLeft : wantRight).add((c.from === "left" ? ls : rs)[c.index] as string);
      });
      // Left names that a right column's name is compared with keep the output names as they are.
      const rightNames = new Set(rs);
      for (const n of ls) if (rightNames.has(n)) wantLeft.add(n);
      const left = go(plan.left, needed === null ? null : wantLeft);
      const right = go(plan.right, needed === null ? null : wantRight);
      out = left === plan.left && right === plan.right ? plan : joinNode(left, right, plan.options);
      break;
    }
    case "sort": {
      const input = go(plan.input, needed === null ? null : union(needed, ...plan.by));
      out = input === plan.input ? plan : { ...sortNode(input, plan.by, plan.descending, plan.nullsLast), limit: plan.limit };
      break;
    }
    case "slice": {
      const input = go(plan.input, needed);
      out = input === plan.input ? plan : sliceNode(input, plan.offset, plan.length);
      break;
    }
    case "topK": {
      const keyNodes = (plan.keys ?? []).map((k) => k.node);
      const input = go(plan.input, needed === null ? null : union(needed, plan.by, ...keyNodes));
      out = input === plan.input ? plan : topKNode(input, plan.keys, plan.options, plan.n, plan.by, plan.largest);
      break;
    }
    case "groupSlice": {
      const input = go(plan.input, needed === null ? null : union(needed, ...plan.keys.map((k) => k.node)));
      out = input === plan.input ? plan : groupSliceNode(input, plan.keys, plan.options, plan.n, plan.fromEnd);
      break;
    }
    case "unique": {
      // Duplicates are decided by the subset (all columns when there is none).
      const input = go(plan.input, needed === null || plan.subset === null ? null : new Set([...needed, ...plan.subset]));
      out = input === plan.input ? plan : uniqueNode(input, plan.subset, plan.keep, plan.maintainOrder);
      break;
    }
    case "union": {
      const names = keep(plan.schema.names, needed);
      const inputs = plan.inputs.map((p) => {
        const pruned = go(p, new Set(names));
        const same = pruned.schema.names.length === names.length && pruned.schema.names.every((n, i) => n === names[i]);
        return same ? pruned : projectNode(pruned, names.map((n) => ({ name: n, node: { op: "col", args: [], name: n } })), true);
      });
      out = inputs.every((p, i) => p === plan.inputs[i]) ? plan : unionNode(inputs);
      break;
    }
  }
  if (key !== undefined) memo.set(key, out);
  return out;
}

export function projectionPushdown(plan: LogicalPlan): LogicalPlan {
  return prune(plan, null, parentCounts(plan), new Map());
}
