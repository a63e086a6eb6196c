/**
 * The one list of frame verbs. DataFrame (eager) and LazyFrame (a plan) both implement these
 * interfaces, so a verb added to one must be added to the other with the same arguments; the
 * test suite checks the two classes against VERBS at run time too.
 */
import type { Expr, LiteralValue } from "../expr.js";
import type { FillNullStrategy } from "../expr_fill.js";
import type { PivotOptions } from "./pivot.js";
import type { UnpivotOptions } from "./reshape.js";
import type { GroupByOptions, GroupKey } from "./groupby.js";
import type { JoinOptions } from "./join.js";
import type { DropItem, SelectItem } from "./select.js";
import type { SortBy, SortOptions, UniqueOptions } from "./sort.js";
import type { TopKBy } from "./top_k.js";

/** Verbs of a frame `F`, whose groupBy gives `G`, joining with `Other`. */
export interface FrameVerbs<F, G, Other> {
  select(...items: (SelectItem | readonly SelectItem[])[]): F;
  withColumns(...exprs: (Expr | readonly Expr[])[]): F;
  filter(predicate: Expr): F;
  dropNulls(...subset: (string | readonly string[])[]): F;
  fillNull(value: LiteralValue | Record<string, LiteralValue> | FillNullStrategy): F;
  drop(...names: (DropItem | readonly DropItem[])[]): F;
  rename(mapping: Record<string, string>): F;
  slice(offset: number, length?: number): F;
  head(n?: number): F;
  tail(n?: number): F;
  limit(n?: number): F;
  sort(by: SortBy, options?: SortOptions): F;
  topK(n: number, by: TopKBy): F;
  bottomK(n: number, by: TopKBy): F;
  unique(options?: UniqueOptions): F;
  join(other: Other, options?: JoinOptions): F;
  unpivot(options?: UnpivotOptions): F;
  melt(options?: UnpivotOptions): F;
  pivot(options: PivotOptions): F;
  groupBy(...args: [...(GroupKey | readonly GroupKey[])[], GroupByOptions] | (GroupKey | readonly GroupKey[])[]): G;
}

/** Verbs of a grouping whose results are frames `F`. */
export interface GroupVerbs<F> {
  agg(...exprs: (Expr | readonly Expr[])[]): F;
  sum(): F;
  mean(): F;
  min(): F;
  max(): F;
  count(): F;
  len(): F;
  head(n?: number): F;
  tail(n?: number): F;
  topK(n: number, by: TopKBy): F;
  bottomK(n: number, by: TopKBy): F;
}

/** Names of every FrameVerbs and GroupVerbs method, for the run-time check. */
export const VERBS = {
  frame: [
    "select", "withColumns", "filter", "dropNulls", "fillNull", "drop", "rename", "slice", "head", "tail", "limit",
    "sort", "topK", "bottomK", "unique", "join", "groupBy", "unpivot", "melt", "pivot",
  ],
  group: ["agg", "sum", "mean", "min", "max", "count", "len", "head", "tail", "topK", "bottomK"],
} as const;
