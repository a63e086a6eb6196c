/**
 * Column selectors (`cs`): expressions that stand for a set of a frame's columns, chosen by
 * name, pattern, dtype or position, and combined with set operations. A selector is an Expr
 * leaf (op "selector"); wherever expressions are expanded (src/expr_expand.ts) an expression
 * holding one becomes one expression per matching column, in frame order.
 * Rules: docs/semantics.md, "Column selectors".
 */
import { parseDType, typeIdOf, type DType } from "./dtypes.js";
import { InvalidArgumentError } from "./errors.js";
import { Expr, type ExprInput, type ExprNode } from "./expr.js";
import { columnsNode, selectorNode, type SelectorKind } from "./selector_nodes.js";

/**
 * A set of columns, used wherever an Expr is: `df.select(cs.numeric())`, `cs.numeric().sum()`.
 * `or`, `and`, `sub` and `xor` with another selector are set operations (union, intersection,
 * difference, symmetric difference); with anything else they are the Expr operations over
 * each selected column.
 *
 * @example
 * import { cs } from "gpudf";
 * df.select(cs.numeric().sub(cs.byName("id")).mul(2));   // every numeric column but id, doubled
 */
export class Selector extends Expr {
  /** @internal Use the `cs` functions. */
  constructor(node: ExprNode) {
    super(node);
  }

  #set(kind: "or" | "and" | "sub" | "xor", other: Selector): Selector {
    return new Selector(selectorNode(kind, { args: [this.node, other.node] }));
  }

  /** Union with a selector (else Kleene OR per column). @example cs.string().or(cs.boolean()) */
  override or(other: ExprInput): Expr {
    return other instanceof Selector ? this.#set("or", other) : super.or(other);
  }
  /** Intersection with a selector (else Kleene AND per column). @example cs.numeric().and(cs.startsWith("x")) */
  override and(other: ExprInput): Expr {
    return other instanceof Selector ? this.#set("and", other) : super.and(other);
  }
  /** Difference with a selector (else subtraction per column). @example cs.all().sub(cs.byName("id")) */
  override sub(other: ExprInput): Expr {
    return other instanceof Selector ? this.#set("sub", other) : super.sub(other);
  }
  /** Symmetric difference with a selector (else xor per column). @example cs.float().xor(cs.matches("^a")) */
  override xor(other: ExprInput): Expr {
    return other instanceof Selector ? this.#set("xor", other) : super.xor(other);
  }
  /** The selected columns as a plain expression (its `or`/`and`/... are the Expr ones). @example cs.boolean().asExpr().or(col("x")) */
  asExpr(): Expr {
    return new Expr(this.node);
  }
}

function strings(what: string, values: readonly unknown[], atLeastOne = true): string[] {
  const flat = values.flat() as unknown[];
  if (atLeastOne && flat.length === 0) throw new InvalidArgumentError(`${what} needs at least one string`);
  for (const v of flat) if (typeof v !== "string") throw new InvalidArgumentError(`${what} expects strings, got ${String(v)}`);
  return flat as string[];
}

/** Selector over names matching any of `texts` by `kind`. */
function byText(kind: "startsWith" | "endsWith" | "contains" | "matches", texts: readonly (string | readonly string[])[]): Selector {
  return new Selector(selectorNode(kind, { list: strings(`cs.${kind}`, texts) }));
}

/** The `cs` selectors (Polars' `polars.selectors`). */
export const cs = {
  /** Every column. @example df.select(cs.all().nullCount()) */
  all: (): Selector => new Selector(selectorNode("all")),
  /** Integer and float columns. @example df.select(cs.numeric().sum()) */
  numeric: (): Selector => new Selector(selectorNode("numeric")),
  /** Signed and unsigned integer columns. @example df.select(cs.integer()) */
  integer: (): Selector => new Selector(selectorNode("integer")),
  /** float32 and float64 columns. @example df.select(cs.float().round(2)) */
  float: (): Selector => new Selector(selectorNode("float")),
  /** utf8 and large_utf8 columns. @example df.select(cs.string().str.toUpperCase()) */
  string: (): Selector => new Selector(selectorNode("string")),
  /** date32 and timestamp columns. @example df.select(cs.temporal().dt.year()) */
  temporal: (): Selector => new Selector(selectorNode("temporal")),
  /** bool columns. @example df.filter(cs.boolean()) */
  boolean: (): Selector => new Selector(selectorNode("boolean")),
  /** Columns of any of the dtypes. @example df.select(cs.byDtype("int64", "float64")) */
  byDtype: (...dtypes: (DType | readonly DType[])[]): Selector =>
    new Selector(selectorNode("byDtype", { params: (dtypes.flat() as unknown[]).map((d) => typeIdOf(parseDType(d))) })),
  /**
   * The named columns, in the order given (a missing name is a ColumnNotFoundError).
   * @example df.select(cs.byName("b", "a"))
   */
  byName: (...names: (string | readonly string[])[]): Selector => new Selector(selectorNode("byName", { list: strings("cs.byName", names) })),
  /** Names starting with any of the prefixes. @example cs.startsWith("x_") */
  startsWith: (...prefixes: (string | readonly string[])[]): Selector => byText("startsWith", prefixes),
  /** Names ending with any of the suffixes. @example cs.endsWith("_id") */
  endsWith: (...suffixes: (string | readonly string[])[]): Selector => byText("endsWith", suffixes),
  /** Names containing any of the substrings (plain text). @example cs.contains("price") */
  contains: (...parts: (string | readonly string[])[]): Selector => byText("contains", parts),
  /** Names the regex (the engine's syntax, as str.contains) finds a match in. @example cs.matches("^v[0-9]+$") */
  matches: (pattern: string): Selector => byText("matches", [pattern]),
  /** The frame's first column. @example df.select(cs.first()) */
  first: (): Selector => new Selector(selectorNode("first")),
  /** The frame's last column. @example df.select(cs.last()) */
  last: (): Selector => new Selector(selectorNode("last")),
  /**
   * Every column but those named, matched (`"^...$"` regex names) or of the dtypes given, or
   * those a selector picks.
   * @example df.select(cs.exclude("id", "ts")); df.select(cs.exclude(cs.string()))
   */
  exclude: (...what: (string | DType | Selector | readonly (string | DType | Selector)[])[]): Selector => excludeSelector(what),
};

/** A selector of col()'s arguments (see columnsNode). */
export function columnsSelector(what: readonly unknown[]): Selector {
  for (const w of what) {
    if (typeof w !== "string" && !(w instanceof Selector)) throw new InvalidArgumentError(`expected a column name, dtype or selector, got ${String(w)}`);
  }
  return new Selector(columnsNode(what.map((w) => (w instanceof Selector ? w.node : (w as string)))));
}

function excludeSelector(what: readonly unknown[]): Selector {
  const flat = what.flat() as unknown[];
  if (flat.length === 0) return cs.all();
  return cs.all().sub(columnsSelector(flat)) as Selector;
}

/**
 * Every column. @example import { all } from "gpudf"; df.select(all().sum())
 */
export function all(): Selector {
  return cs.all();
}

/**
 * Every column but those named (`"^...$"`: a regex), or of the dtypes given.
 * @example import { exclude } from "gpudf"; df.select(exclude("id"))
 */
export function exclude(...names: (string | DType | readonly (string | DType)[])[]): Selector {
  return excludeSelector(names);
}
