/**
 * Row-wise functions over several expressions: coalesce and the horizontal aggregations. Each
 * is a fold into one fused expression (fillNull, when/then, and/or), so it runs natively on
 * either backend. A string argument is a column name.
 */
import { InvalidArgumentError } from "./errors.js";
import { col, Expr, lit, when } from "./expr.js";

/** What the row-wise functions take: expressions or column names, or arrays of them. */
export type HorizontalInput = Expr | string | readonly (Expr | string)[];

function operands(what: string, inputs: readonly HorizontalInput[]): Expr[] {
  const flat = inputs.flat() as unknown[];
  if (flat.length === 0) throw new InvalidArgumentError(`${what} needs at least one expression or column name`);
  return flat.map((x) => {
    if (typeof x === "string") return col(x);
    if (x instanceof Expr) return x;
    throw new InvalidArgumentError(`${what} expects expressions or column names`);
  });
}

const named = (e: Expr, first: Expr): Expr => e.alias(first.outputName);

/**
 * The first non-null value of the expressions, row by row (null when all are null); dtype: the
 * supertype of the operands (as fillNull). Named after the first operand.
 *
 * @example
 * import { coalesce, col } from "gpudf";
 * df.select(coalesce("phone_mobile", "phone_home", lit("none")).alias("phone"));
 */
export function coalesce(...exprs: HorizontalInput[]): Expr {
  const ops = operands("coalesce", exprs);
  const first = ops[0] as Expr;
  return named(ops.slice(1).reduce((acc, e) => acc.fillNull(e), first), first);
}

/**
 * Row-wise sum; nulls are skipped (a row of nulls sums to 0, as Polars' ignore_nulls).
 *
 * @example
 * df.select(sumHorizontal("a", "b", col("c").mul(2)).alias("total"));
 */
export function sumHorizontal(...exprs: HorizontalInput[]): Expr {
  const ops = operands("sumHorizontal", exprs);
  const first = ops[0] as Expr;
  return named(ops.slice(1).reduce((acc, e) => acc.add(e.fillNull(0)), first.fillNull(0)), first);
}

function extreme(what: string, exprs: readonly HorizontalInput[], better: (a: Expr, b: Expr) => Expr): Expr {
  const ops = operands(what, exprs);
  const first = ops[0] as Expr;
  const folded = ops.slice(1).reduce((acc, e) => when(acc.isNull()).then(e).when(e.isNull()).then(acc).when(better(e, acc)).then(e).otherwise(acc), first);
  return named(folded, first);
}

/**
 * Row-wise minimum; nulls are skipped (null when a row has no value).
 *
 * @example
 * df.select(minHorizontal("a", "b").alias("lo"));
 */
export function minHorizontal(...exprs: HorizontalInput[]): Expr {
  return extreme("minHorizontal", exprs, (e, acc) => e.lt(acc));
}

/**
 * Row-wise maximum; nulls are skipped (null when a row has no value).
 *
 * @example
 * df.select(maxHorizontal("a", "b").alias("hi"));
 */
export function maxHorizontal(...exprs: HorizontalInput[]): Expr {
  return extreme("maxHorizontal", exprs, (e, acc) => e.gt(acc));
}

/**
 * Row-wise mean of the non-null values (float64; null when a row has none).
 *
 * @example
 * df.select(meanHorizontal("q1", "q2", "q3").alias("avg"));
 */
export function meanHorizontal(...exprs: HorizontalInput[]): Expr {
  const ops = operands("meanHorizontal", exprs);
  const first = ops[0] as Expr;
  const sum = ops.slice(1).reduce((acc, e) => acc.add(e.cast("float64").fillNull(0)), first.cast("float64").fillNull(0));
  const count = ops.slice(1).reduce((acc, e) => acc.add(e.isNotNull().cast("int64")), first.isNotNull().cast("int64"));
  return named(when(count.eq(lit(0))).then(lit(null)).otherwise(sum.div(count)), first);
}

/**
 * Row-wise OR of bool expressions, Kleene logic as Polars: true when any is true, else null
 * when any is null, else false.
 *
 * @example
 * df.filter(anyHorizontal(col("a").gt(0), col("b").gt(0)));
 */
export function anyHorizontal(...exprs: HorizontalInput[]): Expr {
  const ops = operands("anyHorizontal", exprs);
  const first = ops[0] as Expr;
  return named(ops.slice(1).reduce((acc, e) => acc.or(e), first), first);
}

/**
 * Row-wise AND of bool expressions, Kleene logic: false when any is false, else null when any
 * is null, else true.
 *
 * @example
 * df.filter(allHorizontal("ok1", "ok2"));
 */
export function allHorizontal(...exprs: HorizontalInput[]): Expr {
  const ops = operands("allHorizontal", exprs);
  const first = ops[0] as Expr;
  return named(ops.slice(1).reduce((acc, e) => acc.and(e), first), first);
}
