/**
 * Time-based grouping: `DataFrame.groupByDynamic` (windows every `every`, each `period` long)
 * and `DataFrame.rolling` (one window per row, looking back `period`). The windows are found
 * natively over the sorted index (native/ops/dynamic) as a row expansion, row ids and a window
 * id per row, which the groupBy aggregation runs over unchanged, so every aggregation Expr works
 * in `agg`. Rules: docs/semantics.md, "Dynamic and rolling groups".
 */
import { DataFrame, frameFromColumns, framePartsOf } from "./dataframe.js";
import { carryZones, dtypeOfHandle, instantsOf, localTimesOf, tagZone, zoneOfHandle } from "./zones.js";
import { localizeZones } from "./expr_zones.js";
import type { DType } from "./dtypes.js";
import { baseDType, dtypeOfId } from "./dtypes.js";
import { parseInterval } from "./duration.js";
import { DtypeError, InvalidArgumentError } from "./errors.js";
import { col, Expr } from "./expr.js";
import { native, type ColumnHandle } from "./native/addon.js";
import { checkUniqueNames, disposeOnError, share, type FrameParts, type FrameResult } from "./ops/frame.js";
import { aggregateOutputs, evaluateOver, planAggregations, type GroupKey } from "./ops/groupby.js";
import { shortcutExprs, type ShortcutKind } from "./ops/group_shortcuts.js";
import { columnIndex } from "./ops/select.js";
import { checkOptions } from "./suggest.js";

/** Which window ends hold their boundary value. */
export type ClosedWindow = "left" | "right" | "both" | "none";
/** What a dynamic window's index value is: its start, its end, or its first data point. */
export type WindowLabel = "left" | "right" | "datapoint";

/** Options of `DataFrame.groupByDynamic`. */
export interface DynamicGroupByOptions {
  /** Windows start this often ("1h", "1d", "1w", "1mo", "2i" for an integer index). */
  every: string;
  /** Each window's length (default `every`). */
  period?: string | undefined;
  /** Shifts the window starts (default 0; may be negative, e.g. "-1h"). */
  offset?: string | undefined;
  /** Default "left": [start, end). */
  closed?: ClosedWindow | undefined;
  /** Default "left": the index column holds the window's start. */
  label?: WindowLabel | undefined;
  /** Adds `_lower_boundary` and `_upper_boundary` columns (default false). */
  includeBoundaries?: boolean | undefined;
  /** Windows per group of these keys (the index sorted within each group). */
  groupBy?: GroupKey | readonly GroupKey[] | undefined;
  /**
   * "window" (default): the first window starts at the first value truncated to `every`;
   * "datapoint": at the first value; a weekday ("monday" ... "sunday"): at 00:00 of that weekday
   * in the first value's week, moved back by whole `every`s until the first value is not before
   * it (with "1w": the weekday on or before it). A weekday needs a date or timestamp index and
   * `every` in fixed units.
   */
  startBy?: StartBy | undefined;
}

/** Where groupByDynamic's first window starts. */
export type StartBy = "window" | "datapoint" | Weekday;
/** A day of the week, as groupByDynamic's `startBy` takes it. */
export type Weekday = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

const WEEKDAYS: readonly Weekday[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** Options of `DataFrame.rolling`. */
export interface RollingGroupOptions {
  /** Each window's length ("10m", "3d", "1mo", "5i"). */
  period: string;
  /** Window i starts at t_i + offset (default -period: the window ends at t_i). */
  offset?: string | undefined;
  /** Default "right": (t_i + offset, t_i + offset + period]. */
  closed?: ClosedWindow | undefined;
  /** Windows per group of these keys (the index sorted within each group). */
  groupBy?: GroupKey | readonly GroupKey[] | undefined;
}

/** The resolved windowing: everything native needs, plus the output's shape. */
export interface Windowing {
  readonly kind: "dynamic" | "rolling";
  readonly fn: string;
  readonly index: string;
  readonly keys: readonly GroupKey[];
  readonly spec: NativeWindowSpec;
  readonly label: WindowLabel;
  readonly includeBoundaries: boolean;
}

/** native.dynamicWindows / rollingWindows' spec (native/bindings/dynamic.cpp). */
export interface NativeWindowSpec {
  everyMonths: number;
  everyTicks: bigint;
  periodMonths: number;
  periodTicks: bigint;
  offsetMonths: number;
  offsetTicks: bigint;
  closed: number;
  align: number;
  /** 0 = Monday ... 6 = Sunday: the first window's weekday when `align` is 4 (else 0). */
  weekday: number;
  ticksPerDay: bigint;
}

const CLOSED: Record<ClosedWindow, number> = { left: 0, right: 1, both: 2, none: 3 };
const UNIT_NS: Partial<Record<DType, bigint>> = {
  date32: 86_400_000_000_000n, "timestamp[s]": 1_000_000_000n, "timestamp[ms]": 1_000_000n, "timestamp[us]": 1000n, "timestamp[ns]": 1n,
};
const INTEGER_INDEX: readonly DType[] = ["int32", "int64"];

interface Span {
  months: number;
  ticks: bigint;
  weeksOnly: boolean;
}

/** A duration in the index's units: "3i" for an integer index, Polars' duration strings otherwise. */
function spanOf(text: unknown, what: string, fn: string, dtype: DType): Span {
  const unit = UNIT_NS[baseDType(dtype)];
  if (unit === undefined) {
    const m = typeof text === "string" ? /^(-?)(\d+)i$/.exec(text) : null;
    if (m === null) throw new InvalidArgumentError(`${fn}: \`${what}\` for an integer index is a count of index units such as "3i", got ${JSON.stringify(text)}`);
    return { months: 0, ticks: BigInt(m[2] as string) * (m[1] ? -1n : 1n), weeksOnly: false };
  }
  if (typeof text === "string" && /i$/.test(text)) throw new InvalidArgumentError(`${fn}: \`${what}\` "${text}" counts index units, which only an integer index takes`);
  const iv = parseInterval(text, `${fn} \`${what}\``);
  const ns = BigInt(iv.seconds) * 1_000_000_000n + BigInt(iv.nanos);
  if (ns % unit !== 0n) throw new InvalidArgumentError(`${fn}: \`${what}\` "${String(text)}" is finer than the ${dtype} index's unit`);
  return { months: iv.months, ticks: ns / unit, weeksOnly: /^(\d+w)+$/.test(text as string) };
}

const positive = (s: Span): boolean => s.months >= 0 && s.ticks >= 0n && (s.months > 0 || s.ticks > 0n);

function closedOf(v: unknown, fn: string, fallback: ClosedWindow): ClosedWindow {
  const c = v ?? fallback;
  if (typeof c !== "string" || !(c in CLOSED)) throw new InvalidArgumentError(`${fn}: \`closed\` must be "left", "right", "both" or "none", got ${String(c)}`);
  return c as ClosedWindow;
}

function keysOf(v: unknown, fn: string): GroupKey[] {
  if (v === undefined) return [];
  const keys = (Array.isArray(v) ? v : [v]) as unknown[];
  for (const k of keys) {
    if (typeof k !== "string" && !(k instanceof Expr)) throw new InvalidArgumentError(`${fn}: \`groupBy\` takes column names or expressions, got ${String(k)}`);
  }
  return keys as GroupKey[];
}

function indexDtype(dtype: DType, index: string, fn: string): void {
  if (UNIT_NS[baseDType(dtype)] === undefined && !INTEGER_INDEX.includes(dtype)) {
    throw new DtypeError(`${fn}: the index column "${index}" must be int32, int64, date32 or a timestamp, not ${dtype}`);
  }
}

const ticksPerDay = (dtype: DType): bigint => (UNIT_NS[baseDType(dtype)] === undefined ? 0n : 86_400_000_000_000n / (UNIT_NS[baseDType(dtype)] as bigint));

/**
 * native's Align (dynamic.hpp) for `startBy`: 0 fixed truncation, 1 weeks from a Monday, 2 month
 * starts, 3 the first value, 4 a weekday (with `weekday` 0 = Monday ... 6 = Sunday).
 */
function alignOf(startBy: unknown, every: Span, dtype: DType, fn: string): { align: number; weekday: number } {
  const s = startBy ?? "window";
  if (s === "window") return { align: every.months > 0 ? 2 : every.weeksOnly ? 1 : 0, weekday: 0 };
  if (s === "datapoint") return { align: 3, weekday: 0 };
  const weekday = WEEKDAYS.indexOf(s as Weekday);
  if (weekday < 0) throw new InvalidArgumentError(`${fn}: \`startBy\` must be "window", "datapoint" or a weekday ("monday" ... "sunday"), got ${String(s)}`);
  if (UNIT_NS[baseDType(dtype)] === undefined) throw new InvalidArgumentError(`${fn}: \`startBy: "${s}"\` needs a date or timestamp index, not ${dtype}`);
  // Window k starts k * every after the anchor: k months from a weekday late in a month clamp to
  // different days of the month, leaving gaps between windows.
  if (every.months > 0) throw new InvalidArgumentError(`${fn}: \`startBy: "${s}"\` takes \`every\` in fixed units such as "1w", not calendar months`);
  return { align: 4, weekday };
}

/** groupByDynamic's options resolved against the index's dtype. */
export function resolveDynamic(index: unknown, dtypeOf: (name: string) => DType, options: unknown): Windowing {
  const fn = "groupByDynamic";
  if (typeof index !== "string") throw new InvalidArgumentError(`${fn}: the index column must be a column name`);
  if (options === null || typeof options !== "object") throw new InvalidArgumentError(`${fn}: options with \`every\` are required`);
  checkOptions(fn, options, ["every", "period", "offset", "closed", "label", "includeBoundaries", "groupBy", "startBy"]);
  const o = options as DynamicGroupByOptions;
  const dtype = dtypeOf(index);
  indexDtype(dtype, index, fn);
  const every = spanOf(o.every, "every", fn, dtype);
  const period = o.period === undefined ? every : spanOf(o.period, "period", fn, dtype);
  const offset = o.offset === undefined ? { months: 0, ticks: 0n, weeksOnly: false } : spanOf(o.offset, "offset", fn, dtype);
  if (!positive(every) || !positive(period)) throw new InvalidArgumentError(`${fn}: \`every\` and \`period\` must be positive durations`);
  if (every.months > 0 && every.ticks > 0n) throw new InvalidArgumentError(`${fn}: \`every\` may not mix calendar months with fixed units ("${o.every}")`);
  const label = o.label ?? "left";
  if (label !== "left" && label !== "right" && label !== "datapoint") throw new InvalidArgumentError(`${fn}: \`label\` must be "left", "right" or "datapoint", got ${String(label)}`);
  const includeBoundaries = o.includeBoundaries ?? false;
  if (typeof includeBoundaries !== "boolean") throw new InvalidArgumentError(`${fn}: \`includeBoundaries\` must be a boolean`);
  const { align, weekday } = alignOf(o.startBy, every, dtype, fn);
  return {
    kind: "dynamic", fn, index, keys: keysOf(o.groupBy, fn), label, includeBoundaries,
    spec: {
      everyMonths: every.months, everyTicks: every.ticks, periodMonths: period.months, periodTicks: period.ticks,
      offsetMonths: offset.months, offsetTicks: offset.ticks, closed: CLOSED[closedOf(o.closed, fn, "left")], align, weekday,
      ticksPerDay: ticksPerDay(dtype),
    },
  };
}

/** rolling's options resolved against the index's dtype. */
export function resolveRolling(index: unknown, dtypeOf: (name: string) => DType, options: unknown): Windowing {
  const fn = "rolling";
  if (typeof index !== "string") throw new InvalidArgumentError(`${fn}: the index column must be a column name`);
  if (options === null || typeof options !== "object") throw new InvalidArgumentError(`${fn}: options with \`period\` are required`);
  checkOptions(fn, options, ["period", "offset", "closed", "groupBy"]);
  const o = options as RollingGroupOptions;
  const dtype = dtypeOf(index);
  indexDtype(dtype, index, fn);
  const period = spanOf(o.period, "period", fn, dtype);
  if (!positive(period)) throw new InvalidArgumentError(`${fn}: \`period\` must be a positive duration`);
  const offset = o.offset === undefined ? { months: -period.months, ticks: -period.ticks } : spanOf(o.offset, "offset", fn, dtype);
  return {
    kind: "rolling", fn, index, keys: keysOf(o.groupBy, fn), label: "left", includeBoundaries: false,
    spec: {
      everyMonths: 0, everyTicks: 0n, periodMonths: period.months, periodTicks: period.ticks, offsetMonths: offset.months,
      offsetTicks: offset.ticks, closed: CLOSED[closedOf(o.closed, fn, "right")], align: 0, weekday: 0, ticksPerDay: ticksPerDay(dtype),
    },
  };
}

/** Key names, in order. */
export function keyNames(w: Windowing): string[] {
  return w.keys.map((k) => (typeof k === "string" ? k : k.outputName));
}

/** The output's leading column names: keys, boundaries (when asked), the index. */
export function leadingNames(w: Windowing): string[] {
  return [...keyNames(w), ...(w.includeBoundaries ? ["_lower_boundary", "_upper_boundary"] : []), w.index];
}

/** The windows' aggregates over `frame` (borrowed): keys, boundaries, index, then one column per expression. */
export function windowAggregate(frame: FrameParts, w: Windowing, exprs: readonly Expr[]): FrameResult {
  // Zones are resolved over the whole expressions, before they are split into slots.
  const schema = { names: frame.names, dtypes: frame.columns.map(dtypeOfHandle) };
  const zoned = exprs.map((e) => ({ outputName: e.outputName, ...localizeZones(e.node, schema) }));
  const plan = planAggregations(zoned);
  const names = [...leadingNames(w), ...plan.outputs.map((o) => o.name)];
  checkUniqueNames(names, "; use alias()");
  const n = frame.height;
  const given = frame.columns[columnIndex(frame, w.index)] as ColumnHandle;
  const temps: ColumnHandle[] = [];
  const keep = <T extends ColumnHandle | ColumnHandle[]>(h: T): T => {
    temps.push(...(Array.isArray(h) ? h : [h]));
    return h;
  };
  // A zoned index: the windows are laid out in its local time, and their bounds turned back into
  // instants of the zone; the index values themselves stay the given instants.
  const zone = zoneOfHandle(given);
  const local = zone !== undefined && zone !== "UTC";
  const bound = (h: ColumnHandle): ColumnHandle => (local ? instantsOf(h, zone) : share(h));
  try {
    const index = local ? keep(localTimesOf(given, zone)) : given;
    const keys = keep(w.keys.map((k) => evaluateOver(frame, typeof k === "string" ? col(k).node : k.node)));
    let perm: ColumnHandle | undefined, sortedIndex: ColumnHandle, segments: ColumnHandle | null = null;
    let sortedKeys: ColumnHandle[] = [];
    let sortedGiven = given;
    if (keys.length > 0) {
      perm = keep(native.argSort(keys, keys.map(() => false), keys.map(() => true)));
      sortedKeys = keep(native.take(keys, perm, n));
      sortedIndex = keep(native.take([index], perm, n)[0] as ColumnHandle);
      if (local) sortedGiven = keep(native.take([given], perm, n)[0] as ColumnHandle);
      const g = native.groupRows(sortedKeys, false, true);
      keep([g.groups, g.firstRows]);
      segments = g.groups;
    } else {
      sortedIndex = keep(share(index));
    }
    const d = w.kind === "dynamic" ? native.dynamicWindows(sortedIndex, segments, w.spec) : undefined;
    const r = d ?? native.rollingWindows(sortedIndex, segments, w.spec);
    keep([r.windows, ...(r.rows ? [r.rows] : []), ...(d ? [d.lower, d.upper, d.firstRow] : [])]);
    // rows null: the windows read the (sorted) rows in place.
    const rows = r.rows === null ? perm : perm ? keep(native.take([perm], r.rows, n)[0] as ColumnHandle) : r.rows;
    const out: ColumnHandle[] = [];
    return disposeOnError(out, () => {
      if (d) {
        out.push(...native.take(sortedKeys, d.firstRow, n));
        if (w.includeBoundaries) out.push(bound(d.lower), bound(d.upper));
        out.push(w.label === "left" ? bound(d.lower) : w.label === "right" ? bound(d.upper) : (native.take([local ? sortedGiven : sortedIndex], d.firstRow, n)[0] as ColumnHandle));
      } else {
        out.push(...sortedKeys.map(share), share(local ? sortedGiven : sortedIndex));
      }
      out.push(...aggregateOutputs(frame, plan, r.windows, r.count, rows).map((h, i) => tagZone(h, zoned[i]?.zone)));
      return { names, columns: out };
    });
  } finally {
    for (const h of temps) h.dispose();
  }
}

/**
 * A frame's rows in time windows; `agg` (or a shortcut) turns each window into one row. Made by
 * `DataFrame.groupByDynamic` and `DataFrame.rolling`; it holds the frame, not a copy.
 *
 * @example
 * df.groupByDynamic("time", { every: "1h" }).agg(col("v").mean());
 */
export class WindowGroupBy {
  readonly #frame: DataFrame;
  readonly #windowing: Windowing;

  /** @internal Use DataFrame.groupByDynamic or DataFrame.rolling. */
  constructor(frame: DataFrame, windowing: Windowing) {
    this.#frame = frame;
    this.#windowing = windowing;
  }

  /**
   * One row per window: the groupBy keys, the boundaries (when asked), the index column, then
   * one column per expression (any aggregation, or an expression over aggregations).
   *
   * @example
   * df.rolling("time", { period: "2d" }).agg(col("v").sum().alias("sum_2d"), len());
   */
  agg(...exprs: (Expr | readonly Expr[])[]): DataFrame {
    const flat = exprs.flat() as unknown[];
    for (const e of flat) if (!(e instanceof Expr)) throw new InvalidArgumentError(`${this.#windowing.fn}().agg expects expressions`);
    const p = framePartsOf(this.#frame);
    const r = windowAggregate({ names: p.names, columns: p.handles, height: p.height }, this.#windowing, flat as Expr[]);
    // The keys and the index keep their zones; the boundaries take the index's.
    const index = p.handles[p.names.indexOf(this.#windowing.index)] as ColumnHandle;
    carryZones({ names: p.names, columns: p.handles }, r, new Map([["_lower_boundary", index], ["_upper_boundary", index]]));
    return frameFromColumns(r.names, r.columns);
  }

  /** The shortcut `kind` over every column but the keys and the index (see shortcutExprs). */
  #shortcut(kind: ShortcutKind): DataFrame {
    const schema = { names: this.#frame.columns, dtypes: this.#frame.dtypes };
    return this.agg(shortcutExprs(kind, [...keyNames(this.#windowing), this.#windowing.index], schema));
  }

  /** The sum of every other numeric or bool column per window. @example df.rolling("t", { period: "1h" }).sum() */
  sum(): DataFrame {
    return this.#shortcut("sum");
  }
  /** The mean of every other numeric or bool column per window. @example df.groupByDynamic("t", { every: "1d" }).mean() */
  mean(): DataFrame {
    return this.#shortcut("mean");
  }
  /** The smallest value of every other column per window. @example df.groupByDynamic("t", { every: "1d" }).min() */
  min(): DataFrame {
    return this.#shortcut("min");
  }
  /** The largest value of every other column per window. @example df.groupByDynamic("t", { every: "1d" }).max() */
  max(): DataFrame {
    return this.#shortcut("max");
  }
  /** Non-null values of every other column per window. @example df.groupByDynamic("t", { every: "1d" }).count() */
  count(): DataFrame {
    return this.#shortcut("count");
  }
  /** Rows per window, as "len". @example df.groupByDynamic("t", { every: "1d" }).len() */
  len(): DataFrame {
    return this.#shortcut("len");
  }
}

declare module "./dataframe.js" {
  interface DataFrame {
    /**
     * Rows grouped into time windows of the sorted `indexColumn` (date, timestamp, int32 or
     * int64): a window starts every `every`, lasts `period`; empty windows are left out. Rules:
     * docs/semantics.md, "Dynamic and rolling groups".
     *
     * @example
     * df.groupByDynamic("time", { every: "1h", period: "2h", closed: "right", groupBy: "id" }).agg(col("v").sum());
     */
    groupByDynamic(indexColumn: string, options: DynamicGroupByOptions): WindowGroupBy;
    /**
     * One window per row of the sorted `indexColumn`, (t + offset, t + offset + period] by
     * default looking back `period` from the row: the output has one row per input row.
     *
     * @example
     * df.rolling("time", { period: "7d" }).agg(col("v").mean().alias("mean_7d"));
     */
    rolling(indexColumn: string, options: RollingGroupOptions): WindowGroupBy;
  }
}

function dtypeLookup(df: DataFrame): (name: string) => DType {
  return (name) => {
    const p = framePartsOf(df);
    const i = columnIndex({ names: p.names, columns: p.handles, height: p.height }, name);
    return dtypeOfId((p.handles[i] as ColumnHandle).typeId);
  };
}

Object.defineProperty(DataFrame.prototype, "groupByDynamic", {
  value: function (this: DataFrame, indexColumn: string, options: DynamicGroupByOptions): WindowGroupBy {
    return new WindowGroupBy(this, resolveDynamic(indexColumn, dtypeLookup(this), options));
  },
  writable: true,
  configurable: true,
});

Object.defineProperty(DataFrame.prototype, "rolling", {
  value: function (this: DataFrame, indexColumn: string, options: RollingGroupOptions): WindowGroupBy {
    return new WindowGroupBy(this, resolveRolling(indexColumn, dtypeLookup(this), options));
  },
  writable: true,
  configurable: true,
});
