/**
 * sort / argSort / unique: option resolution (defaults, single value vs per-key arrays) and the
 * native calls. Rows are never touched here; the work runs in native/ops/sort and ops/distinct.
 */
import { InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkOptions } from "../suggest.js";
import { Expr } from "../expr.js";
import { expandItems, type ExpandSchema } from "../expr_expand.js";
import type { FrameParts, FrameResult } from "./frame.js";
import { columnIndex } from "./select.js";

/** What sort orders by: a name, a selector (cs.*, col("^re$")), or an array of them. */
export type SortBy = string | Expr | readonly (string | Expr)[];

export { schemaOfHandles } from "../expr_expand.js";

/** Options of `DataFrame.sort` (a boolean applies to every key; an array gives one per key). */
export interface SortOptions {
  /** Largest first. Default false. */
  descending?: boolean | readonly boolean[];
  /** Nulls after the values (true, the default) or before them; independent of `descending`. */
  nullsLast?: boolean | readonly boolean[];
}

/** Options of `Series.sort` / `Series.argSort`. */
export interface SeriesSortOptions {
  descending?: boolean;
  nullsLast?: boolean;
}

/** Options of `DataFrame.unique`. */
export interface UniqueOptions {
  /** Columns that decide whether two rows are duplicates (default: every column). */
  subset?: string | readonly string[];
  /**
   * Which row of a group of duplicates to keep: "first", "last", "any" (default; currently the
   * first) or "none" (drop every row whose key occurs more than once).
   */
  keep?: "first" | "last" | "any" | "none";
  /** Keep the rows in their original order (default false: a deterministic key order). */
  maintainOrder?: boolean;
}

const KEEP_CODES = { first: 0, last: 1, any: 2, none: 3 } as const;

/** One boolean per key from a boolean or an array of `count` booleans. */
export function perKey(value: unknown, count: number, what: string, fallback: boolean): boolean[] {
  if (value === undefined) return new Array<boolean>(count).fill(fallback);
  if (typeof value === "boolean") return new Array<boolean>(count).fill(value);
  if (Array.isArray(value)) {
    if (value.length !== count) {
      throw new InvalidArgumentError(`${what} has ${value.length} entries but there are ${count} sort keys`);
    }
    if (!value.every((v) => typeof v === "boolean")) throw new InvalidArgumentError(`${what} must hold booleans`);
    return value as boolean[];
  }
  throw new InvalidArgumentError(`${what} must be a boolean or an array of booleans`);
}

/**
 * The key column names of `by` (a name or a non-empty array of names); given the frame's
 * schema, `"^...$"` names and selectors (cs.*, col("a", "b")) that select columns expand.
 */
export function sortKeyNames(by: unknown, schema?: ExpandSchema): string[] {
  let names = typeof by === "string" || by instanceof Expr ? [by] : Array.isArray(by) ? (by as unknown[]) : null;
  if (names !== null && schema !== undefined && names.every((n) => typeof n === "string" || n instanceof Expr)) {
    names = expandItems(names as (string | Expr)[], schema).map((n) => (n instanceof Expr && n.node.op === "col" ? (n.node.name as string) : n));
  }
  if (names === null || names.length === 0 || !names.every((n) => typeof n === "string")) {
    throw new InvalidArgumentError("sort `by` must be a column name or a non-empty array of names");
  }
  return names as string[];
}

function options(value: unknown, what: string, known: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object") throw new InvalidArgumentError(`${what} options must be an object`);
  checkOptions(what, value, known);
  return value as Record<string, unknown>;
}

/** The columns reordered by the keys (stable). */
export function sortColumns(columns: ColumnHandle[], keys: ColumnHandle[], opts: unknown): ColumnHandle[] {
  const o = options(opts, "sort", ["descending", "nullsLast"]);
  const descending = perKey(o.descending, keys.length, "descending", false);
  const nullsLast = perKey(o.nullsLast, keys.length, "nullsLast", true);
  return native.sortTable(columns, keys, descending, nullsLast);
}

/** The stable permutation (int64 row indices) that sorts one column. */
export function argSortColumn(column: ColumnHandle, opts: unknown): ColumnHandle {
  const o = options(opts, "argSort", ["descending", "nullsLast"]);
  return native.argSort([column], perKey(o.descending, 1, "descending", false), perKey(o.nullsLast, 1, "nullsLast", true));
}

/** Resolved unique() options: the subset names (undefined: all) and the native arguments. */
export function resolveUnique(opts: unknown): { subset: string[] | undefined; keep: number; maintainOrder: boolean } {
  const o = options(opts, "unique", ["subset", "keep", "maintainOrder"]);
  let subset: string[] | undefined;
  if (o.subset !== undefined) {
    subset = typeof o.subset === "string" ? [o.subset] : Array.isArray(o.subset) ? (o.subset as string[]) : undefined;
    if (subset === undefined || subset.length === 0 || !subset.every((n) => typeof n === "string")) {
      throw new InvalidArgumentError("unique `subset` must be a column name or a non-empty array of names");
    }
  }
  const keepName = o.keep ?? "any";
  if (typeof keepName !== "string" || !Object.hasOwn(KEEP_CODES, keepName)) {
    throw new InvalidArgumentError(`unique \`keep\` must be "first", "last", "any" or "none", got ${String(keepName)}`);
  }
  const maintainOrder = o.maintainOrder ?? false;
  if (typeof maintainOrder !== "boolean") throw new InvalidArgumentError("unique `maintainOrder` must be a boolean");
  return { subset, keep: KEEP_CODES[keepName as keyof typeof KEEP_CODES], maintainOrder };
}

/** unique(): the options resolved first, then the kept rows of the frame `parts` gives (`subset` decides duplicates). */
export function uniqueFrame(options: unknown, parts: () => FrameParts): FrameResult {
  const { subset, keep, maintainOrder } = resolveUnique(options);
  const frame = parts();
  if (frame.columns.length === 0) return { names: [], columns: [] };
  const keys = subset === undefined ? [...frame.columns] : subset.map((n) => frame.columns[columnIndex(frame, n)] as ColumnHandle);
  return { names: [...frame.names], columns: native.unique([...frame.columns], keys, keep, maintainOrder) };
}
