/**
 * The grouping shortcuts (sum, mean, min, max, count, len) of GroupBy, WindowGroupBy,
 * LazyGroupBy and LazyWindowGroupBy: each is that class's `agg` over the expressions built here.
 */
import { valueKindOf, type DType } from "../dtypes.js";
import { col, len, type Expr } from "../expr.js";

/** A shortcut: one aggregation of every other column, or "len" (rows per group). */
export type ShortcutKind = "sum" | "mean" | "min" | "max" | "count" | "len";

/** The dtypes a shortcut's kind accepts (others are skipped by the shortcut). */
export function shortcutAccepts(kind: Exclude<ShortcutKind, "len">, dtype: DType): boolean {
  if (kind === "sum" || kind === "mean") return valueKindOf(dtype) === "number" || dtype === "bool";
  return true;
}

/**
 * The expressions of shortcut `kind`: "len" is `len()`; the others aggregate every column of
 * `schema` but the `skip` ones (the keys, and a window's index), leaving out the columns of
 * dtypes the kind does not accept, in schema order.
 */
export function shortcutExprs(
  kind: ShortcutKind,
  skip: readonly string[],
  schema: { readonly names: readonly string[]; readonly dtypes: readonly DType[] },
): Expr[] {
  if (kind === "len") return [len()];
  const skipped = new Set(skip);
  return schema.names.filter((n, i) => !skipped.has(n) && shortcutAccepts(kind, schema.dtypes[i] as DType)).map((n) => col(n)[kind]());
}
