/**
 * Expr methods that choose or order an aggregation's rows (`filter`, `sortBy`), count them
 * (`len`), and the `.name` namespace; installed on Expr by declaration merging, as
 * src/series_methods.ts installs methods on Series. Rules: docs/semantics.md, "Aggregations
 * over chosen rows" and "Column selectors".
 */
import { InvalidArgumentError } from "./errors.js";
import { columnOrExpr, Expr, toExpr, type ExprInput, type ExprNode } from "./expr.js";
import { perKey } from "./ops/sort.js";
import { checkOptions } from "./suggest.js";

/** Options of `Expr.sortBy` (a boolean applies to every key; an array gives one per key). */
export interface SortByOptions {
  /** Largest first. Default false. */
  descending?: boolean | readonly boolean[];
  /** Nulls after the values (true, the default, as DataFrame.sort) or before them. */
  nullsLast?: boolean | readonly boolean[];
}

/** Renaming of an expression's output from the name of the column it starts from. */
export class ExprName {
  readonly #node: ExprNode;
  /** @internal */
  constructor(node: ExprNode) {
    this.#node = node;
  }
  #rename(kind: string, text = ""): Expr {
    return new Expr({ op: "name", args: [this.#node], name: kind, list: [text] });
  }
  /** The input column's name, undoing aliases. @example col("a").alias("b").name.keep() */
  keep(): Expr {
    return this.#rename("keep");
  }
  /** The input column's name after `prefix`. @example cs.numeric().sum().name.prefix("sum_") */
  prefix(prefix: string): Expr {
    if (typeof prefix !== "string") throw new InvalidArgumentError("name.prefix expects a string");
    return this.#rename("prefix", prefix);
  }
  /** The input column's name before `suffix`. @example cs.numeric().sum().name.suffix("_sum") */
  suffix(suffix: string): Expr {
    if (typeof suffix !== "string") throw new InvalidArgumentError("name.suffix expects a string");
    return this.#rename("suffix", suffix);
  }
  /** The input column's name in upper case. @example col("a").name.toUppercase() */
  toUppercase(): Expr {
    return this.#rename("toUppercase");
  }
  /** The input column's name in lower case. @example col("A").name.toLowercase() */
  toLowercase(): Expr {
    return this.#rename("toLowercase");
  }
}

declare module "./expr.js" {
  interface Expr {
    /**
     * The values where `predicate` is true (null counts as false), as the input of an
     * aggregation: `col("v").filter(col("ok")).sum()` sums v over the rows where ok holds, per
     * group in groupBy().agg, over the frame in select, per partition under over().
     */
    filter(predicate: ExprInput): Expr;
    /**
     * The values in the order of `by` (stable; names or expressions), as the input of an
     * aggregation: `col("v").sortBy("t").last()` is v at the largest t.
     */
    sortBy(by: string | Expr | readonly (string | Expr)[], options?: SortByOptions): Expr;
    /** The number of rows, nulls included (int64, named after the input). @example col("v").len() */
    len(): Expr;
    /** Renaming from the input column's name: `.name.suffix("_sum")`, `.name.prefix`, `.name.keep`. */
    readonly name: ExprName;
  }
}

Expr.prototype.filter = function filter(this: Expr, predicate: ExprInput): Expr {
  return new Expr({ op: "filter", args: [this.node, toExpr(predicate).node] });
};

Expr.prototype.sortBy = function sortBy(this: Expr, by: string | Expr | readonly (string | Expr)[], options: SortByOptions = {}): Expr {
  const keys = (Array.isArray(by) ? [...(by as (string | Expr)[])] : [by as string | Expr]).map((k) => columnOrExpr(k, "sortBy").node);
  if (keys.length === 0) throw new InvalidArgumentError("sortBy needs at least one key");
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("sortBy options must be an object");
  checkOptions("sortBy", options, ["descending", "nullsLast"]);
  const descending = perKey(options.descending, keys.length, "descending", false);
  const nullsLast = perKey(options.nullsLast, keys.length, "nullsLast", true);
  const params = [...descending, ...nullsLast].map((b) => (b ? 1 : 0));
  return new Expr({ op: "sortBy", args: [this.node, ...keys], params });
};

Expr.prototype.len = function len(this: Expr): Expr {
  return new Expr({ op: "agg", args: [this.node], agg: { kind: "len", ddof: 1, q: 0.5 } });
};

Object.defineProperty(Expr.prototype, "name", {
  get(this: Expr): ExprName {
    return new ExprName(this.node);
  },
  configurable: true,
});
