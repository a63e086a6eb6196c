/**
 * Selector nodes (op "selector"), built without the Expr class so that `col` (src/expr.ts) and
 * the `cs` namespace (src/selectors.ts) share them; src/expr_expand.ts resolves them.
 */
import { DTYPES, type DType } from "./dtypes.js";
import { InvalidArgumentError } from "./errors.js";
import type { ExprNode } from "./expr.js";

/** The selector kinds (a selector node's `name`). */
export type SelectorKind =
  | "all" | "numeric" | "integer" | "float" | "string" | "temporal" | "boolean" | "byDtype" | "byName"
  | "startsWith" | "endsWith" | "contains" | "matches" | "first" | "last" | "or" | "and" | "sub" | "xor"
  | "nameOrDtype";

/** The dtypes each dtype-group selector matches. */
export const DTYPE_GROUPS: Readonly<Record<string, readonly DType[]>> = {
  integer: ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"],
  float: ["float32", "float64"],
  numeric: ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"],
  string: ["utf8", "large_utf8"],
  temporal: DTYPES.filter((d) => d === "date32" || d.startsWith("timestamp")),
  boolean: ["bool"],
};

/** A selector node. */
export function selectorNode(kind: SelectorKind, extra: Partial<ExprNode> = {}): ExprNode {
  return { op: "selector", args: [], name: kind, ...extra };
}

/** True for a col() name that is a regex: it starts with "^" and ends with "$" (as Polars). */
export function isRegexName(name: string): boolean {
  return name.length > 1 && name.startsWith("^") && name.endsWith("$");
}

/**
 * The selector of col()'s / exclude()'s arguments: names (a "^...$" name is a regex), dtypes,
 * or selector nodes. A dtype's name is the column of that name when the frame has one, else the
 * dtype. Plain names keep the order given (col("b", "a") is b then a).
 */
export function columnsNode(what: readonly (string | ExprNode)[]): ExprNode {
  if (what.length === 0) throw new InvalidArgumentError("col expects at least one column name");
  const parts = what.map((w): ExprNode => {
    if (typeof w !== "string") return w;
    if (isRegexName(w)) return selectorNode("matches", { list: [w] });
    if ((DTYPES as readonly string[]).includes(w)) return selectorNode("nameOrDtype", { list: [w] });
    return selectorNode("byName", { list: [w] });
  });
  if (parts.every((p) => p.name === "byName")) return selectorNode("byName", { list: parts.flatMap((p) => p.list ?? []) });
  return parts.reduce((acc, p) => selectorNode("or", { args: [acc, p] }));
}
