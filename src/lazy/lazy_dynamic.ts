/**
 * LazyFrame.groupByDynamic and LazyFrame.rolling. The windowing is resolved and the output
 * schema known when the verb is called; at collect the plan below runs first (optimised on its
 * own) and the eager window implementation (src/dynamic.ts) runs over its result, which the
 * rest of the plan scans as an in-memory frame (a scan of source type "eager"). So filters,
 * projections and limits above it are still pushed into that scan, but not through the
 * windowing into the plan below.
 */
import type { DType } from "../dtypes.js";
import { InvalidArgumentError } from "../errors.js";
import { col, Expr } from "../expr.js";
import {
  keyNames, leadingNames, resolveDynamic, resolveRolling, WindowGroupBy,
  type DynamicGroupByOptions, type RollingGroupOptions, type Windowing,
} from "../dynamic.js";
import { checkUniqueNames } from "../ops/frame.js";
import { modeAggregations } from "../expr_sized.js";
import { shortcutExprs, type ShortcutKind } from "../ops/group_shortcuts.js";
import { planAggregations } from "../ops/groupby.js";
import { columnNotFound } from "../suggest.js";
import { eagerSource } from "./collect.js";
import { LazyFrame } from "./lazy_frame.js";
import { typeOf, type LogicalPlan, type Schema } from "./plan.js";

declare module "./lazy_frame.js" {
  interface LazyFrame {
    /** DataFrame.groupByDynamic on the plan's result. @example lf.groupByDynamic("t", { every: "1h" }).agg(col("v").sum()) */
    groupByDynamic(indexColumn: string, options: DynamicGroupByOptions): LazyWindowGroupBy;
    /** DataFrame.rolling on the plan's result. @example lf.rolling("t", { period: "1d" }).agg(col("v").mean()) */
    rolling(indexColumn: string, options: RollingGroupOptions): LazyWindowGroupBy;
  }
}

/** The columns a windowing's output has, with their dtypes. */
function outputSchema(input: Schema, w: Windowing, exprs: readonly Expr[]): Schema {
  planAggregations(exprs);
  const indexType = dtypeIn(input)(w.index);
  const keys = w.keys.map((k) => typeOf(typeof k === "string" ? col(k).node : k.node, input));
  const names = [...leadingNames(w), ...exprs.map((e) => e.outputName)];
  checkUniqueNames(names, "; use alias()");
  const dtypes = [...keys, ...(w.includeBoundaries ? [indexType, indexType] : []), indexType, ...exprs.map((e) => typeOf(modeAggregations(e.node), input))];
  return { names, dtypes };
}

/**
 * A lazy frame's rows in time windows (see WindowGroupBy).
 *
 * @example
 * lf.groupByDynamic("time", { every: "1d", groupBy: "id" }).agg(col("v").max());
 */
export class LazyWindowGroupBy {
  readonly #input: LogicalPlan;
  readonly #windowing: Windowing;

  /** @internal Use LazyFrame.groupByDynamic or LazyFrame.rolling. */
  constructor(input: LogicalPlan, windowing: Windowing) {
    this.#input = input;
    this.#windowing = windowing;
  }

  /** One row per window (see WindowGroupBy.agg). @example lf.rolling("t", { period: "1h" }).agg(len()) */
  agg(...exprs: (Expr | readonly Expr[])[]): LazyFrame {
    const flat = exprs.flat() as unknown[];
    for (const e of flat) if (!(e instanceof Expr)) throw new InvalidArgumentError(`${this.#windowing.fn}().agg expects expressions`);
    const list = flat as Expr[];
    const w = this.#windowing;
    const input = this.#input;
    const schema = outputSchema(input.schema, w, list);
    const keys = keyNames(w);
    const label = `${w.fn.toUpperCase()} over "${w.index}"${keys.length ? ` by ${keys.join(", ")}` : ""}`;
    return LazyFrame.scan(eagerSource(input, label, (df) => new WindowGroupBy(df, w).agg(list)), schema);
  }

  /** The shortcut `kind` over every column but the keys and the index (see shortcutExprs). */
  #shortcut(kind: ShortcutKind): LazyFrame {
    return this.agg(shortcutExprs(kind, [...keyNames(this.#windowing), this.#windowing.index], this.#input.schema));
  }

  /** @example lf.rolling("t", { period: "1h" }).sum() */
  sum(): LazyFrame {
    return this.#shortcut("sum");
  }
  /** @example lf.rolling("t", { period: "1h" }).mean() */
  mean(): LazyFrame {
    return this.#shortcut("mean");
  }
  /** @example lf.rolling("t", { period: "1h" }).min() */
  min(): LazyFrame {
    return this.#shortcut("min");
  }
  /** @example lf.rolling("t", { period: "1h" }).max() */
  max(): LazyFrame {
    return this.#shortcut("max");
  }
  /** @example lf.rolling("t", { period: "1h" }).count() */
  count(): LazyFrame {
    return this.#shortcut("count");
  }
  /** @example lf.rolling("t", { period: "1h" }).len() */
  len(): LazyFrame {
    return this.#shortcut("len");
  }
}

function dtypeIn(schema: Schema): (name: string) => DType {
  return (name) => {
    const i = schema.names.indexOf(name);
    if (i < 0) throw columnNotFound(name, schema.names);
    return schema.dtypes[i] as DType;
  };
}

Object.defineProperty(LazyFrame.prototype, "groupByDynamic", {
  value: function (this: LazyFrame, indexColumn: string, options: DynamicGroupByOptions): LazyWindowGroupBy {
    return new LazyWindowGroupBy(this.plan, resolveDynamic(indexColumn, dtypeIn(this.plan.schema), options));
  },
  writable: true,
  configurable: true,
});

Object.defineProperty(LazyFrame.prototype, "rolling", {
  value: function (this: LazyFrame, indexColumn: string, options: RollingGroupOptions): LazyWindowGroupBy {
    return new LazyWindowGroupBy(this.plan, resolveRolling(indexColumn, dtypeIn(this.plan.schema), options));
  },
  writable: true,
  configurable: true,
});
