/**
 * groupBy: the keys are evaluated natively, the rows numbered by group natively (groupRows),
 * each distinct aggregation computed once per group natively (groupAggregate / groupCorr), and
 * the rest of each expression runs as one native program over the per-group columns. Nothing
 * here touches rows. Rules: docs/semantics.md, "GroupBy".
 */
import { inspect } from "node:util";

import type { DataFrame } from "../dataframe.js";
import { InvalidArgumentError } from "../errors.js";
import { col, Expr, serializeExpr, type ExprNode } from "../expr.js";
import { fillsFromNeighbours, nodeKey } from "../expr_tree.js";
import { rowCount } from "../handles.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { aggArity, aggregateGroups, aggregateGroupsMany, hasAggregates, type AggSpec } from "./aggregate.js";
import { checkRowOps, chooseRows, rowChoiceOf } from "./agg_rows.js";
import { modeAggregations, refuseSized } from "../expr_sized.js";
import { expandExprs, expandItems, schemaOfHandles } from "../expr_expand.js";
import { localizeZones } from "../expr_zones.js";
import { tagZone } from "../zones.js";
import { checkUniqueNames, disposeOnError, share, type FrameParts, type FrameResult } from "./frame.js";
import { shortcutExprs, type ShortcutKind } from "./group_shortcuts.js";
import { columnIndex, evaluate } from "./select.js";
import { checkTopK, topKRows, type TopKBy } from "./top_k.js";
import type { GroupVerbs } from "./verbs.js";
import { checkOptions } from "../suggest.js";

/** A grouping key: a column name or an expression (named by its output name). */
export type GroupKey = string | Expr;

/** Options of `DataFrame.groupBy`. */
export interface GroupByOptions {
  /** Groups in order of first appearance. Default false: the order is unspecified. */
  maintainOrder?: boolean;
  /** Groups sorted by the keys, ascending, nulls last (takes precedence over maintainOrder). */
  sort?: boolean;
  /** Drop rows where any key is null (default false: null keys form their own group). */
  dropNulls?: boolean;
}

interface Resolved {
  maintainOrder: boolean;
  sort: boolean;
  dropNulls: boolean;
}

const OPTION_NAMES = ["maintainOrder", "sort", "dropNulls"] as const;

function isOptions(v: unknown): boolean {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Expr);
}

/** groupBy's arguments: keys (names, Exprs, arrays of them; variadic) and an optional last options object. */
export function groupByArgs(args: readonly unknown[]): { keys: GroupKey[]; options: Resolved } {
  const last = args[args.length - 1];
  const hasOptions = args.length > 1 && (isOptions(last) || last === undefined);
  const keys = (hasOptions ? args.slice(0, -1) : args).flat() as unknown[];
  if (keys.length === 0) throw new InvalidArgumentError("groupBy needs at least one key (a column name or an expression)");
  for (const k of keys) {
    if (typeof k !== "string" && !(k instanceof Expr)) {
      throw new InvalidArgumentError(`groupBy keys must be column names or expressions, got ${String(k)}`);
    }
  }
  const o = (hasOptions && last !== undefined ? last : {}) as Record<string, unknown>;
  checkOptions("groupBy", o, OPTION_NAMES);
  const flag = (name: (typeof OPTION_NAMES)[number]): boolean => {
    const v = o[name] ?? false;
    if (typeof v !== "boolean") throw new InvalidArgumentError(`groupBy \`${name}\` must be a boolean, got ${String(v)}`);
    return v;
  };
  return { keys: keys as GroupKey[], options: { maintainOrder: flag("maintainOrder"), sort: flag("sort"), dropNulls: flag("dropNulls") } };
}

/** Disposes every handle (dispose is idempotent). */
function disposeAll(handles: Iterable<ColumnHandle>): void {
  for (const h of handles) h.dispose();
}

/** A frame column by name (shared) or an expression evaluated over every row. */
export function evaluateOver(frame: FrameParts, node: ExprNode): ColumnHandle {
  if (node.op === "col") return share(frame.columns[columnIndex(frame, node.name as string)] as ColumnHandle);
  return evaluate(frame, new Expr(node), frame.height);
}

/** One distinct aggregation: its kind and options, and its input subtrees. */
export interface Slot {
  agg: AggSpec;
  inputs: readonly ExprNode[];
}

/** The aggregations of agg(), deduplicated, and each output rewritten over the slots. */
export interface AggregationPlan {
  slots: Slot[];
  outputs: { name: string; node: ExprNode }[];
}

/** The per-group column of slot i (native/exec/aggregate.cpp reads the same names). */
export const slotName = (i: number): string => `__gpudf_agg_${i}`;

/**
 * Each aggregation node becomes a column reference to its slot (a per-group column); equal
 * aggregations share a slot. A column read outside any aggregation is refused (it has no single
 * value per group).
 */
export function planAggregations(exprs: readonly { readonly outputName: string; readonly node: ExprNode }[]): AggregationPlan {
  const slots: Slot[] = [];
  const bySignature = new Map<string, number>();
  const memo = new Map<ExprNode, string>();
  const outputs = exprs.map((expr) => {
    const name = expr.outputName;
    const root = modeAggregations(expr.node);
    checkRowOps(root);
    refuseSized(root, "groupBy().agg");
    if (fillsFromNeighbours(root)) {
      // They would fill across the groups (per-group fills are window functions).
      throw new InvalidArgumentError(`groupBy().agg: "${name}" uses forwardFill, backwardFill or interpolate; that is not supported in an aggregation`);
    }
    const rewritten = new Map<ExprNode, ExprNode>();
    const rewrite = (node: ExprNode): ExprNode => {
      let out = rewritten.get(node);
      if (out === undefined) {
        out = rewriteOnce(node);
        rewritten.set(node, out);
      }
      return out;
    };
    const rewriteOnce = (node: ExprNode): ExprNode => {
      if (node.op === "agg" && node.agg) {
        if (node.args.some(hasAggregates)) {
          throw new InvalidArgumentError(`groupBy().agg: "${name}" nests an aggregation inside another; that is not supported`);
        }
        const signature = nodeKey(node, memo);
        let at = bySignature.get(signature);
        if (at === undefined) {
          at = slots.push({ agg: node.agg, inputs: node.args }) - 1;
          bySignature.set(signature, at);
        }
        return { op: "col", args: [], name: slotName(at) };
      }
      if (node.op === "col") {
        throw new InvalidArgumentError(
          `groupBy().agg: column "${node.name as string}" is used outside an aggregation in "${name}"; ` +
            `aggregate it (e.g. col("${node.name as string}").first())`,
        );
      }
      const args = node.args.map(rewrite);
      return args.every((a, i) => a === node.args[i]) ? node : { ...node, args };
    };
    return { name, node: rewrite(root) };
  });
  return { slots, outputs };
}

/** A per-group output that is one slot, possibly renamed: shared instead of re-evaluated. */
export function plainSlot(node: ExprNode): string | undefined {
  const inner = node.op === "alias" ? node.args[0] : node;
  return inner?.op === "col" ? inner.name : undefined;
}

/**
 * The outputs of `plan`, one row per group: each slot's inputs evaluated over the frame (once per
 * distinct input; gathered through `rows` when given, the row expansion that `groups` numbers),
 * aggregated per group, then each output evaluated over the slots. The caller owns the result.
 */
export function aggregateOutputs(frame: FrameParts, plan: AggregationPlan, groups: ColumnHandle, count: number, rows?: ColumnHandle): ColumnHandle[] {
  const inputs = new Map<string, ColumnHandle>();
  const perGroup: ColumnHandle[] = [];
  const out: ColumnHandle[] = [];
  try {
    const memo = new Map<ExprNode, string>();
    // A node over the frame's rows, or over the row expansion `rows` when given.
    const evaluateRows = (node: ExprNode): ColumnHandle => {
      const whole = evaluateOver(frame, node);
      if (rows === undefined) return whole;
      try {
        return native.take([whole], rows, frame.height)[0] as ColumnHandle;
      } finally {
        whole.dispose();
      }
    };
    const input = (node: ExprNode): ColumnHandle => {
      const key = nodeKey(node, memo);
      let h = inputs.get(key);
      if (h === undefined) {
        h = evaluateRows(node);
        inputs.set(key, h);
      }
      return h;
    };
    // Slots over chosen rows (filter / sortBy inputs) aggregate on their own, over their rows.
    const choices = plan.slots.map((slot) => rowChoiceOf({ op: "agg", args: slot.inputs, agg: slot.agg }));
    const plain = plan.slots.filter((_, i) => choices[i] === undefined);
    const specs = plain.map((slot) => ({ agg: slot.agg, inputs: slot.inputs.slice(0, aggArity(slot.agg.kind)).map(input) }));
    const made = aggregateGroupsMany(specs, groups, count);
    perGroup.push(...made);
    const slotColumns = plan.slots.map((slot, i) => {
      const choice = choices[i];
      if (choice === undefined) return made[plain.indexOf(slot)] as ColumnHandle;
      const [values, ids] = chooseRows(choice, input(choice.value), groups, evaluateRows) as [ColumnHandle, ColumnHandle];
      try {
        const h = aggregateGroups(slot.agg, [values], ids, count);
        perGroup.push(h);
        return h;
      } finally {
        values.dispose();
        ids.dispose();
      }
    });
    disposeAll(inputs.values());
    inputs.clear();
    return disposeOnError(out, () => {
      const names = plan.slots.map((_, i) => slotName(i));
      for (const o of plan.outputs) {
        const slot = plainSlot(o.node);
        out.push(
          slot !== undefined
            ? share(slotColumns[names.indexOf(slot)] as ColumnHandle)
            : native.evalExpr(serializeExpr(o.node), names, slotColumns, count),
        );
      }
      return out;
    });
  } finally {
    disposeAll(inputs.values());
    disposeAll(perGroup);
  }
}

/**
 * Rows of a frame grouped by keys; `agg` (or a shortcut) turns each group into one row.
 * Made by `DataFrame.groupBy`; it holds the frame, not a copy, and groups on each call.
 *
 * @example
 * import { col, len } from "gpudf";
 * df.groupBy("city").agg(col("fare").sum(), col("fare").mean().alias("avg"), len());
 */
export class GroupBy implements GroupVerbs<DataFrame> {
  readonly #frame: () => FrameParts;
  readonly #wrap: (result: FrameResult) => DataFrame;
  readonly #keys: readonly GroupKey[];
  readonly #options: Resolved;

  /** @internal Use DataFrame.groupBy. */
  constructor(frame: () => FrameParts, wrap: (result: FrameResult) => DataFrame, args: readonly unknown[]) {
    const { keys, options } = groupByArgs(args);
    this.#frame = frame;
    this.#wrap = wrap;
    const f = frame();
    this.#keys = expandItems(keys, schemaOfHandles(f.names, f.columns));
    this.#options = options;
  }

  /**
   * What the grouping is, as code: the keys, the options set, and the frame's shape.
   *
   * @example
   * String(df.groupBy("city", { sort: true })); // 'GroupBy(["city"], { sort: true }) over (3, 2): city, fare'
   */
  toString(): string {
    const keys = this.#keys.map((k) => (typeof k === "string" ? JSON.stringify(k) : k.toString()));
    const set = OPTION_NAMES.filter((n) => this.#options[n]).map((n) => `${n}: true`);
    let over: string;
    try {
      const f = this.#frame();
      const shown = f.names.slice(0, 8).join(", ") + (f.names.length > 8 ? ", …" : "");
      over = `over (${f.height}, ${f.names.length}): ${shown}`;
    } catch {
      over = "over a disposed frame";
    }
    return `GroupBy([${keys.join(", ")}]${set.length ? `, { ${set.join(", ")} }` : ""}) ${over}`;
  }

  [inspect.custom](): string {
    return this.toString();
  }

  /** Key names, in order (column names, or the expressions' output names). */
  #keyNames(): string[] {
    return this.#keys.map((k) => (typeof k === "string" ? k : k.outputName));
  }

  /** The evaluated key columns (owned), each of the frame's height. */
  #keyColumns(frame: FrameParts): ColumnHandle[] {
    const made: ColumnHandle[] = [];
    return disposeOnError(made, () => {
      for (const k of this.#keys) made.push(evaluateOver(frame, typeof k === "string" ? col(k).node : k.node));
      return made;
    });
  }

  /**
   * Groups the frame, then runs `body` with the frame, the evaluated keys and the groups;
   * everything made here is released afterwards. `body`'s result is sorted by its first
   * `keyCount` columns when `sort` is set.
   */
  #grouped(body: (frame: FrameParts, keys: ColumnHandle[], g: { groups: ColumnHandle; firstRows: ColumnHandle; count: number }) => FrameResult): DataFrame {
    const frame = this.#frame();
    const keyNames = this.#keyNames();
    checkUniqueNames(keyNames, " among the groupBy keys; use alias()");
    const keys = this.#keyColumns(frame);
    try {
      const { dropNulls, maintainOrder, sort } = this.#options;
      const g = native.groupRows(keys, dropNulls, maintainOrder && !sort);
      try {
        const result = body(frame, keys, g);
        if (!sort) return this.#wrap(result);
        try {
          const sortKeys = result.columns.slice(0, keys.length);
          const flags = sortKeys.map(() => false);
          const sorted = native.sortTable(result.columns, sortKeys, flags, flags.map(() => true));
          return this.#wrap({ names: result.names, columns: sorted });
        } finally {
          disposeAll(result.columns);
        }
      } finally {
        g.groups.dispose();
        g.firstRows.dispose();
      }
    } finally {
      disposeAll(keys);
    }
  }

  /**
   * One row per group: the key columns, then one column per expression. Each expression is an
   * aggregation (`col("v").sum()`, `len()`, `corr("a", "b")`, …) or an expression over
   * aggregations and literals (`col("v1").max().sub(col("v2").min())`); a column used outside
   * an aggregation is an InvalidArgumentError. Names as Polars: the alias, else the leftmost
   * input column's name ("len" for len()). Equal aggregations are computed once.
   *
   * @example
   * import { col, corr, len } from "gpudf";
   * df.groupBy("id1", "id2").agg(
   *   col("v1").sum(),
   *   col("v3").mean().alias("v3_mean"),
   *   col("v1").max().sub(col("v2").min()).alias("range"),
   *   corr("v1", "v2").pow(2).alias("r2"),
   *   len(),
   * );
   */
  agg(...exprs: (Expr | readonly Expr[])[]): DataFrame {
    const flat = exprs.flat() as unknown[];
    for (const e of flat) if (!(e instanceof Expr)) throw new InvalidArgumentError("groupBy().agg expects expressions");
    const f = this.#frame();
    const schema = schemaOfHandles(f.names, f.columns);
    // Zones are resolved over the whole expressions, before they are split into slots.
    const local = expandExprs(flat as Expr[], schema).map((e) => ({ outputName: e.outputName, ...localizeZones(e.node, schema) }));
    const plan = planAggregations(local);
    checkUniqueNames([...this.#keyNames(), ...plan.outputs.map((o) => o.name)], "; use alias()");
    return this.#grouped((frame, keys, { groups, firstRows, count }) => {
      const out: ColumnHandle[] = [];
      return disposeOnError(out, () => {
        out.push(...native.take(keys, firstRows, frame.height));
        out.push(...aggregateOutputs(frame, plan, groups, count).map((h, i) => tagZone(h, local[i]?.zone)));
        return { names: [...this.#keyNames(), ...plan.outputs.map((o) => o.name)], columns: out };
      });
    });
  }

  /** The shortcut `kind` over every non-key column (see shortcutExprs). */
  #shortcut(kind: ShortcutKind): DataFrame {
    const f = this.#frame();
    return this.agg(shortcutExprs(kind, this.#keyNames(), schemaOfHandles(f.names, f.columns)));
  }

  /**
   * The sum of every non-key numeric or bool column per group (other dtypes are left out).
   *
   * @example
   * df.groupBy("city").sum();
   */
  sum(): DataFrame {
    return this.#shortcut("sum");
  }

  /**
   * The mean of every non-key numeric or bool column per group (other dtypes are left out).
   *
   * @example
   * df.groupBy("city").mean();
   */
  mean(): DataFrame {
    return this.#shortcut("mean");
  }

  /**
   * The smallest value of every non-key column per group.
   *
   * @example
   * df.groupBy("city").min();
   */
  min(): DataFrame {
    return this.#shortcut("min");
  }

  /**
   * The largest value of every non-key column per group.
   *
   * @example
   * df.groupBy("city").max();
   */
  max(): DataFrame {
    return this.#shortcut("max");
  }

  /**
   * The number of non-null values of every non-key column per group (int64).
   *
   * @example
   * df.groupBy("city").count();
   */
  count(): DataFrame {
    return this.#shortcut("count");
  }

  /**
   * The number of rows per group, in a column named "len" (int64).
   *
   * @example
   * df.groupBy("city").len();
   */
  len(): DataFrame {
    return this.#shortcut("len");
  }

  /** The frame's `rows` (owned here, disposed): the key columns, then the other columns. */
  #keysThenRest(frame: FrameParts, keys: ColumnHandle[], rows: ColumnHandle): FrameResult {
    try {
      const keyNames = this.#keyNames();
      const keySet = new Set(keyNames);
      const rest = frame.names.map((name, i) => ({ name, h: frame.columns[i] as ColumnHandle })).filter((c) => !keySet.has(c.name));
      const columns = native.take([...keys, ...rest.map((c) => c.h)], rows, frame.height);
      return { names: [...keyNames, ...rest.map((c) => c.name)], columns };
    } finally {
      rows.dispose();
    }
  }

  /** The first/last n rows of each group: keys first, then the other columns. */
  #rows(n: number, fromEnd: boolean): DataFrame {
    rowCount(n);
    return this.#grouped((frame, keys, { groups, count }) => this.#keysThenRest(frame, keys, native.groupHeadRows(groups, count, n, fromEnd)));
  }

  /**
   * The first n rows of each group, in the frame's order: the key columns, then the other
   * columns. Rows come grouped (a group's rows together, in frame order); the groups follow the
   * groupBy order (unspecified unless `maintainOrder` or `sort`).
   *
   * @example
   * // the two largest v3 per id6
   * df.sort("v3", { descending: true }).groupBy("id6", { maintainOrder: true }).head(2);
   */
  head(n = 5): DataFrame {
    return this.#rows(n, false);
  }

  /**
   * The last n rows of each group, in the frame's order (see head).
   *
   * @example
   * df.groupBy("user").tail(1); // each user's last row
   */
  tail(n = 5): DataFrame {
    return this.#rows(n, true);
  }

  /** Each group's n best rows by `by` (largest or smallest first): keys first, then the others. */
  #top(n: number, by: TopKBy, largest: boolean): DataFrame {
    checkTopK(n, by);
    return this.#grouped((frame, keys, { groups, count }) => this.#keysThenRest(frame, keys, topKRows(frame, groups, count, n, by, largest)));
  }

  /**
   * The n rows of each group with the largest `by` (a column name or an expression), largest
   * first: the rows of `sort(by, { descending: true })` then `head(n)`, without the sort. Ties
   * keep frame order; nulls of `by` come after every value (NaN is above +Infinity, as in sort).
   * Shape and group order as head: key columns, then the other columns; a group's rows together.
   *
   * @example
   * // the two largest v3 per id6 (db-benchmark q8)
   * df.groupBy("id6").topK(2, "v3");
   */
  topK(n: number, by: TopKBy): DataFrame {
    return this.#top(n, by, true);
  }

  /**
   * The n rows of each group with the smallest `by`, smallest first (see topK; nulls still last).
   *
   * @example
   * df.groupBy("user").bottomK(1, col("ts")); // each user's earliest row
   */
  bottomK(n: number, by: TopKBy): DataFrame {
    return this.#top(n, by, false);
  }
}
