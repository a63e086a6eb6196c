/**
 * Rolling window expressions, as Polars' rolling_* and rolling_*_by: each row's aggregation of
 * a window of rows, fixed (a count of rows) or over a sorted `by` column (a span of time or of
 * an integer index). Installed on Expr and Series by declaration merging; the work is native
 * (native/ops/window/rolling.hpp, docs/semantics.md "Rolling windows").
 */
import type { ClosedWindow } from "./dynamic.js";
import { parseInterval } from "./duration.js";
import { InvalidArgumentError } from "./errors.js";
import { col, Expr, type ExprNode } from "./expr.js";
import { Series } from "./series.js";
import { applyToSeries } from "./series_methods.js";

/** How a rolling quantile picks between the two closest values (Polars' names). */
export type RollingInterpolation = "nearest" | "linear" | "lower" | "higher" | "midpoint";
/** Which ends of a `by` window hold: "right" is (t - window, t]. */
export type RollingClosed = ClosedWindow;

/** Options of the fixed windows (rollingSum ... rollingQuantile). */
export interface RollingOptions {
  /** Fewest non-null values a window needs, else null (default: windowSize). */
  minPeriods?: number;
  /** Centre the window on the row (default false: the row and the windowSize - 1 before it). */
  center?: boolean;
  /** One factor per window position, multiplied with the values first (not for median/quantile). */
  weights?: readonly number[];
  /** Delta degrees of freedom of rollingStd / rollingVar (default 1). */
  ddof?: number;
  /** rollingQuantile: how to pick between ranks (default "nearest", as Polars). */
  interpolation?: RollingInterpolation;
}

/** Options of the windows over a `by` column (rollingSumBy ... rollingQuantileBy). */
export interface RollingByOptions {
  /** Fewest non-null values a window needs, else null (default 1). */
  minPeriods?: number;
  /** Which ends of (t - window, t] hold (default "right"). */
  closed?: RollingClosed;
  /** Delta degrees of freedom of rollingStdBy / rollingVarBy (default 1). */
  ddof?: number;
  /** rollingQuantileBy: how to pick between ranks (default "nearest"). */
  interpolation?: RollingInterpolation;
}

const INTERPOLATIONS: readonly RollingInterpolation[] = ["nearest", "linear", "lower", "higher", "midpoint"];
const CLOSED: readonly RollingClosed[] = ["right", "left", "both", "none"];
const KINDS = ["Sum", "Mean", "Min", "Max", "Std", "Var", "Median", "Quantile"] as const;

function fail(op: string, what: string): never {
  throw new InvalidArgumentError(`${op}: ${what}`);
}

function count(op: string, v: unknown, what: string, least: number): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < least) fail(op, `${what} must be an integer >= ${least}, got ${String(v)}`);
  return v;
}

function options<T extends object>(op: string, o: T | undefined): Partial<T> {
  if (o === undefined) return {};
  if (typeof o !== "object" || o === null) fail(op, "options must be an object");
  return o;
}

function interpolation(op: string, v: unknown): number {
  const m = INTERPOLATIONS.indexOf((v ?? "nearest") as RollingInterpolation);
  if (m < 0) fail(op, `interpolation must be one of ${INTERPOLATIONS.join(", ")}, got ${String(v)}`);
  return m;
}

function quantileOf(op: string, q: unknown): number {
  if (typeof q !== "number" || !(q >= 0 && q <= 1)) fail(op, `quantile must be a number in [0, 1], got ${String(q)}`);
  return q;
}

/** @internal A fixed-window node: params [window, minPeriods, center, ddof, interpolation], list [q, weights...]. */
export function rollingNode(kind: (typeof KINDS)[number], input: ExprNode, windowSize: unknown, opts: RollingOptions | undefined, q = 0.5): ExprNode {
  const op = `rolling${kind}`;
  const o = options(op, opts);
  const window = count(op, windowSize, "windowSize", 1);
  const minPeriods = o.minPeriods === undefined ? window : count(op, o.minPeriods, "minPeriods", 0);
  if (minPeriods > window) fail(op, `minPeriods (${minPeriods}) must not exceed windowSize (${window})`);
  if (o.center !== undefined && typeof o.center !== "boolean") fail(op, "center must be a boolean");
  const ddof = o.ddof === undefined ? 1 : count(op, o.ddof, "ddof", 0);
  const weights = o.weights ?? [];
  if (o.weights !== undefined) {
    if (!Array.isArray(weights) || weights.length !== window) fail(op, `weights must be an array of windowSize (${window}) numbers`);
    if (!weights.every((w) => typeof w === "number" && Number.isFinite(w))) fail(op, "weights must be finite numbers");
    if (kind === "Median" || kind === "Quantile") fail(op, "weights are not supported for rolling median or quantile");
    if (kind === "Mean" && weights.reduce((a, b) => a + b, 0) === 0) fail(op, "weights summing to 0 leave the weighted mean undefined");
  }
  return {
    op,
    args: [input],
    params: [window, minPeriods, o.center ? 1 : 0, ddof, interpolation(op, o.interpolation)],
    list: [q, ...weights],
  };
}

/**
 * @internal A by-window node: params [months, seconds, nanos, index window, minPeriods, closed,
 * ddof, interpolation], list [q]. "3i" is an index window (integer by columns).
 */
export function rollingByNode(kind: (typeof KINDS)[number], input: ExprNode, by: ExprNode, windowSize: unknown, opts: RollingByOptions | undefined, q = 0.5): ExprNode {
  const op = `rolling${kind}By`;
  const o = options(op, opts);
  let span: [number, number, number, number];
  const index = typeof windowSize === "string" ? /^(\d+)i$/.exec(windowSize) : null;
  if (index !== null) {
    span = [0, count(op, Number(index[1]), "windowSize", 1), 0, 1];
  } else {
    const iv = parseInterval(windowSize, op);
    if (iv.months < 0 || iv.seconds < 0 || iv.nanos < 0 || iv.months + iv.seconds + iv.nanos === 0) fail(op, `the window must be positive, got ${String(windowSize)}`);
    span = [iv.months, iv.seconds, iv.nanos, 0];
  }
  const closed = CLOSED.indexOf((o.closed ?? "right") as RollingClosed);
  if (closed < 0) fail(op, `closed must be one of ${CLOSED.join(", ")}, got ${String(o.closed)}`);
  const minPeriods = o.minPeriods === undefined ? 1 : count(op, o.minPeriods, "minPeriods", 0);
  const ddof = o.ddof === undefined ? 1 : count(op, o.ddof, "ddof", 0);
  return { op, args: [input, by], params: [...span, minPeriods, closed, ddof, interpolation(op, o.interpolation)], list: [q] };
}

const byNode = (by: Expr | string): ExprNode => (typeof by === "string" ? col(by) : by).node;

declare module "./expr.js" {
  interface Expr {
    /** Sum of each row's window (integers keep their dtype, small ones int64). @example col("x").rollingSum(3, { minPeriods: 1 }) */
    rollingSum(windowSize: number, options?: RollingOptions): Expr;
    /** Mean of each row's window (float64). @example col("x").rollingMean(3) */
    rollingMean(windowSize: number, options?: RollingOptions): Expr;
    /** Minimum of each row's window (dtype kept; NaN propagates). @example col("x").rollingMin(3) */
    rollingMin(windowSize: number, options?: RollingOptions): Expr;
    /** Maximum of each row's window (dtype kept; NaN propagates). @example col("x").rollingMax(3) */
    rollingMax(windowSize: number, options?: RollingOptions): Expr;
    /** Standard deviation of each row's window (ddof 1). @example col("x").rollingStd(3) */
    rollingStd(windowSize: number, options?: RollingOptions): Expr;
    /** Variance of each row's window (ddof 1). @example col("x").rollingVar(3, { ddof: 0 }) */
    rollingVar(windowSize: number, options?: RollingOptions): Expr;
    /** Median of each row's window. @example col("x").rollingMedian(5, { center: true }) */
    rollingMedian(windowSize: number, options?: RollingOptions): Expr;
    /** Quantile of each row's window ("nearest" unless interpolation says otherwise). @example col("x").rollingQuantile(0.9, 10) */
    rollingQuantile(quantile: number, windowSize: number, options?: RollingOptions): Expr;
    /** Sum over the rows whose `by` lies in (t - window, t]. @example col("x").rollingSumBy("date", "2d") */
    rollingSumBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Mean over a `by` window. @example col("x").rollingMeanBy("t", "1h") */
    rollingMeanBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Minimum over a `by` window. @example col("x").rollingMinBy("t", "1h") */
    rollingMinBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Maximum over a `by` window. @example col("x").rollingMaxBy("t", "1h") */
    rollingMaxBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Standard deviation over a `by` window. @example col("x").rollingStdBy("t", "1d") */
    rollingStdBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Variance over a `by` window. @example col("x").rollingVarBy("t", "1d") */
    rollingVarBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Median over a `by` window. @example col("x").rollingMedianBy("i", "3i") */
    rollingMedianBy(by: Expr | string, windowSize: string, options?: RollingByOptions): Expr;
    /** Quantile over a `by` window. @example col("x").rollingQuantileBy("t", 0.25, "7d") */
    rollingQuantileBy(by: Expr | string, quantile: number, windowSize: string, options?: RollingByOptions): Expr;
  }
}

type RollingSeries<F> = F extends (...args: infer A) => Expr ? (...args: { [K in keyof A]: Expr extends A[K] ? Series : A[K] }) => Series : never;

declare module "./series.js" {
  interface Series {
    /** As Expr.rollingSum. @example new Series("x", [1, 2, 3]).rollingSum(2).toArray(); // [null, 3, 5] */
    rollingSum: RollingSeries<Expr["rollingSum"]>;
    rollingMean: RollingSeries<Expr["rollingMean"]>;
    rollingMin: RollingSeries<Expr["rollingMin"]>;
    rollingMax: RollingSeries<Expr["rollingMax"]>;
    rollingStd: RollingSeries<Expr["rollingStd"]>;
    rollingVar: RollingSeries<Expr["rollingVar"]>;
    rollingMedian: RollingSeries<Expr["rollingMedian"]>;
    rollingQuantile: RollingSeries<Expr["rollingQuantile"]>;
    /** As Expr.rollingSumBy, `by` a Series of the same length. @example s.rollingSumBy(dates, "2d") */
    rollingSumBy: RollingSeries<Expr["rollingSumBy"]>;
    rollingMeanBy: RollingSeries<Expr["rollingMeanBy"]>;
    rollingMinBy: RollingSeries<Expr["rollingMinBy"]>;
    rollingMaxBy: RollingSeries<Expr["rollingMaxBy"]>;
    rollingStdBy: RollingSeries<Expr["rollingStdBy"]>;
    rollingVarBy: RollingSeries<Expr["rollingVarBy"]>;
    rollingMedianBy: RollingSeries<Expr["rollingMedianBy"]>;
    rollingQuantileBy: RollingSeries<Expr["rollingQuantileBy"]>;
  }
}

type Method = (this: Expr, ...args: never[]) => Expr;
const methods: Record<string, Method> = {};
for (const kind of KINDS) {
  if (kind === "Quantile") {
    methods.rollingQuantile = function (this: Expr, q: number, windowSize: number, opts?: RollingOptions) {
      return new Expr(rollingNode(kind, this.node, windowSize, opts, quantileOf("rollingQuantile", q)));
    } as Method;
    methods.rollingQuantileBy = function (this: Expr, by: Expr | string, q: number, windowSize: string, opts?: RollingByOptions) {
      return new Expr(rollingByNode(kind, this.node, byNode(by), windowSize, opts, quantileOf("rollingQuantileBy", q)));
    } as Method;
  } else {
    methods[`rolling${kind}`] = function (this: Expr, windowSize: number, opts?: RollingOptions) {
      return new Expr(rollingNode(kind, this.node, windowSize, opts));
    } as Method;
    methods[`rolling${kind}By`] = function (this: Expr, by: Expr | string, windowSize: string, opts?: RollingByOptions) {
      return new Expr(rollingByNode(kind, this.node, byNode(by), windowSize, opts));
    } as Method;
  }
}

for (const [name, fn] of Object.entries(methods)) {
  Object.defineProperty(Expr.prototype, name, { value: fn, writable: true, configurable: true });
  Object.defineProperty(Series.prototype, name, {
    value: function (this: Series, ...args: unknown[]): Series {
      return applyToSeries(this, args, (e, a) => (fn as (...x: unknown[]) => Expr).apply(e, a));
    },
    writable: true,
    configurable: true,
  });
}
