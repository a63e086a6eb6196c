/**
 * join: option resolution (on / leftOn + rightOn, how, suffix, nullsEqual, coalesce,
 * maintainOrder), output naming, and the one native call (native/bindings/join.cpp: key
 * promotion, hash join -> gather maps -> one gather per output column).
 */
import { ensureDevice } from "../device.js";
import { InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkUniqueNames, type FrameParts, type FrameResult } from "./frame.js";
import { columnIndex } from "./select.js";
import { checkOptions } from "../suggest.js";

/** The kinds of join (Polars' names). */
export type JoinHow = "inner" | "left" | "right" | "full" | "semi" | "anti" | "cross";

/**
 * Row order of a join's result: "none" (default: whatever is fastest, see docs/semantics.md),
 * "left" / "right" (by that side's rows), "left_right" / "right_left" (then by the other side's).
 */
export type JoinMaintainOrder = "none" | "left" | "right" | "left_right" | "right_left";

/** Options of `DataFrame.join`. */
export interface JoinOptions {
  /** Key column(s) of the same name on both sides. */
  on?: string | readonly string[];
  /** Left key column(s), paired with `rightOn` (instead of `on`). */
  leftOn?: string | readonly string[];
  /** Right key column(s), paired with `leftOn`. */
  rightOn?: string | readonly string[];
  /** Default "inner". */
  how?: JoinHow;
  /** Appended to right column names that clash with the output's left names. Default "_right". */
  suffix?: string;
  /** Null keys match each other. Default false (a null key never matches). */
  nullsEqual?: boolean;
  /**
   * One key column per key pair (true) or both sides' keys (false). Default: true, except for
   * "full" (Polars' default there: `k` and `k_right`).
   */
  coalesce?: boolean;
  /** Default "none". */
  maintainOrder?: JoinMaintainOrder;
}

const HOW_CODES: Record<JoinHow, number> = { inner: 0, left: 1, right: 2, full: 3, semi: 4, anti: 5, cross: 6 };
const ORDER_CODES: Record<JoinMaintainOrder, number> = { none: 0, left: 1, right: 2, left_right: 3, right_left: 4 };

function keyNames(value: unknown, what: string): string[] {
  const names = typeof value === "string" ? [value] : Array.isArray(value) ? (value as unknown[]) : null;
  if (names === null || names.length === 0 || !names.every((n) => typeof n === "string")) {
    throw new InvalidArgumentError(`join \`${what}\` must be a column name or a non-empty array of names`);
  }
  return names as string[];
}

function pick<T extends string>(value: unknown, codes: Record<T, number>, fallback: T, what: string): T {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !Object.hasOwn(codes, value)) {
    throw new InvalidArgumentError(`join \`${what}\` must be one of ${Object.keys(codes).join(", ")}; got ${String(value)}`);
  }
  return value as T;
}

function flag(value: unknown, fallback: boolean, what: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw new InvalidArgumentError(`join \`${what}\` must be a boolean`);
  return value;
}

/** Fully resolved join options. */
export interface Resolved {
  how: JoinHow;
  leftOn: string[];
  rightOn: string[];
  suffix: string;
  nullsEqual: boolean;
  coalesce: boolean;
  order: JoinMaintainOrder;
}

function resolve(opts: unknown): Resolved {
  if (opts !== undefined && (opts === null || typeof opts !== "object")) throw new InvalidArgumentError("join options must be an object");
  checkOptions("join", opts, ["on", "leftOn", "rightOn", "how", "suffix", "nullsEqual", "coalesce", "maintainOrder"]);
  const o = (opts ?? {}) as Record<string, unknown>;
  const how = pick<JoinHow>(o.how, HOW_CODES, "inner", "how");
  let leftOn: string[] = [];
  let rightOn: string[] = [];
  if (how === "cross") {
    if (o.on !== undefined || o.leftOn !== undefined || o.rightOn !== undefined) {
      throw new InvalidArgumentError("a cross join takes no keys (`on`, `leftOn`, `rightOn`)");
    }
  } else if (o.on !== undefined) {
    if (o.leftOn !== undefined || o.rightOn !== undefined) throw new InvalidArgumentError("join takes either `on` or `leftOn` + `rightOn`, not both");
    leftOn = keyNames(o.on, "on");
    rightOn = leftOn;
  } else {
    if (o.leftOn === undefined || o.rightOn === undefined) throw new InvalidArgumentError("join needs `on`, or both `leftOn` and `rightOn`");
    leftOn = keyNames(o.leftOn, "leftOn");
    rightOn = keyNames(o.rightOn, "rightOn");
    if (leftOn.length !== rightOn.length) {
      throw new InvalidArgumentError(`join \`leftOn\` has ${leftOn.length} keys but \`rightOn\` has ${rightOn.length}`);
    }
  }
  const suffix = o.suffix ?? "_right";
  if (typeof suffix !== "string") throw new InvalidArgumentError("join `suffix` must be a string");
  return {
    how,
    leftOn,
    rightOn,
    suffix,
    nullsEqual: flag(o.nullsEqual, false, "nullsEqual"),
    coalesce: flag(o.coalesce, how !== "full", "coalesce"),
    order: pick<JoinMaintainOrder>(o.maintainOrder, ORDER_CODES, "none", "maintainOrder"),
  };
}

/** One output column of a join: a column of a side (by index) or the coalesced key of pair `index`. */
export interface JoinColumn {
  from: "left" | "right" | "key";
  index: number;
  name: string;
}

/** Where each output column of a join comes from, and the resolved options. */
export interface JoinLayout {
  options: Resolved;
  leftKeys: number[];
  rightKeys: number[];
  outputs: JoinColumn[];
}

/**
 * The joined frame's columns. Output columns: the left frame's columns, then the right frame's;
 * with coalesced keys the right keys are left out (a right join leaves out the left keys
 * instead, and its keys sit where the right frame has them); semi/anti keep the left columns
 * only. Right names that clash with a left output name get `suffix`. Shared by the eager join
 * and the lazy engine's plan.
 */
export function joinLayout(leftNames: readonly string[], rightNames: readonly string[], opts: unknown): JoinLayout {
  const o = resolve(opts);
  const left: FrameParts = { names: leftNames, columns: [], height: 0 };
  const right: FrameParts = { names: rightNames, columns: [], height: 0 };
  const lk = o.leftOn.map((n) => columnIndex(left, n));
  const rk = o.rightOn.map((n) => columnIndex(right, n));
  const keyed = o.how !== "cross" && o.how !== "semi" && o.how !== "anti";
  const coalesce = keyed && o.coalesce;
  const dropLeft = coalesce && o.how === "right" ? new Set(lk) : new Set<number>();
  const dropRight = coalesce && o.how !== "right" ? new Set(rk) : new Set<number>();
  // Key slots that take the coalesced key: (side, column index) -> key number.
  const keyAt = new Map<string, number>();
  if (coalesce) (o.how === "right" ? rk : lk).forEach((c, k) => keyAt.set(`${o.how === "right" ? "r" : "l"}${c}`, k));
  const outputs: JoinColumn[] = [];
  const place = (side: "l" | "r", i: number, name: string): JoinColumn => {
    const k = keyAt.get(`${side}${i}`);
    return k !== undefined ? { from: "key", index: k, name } : { from: side === "l" ? "left" : "right", index: i, name };
  };
  leftNames.forEach((n, i) => {
    if (!dropLeft.has(i)) outputs.push(place("l", i, n));
  });
  const leftOut = new Set(outputs.map((c) => c.name));
  if (o.how !== "semi" && o.how !== "anti") {
    rightNames.forEach((n, i) => {
      if (!dropRight.has(i)) outputs.push(place("r", i, leftOut.has(n) ? n + o.suffix : n));
    });
  }
  checkUniqueNames(
    outputs.map((c) => c.name),
    " in the join result (choose another `suffix`)",
  );
  return { options: { ...o, coalesce }, leftKeys: lk, rightKeys: rk, outputs };
}

/** The join's native codes: how and maintainOrder as the enum indices of ops/join/join.hpp. */
export function joinCodes(o: Resolved): { how: number; order: number } {
  return { how: HOW_CODES[o.how], order: ORDER_CODES[o.order] };
}

/** The joined frame's names and new handles (see joinLayout). */
export function joinFrames(left: FrameParts, right: FrameParts, opts: unknown): FrameResult {
  const layout = joinLayout(left.names, right.names, opts);
  const o = layout.options;
  const leftCols = layout.outputs.filter((c) => c.from === "left").map((c) => c.index);
  const rightCols = layout.outputs.filter((c) => c.from === "right").map((c) => c.index);
  ensureDevice();
  const out = native.join(
    layout.leftKeys.map((i) => left.columns[i] as ColumnHandle),
    layout.rightKeys.map((i) => right.columns[i] as ColumnHandle),
    leftCols.map((i) => left.columns[i] as ColumnHandle),
    rightCols.map((i) => right.columns[i] as ColumnHandle),
    left.height,
    right.height,
    HOW_CODES[o.how],
    o.nullsEqual,
    ORDER_CODES[o.order],
    o.coalesce,
  );
  let li = 0;
  let ri = 0;
  const columns = layout.outputs.map((c) =>
    (c.from === "key" ? out.keys[c.index] : c.from === "left" ? out.left[li++] : out.right[ri++]) as ColumnHandle,
  );
  return { names: layout.outputs.map((c) => c.name), columns };
}
