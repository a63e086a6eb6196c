/**
 * Aggregations that are functions rather than Expr methods: len(), corr(a, b), cov(a, b).
 */
import { InvalidArgumentError } from "./errors.js";
import { columnOrExpr, Expr } from "./expr.js";

function pairAggregation(kind: "corr" | "cov", a: Expr | string, b: Expr | string, ddof: number): Expr {
  if (!Number.isInteger(ddof) || ddof < 0) {
    throw new InvalidArgumentError(`${kind}: ddof must be a non-negative integer, got ${String(ddof)}`);
  }
  const args = [columnOrExpr(a, kind).node, columnOrExpr(b, kind).node];
  return new Expr({ op: "agg", args, agg: { kind, ddof, q: 0.5 } });
}

/**
 * The number of rows, as an aggregation: per group in `groupBy(...).agg(len())`, the frame's
 * height in `select(len())`. int64, named "len".
 *
 * @example
 * import { col, len } from "gpudf";
 * df.groupBy("city").agg(len(), col("fare").sum());
 * df.select(len()); // one row: the height
 */
export function len(): Expr {
  return new Expr({ op: "agg", args: [], agg: { kind: "len", ddof: 1, q: 0.5 } });
}

/**
 * Pearson correlation of two columns (a name is a column), over the rows where both are
 * non-null; float64, named after `a`. As an aggregation: per group in groupBy().agg(), one
 * value in select().
 *
 * @example
 * import { corr } from "gpudf";
 * df.groupBy("id2").agg(corr("v1", "v2").pow(2).alias("r2"));
 */
export function corr(a: Expr | string, b: Expr | string): Expr {
  return pairAggregation("corr", a, b, 1);
}

/**
 * Covariance of two columns (a name is a column), over the rows where both are non-null,
 * divisor `pairs - ddof`; float64, named after `a`.
 *
 * @example
 * import { cov } from "gpudf";
 * df.groupBy("k").agg(cov("x", "y").alias("cov_xy"), cov("x", "y", 0).alias("pop_cov"));
 */
export function cov(a: Expr | string, b: Expr | string, ddof = 1): Expr {
  return pairAggregation("cov", a, b, ddof);
}

