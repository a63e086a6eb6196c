/**
 * Lowering: an optimised logical plan -> the flat physical plan native/exec runs (children
 * before parents, the root last) and the in-memory frames it reads. A node reached twice (the
 * same subplan used by both sides of a join, say) is lowered once, so it runs once.
 */
import { slotArity } from "../ops/agg_rows.js";
import type { DataFrame } from "../dataframe.js";
import { InternalError } from "../errors.js";
import { serializeExpr, type ExprNode, type SerializedNode } from "../expr.js";
import { nodeKey, readsOtherRows } from "../expr_tree.js";
import type { ColumnHandle, NativePlanFrame, NativePlanNode } from "../native/addon.js";
import { aggArity } from "../ops/aggregate.js";
import { planAggregations } from "../ops/groupby.js";
import { joinCodes } from "../ops/join.js";
import { typeIdOf } from "../dtypes.js";
import { dtypeOfColumn, inputsOf, keepsHeight, type LogicalPlan, type NamedNode, type ScanNode } from "./plan.js";
import { describeNode } from "./explain.js";

/** What lowering needs of an in-memory frame: its columns by name (borrowed) and its height. */
export type FrameAccess = (df: DataFrame) => { names: readonly string[]; handles: readonly ColumnHandle[]; height: number };

export interface PhysicalPlan {
  nodes: NativePlanNode[];
  frames: NativePlanFrame[];
}

const named = (xs: readonly NamedNode[]): { name: string; expr: SerializedNode[] }[] =>
  xs.map((x) => ({ name: x.name, expr: serializeExpr(x.node) }));

const GROUP_KINDS = (o: { maintainOrder: boolean; sort: boolean; dropNulls: boolean }) => ({
  maintainOrder: o.maintainOrder,
  sort: o.sort,
  dropNulls: o.dropNulls,
});

/** How the executor may run the plan. */
export interface LowerOptions {
  /** Aggregations, sorts with a limit and topKs may run as morsel pipelines with the row-wise stages below them. */
  pipelines: boolean;
}

/** The physical plan of `root`. */
export function lower(root: LogicalPlan, access: FrameAccess, options: LowerOptions = { pipelines: true }): PhysicalPlan {
  const nodes: NativePlanNode[] = [];
  const frames: NativePlanFrame[] = [];
  const frameIndex = new Map<DataFrame, number>();
  const done = new Map<LogicalPlan, number>();

  const frameOf = (df: DataFrame): { index: number; names: readonly string[] } => {
    const parts = access(df);
    let index = frameIndex.get(df);
    if (index === undefined) {
      index = frames.push({ columns: [...parts.handles], rows: parts.height }) - 1;
      frameIndex.set(df, index);
    }
    return { index, names: parts.names };
  };

  const visit = (plan: LogicalPlan): number => {
    const seen = done.get(plan);
    if (seen !== undefined) return seen;
    const inputs = inputsOf(plan).map(visit);
    const node: NativePlanNode = { kind: plan.kind, inputs, label: describeNode(plan) };
    switch (plan.kind) {
      case "scan": {
        const index = lowerScan(plan, node);
        done.set(plan, index);
        return index;
      }
      case "filter":
        node.predicate = serializeExpr(plan.predicate);
        // A slice's filter is the filter's slice.
        node.rowWise = !readsOtherRows(plan.predicate);
        break;
      case "project":
        node.exprs = named(plan.exprs);
        node.broadcastHeight = plan.broadcastHeight;
        // A slice's projection is the projection's slice (what a morsel pipeline relies on).
        node.rowWise = !plan.exprs.some((e) => readsOtherRows(e.node)) && keepsHeight(plan.broadcastHeight, plan.exprs);
        break;
      case "aggregate": {
        const ap = planAggregations(plan.aggs.map((a) => ({ outputName: a.name, node: a.node })));
        const inputKeys = new Map<string, number>();
        const aggInputs: SerializedNode[][] = [];
        const memo = new Map<ExprNode, string>();
        const inputIndex = (n: ExprNode): number => {
          const key = nodeKey(n, memo);
          let i = inputKeys.get(key);
          if (i === undefined) {
            i = aggInputs.push(serializeExpr(n)) - 1;
            inputKeys.set(key, i);
          }
          return i;
        };
        Object.assign(node, {
          keys: named(plan.keys),
          aggInputs,
          slots: ap.slots.map((s) => ({
            kind: s.agg.kind,
            ddof: s.agg.ddof,
            q: s.agg.q,
            sep: s.agg.sep ?? "",
            ignoreNulls: s.agg.ignoreNulls ?? true,
            inputs: s.inputs.slice(0, slotArity(s.inputs, aggArity(s.agg.kind))).map(inputIndex),
          })),
          outputs: ap.outputs.map((o) => ({ name: o.name, expr: serializeExpr(o.node) })),
          ...GROUP_KINDS(plan.options),
          pipeline: options.pipelines,
          // Keys and inputs evaluated per morsel must not read other rows (a rank, a mean, a shift).
          rowWise: !plan.keys.some((k) => readsOtherRows(k.node)) && ap.slots.every((s) => !s.inputs.some((n) => readsOtherRows(n))),
        });
        break;
      }
      case "join": {
        const { layout } = plan;
        const codes = joinCodes(layout.options);
        const ls = plan.left.schema.names;
        const rs = plan.right.schema.names;
        Object.assign(node, {
          leftOn: layout.leftKeys.map((i) => ls[i]),
          rightOn: layout.rightKeys.map((i) => rs[i]),
          how: codes.how,
          order: codes.order,
          nullsEqual: layout.options.nullsEqual,
          reducerRatio: plan.reducerRatio ?? 0,
          outputs: layout.outputs.map((c) =>
            c.from === "key"
              ? { from: 2, key: c.index, name: c.name }
              : { from: c.from === "left" ? 0 : 1, column: (c.from === "left" ? ls : rs)[c.index], name: c.name },
          ),
        });
        break;
      }
      case "sort":
        Object.assign(node, {
          keys: plan.by.map((b) => serializeExpr(b)),
          descending: [...plan.descending],
          nullsLast: [...plan.nullsLast],
          limit: plan.limit ?? -1,
          // With a limit, each morsel's first rows may be kept and sorted again.
          pipeline: options.pipelines,
          rowWise: !plan.by.some((b) => readsOtherRows(b)),
        });
        break;
      case "slice":
        node.offset = plan.offset;
        node.length = plan.length ?? -1;
        break;
      case "topK":
        Object.assign(node, {
          keys: named(plan.keys ?? []),
          by: serializeExpr(plan.by),
          n: plan.n,
          largest: plan.largest,
          ...GROUP_KINDS(plan.options),
          pipeline: options.pipelines,
          rowWise: !readsOtherRows(plan.by),
        });
        break;
      case "groupSlice":
        Object.assign(node, { keys: named(plan.keys), n: plan.n, fromEnd: plan.fromEnd, ...GROUP_KINDS(plan.options) });
        break;
      case "unique":
        Object.assign(node, { subset: [...(plan.subset ?? [])], keep: plan.keep, maintainOrder: plan.maintainOrder, pipeline: options.pipelines });
        break;
      case "union":
        break;
    }
    const index = nodes.push(node) - 1;
    done.set(plan, index);
    return index;
  };
  /** A scan, then its pushed-down row limit and predicate as a slice and a filter. */
  const lowerScan = (plan: ScanNode, node: NativePlanNode): number => {
    const src = plan.source;
    if (src.type === "frame") {
      const f = frameOf(src.frame);
      node.frame = f.index;
      node.columns = plan.columns.map((n) => f.names.indexOf(n));
    } else if (src.type === "csv") {
      node.kind = "csvScan";
      node.path = src.path;
      node.csv = {
        ...src.options,
        columnNames: [...plan.columns],
        columnIndices: [],
        dtypesByName: plan.columns.map((n) => [n, typeIdOf(dtypeOfColumn(plan.sourceSchema, n))]),
        dtypesByIndex: [],
        nRows: plan.nRows ?? src.options.nRows,
      };
    } else {
      throw new InternalError(`a ${src.type} scan must be read before lowering`);
    }
    node.names = [...plan.columns];
    node.label = describeNode({ ...plan, predicate: null, nRows: null });
    // A scan's rows: the source's first nRows, then those where the predicate holds.
    let at = nodes.push(node) - 1;
    if (plan.nRows !== null && src.type !== "csv") {
      at = nodes.push({ kind: "slice", inputs: [at], label: "slice (in scan)", offset: 0, length: plan.nRows }) - 1;
    }
    if (plan.predicate !== null) {
      at = nodes.push({ kind: "filter", inputs: [at], label: "filter (in scan)", predicate: serializeExpr(plan.predicate) }) - 1;
    }
    return at;
  };

  visit(root);
  return { nodes, frames };
}
