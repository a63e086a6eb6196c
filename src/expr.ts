/**
 * Expressions: `col`, `lit`, `when`. An Expr is an immutable tree built in JS; verbs serialise it
 * once per call (see `serializeExpr`) and the native layer compiles and evaluates it, fused,
 * over the whole frame. Dtype rules live natively (docs/semantics.md, "Expressions").
 */
import { type DType } from "./dtypes.js";
import { dtypeFields } from "./expr_zones.js";
import { InvalidArgumentError } from "./errors.js";
import { inspect } from "node:util";

import { ExprString } from "./expr_namespaces.js";
import { ExprDateTime } from "./expr_datetime.js";
import { formatExpr } from "./expr_format.js";
import { checkDepth, outputName, type AggKind, type ExprNode } from "./expr_node.js";
import { columnsNode, isRegexName } from "./selector_nodes.js";
import {
  clipExpr,
  fillNullStrategy,
  interpolateExpr,
  isFillNullStrategy,
  neighbourFill,
  replaceExpr,
  replaceStrictExpr,
  type FillNullStrategy,
  type ReplaceMapping,
} from "./expr_fill.js";
import { cumNode, overNode, periodNode, rankNode, type CumOptions, type OverOptions, type RankOptions } from "./expr_window.js";

/** A JS value usable where an expression is expected (it becomes a literal). */
export type LiteralValue = number | bigint | string | boolean | Date | null;
/** An expression or a JS value (which becomes `lit(value)`). */
export type ExprInput = Expr | LiteralValue;

function isLiteralValue(v: unknown): v is LiteralValue {
  return (
    v === null ||
    typeof v === "number" ||
    typeof v === "bigint" ||
    typeof v === "string" ||
    typeof v === "boolean" ||
    v instanceof Date
  );
}

/** @internal An Expr from an Expr or a JS value. */
export function toExpr(v: ExprInput | undefined): Expr {
  if (v instanceof Expr) return v;
  if (v === undefined) return lit(null);
  return lit(v);
}

/**
 * A column expression. Build with `col`, `lit` and `when`; use in `select`, `withColumns` and
 * `filter`. Methods taking another operand accept an Expr or a plain JS value.
 *
 * @example
 * import { col } from "gpudf";
 * df.select(col("fare").mul(1.1).alias("fare_eur"), col("city").str.toUpperCase());
 */
export class Expr {
  /** @internal */
  readonly node: ExprNode;

  /** @internal Use col(), lit() or when(). */
  constructor(node: ExprNode) {
    checkDepth(node);
    this.node = node;
  }

  #un(op: string, extra: Partial<ExprNode> = {}): Expr {
    return new Expr({ op, args: [this.node], ...extra });
  }

  #bin(op: string, other: ExprInput): Expr {
    return new Expr({ op, args: [this.node, toExpr(other).node] });
  }

  /** The expression as code: `col("fare").mul(lit(1.1)).alias("usd")` prints as `(col("fare") * lit(1.1)).alias("usd")`. */
  toString(): string {
    return formatExpr(this.node);
  }

  [inspect.custom](): string {
    return `Expr ${this.toString()}`;
  }

  /** The output name of this expression (`alias`, else the leftmost input's name, as Polars). */
  get outputName(): string {
    return outputName(this.node);
  }

  /** Renames the result. @example col("a").add(1).alias("a_plus_1") */
  alias(name: string): Expr {
    if (typeof name !== "string") throw new InvalidArgumentError("alias expects a string");
    return this.#un("alias", { name });
  }

  /** this + other (wrapping for integers). @example col("a").add(col("b")) */
  add(other: ExprInput): Expr {
    return this.#bin("add", other);
  }
  /** this - other. @example col("a").sub(1) */
  sub(other: ExprInput): Expr {
    return this.#bin("sub", other);
  }
  /** this * other. @example col("price").mul(col("qty")) */
  mul(other: ExprInput): Expr {
    return this.#bin("mul", other);
  }
  /** True division; integers give float64. @example col("a").div(2) */
  div(other: ExprInput): Expr {
    return this.#bin("div", other);
  }
  /** Floor division; integers stay integers, x // 0 is null. @example col("a").floorDiv(3) */
  floorDiv(other: ExprInput): Expr {
    return this.#bin("floorDiv", other);
  }
  /** Modulo with the sign of the divisor (Python); integer x % 0 is null. @example col("a").mod(3) */
  mod(other: ExprInput): Expr {
    return this.#bin("mod", other);
  }
  /** this ** exponent. @example col("a").pow(2) */
  pow(exponent: ExprInput): Expr {
    return this.#bin("pow", exponent);
  }
  /** -this (not for unsigned dtypes). @example col("a").neg() */
  neg(): Expr {
    return this.#un("neg");
  }

  /** this == other (null when either is null; NaN equals NaN). @example col("city").eq("NYC") */
  eq(other: ExprInput): Expr {
    return this.#bin("eq", other);
  }
  /** this != other. @example col("a").neq(0) */
  neq(other: ExprInput): Expr {
    return this.#bin("neq", other);
  }
  /** this < other. @example col("a").lt(10) */
  lt(other: ExprInput): Expr {
    return this.#bin("lt", other);
  }
  /** this <= other. @example col("a").lte(10) */
  lte(other: ExprInput): Expr {
    return this.#bin("lte", other);
  }
  /** this > other. @example col("fare").gt(0) */
  gt(other: ExprInput): Expr {
    return this.#bin("gt", other);
  }
  /** this >= other. @example col("a").gte(col("b")) */
  gte(other: ExprInput): Expr {
    return this.#bin("gte", other);
  }

  /** Kleene AND (false wins over null). @example col("a").gt(0).and(col("b").lt(5)) */
  and(other: ExprInput): Expr {
    return this.#bin("and", other);
  }
  /** Kleene OR (true wins over null). @example col("x").or(col("y")) */
  or(other: ExprInput): Expr {
    return this.#bin("or", other);
  }
  /** Exclusive or (null when either is null). @example col("x").xor(col("y")) */
  xor(other: ExprInput): Expr {
    return this.#bin("xor", other);
  }
  /** Logical NOT (null stays null). @example col("flag").not() */
  not(): Expr {
    return this.#un("not");
  }

  /** True where the value is null. @example col("a").isNull() */
  isNull(): Expr {
    return this.#un("isNull");
  }
  /** True where the value is not null. @example col("a").isNotNull() */
  isNotNull(): Expr {
    return this.#un("isNotNull");
  }
  /** True where a float is NaN (integers: false). @example col("x").isNaN() */
  isNaN(): Expr {
    return this.#un("isNaN");
  }
  /**
   * Replaces nulls by `value`, or by a strategy: `{ strategy: "forward" | "backward", limit? }`
   * (the previous / next non-null value, at most `limit` rows away), "min", "max", "mean" (of
   * the column), "zero", "one".
   * @example col("a").fillNull(0); col("a").fillNull({ strategy: "forward", limit: 2 })
   */
  fillNull(value: ExprInput | FillNullStrategy): Expr {
    if (isFillNullStrategy(value)) return fillNullStrategy(this, value);
    return this.#bin("fillNull", value as ExprInput);
  }
  /** Nulls replaced by the last non-null value before them (at most `limit` rows back). @example col("a").forwardFill() */
  forwardFill(limit?: number): Expr {
    return neighbourFill(this, false, limit);
  }
  /** Nulls replaced by the next non-null value after them (at most `limit` rows ahead). @example col("a").backwardFill(1) */
  backwardFill(limit?: number): Expr {
    return neighbourFill(this, true, limit);
  }
  /**
   * Nulls between two values filled linearly by row position; leading and trailing nulls stay.
   * Integers give float64, floats keep their dtype. @example col("temp").interpolate()
   */
  interpolate(): Expr {
    return interpolateExpr(this);
  }
  /** Values limited to [lo, hi] (a null or missing bound: no bound); nulls stay null. @example col("a").clip(0, 100) */
  clip(lo?: ExprInput, hi?: ExprInput): Expr {
    return clipExpr(this, lo, hi);
  }
  /**
   * Values equal to an old value replaced by its new value, others kept: a Map, an object
   * (string keys), or `(old[], new[])` / `(old, new)`. Dtype: the supertype of the column and
   * the new values.
   * @example col("code").replace(new Map([[1, 10], [2, 20]])); col("s").replace({ a: "A" })
   */
  replace(mapping: ReplaceMapping | readonly LiteralValue[] | LiteralValue, replacement?: LiteralValue | readonly LiteralValue[]): Expr {
    return replaceExpr(this, mapping, replacement);
  }
  /**
   * Every value mapped: values without a mapping become `options.default`; without a default a
   * non-null value without a mapping is an InvalidArgumentError (nulls stay null). The dtype is
   * the new values' (with the default's).
   * @example col("code").replaceStrict(new Map([[1, "one"]]), { default: "other" })
   */
  replaceStrict(mapping: ReplaceMapping, options?: { default?: ExprInput }): Expr {
    return replaceStrictExpr(this, mapping, undefined, options?.default);
  }
  /** Replaces NaN by `value` (floats; other dtypes unchanged). @example col("x").fillNaN(0) */
  fillNaN(value: ExprInput): Expr {
    return this.#bin("fillNaN", value);
  }
  /** True where the value equals one of `values` (null stays null). @example col("city").isIn(["NYC", "SF"]) */
  isIn(values: readonly LiteralValue[]): Expr {
    if (!Array.isArray(values)) throw new InvalidArgumentError("isIn expects an array of values");
    for (const v of values) {
      if (!isLiteralValue(v) && v !== undefined) throw new InvalidArgumentError(`isIn: unsupported value ${String(v)}`);
    }
    return this.#un("isIn", { list: values.map((v) => (v === undefined ? null : v)) });
  }
  /** lo <= this <= hi (both ends inclusive). @example col("a").isBetween(1, 10) */
  isBetween(lo: ExprInput, hi: ExprInput): Expr {
    return this.gte(lo).and(this.lte(hi));
  }

  /**
   * Converts to `dtype`; values that do not fit become null, or with `strict` a CastError
   * (ERR_CAST) naming the first such row and value. Text converts to and from numbers, booleans
   * ("true"/"false"), dates and timestamps (parsed as `str.strptime` with an inferred format;
   * formatted as `dt.toString()`); floats become their shortest round-trip text.
   * @example col("a").cast("float32")
   * @example col("price").cast("float64", { strict: true })   // "12.5" -> 12.5; "n/a" throws
   */
  cast(dtype: DType, options: { strict?: boolean } = {}): Expr {
    return this.#un("cast", { ...dtypeFields(dtype), ...(options.strict ? { params: [1] } : {}) });
  }

  /** Absolute value. @example col("a").abs() */
  abs(): Expr {
    return this.#un("abs");
  }
  /** Rounds half to even at `decimals` digits (integers unchanged). @example col("x").round(2) */
  round(decimals = 0): Expr {
    if (!Number.isInteger(decimals) || decimals < 0) {
      throw new InvalidArgumentError(`round(decimals) needs an integer >= 0, got ${String(decimals)}`);
    }
    return this.#un("round", { params: [decimals] });
  }
  /** Rounds down (integers unchanged). @example col("x").floor() */
  floor(): Expr {
    return this.#un("floor");
  }
  /** Rounds up (integers unchanged). @example col("x").ceil() */
  ceil(): Expr {
    return this.#un("ceil");
  }
  /** Square root (integers give float64). @example col("x").sqrt() */
  sqrt(): Expr {
    return this.#un("sqrt");
  }
  /** e ** this. @example col("x").exp() */
  exp(): Expr {
    return this.#un("exp");
  }
  /** Natural logarithm. @example col("x").log() */
  log(): Expr {
    return this.#un("log");
  }

  #agg(kind: AggKind, ddof = 1, q = 0.5): Expr {
    return this.#un("agg", { agg: { kind, ddof, q } });
  }

  // Aggregations: each reduces its input to one value (a one-row result, broadcast when the
  // expression also reads whole columns). Rules and result dtypes as the Series reductions.

  /** Sum of the non-null values (0 when none). @example df.select(col("fare").sum()) */
  sum(): Expr { return this.#agg("sum"); }
  /** Mean of the non-null values (null when none). @example col("fare").mean() */
  mean(): Expr { return this.#agg("mean"); }
  /** Smallest non-null value. @example col("fare").min() */
  min(): Expr { return this.#agg("min"); }
  /** Largest non-null value. @example col("fare").max() */
  max(): Expr { return this.#agg("max"); }
  /** Number of non-null values (int64). @example col("fare").count() */
  count(): Expr { return this.#agg("count"); }
  /** Number of nulls (int64). @example col("fare").nullCount() */
  nullCount(): Expr { return this.#agg("nullCount"); }
  /** Number of distinct non-null values (int64). @example col("city").nUnique() */
  nUnique(): Expr { return this.#agg("nUnique"); }
  /** Standard deviation (ddof 1 by default). @example col("fare").std() */
  std(ddof = 1): Expr { return this.#agg("std", ddof); }
  /** Variance (ddof 1 by default). @example col("fare").var() */
  var(ddof = 1): Expr { return this.#agg("var", ddof); }
  /** Median (linear interpolation). @example col("fare").median() */
  median(): Expr { return this.#agg("median"); }
  /** Quantile q in [0, 1] (linear interpolation). @example col("fare").quantile(0.9) */
  quantile(q: number): Expr { return this.#agg("quantile", 1, q); }
  /** True when any non-null bool is true. @example col("flag").any() */
  any(): Expr { return this.#agg("any"); }
  /** True when every non-null bool is true. @example col("flag").all() */
  all(): Expr { return this.#agg("all"); }
  /** The first row's value. @example col("fare").first() */
  first(): Expr { return this.#agg("first"); }
  /** The last row's value. @example col("fare").last() */
  last(): Expr { return this.#agg("last"); }
  /** Row index of the first smallest value (int64). @example col("fare").argMin() */
  argMin(): Expr { return this.#agg("argMin"); }
  /** Row index of the first largest value (int64). @example col("fare").argMax() */
  argMax(): Expr { return this.#agg("argMax"); }
  /**
   * Product of the non-null values (1 when none); dtypes as `sum`.
   * @example df.groupBy("k").agg(col("factor").product())
   */
  product(): Expr { return this.#agg("product"); }

  // Sequence functions (docs/semantics.md "Window functions"): one value per row, computed
  // over the rows in order (per partition under `over`).

  /** Running sum; nulls skipped and kept null. Small integers give int64, bool uint32. @example col("x").cumSum() */
  cumSum(options?: CumOptions): Expr { return new Expr(cumNode("cumSum", this.node, options)); }
  /** Running product; integers up to 32 bits give int64. @example col("x").cumProd() */
  cumProd(options?: CumOptions): Expr { return new Expr(cumNode("cumProd", this.node, options)); }
  /** Running minimum (NaN skipped unless all so far are NaN). @example col("x").cumMin() */
  cumMin(options?: CumOptions): Expr { return new Expr(cumNode("cumMin", this.node, options)); }
  /** Running maximum (NaN skipped unless all so far are NaN). @example col("x").cumMax() */
  cumMax(options?: CumOptions): Expr { return new Expr(cumNode("cumMax", this.node, options)); }
  /** Running count of non-null values (uint32, never null). @example col("x").cumCount() */
  cumCount(options?: CumOptions): Expr { return new Expr(cumNode("cumCount", this.node, options)); }
  /**
   * The value n rows before (n < 0: after); null where there is no such row, or `fillValue`.
   * @example col("x").shift(1, { fillValue: 0 })
   */
  shift(n = 1, options?: { fillValue?: ExprInput }): Expr {
    const fill = options?.fillValue;
    return new Expr(periodNode("shift", this.node, n, fill === undefined ? undefined : toExpr(fill).node));
  }
  /** this - this.shift(n); unsigned integers give signed ones. @example col("x").diff() */
  diff(n = 1): Expr { return new Expr(periodNode("diff", this.node, n)); }
  /** Fractional change from n rows before, after filling nulls forward (float64). @example col("price").pctChange() */
  pctChange(n = 1): Expr { return new Expr(periodNode("pctChange", this.node, n)); }
  /**
   * Rank of each value (1 = smallest); ties by `method`; null ranks null. average: float64,
   * others: uint32. @example col("score").rank({ method: "dense", descending: true })
   */
  rank(options?: RankOptions): Expr { return new Expr(rankNode(this.node, options)); }
  /** True at the first row of each distinct value (null is a value). @example col("k").isFirstDistinct() */
  isFirstDistinct(): Expr { return this.#un("isFirstDistinct"); }
  /** True where the value occurs more than once. @example col("k").isDuplicated() */
  isDuplicated(): Expr { return this.#un("isDuplicated"); }
  /** True where the value occurs exactly once. @example col("k").isUnique() */
  isUnique(): Expr { return this.#un("isUnique"); }
  /**
   * This expression per partition of `partitionBy`, broadcast back to the rows in their order:
   * aggregations give each row its partition's value; sequence functions restart per partition,
   * over the rows in `orderBy` order when given.
   *
   * @example
   * df.withColumns(col("fare").sum().over("city").alias("city_total"),
   *                col("fare").rank().over("city", { orderBy: "ts" }).alias("r"));
   */
  over(partitionBy: string | Expr | readonly (string | Expr)[], options: OverOptions<string | Expr> = {}): Expr {
    const list = <T>(v: T | readonly T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? [...(v as T[])] : [v as T]);
    const keys = list(partitionBy).map((k) => columnOrExpr(k, "over").node);
    const order = list(options.orderBy).map((k) => columnOrExpr(k, "over: orderBy").node);
    return new Expr(overNode(this.node, keys, order, options));
  }

  /** String functions. @example col("name").str.len() */
  get str(): ExprString {
    return new ExprString(this.node, (n) => new Expr(n));
  }
  /** Date/time fields (UTC). @example col("ts").dt.year() */
  get dt(): ExprDateTime {
    return new ExprDateTime(this.node, (n) => new Expr(n));
  }
}

/**
 * A column of the frame the expression runs on; several names (or an array), a `"^...$"` regex
 * name, or dtype names select several columns, one expression each (see `cs`).
 *
 * @example
 * df.filter(col("fare").gt(10));
 * df.select(col("a", "b").sum(), col("^x_.*$").max(), col(["float64"]).round(1));
 */
export function col(name: string | readonly string[], ...more: string[]): Expr {
  if (typeof name === "string" && more.length === 0 && !isRegexName(name)) return new Expr({ op: "col", args: [], name });
  const names = [name, ...more].flat() as unknown[];
  if (!names.every((n) => typeof n === "string")) throw new InvalidArgumentError("col expects column names");
  return new Expr(columnsNode(names as string[]));
}

/**
 * A literal. Without `dtype`, a number adapts to the column it meets (an integral number keeps
 * an integer column's dtype when it fits), a bigint is int64, a string utf8, a Date
 * timestamp[ms], null takes the other operand's dtype.
 *
 * @example
 * df.select(col("a").add(lit(1)), lit("x").alias("tag"));
 */
export function lit(value: LiteralValue, dtype?: DType): Expr {
  if (!isLiteralValue(value)) throw new InvalidArgumentError(`lit: unsupported value ${String(value)}`);
  return new Expr({
    op: "lit",
    args: [],
    value,
    ...(dtype === undefined ? {} : dtypeFields(dtype)),
  });
}


/** `when(cond)` waiting for `.then(value)`. */
export class When {
  readonly #branches: readonly ExprNode[];
  /** @internal */
  constructor(branches: readonly ExprNode[]) {
    this.#branches = branches;
  }
  /** The value where the condition holds. @example when(col("a").gt(0)).then(1) */
  then(value: ExprInput): Then {
    return new Then([...this.#branches, toExpr(value).node]);
  }
}

/** A when/then chain; an Expr (null where no condition holds) until `.otherwise`. */
export class Then extends Expr {
  readonly #branches: readonly ExprNode[];
  /** @internal */
  constructor(branches: readonly ExprNode[]) {
    super({ op: "when", args: [...branches, lit(null).node] });
    this.#branches = branches;
  }
  /** Another condition, tried when the earlier ones do not hold. @example when(a).then(1).when(b).then(2) */
  when(cond: ExprInput): When {
    return new When([...this.#branches, toExpr(cond).node]);
  }
  /** The value where no condition holds. @example when(col("a").gt(0)).then("pos").otherwise("neg") */
  otherwise(value: ExprInput): Expr {
    return new Expr({ op: "when", args: [...this.#branches, toExpr(value).node] });
  }
}

/**
 * A conditional expression: `when(c1).then(v1).when(c2).then(v2).otherwise(v3)`. A null
 * condition counts as false; without `otherwise` the result is null where nothing matched.
 *
 * @example
 * df.select(when(col("fare").gt(20)).then("high").otherwise("low").alias("band"));
 */
export function when(cond: ExprInput): When {
  return new When([toExpr(cond).node]);
}

/** A column name as an expression; anything else as `toExpr` takes it. */
/** @internal */
export function columnOrExpr(v: Expr | string, what: string): Expr {
  if (typeof v === "string") return col(v);
  if (v instanceof Expr) return v;
  throw new InvalidArgumentError(`${what} expects column names or expressions`);
}

export { corr, cov, len } from "./expr_aggs.js";
export { outputName, readsColumns, serializeExpr, type AggKind, type ExprNode, type SerializedNode } from "./expr_node.js";
