/**
 * Missing-data and value-mapping expressions: fillNull strategies, forward/backward fill,
 * interpolate (native ops, ops/nulls/fill.hpp, run by the expression compiler), clip, replace
 * and replaceStrict (when/then chains), coalesce. Expr's methods call these.
 */
import { InvalidArgumentError } from "./errors.js";
import { Expr, lit, toExpr, when, type ExprInput, type LiteralValue } from "./expr.js";

/** The strategies of `fillNull({ strategy })`. */
export type FillNullStrategyName = "forward" | "backward" | "min" | "max" | "mean" | "zero" | "one";

/** `fillNull({ strategy, limit })`: fill from neighbouring rows or a statistic of the column. */
export interface FillNullStrategy {
  strategy: FillNullStrategyName;
  /** forward/backward only: fill at most this many consecutive nulls after (before) a value. */
  limit?: number;
}

const STRATEGIES: readonly FillNullStrategyName[] = ["forward", "backward", "min", "max", "mean", "zero", "one"];

/** True for a `{ strategy, limit? }` object naming a known strategy (nothing else in it). */
export function isFillNullStrategy(v: unknown): v is FillNullStrategy {
  if (v === null || typeof v !== "object" || v instanceof Date || v instanceof Expr || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return (
    keys.includes("strategy") &&
    keys.every((k) => k === "strategy" || k === "limit") &&
    STRATEGIES.includes((v as { strategy: FillNullStrategyName }).strategy)
  );
}

function checkLimit(limit: unknown, what: string): number {
  if (limit === undefined || limit === null) return -1;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidArgumentError(`${what}: limit must be a non-negative integer, got ${String(limit)}`);
  }
  return limit;
}

/** forwardFill / backwardFill: a native neighbour fill with an optional limit (-1: none). */
export function neighbourFill(e: Expr, backward: boolean, limit: unknown): Expr {
  const what = backward ? "backwardFill" : "forwardFill";
  return new Expr({ op: what, args: [e.node], params: [checkLimit(limit, what)] });
}

/** interpolate: linear between the valid rows around each null (native). */
export function interpolateExpr(e: Expr): Expr {
  return new Expr({ op: "interpolate", args: [e.node] });
}

/** fillNull({ strategy, limit }). */
export function fillNullStrategy(e: Expr, s: FillNullStrategy): Expr {
  if (s.limit !== undefined && s.strategy !== "forward" && s.strategy !== "backward") {
    throw new InvalidArgumentError(`fillNull: limit applies to the "forward" and "backward" strategies only`);
  }
  switch (s.strategy) {
    case "forward": return neighbourFill(e, false, s.limit);
    case "backward": return neighbourFill(e, true, s.limit);
    case "min": return e.fillNull(e.min());
    case "max": return e.fillNull(e.max());
    case "mean": return e.fillNull(e.mean());
    case "zero": return e.fillNull(0);
    case "one": return e.fillNull(1);
  }
}

/** clip(lo, hi): values below lo become lo, above hi become hi; null bounds are no bound. */
export function clipExpr(e: Expr, lo: ExprInput | undefined, hi: ExprInput | undefined): Expr {
  const noBound = (b: ExprInput | undefined): boolean => b === undefined || b === null;
  if (noBound(lo) && noBound(hi)) throw new InvalidArgumentError("clip needs a lower or an upper bound");
  let w: Expr = e;
  if (!noBound(lo) && !noBound(hi)) w = when(e.lt(toExpr(lo))).then(toExpr(lo)).when(e.gt(toExpr(hi))).then(toExpr(hi)).otherwise(e);
  else if (!noBound(lo)) w = when(e.lt(toExpr(lo))).then(toExpr(lo)).otherwise(e);
  else w = when(e.gt(toExpr(hi))).then(toExpr(hi)).otherwise(e);
  return w.alias(e.outputName);
}

/** A replace mapping: a Map, an object (string keys), or parallel old/new arrays. */
export type ReplaceMapping = ReadonlyMap<LiteralValue, LiteralValue> | Readonly<Record<string, LiteralValue>>;

/** The (old, new) pairs of replace's arguments. */
export function replacePairs(what: string, oldOrMapping: unknown, replacement: unknown): [LiteralValue, LiteralValue][] {
  let pairs: [LiteralValue, LiteralValue][];
  if (oldOrMapping instanceof Map) pairs = [...oldOrMapping.entries()];
  else if (Array.isArray(oldOrMapping)) {
    const news = Array.isArray(replacement) ? replacement : oldOrMapping.map(() => replacement);
    if (news.length !== oldOrMapping.length) throw new InvalidArgumentError(`${what}: old and new have different lengths`);
    pairs = oldOrMapping.map((o, i) => [o as LiteralValue, news[i] as LiteralValue]);
  } else if (oldOrMapping !== null && typeof oldOrMapping === "object" && !(oldOrMapping instanceof Date) && !(oldOrMapping instanceof Expr)) {
    pairs = Object.entries(oldOrMapping as Record<string, LiteralValue>);
  } else {
    pairs = [[oldOrMapping as LiteralValue, replacement as LiteralValue]];
  }
  for (const [o, n] of pairs) {
    for (const v of [o, n]) {
      const ok = v === null || ["number", "bigint", "string", "boolean"].includes(typeof v) || v instanceof Date;
      if (!ok) throw new InvalidArgumentError(`${what}: unsupported value ${String(v)}`);
    }
  }
  return pairs;
}

/** A when/then chain over the pairs, `otherwise` where no old value matched. */
function mapped(e: Expr, pairs: readonly [LiteralValue, LiteralValue][], otherwise: Expr): Expr {
  if (pairs.length === 0) return otherwise;
  const cond = (o: LiteralValue): Expr => (o === null ? e.isNull() : e.eq(lit(o)));
  let chain = when(cond((pairs[0] as [LiteralValue, LiteralValue])[0])).then(lit((pairs[0] as [LiteralValue, LiteralValue])[1]));
  for (const [o, n] of pairs.slice(1)) chain = chain.when(cond(o)).then(lit(n));
  return chain.otherwise(otherwise).alias(e.outputName);
}

/** replace: matched values replaced, the others kept. */
export function replaceExpr(e: Expr, oldOrMapping: unknown, replacement: unknown): Expr {
  return mapped(e, replacePairs("replace", oldOrMapping, replacement), e);
}

/**
 * replaceStrict: every value replaced; values without a mapping become `default`. Without a
 * default, a non-null value without a mapping is an InvalidArgumentError when the expression
 * runs (a guard column, null exactly there, is checked natively); nulls stay null.
 */
export function replaceStrictExpr(e: Expr, oldOrMapping: unknown, replacement: unknown, fallback: ExprInput | undefined): Expr {
  const pairs = replacePairs("replaceStrict", oldOrMapping, replacement);
  if (fallback !== undefined) return mapped(e, pairs, toExpr(fallback));
  const values = mapped(e, pairs, lit(null));
  const keys = pairs.map(([o]) => o).filter((o) => o !== null);
  const unmapped = keys.length === 0 ? e.isNotNull() : e.isNotNull().and(e.isIn(keys).not());
  const guard = when(unmapped).then(lit(null)).otherwise(lit(true));
  return new Expr({ op: "replaceStrict", args: [values.node, guard.node] }).alias(e.outputName);
}
