/**
 * LazyFrame: the verbs of a DataFrame (src/ops/verbs.ts) building a logical plan instead of
 * running. collect() optimises the plan (src/lazy/optimizer/), lowers it to one physical plan and
 * runs it natively off the JS thread (src/lazy/collect.ts). Errors a plan can know (missing
 * columns, dtypes, misused aggregations) are thrown by the verb that causes them.
 */
import { inspect } from "node:util";

import type { DataFrame } from "../dataframe.js";
import type { DType } from "../dtypes.js";
import { InvalidArgumentError } from "../errors.js";
import { col, Expr, type LiteralValue } from "../expr.js";
import { rowCount } from "../handles.js";
import { checkUniqueNames } from "../ops/frame.js";
import { fillNullTargets } from "../ops/filter.js";
import { isFillNullStrategy, type FillNullStrategy } from "../expr_fill.js";
import { strategyTargets } from "../ops/fill.js";
import { groupByArgs, type GroupByOptions, type GroupKey } from "../ops/groupby.js";
import type { JoinOptions } from "../ops/join.js";
import { flattenItems, namesAfterDrop, namesAfterRename, type DropItem, type SelectItem } from "../ops/select.js";
import { perKey, resolveUnique, sortKeyNames, type SortBy, type SortOptions, type UniqueOptions } from "../ops/sort.js";
import { expandExprs, expandItems, expandPredicate } from "../expr_expand.js";
import { rowNumberRanges, standaloneRanges } from "../expr_sized.js";
import { rangeSelect } from "./lazy_sized.js";
import { checkTopK, type TopKBy } from "../ops/top_k.js";
import type { FrameVerbs } from "../ops/verbs.js";
import { collectPlan, explainPlan, profilePlan, type CollectOptions, type ProfileResult } from "./collect.js";
import { LazyGroupBy } from "./lazy_groupby.js";
import { pivotPlan } from "./lazy_pivot.js";
import { unpivotPlan } from "./lazy_reshape.js";
import type { PivotOptions } from "../ops/pivot.js";
import type { UnpivotOptions } from "../ops/reshape.js";
import {
  dtypeOfColumn,
  filterNode,
  joinNode,
  projectNode,
  scanNode,
  sliceNode,
  sortNode,
  topKNode,
  uniqueNode,
  type LogicalPlan,
  type NamedNode,
  type ScanSource,
  type Schema,
} from "./plan.js";

/** Options of `LazyFrame.explain`. */
export interface ExplainOptions {
  /** The plan after the optimizer (default true) or as built. */
  optimized?: boolean;
  /** Optimizer rules to turn off, as in collect(). */
  optimizations?: CollectOptions["optimizations"];
}

/**
 * A query plan over frames or files, run by `collect()`.
 *
 * @example
 * import { col, scanCSV } from "gpudf";
 * const out = await scanCSV("trips.csv")
 *   .filter(col("fare").gt(0))
 *   .groupBy("city")
 *   .agg(col("fare").sum().alias("total"))
 *   .sort("total", { descending: true })
 *   .collect();
 */
export class LazyFrame implements FrameVerbs<LazyFrame, LazyGroupBy, LazyFrame | DataFrame> {
  /** @internal */
  readonly plan: LogicalPlan;

  /** @internal Use DataFrame.lazy(), scanCSV, scanParquet or scanIPC. */
  constructor(plan: LogicalPlan) {
    this.plan = plan;
  }

  /** @internal A lazy frame reading `source` (of schema `schema`). */
  static scan(source: ScanSource, schema: Schema): LazyFrame {
    return new LazyFrame(scanNode(source, schema));
  }

  /** Column name -> dtype, known without running the plan. */
  get schema(): Record<string, DType> {
    const s = this.plan.schema;
    return Object.fromEntries(s.names.map((n, i) => [n, s.dtypes[i] as DType]));
  }

  /** Column names in order. */
  get columns(): string[] {
    return [...this.plan.schema.names];
  }

  /** Dtypes in order. */
  get dtypes(): DType[] {
    return [...this.plan.schema.dtypes];
  }

  /** Number of columns. */
  get width(): number {
    return this.plan.schema.names.length;
  }

  #names(): readonly string[] {
    return this.plan.schema.names;
  }

  /** Itself (a LazyFrame is already lazy). */
  lazy(): LazyFrame {
    return this;
  }

  /** `e` with intRange(0, len()) as the row number (see rowNumberRanges). */
  #rowNumbers(e: Expr): Expr {
    const node = rowNumberRanges(e.node, this.plan.schema.names[0]);
    return node === e.node ? e : new Expr(node);
  }

  /**
   * Columns by name and expressions, in the order given (see DataFrame.select).
   *
   * @example
   * lf.select("a", col("b").mul(2).alias("b2"));
   */
  select(...items: (SelectItem | readonly SelectItem[])[]): LazyFrame {
    const exprs = expandItems(flattenItems(items), this.plan.schema).map((it) => (it instanceof Expr ? this.#rowNumbers(it) : it)).map((it) => (typeof it === "string" ? { name: it, node: col(it).node } : { name: it.outputName, node: it.node }));
    if (standaloneRanges(exprs.map((e) => e.node))) return rangeSelect(this.head(0).plan, exprs);
    return new LazyFrame(projectNode(this.plan, exprs, false));
  }

  /**
   * Adds or replaces columns (see DataFrame.withColumns).
   *
   * @example
   * lf.withColumns(col("fare").mul(col("rate")).alias("usd"));
   */
  withColumns(...exprs: (Expr | readonly Expr[])[]): LazyFrame {
    const flat = exprs.flat() as unknown[];
    for (const e of flat) if (!(e instanceof Expr)) throw new InvalidArgumentError("withColumns expects expressions");
    const added = expandExprs(flat as Expr[], this.plan.schema).map((e) => ({ name: e.outputName, node: this.#rowNumbers(e).node }));
    checkUniqueNames(
      added.map((a) => a.name),
      "; use alias()",
    );
    const out: NamedNode[] = this.#names().map((n) => ({ name: n, node: col(n).node }));
    for (const a of added) {
      const at = out.findIndex((o) => o.name === a.name);
      if (at >= 0) out[at] = a;
      else out.push(a);
    }
    return new LazyFrame(projectNode(this.plan, out, true));
  }

  /**
   * The rows where the predicate is true (null counts as false).
   *
   * @example
   * lf.filter(col("fare").gt(0));
   */
  filter(predicate: Expr): LazyFrame {
    if (!(predicate instanceof Expr)) throw new InvalidArgumentError("LazyFrame.filter expects an Expr");
    return new LazyFrame(filterNode(this.plan, expandPredicate(predicate, this.plan.schema).node));
  }

  /**
   * Rows without a null in any of the named columns (default: all columns).
   *
   * @example
   * lf.dropNulls("a");
   */
  dropNulls(...subset: (string | readonly string[])[]): LazyFrame {
    const names = subset.flat() as string[];
    const cols = names.length > 0 ? names : [...this.#names()];
    for (const n of cols) dtypeOfColumn(this.plan.schema, n);
    if (cols.length === 0) return this;
    const pred = cols.map((n) => col(n).isNotNull()).reduce((a, b) => a.and(b));
    return new LazyFrame(filterNode(this.plan, pred.node));
  }

  /**
   * Nulls replaced (see DataFrame.fillNull).
   *
   * @example
   * lf.fillNull(0); lf.fillNull({ city: "unknown" }); lf.fillNull({ strategy: "forward" });
   */
  fillNull(value: LiteralValue | Record<string, LiteralValue> | FillNullStrategy): LazyFrame {
    const s = this.plan.schema;
    if (isFillNullStrategy(value)) {
      const fills = strategyTargets(s.names, s.dtypes, value);
      const filled = s.names.map((n, i) => ({ name: n, node: (fills.get(i) ?? col(n)).node }));
      return new LazyFrame(projectNode(this.plan, filled, true));
    }
    const targets = fillNullTargets(s.names, s.dtypes, value);
    const exprs = s.names.map((n, i) => ({
      name: n,
      node: targets.has(i) ? col(n).fillNull(targets.get(i) as LiteralValue).alias(n).node : col(n).node,
    }));
    return new LazyFrame(projectNode(this.plan, exprs, true));
  }

  /**
   * Every column but the named ones.
   *
   * @example
   * lf.drop("tmp");
   */
  drop(...names: (DropItem | readonly DropItem[])[]): LazyFrame {
    return this.select(namesAfterDrop(this.#names(), names, this.plan.schema));
  }

  /**
   * Renames columns by an { old: new } mapping.
   *
   * @example
   * lf.rename({ fare: "fare_usd" });
   */
  rename(mapping: Record<string, string>): LazyFrame {
    const renamed = namesAfterRename(this.#names(), mapping);
    const exprs = this.#names().map((n, i) => {
      const to = renamed[i] as string;
      return { name: to, node: to === n ? col(n).node : col(n).alias(to).node };
    });
    return new LazyFrame(projectNode(this.plan, exprs, false));
  }

  /**
   * Rows [offset, offset + length); a negative offset counts from the end.
   *
   * @example
   * lf.slice(10, 5);
   */
  slice(offset: number, length?: number): LazyFrame {
    if (!Number.isInteger(offset)) throw new InvalidArgumentError(`offset must be an integer, got ${String(offset)}`);
    if (length !== undefined) rowCount(length);
    return new LazyFrame(sliceNode(this.plan, offset, length ?? null));
  }

  /** The first n rows. @example lf.head(10) */
  head(n = 5): LazyFrame {
    return this.slice(0, rowCount(n));
  }

  /** The last n rows. @example lf.tail(10) */
  tail(n = 5): LazyFrame {
    const k = rowCount(n);
    return k === 0 ? this.slice(0, 0) : this.slice(-k);
  }

  /**
   * Wide to long, as a plan (see DataFrame.unpivot): one projection per `on` column, stacked.
   *
   * @example
   * lf.unpivot({ index: "id", on: ["a", "b"] });
   */
  unpivot(options?: UnpivotOptions): LazyFrame {
    return new LazyFrame(unpivotPlan(this.plan, options));
  }

  /** unpivot under its older name. @example lf.melt({ index: "id" }) */
  melt(options?: UnpivotOptions): LazyFrame {
    return this.unpivot(options);
  }

  /**
   * Long to wide (see DataFrame.pivot), with the same options and results. List the `on`
   * values as `onColumns` to keep the plan lazy (they fix the output's columns); without them
   * this runs the plan below once, now, for its distinct `on` values.
   *
   * @example
   * lf.pivot({ on: "subject", index: "name", values: "score", aggregateFunction: "max", onColumns: ["maths", "art"] });
   */
  pivot(options: PivotOptions): LazyFrame {
    return new LazyFrame(pivotPlan(this.plan, options));
  }

  /** The first n rows (as head). @example lf.limit(10) */
  limit(n = 5): LazyFrame {
    return this.head(n);
  }

  /**
   * Rows ordered by key columns (stable; see DataFrame.sort).
   *
   * @example
   * lf.sort(["city", "fare"], { descending: [false, true] });
   */
  sort(by: SortBy, options?: SortOptions): LazyFrame {
    const names = sortKeyNames(by, this.plan.schema);
    const o = (options ?? {}) as Record<string, unknown>;
    if (options !== undefined && (options === null || typeof options !== "object")) throw new InvalidArgumentError("sort options must be an object");
    const descending = perKey(o.descending, names.length, "descending", false);
    const nullsLast = perKey(o.nullsLast, names.length, "nullsLast", true);
    return new LazyFrame(sortNode(this.plan, names.map((n) => col(n).node), descending, nullsLast));
  }

  /** The n rows with the largest `by`, largest first (see DataFrame.topK). @example lf.topK(3, "fare") */
  topK(n: number, by: TopKBy): LazyFrame {
    checkTopK(n, by);
    return new LazyFrame(topKNode(this.plan, null, NO_GROUP, n, topKBy(by), true));
  }

  /** The n rows with the smallest `by`, smallest first. @example lf.bottomK(3, "fare") */
  bottomK(n: number, by: TopKBy): LazyFrame {
    checkTopK(n, by);
    return new LazyFrame(topKNode(this.plan, null, NO_GROUP, n, topKBy(by), false));
  }

  /**
   * Rows without duplicates of the `subset` columns (see DataFrame.unique).
   *
   * @example
   * lf.unique({ subset: "id", keep: "first", maintainOrder: true });
   */
  unique(options?: UniqueOptions): LazyFrame {
    const { subset, keep, maintainOrder } = resolveUnique(options);
    if (this.width === 0) return this;
    return new LazyFrame(uniqueNode(this.plan, subset ?? null, keep, maintainOrder));
  }

  /**
   * A hash join with another lazy frame or a DataFrame (see DataFrame.join for the options).
   *
   * @example
   * orders.lazy().join(customers.lazy(), { leftOn: "o_custkey", rightOn: "c_custkey" });
   */
  join(other: LazyFrame | DataFrame, options?: JoinOptions): LazyFrame {
    const right = other instanceof LazyFrame ? other : lazyOf(other);
    return new LazyFrame(joinNode(this.plan, right.plan, options));
  }

  /**
   * Groups rows by keys for `agg`, the shortcuts and head/tail/topK (see DataFrame.groupBy).
   *
   * @example
   * lf.groupBy("city").agg(col("fare").sum());
   */
  groupBy(keys: GroupKey | readonly GroupKey[], options?: GroupByOptions): LazyGroupBy;
  groupBy(...keys: (GroupKey | readonly GroupKey[])[]): LazyGroupBy;
  groupBy(...keysThenOptions: [...(GroupKey | readonly GroupKey[])[], GroupByOptions]): LazyGroupBy;
  groupBy(...args: unknown[]): LazyGroupBy {
    const { keys, options } = groupByArgs(args);
    const named = expandItems(keys, this.plan.schema).map((k) => (typeof k === "string" ? { name: k, node: col(k).node } : { name: k.outputName, node: k.node }));
    return new LazyGroupBy(this.plan, named, options);
  }

  /**
   * Runs the plan natively off the JS thread and resolves with the result.
   *
   * @example
   * const df = await lf.collect();
   * const raw = await lf.collect({ optimizations: { predicatePushdown: false } });
   */
  collect(options: CollectOptions = {}): Promise<DataFrame> {
    return collectPlan(this.plan, options, false);
  }

  /** collect() on the calling thread (blocks the event loop). @example lf.collectSync() */
  collectSync(options: CollectOptions = {}): DataFrame {
    return collectPlan(this.plan, options, true);
  }

  /**
   * The plan as an indented tree, optimised (default) or as built.
   *
   * @example
   * console.log(lf.explain());
   */
  explain(options: ExplainOptions = {}): string {
    return explainPlan(this.plan, options.optimized ?? true, options.optimizations ?? {});
  }

  /**
   * Runs the plan and returns the result with a table of every operator: its name, rows in and
   * out, and its start and end in microseconds since execution began.
   *
   * @example
   * const { result, profile } = await lf.profile();
   * console.log(profile.toString());
   */
  profile(options: CollectOptions = {}): Promise<ProfileResult> {
    return profilePlan(this.plan, options);
  }

  /** The optimised plan as a tree. */
  toString(): string {
    return this.explain();
  }

  [inspect.custom](): string {
    return `LazyFrame (not collected; the plan as built)\n${this.explain({ optimized: false })}`;
  }
}

const NO_GROUP = { maintainOrder: false, sort: false, dropNulls: false } as const;

function topKBy(by: TopKBy): ReturnType<typeof col>["node"] {
  return typeof by === "string" ? col(by).node : by.node;
}

/** A DataFrame as the scan of a lazy plan. */
export function lazyOf(df: DataFrame): LazyFrame {
  // columns / dtypes, not the schema object: integer-like names would come out of it sorted.
  return LazyFrame.scan({ type: "frame", frame: df }, { names: [...df.columns], dtypes: [...df.dtypes] });
}
