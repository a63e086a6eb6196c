/**
 * join: option resolution (on / leftOn + rightOn, how, suffix, nullsEqual, coalesce,
 * maintainOrder), output naming, and the one native call (native/bindings/join.cpp: key
 * promotion, hash join -> gather maps -> one gather per output column).
 */
import { ensureDevice } from "../device.js";
import { InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkUniqueNames, disposeOnError, type FrameParts, type FrameResult } from "./frame.js";
import { columnIndex } from "./select.js";

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
interface Resolved {
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

/**
 * The joined frame's names and new handles. Output columns: the left frame's columns, then the
 * right frame's; with coalesced keys the right keys are left out (a right join leaves out the
 * left keys instead, and its keys sit where the right frame has them); semi/anti keep the left
 * columns only. Right names that clash with a left output name get `suffix`.
 */
export function joinFrames(left: FrameParts, right: FrameParts, opts: unknown): FrameResult {
  const o = resolve(opts);
  const lk = o.leftOn.map((n) => columnIndex(left, n));
  const rk = o.rightOn.map((n) => columnIndex(right, n));
  const keyed = o.how !== "cross" && o.how !== "semi" && o.how !== "anti";
  const coalesce = keyed && o.coalesce;
  // Which columns of each side are gathered; with coalesce the kept side's keys are replaced.
  const dropLeft = coalesce && o.how === "right" ? new Set(lk) : new Set<number>();
  const dropRight = coalesce && o.how !== "right" ? new Set(rk) : new Set<number>();
  const leftCols = left.names.map((_, i) => i).filter((i) => !dropLeft.has(i));
  const rightCols = o.how === "semi" || o.how === "anti" ? [] : right.names.map((_, i) => i).filter((i) => !dropRight.has(i));
  // Key slots that take the coalesced key: (side, column index) -> key number.
  const keyAt = new Map<string, number>();
  if (coalesce) (o.how === "right" ? rk : lk).forEach((c, k) => keyAt.set(`${o.how === "right" ? "r" : "l"}${c}`, k));

  ensureDevice();
  const out = native.join(
    lk.map((i) => left.columns[i] as ColumnHandle),
    rk.map((i) => right.columns[i] as ColumnHandle),
    leftCols.filter((i) => !keyAt.has(`l${i}`)).map((i) => left.columns[i] as ColumnHandle),
    rightCols.filter((i) => !keyAt.has(`r${i}`)).map((i) => right.columns[i] as ColumnHandle),
    left.height,
    right.height,
    HOW_CODES[o.how],
    o.nullsEqual,
    ORDER_CODES[o.order],
    coalesce,
  );
  const made = [...out.keys, ...out.left, ...out.right];
  return disposeOnError(made, () => {
    const names: string[] = [];
    const columns: ColumnHandle[] = [];
    let li = 0;
    let ri = 0;
    const take = (side: "l" | "r", i: number): ColumnHandle => {
      const k = keyAt.get(`${side}${i}`);
      if (k !== undefined) return out.keys[k] as ColumnHandle;
      return (side === "l" ? out.left[li++] : out.right[ri++]) as ColumnHandle;
    };
    for (const i of leftCols) {
      names.push(left.names[i] as string);
      columns.push(take("l", i));
    }
    const leftNames = new Set(names);
    for (const i of rightCols) {
      const n = right.names[i] as string;
      names.push(leftNames.has(n) ? n + o.suffix : n);
      columns.push(take("r", i));
    }
    checkUniqueNames(names, " in the join result (choose another `suffix`)");
    return { names, columns };
  });
}
