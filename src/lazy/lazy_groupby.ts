/**
 * LazyGroupBy: a LazyFrame's groupBy. Each verb adds one node to the plan (aggregate, topK,
 * groupSlice) with the grouping's keys and options; rules as the eager GroupBy
 * (docs/semantics.md, "GroupBy").
 */
import { InvalidArgumentError } from "../errors.js";
import { col, Expr } from "../expr.js";
import { rowCount } from "../handles.js";
import { shortcutExprs, type ShortcutKind } from "../ops/group_shortcuts.js";
import { checkTopK, type TopKBy } from "../ops/top_k.js";
import type { GroupVerbs } from "../ops/verbs.js";
import { LazyFrame } from "./lazy_frame.js";
import { expandExprs } from "../expr_expand.js";
import { aggregateNode, groupSliceNode, topKNode, type GroupOptions, type LogicalPlan, type NamedNode } from "./plan.js";

/**
 * Rows of a lazy frame grouped by keys.
 *
 * @example
 * lf.groupBy("city", { sort: true }).agg(col("fare").mean().alias("avg"), len());
 */
export class LazyGroupBy implements GroupVerbs<LazyFrame> {
  readonly #input: LogicalPlan;
  readonly #keys: readonly NamedNode[];
  readonly #options: GroupOptions;

  /** @internal Use LazyFrame.groupBy. */
  constructor(input: LogicalPlan, keys: readonly NamedNode[], options: GroupOptions) {
    this.#input = input;
    this.#keys = keys;
    this.#options = options;
  }

  /**
   * One row per group: the keys, then one column per expression (see GroupBy.agg).
   *
   * @example
   * lf.groupBy("k").agg(col("v").sum(), col("v").max().sub(col("v").min()).alias("range"));
   */
  agg(...exprs: (Expr | readonly Expr[])[]): LazyFrame {
    const flat = exprs.flat() as unknown[];
    for (const e of flat) if (!(e instanceof Expr)) throw new InvalidArgumentError("groupBy().agg expects expressions");
    const aggs = expandExprs(flat as Expr[], this.#input.schema).map((e) => ({ name: e.outputName, node: e.node }));
    return new LazyFrame(aggregateNode(this.#input, this.#keys, aggs, this.#options));
  }

  /** The shortcut `kind` over every non-key column (see shortcutExprs). */
  #shortcut(kind: ShortcutKind): LazyFrame {
    return this.agg(shortcutExprs(kind, this.#keys.map((k) => k.name), this.#input.schema));
  }

  /** The sum of every non-key numeric or bool column per group. @example lf.groupBy("k").sum() */
  sum(): LazyFrame {
    return this.#shortcut("sum");
  }
  /** The mean of every non-key numeric or bool column per group. @example lf.groupBy("k").mean() */
  mean(): LazyFrame {
    return this.#shortcut("mean");
  }
  /** The smallest value of every non-key column per group. @example lf.groupBy("k").min() */
  min(): LazyFrame {
    return this.#shortcut("min");
  }
  /** The largest value of every non-key column per group. @example lf.groupBy("k").max() */
  max(): LazyFrame {
    return this.#shortcut("max");
  }
  /** Non-null values of every non-key column per group. @example lf.groupBy("k").count() */
  count(): LazyFrame {
    return this.#shortcut("count");
  }
  /** Rows per group, as "len". @example lf.groupBy("k").len() */
  len(): LazyFrame {
    return this.#shortcut("len");
  }

  /** The first n rows of each group (see GroupBy.head). @example lf.groupBy("k").head(2) */
  head(n = 5): LazyFrame {
    return new LazyFrame(groupSliceNode(this.#input, this.#keys, this.#options, rowCount(n), false));
  }
  /** The last n rows of each group. @example lf.groupBy("k").tail(1) */
  tail(n = 5): LazyFrame {
    return new LazyFrame(groupSliceNode(this.#input, this.#keys, this.#options, rowCount(n), true));
  }

  /** Each group's n rows with the largest `by` (see GroupBy.topK). @example lf.groupBy("k").topK(2, "v") */
  topK(n: number, by: TopKBy): LazyFrame {
    checkTopK(n, by);
    return new LazyFrame(topKNode(this.#input, this.#keys, this.#options, n, typeof by === "string" ? col(by).node : by.node, true));
  }
  /** Each group's n rows with the smallest `by`. @example lf.groupBy("k").bottomK(1, "ts") */
  bottomK(n: number, by: TopKBy): LazyFrame {
    checkTopK(n, by);
    return new LazyFrame(topKNode(this.#input, this.#keys, this.#options, n, typeof by === "string" ? col(by).node : by.node, false));
  }
}
