/**
 * Window expressions: sequence functions (cumulative scans, shift, diff, pctChange, rank,
 * distinct flags) and `over`. Node builders for src/expr.ts; the work is native
 * (native/ops/window/, docs/semantics.md "Window functions").
 */
import { InvalidArgumentError } from "./errors.js";
import type { ExprNode } from "./expr.js";

/** Options of the cumulative functions. */
export interface CumOptions {
  /** Scan from the last row to the first (default false). */
  reverse?: boolean;
}

/** How `rank` numbers tied values. */
export type RankMethod = "average" | "min" | "max" | "dense" | "ordinal";

/** Options of `rank`. */
export interface RankOptions {
  /** Tie rule (default "average", as Polars). */
  method?: RankMethod;
  /** Rank the largest value 1 (default false). */
  descending?: boolean;
}

const RANK_METHODS: readonly RankMethod[] = ["average", "min", "max", "dense", "ordinal"];

function flag(v: unknown, what: string): number {
  if (v === undefined) return 0;
  if (typeof v !== "boolean") throw new InvalidArgumentError(`${what} must be a boolean`);
  return v ? 1 : 0;
}

function periods(n: unknown, what: string): number {
  if (typeof n !== "number" || !Number.isSafeInteger(n)) throw new InvalidArgumentError(`${what}(n) needs an integer, got ${String(n)}`);
  return n;
}

/** @internal A cumulative node (cumSum, cumProd, cumMin, cumMax, cumCount). */
export function cumNode(op: string, input: ExprNode, options: CumOptions | undefined): ExprNode {
  if (options !== undefined && (typeof options !== "object" || options === null)) throw new InvalidArgumentError(`${op} options must be an object`);
  return { op, args: [input], params: [flag(options?.reverse, `${op}: reverse`)] };
}

/** @internal shift / diff / pctChange by n rows (negative: from the rows after). */
export function periodNode(op: string, input: ExprNode, n: unknown, fill?: ExprNode): ExprNode {
  return { op, args: fill === undefined ? [input] : [input, fill], params: [periods(n, op)] };
}

/** @internal rank. */
export function rankNode(input: ExprNode, options: RankOptions | undefined): ExprNode {
  const method = options?.method ?? "average";
  const m = RANK_METHODS.indexOf(method);
  if (m < 0) throw new InvalidArgumentError(`rank: method must be one of ${RANK_METHODS.join(", ")}, got ${String(method)}`);
  return { op: "rank", args: [input], params: [m, flag(options?.descending, "rank: descending")] };
}

/** Options of `over`. */
export interface OverOptions<K> {
  /** Order of the rows within each partition for order-dependent expressions (cumSum, rank, shift, first...). */
  orderBy?: K | readonly K[];
  /** Per orderBy key (or one for all): descending (default false). */
  descending?: boolean | readonly boolean[];
  /** Nulls of the orderBy keys last (default false: first, as Polars). */
  nullsLast?: boolean;
}

/** @internal An over node: args [inner, partition keys..., order keys...]. */
export function overNode(inner: ExprNode, keys: readonly ExprNode[], order: readonly ExprNode[], options: OverOptions<unknown>): ExprNode {
  if (keys.length === 0) throw new InvalidArgumentError("over needs at least one partition key");
  const d = options.descending ?? false;
  const desc = Array.isArray(d) ? d : order.map(() => d);
  if (desc.length !== order.length) throw new InvalidArgumentError("over: descending needs one flag per orderBy key");
  const flags = desc.map((x) => flag(x, "over: descending"));
  return {
    op: "over",
    args: [inner, ...keys, ...order],
    params: [keys.length, order.length, ...flags, flag(options.nullsLast, "over: nullsLast")],
  };
}
