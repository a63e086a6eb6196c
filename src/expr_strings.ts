/**
 * Expressions that build text from several values: concatStr and format. Strings name columns;
 * numbers, booleans and dates among the values are converted as `cast("utf8")` converts them.
 */
import { InvalidArgumentError } from "./errors.js";
import { columnOrExpr, Expr } from "./expr.js";

/**
 * The values of each row joined by `separator` (default ""). A null value makes the row null,
 * unless `ignoreNulls`: then the present values are joined (a row of nulls gives "").
 * Named after the first value.
 *
 * @example
 * df.select(concatStr(["first", "last"], { separator: " " }).alias("name"));
 * df.select(concatStr([col("city"), col("zip").cast("utf8")], { separator: "-", ignoreNulls: true }));
 */
export function concatStr(values: readonly (Expr | string)[], options: { separator?: string; ignoreNulls?: boolean } = {}): Expr {
  if (!Array.isArray(values) || values.length === 0) throw new InvalidArgumentError("concatStr expects at least one value");
  const separator = options.separator ?? "";
  if (typeof separator !== "string") throw new InvalidArgumentError("concatStr: separator must be a string");
  return new Expr({
    op: "concatStr",
    args: values.map((v) => columnOrExpr(v, "concatStr").node),
    value: separator,
    params: [options.ignoreNulls ? 1 : 0],
  });
}

/**
 * Text with each `{}` of `template` replaced by the next value, row by row (as Polars' format);
 * a null value makes the row null. `{{` and `}}` write a literal brace.
 *
 * @example
 * df.select(format("{} ({})", "name", col("age")).alias("label"));   // "Ada (36)"
 */
export function format(template: string, ...values: (Expr | string)[]): Expr {
  if (typeof template !== "string") throw new InvalidArgumentError("format expects a template string");
  const pieces: string[] = [];
  let cur = "";
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    const next = template[i + 1];
    if (c === "{" && next === "{") (cur += "{"), i++;
    else if (c === "}" && next === "}") (cur += "}"), i++;
    else if (c === "{" && next === "}") pieces.push(cur), (cur = ""), i++;
    else if (c === "{" || c === "}") throw new InvalidArgumentError(`format: a lone '${c}' at position ${i}; write {{ or }} for a brace`);
    else cur += c;
  }
  pieces.push(cur);
  if (pieces.length - 1 !== values.length) {
    throw new InvalidArgumentError(`format: the template has ${pieces.length - 1} placeholders but ${values.length} values were given`);
  }
  if (values.length === 0) throw new InvalidArgumentError("format expects at least one value");
  return new Expr({ op: "format", args: values.map((v) => columnOrExpr(v, "format").node), list: pieces });
}
