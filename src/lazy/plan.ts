/**
 * The logical plan: what a LazyFrame's verbs build. Each node is immutable and knows its output
 * schema when it is made, so misspelt columns, dtype mismatches and misused aggregations are
 * thrown by the verb that introduced them, not at collect(). Expression dtypes come from the
 * native compiler (native.exprType), so plan-time schemas follow exactly the rules the
 * executor applies.
 */
import { checkRowOps } from "../ops/agg_rows.js";
import { modeAggregations, refuseSized } from "../expr_sized.js";
import type { DataFrame } from "../dataframe.js";
import { dtypeOfId, typeIdOf, withTimeZone, type DType } from "../dtypes.js";
import { localizeZones } from "../expr_zones.js";
import { DtypeError, InvalidArgumentError } from "../errors.js";
import { readsColumns, serializeExpr, type ExprNode } from "../expr.js";
import { columnsOf } from "../expr_tree.js";
import { native, type NativeCsvOptions } from "../native/addon.js";
import { checkUniqueNames } from "../ops/frame.js";
import { planAggregations } from "../ops/groupby.js";
import { joinLayout, type JoinLayout } from "../ops/join.js";
import { columnNotFound } from "../suggest.js";

/** Column names and dtypes, in order. */
export interface Schema {
  readonly names: readonly string[];
  readonly dtypes: readonly DType[];
}

/** An expression with its output name. */
export interface NamedNode {
  readonly name: string;
  readonly node: ExprNode;
}

/** A grouping's options (groupBy). */
export interface GroupOptions {
  readonly maintainOrder: boolean;
  readonly sort: boolean;
  readonly dropNulls: boolean;
}

/** Where a scan reads from. */
export type ScanSource =
  | { readonly type: "frame"; readonly frame: DataFrame }
  | { readonly type: "csv"; readonly path: string; readonly options: NativeCsvOptions }
  | { readonly type: "parquet"; readonly path: string }
  | { readonly type: "ipc"; readonly path: string }
  /** A frame computed in JS when the plan runs (collect.ts eagerSource); `label` for explain. */
  | { readonly type: "eager"; readonly label: string; readonly read: (sync: boolean) => DataFrame | Promise<DataFrame> }
  | { readonly type: "ndjson"; readonly path: string; readonly nRows: number | null };

interface Base {
  readonly schema: Schema;
}

/** A source's columns: `columns` (a projection, in output order) of `source`; rows limited by `nRows`. */
export interface ScanNode extends Base {
  readonly kind: "scan";
  readonly source: ScanSource;
  readonly sourceSchema: Schema;
  readonly columns: readonly string[];
  /** Applied while scanning (predicate pushdown); null: none. */
  readonly predicate: ExprNode | null;
  /** At most this many rows of the source (slice pushdown; only without a predicate). */
  readonly nRows: number | null;
}

export interface FilterNode extends Base {
  readonly kind: "filter";
  readonly input: LogicalPlan;
  readonly predicate: ExprNode;
}

/** Exactly `exprs`, in order. `broadcastHeight`: literal-only outputs take the input's height. */
export interface ProjectNode extends Base {
  readonly kind: "project";
  readonly input: LogicalPlan;
  readonly exprs: readonly NamedNode[];
  readonly broadcastHeight: boolean;
}

export interface AggregateNode extends Base {
  readonly kind: "aggregate";
  readonly input: LogicalPlan;
  readonly keys: readonly NamedNode[];
  readonly aggs: readonly NamedNode[];
  readonly options: GroupOptions;
}

export interface JoinNode extends Base {
  readonly kind: "join";
  readonly left: LogicalPlan;
  readonly right: LogicalPlan;
  /** The join's options as given (names resolved against the inputs' schemas by `layout`). */
  readonly options: unknown;
  readonly layout: JoinLayout;
  /**
   * Set by semiJoinReduction on the semi joins it adds: the join runs only when its left side has
   * at least this many times the right side's rows, else the left side passes unchanged.
   */
  readonly reducerRatio?: number;
}

export interface SortNode extends Base {
  readonly kind: "sort";
  readonly input: LogicalPlan;
  readonly by: readonly ExprNode[];
  readonly descending: readonly boolean[];
  readonly nullsLast: readonly boolean[];
  /** Only the first rows of the order are kept (slice pushdown into the sort); null: all. */
  readonly limit: number | null;
}

/** Rows [offset, offset + length); a negative offset counts from the end; length null: to the end. */
export interface SliceNode extends Base {
  readonly kind: "slice";
  readonly input: LogicalPlan;
  readonly offset: number;
  readonly length: number | null;
}

/** The n rows with the largest (smallest) `by`, per group when `keys` is not null. */
export interface TopKNode extends Base {
  readonly kind: "topK";
  readonly input: LogicalPlan;
  readonly keys: readonly NamedNode[] | null;
  readonly options: GroupOptions;
  readonly n: number;
  readonly by: ExprNode;
  readonly largest: boolean;
}

/** The first (last) n rows of each group. */
export interface GroupSliceNode extends Base {
  readonly kind: "groupSlice";
  readonly input: LogicalPlan;
  readonly keys: readonly NamedNode[];
  readonly options: GroupOptions;
  readonly n: number;
  readonly fromEnd: boolean;
}

export interface UniqueNode extends Base {
  readonly kind: "unique";
  readonly input: LogicalPlan;
  readonly subset: readonly string[] | null;
  /** 0 first, 1 last, 2 any, 3 none (ops/distinct Keep). */
  readonly keep: number;
  readonly maintainOrder: boolean;
}

export interface UnionNode extends Base {
  readonly kind: "union";
  readonly inputs: readonly LogicalPlan[];
}

export type LogicalPlan =
  | ScanNode
  | FilterNode
  | ProjectNode
  | AggregateNode
  | JoinNode
  | SortNode
  | SliceNode
  | TopKNode
  | GroupSliceNode
  | UniqueNode
  | UnionNode;

/** The inputs of a node, in order. */
export function inputsOf(plan: LogicalPlan): readonly LogicalPlan[] {
  switch (plan.kind) {
    case "scan":
      return [];
    case "join":
      return [plan.left, plan.right];
    case "union":
      return plan.inputs;
    default:
      return [plan.input];
  }
}

/** The same node over new inputs (same count and order as inputsOf); the schema is kept. */
export function withInputs(plan: LogicalPlan, inputs: readonly LogicalPlan[]): LogicalPlan {
  const same = inputsOf(plan).every((p, i) => p === inputs[i]);
  if (same) return plan;
  switch (plan.kind) {
    case "scan":
      return plan;
    case "join":
      return { ...plan, left: inputs[0] as LogicalPlan, right: inputs[1] as LogicalPlan };
    case "union":
      return { ...plan, inputs: [...inputs] };
    default:
      return { ...plan, input: inputs[0] as LogicalPlan };
  }
}

// ---- schemas --------------------------------------------------------------------------------

/** ColumnNotFoundError (listing the columns) unless every column the tree reads is in `schema`. */
export function checkColumns(node: ExprNode, schema: Schema): void {
  for (const name of columnsOf(node)) {
    if (!schema.names.includes(name)) {
      throw columnNotFound(name, schema.names);
    }
  }
}

/** The dtype of an expression over `schema` (aggregations typed as the executor types them). */
export function typeOf(node: ExprNode, schema: Schema): DType {
  checkColumns(node, schema);
  checkRowOps(node);
  refuseSized(node, "a lazy query");
  const { node: local, zone } = localizeZones(node, schema);
  return withTimeZone(dtypeOfId(native.exprType(serializeExpr(local), [...schema.names], schema.dtypes.map((d) => typeIdOf(d)))), zone);
}

/** `node` with its zone-dependent parts rewritten for the executor (src/expr_zones.ts). */
const localized = (node: ExprNode, schema: Schema): ExprNode => localizeZones(node, schema).node;
const localizedAll = (nodes: readonly NamedNode[], schema: Schema): NamedNode[] => nodes.map((e) => ({ ...e, node: localized(e.node, schema) }));

export function dtypeOfColumn(schema: Schema, name: string): DType {
  const i = schema.names.indexOf(name);
  if (i < 0) throw columnNotFound(name, schema.names);
  return schema.dtypes[i] as DType;
}

function schemaOf(pairs: readonly (readonly [string, DType])[]): Schema {
  return { names: pairs.map((p) => p[0]), dtypes: pairs.map((p) => p[1]) };
}

// ---- node constructors (each checks its input and computes its schema) ------------------------

export function scanNode(source: ScanSource, sourceSchema: Schema): ScanNode {
  return { kind: "scan", source, sourceSchema, schema: sourceSchema, columns: [...sourceSchema.names], predicate: null, nRows: null };
}

export function filterNode(input: LogicalPlan, predicate: ExprNode): FilterNode {
  const t = typeOf(predicate, input.schema);
  if (t !== "bool") throw new DtypeError(`filter needs a bool predicate, got ${t}`);
  return { kind: "filter", input, predicate: localized(predicate, input.schema), schema: input.schema };
}

/**
 * True when a projection keeps its input's height: it broadcasts, or an output reads a column
 * outside any aggregation (else it is one row: literals and whole-frame aggregations).
 */
export function keepsHeight(broadcastHeight: boolean, exprs: readonly NamedNode[]): boolean {
  return broadcastHeight || exprs.some((e) => readsColumns(e.node));
}

export function projectNode(input: LogicalPlan, exprs: readonly NamedNode[], broadcastHeight: boolean): ProjectNode {
  checkUniqueNames(
    exprs.map((e) => e.name),
    "; use alias()",
  );
  const schema = schemaOf(exprs.map((e) => [e.name, typeOf(e.node, input.schema)] as const));
  return { kind: "project", input, exprs: localizedAll(exprs, input.schema), broadcastHeight, schema };
}

export function aggregateNode(input: LogicalPlan, keys: readonly NamedNode[], given: readonly NamedNode[], options: GroupOptions): AggregateNode {
  const aggs = given.map((a) => ({ ...a, node: modeAggregations(a.node) }));
  if (keys.length === 0) throw new InvalidArgumentError("groupBy needs at least one key (a column name or an expression)");
  checkUniqueNames(
    keys.map((k) => k.name),
    " among the groupBy keys; use alias()",
  );
  checkUniqueNames([...keys.map((k) => k.name), ...aggs.map((a) => a.name)], "; use alias()");
  planAggregations(aggs.map((a) => ({ outputName: a.name, node: a.node })));
  const schema = schemaOf([
    ...keys.map((k) => [k.name, typeOf(k.node, input.schema)] as const),
    ...aggs.map((a) => [a.name, typeOf(a.node, input.schema)] as const),
  ]);
  return { kind: "aggregate", input, keys: localizedAll(keys, input.schema), aggs: localizedAll(aggs, input.schema), options, schema };
}

export function joinNode(left: LogicalPlan, right: LogicalPlan, options: unknown): JoinNode {
  const layout = joinLayout(left.schema.names, right.schema.names, options);
  const keyTypes = layout.leftKeys.map((l, k) =>
    dtypeOfId(native.keySupertype(typeIdOf(left.schema.dtypes[l] as DType), typeIdOf(right.schema.dtypes[layout.rightKeys[k] as number] as DType))),
  );
  const schema = schemaOf(
    layout.outputs.map((c) => {
      const t = c.from === "key" ? keyTypes[c.index] : c.from === "left" ? left.schema.dtypes[c.index] : right.schema.dtypes[c.index];
      return [c.name, t as DType] as const;
    }),
  );
  return { kind: "join", left, right, options, layout, schema };
}

export function sortNode(input: LogicalPlan, by: readonly ExprNode[], descending: readonly boolean[], nullsLast: readonly boolean[]): SortNode {
  for (const b of by) typeOf(b, input.schema);
  return { kind: "sort", input, by: by.map((b) => localized(b, input.schema)), descending, nullsLast, limit: null, schema: input.schema };
}

export function sliceNode(input: LogicalPlan, offset: number, length: number | null): SliceNode {
  return { kind: "slice", input, offset, length, schema: input.schema };
}

/** Keys first (their expression dtypes), then every input column not named like a key. */
function keysThenRest(input: LogicalPlan, keys: readonly NamedNode[]): Schema {
  const keyNames = new Set(keys.map((k) => k.name));
  checkUniqueNames(
    keys.map((k) => k.name),
    " among the groupBy keys; use alias()",
  );
  return schemaOf([
    ...keys.map((k) => [k.name, typeOf(k.node, input.schema)] as const),
    ...input.schema.names.map((n, i) => [n, input.schema.dtypes[i] as DType] as const).filter(([n]) => !keyNames.has(n)),
  ]);
}

export function topKNode(
  input: LogicalPlan,
  keys: readonly NamedNode[] | null,
  options: GroupOptions,
  n: number,
  by: ExprNode,
  largest: boolean,
): TopKNode {
  typeOf(by, input.schema);
  const schema = keys === null ? input.schema : keysThenRest(input, keys);
  return { kind: "topK", input, keys: keys === null ? null : localizedAll(keys, input.schema), options, n, by: localized(by, input.schema), largest, schema };
}

export function groupSliceNode(input: LogicalPlan, keys: readonly NamedNode[], options: GroupOptions, n: number, fromEnd: boolean): GroupSliceNode {
  return { kind: "groupSlice", input, keys, options, n, fromEnd, schema: keysThenRest(input, keys) };
}

export function uniqueNode(input: LogicalPlan, subset: readonly string[] | null, keep: number, maintainOrder: boolean): UniqueNode {
  for (const n of subset ?? []) dtypeOfColumn(input.schema, n);
  return { kind: "unique", input, subset, keep, maintainOrder, schema: input.schema };
}

export function unionNode(inputs: readonly LogicalPlan[]): UnionNode {
  if (inputs.length === 0) throw new InvalidArgumentError("concat needs at least one frame");
  const first = (inputs[0] as LogicalPlan).schema;
  inputs.forEach((p, k) => {
    const s = p.schema;
    if (s.names.length !== first.names.length || s.names.some((n, i) => n !== first.names[i])) {
      throw new InvalidArgumentError(
        `concat: frame ${k} has columns [${s.names.join(", ")}]; frame 0 has [${first.names.join(", ")}] (same names in the same order are required)`,
      );
    }
    s.dtypes.forEach((d, i) => {
      if (d !== first.dtypes[i]) throw new DtypeError(`concat: column "${s.names[i]}" is ${d} in frame ${k} but ${first.dtypes[i]} in frame 0`);
    });
  });
  return { kind: "union", inputs, schema: first };
}
