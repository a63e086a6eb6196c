/**
 * Expressions as text, in the API's own spelling: `col("fare").mul(1.1).alias("usd")`. Used by
 * Expr.toString and by the lazy engine's plan printing (explain).
 */
import { dtypeOfId } from "./dtypes.js";
import type { ExprNode, LiteralValue } from "./expr.js";

function literalText(v: LiteralValue | undefined): string {
  if (v === undefined || v === null) return "null";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof Date) return `Date(${JSON.stringify(v.toISOString())})`;
  return String(v);
}

const INFIX: Record<string, string> = {
  add: "+", sub: "-", mul: "*", div: "/", floorDiv: "//", mod: "%", pow: "**",
  eq: "==", neq: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=", and: "&", or: "|", xor: "^",
};

/**
 * The most characters of one subtree's text: a tree that shares subtrees (`e.add(e)` repeated)
 * has exponentially long text, so each subtree's is cut here and every node is formatted once.
 */
const MAX_TEXT = 4000;

function capped(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

/** The expression as text. Binary operators print infix, parenthesised; the rest as methods. */
export function formatExpr(node: ExprNode, memo: Map<ExprNode, string> = new Map()): string {
  let text = memo.get(node);
  if (text === undefined) {
    text = capped(formatNode(node, memo));
    memo.set(node, text);
  }
  return text;
}

/** The regex string functions as written: options that differ from the defaults only. */
function formatRegex(node: ExprNode, recv: string): string {
  const p = node.params ?? [];
  const pat = literalText(node.value);
  const opts = (o: Record<string, unknown>): string => {
    const set = Object.entries(o).filter(([, v]) => v !== undefined);
    return set.length ? `, { ${set.map(([k, v]) => `${k}: ${String(v)}`).join(", ")} }` : "";
  };
  const literal = p[0] ? true : undefined;
  if (node.op === "str.extract") return `${recv}.str.extract(${pat}, ${p[0] ?? 1})`;
  if (node.op === "str.replace") {
    const all = p[1] === -1;
    const value = literalText(node.list?.[0] ?? "");
    return `${recv}.str.${all ? "replaceAll" : "replace"}(${pat}, ${value}${opts({ literal, n: !all && p[1] !== 1 ? p[1] : undefined })})`;
  }
  return `${recv}.${node.op}(${pat}${opts({ literal, strict: p[1] === 0 ? false : undefined })})`;
}

/** Rolling windows (src/expr_rolling.ts) as written: options that differ from the defaults only. */
function formatRolling(node: ExprNode, a: readonly string[]): string {
  const p = node.params ?? [];
  const list = node.list ?? [];
  const by = node.op.endsWith("By");
  const quantile = node.op.startsWith("rollingQuantile") ? `${String(list[0])}, ` : "";
  const interp = ["nearest", "linear", "lower", "higher", "midpoint"][p[by ? 7 : 4] ?? 0];
  const opts: string[] = [];
  if (by) {
    const [months = 0, secs = 0, nanos = 0, index = 0, minPeriods = 1, closed = 0, ddof = 1] = p;
    if (minPeriods !== 1) opts.push(`minPeriods: ${minPeriods}`);
    if (closed !== 0) opts.push(`closed: "${["right", "left", "both", "none"][closed]}"`);
    if (ddof !== 1) opts.push(`ddof: ${ddof}`);
    if (quantile && interp !== "nearest") opts.push(`interpolation: "${interp}"`);
    const span = index ? `${secs}i` : [months && `${months}mo`, secs && `${secs}s`, nanos && `${nanos}ns`].filter(Boolean).join("");
    return `${a[0]}.${node.op}(${a[1]}, ${quantile}"${span}"${opts.length ? `, { ${opts.join(", ")} }` : ""})`;
  }
  const [window = 1, minPeriods = window, center = 0, ddof = 1] = p;
  if (minPeriods !== window) opts.push(`minPeriods: ${minPeriods}`);
  if (center) opts.push("center: true");
  if (list.length > 1) opts.push(`weights: [${list.slice(1).map(String).join(", ")}]`);
  if (ddof !== 1) opts.push(`ddof: ${ddof}`);
  if (quantile && interp !== "nearest") opts.push(`interpolation: "${interp}"`);
  return `${a[0]}.${node.op}(${quantile}${window}${opts.length ? `, { ${opts.join(", ")} }` : ""})`;
}

function formatNode(node: ExprNode, memo: Map<ExprNode, string>): string {
  const a = node.args.map((arg) => formatExpr(arg, memo));
  if (node.op.startsWith("rolling")) return formatRolling(node, a);
  const recv = (): string => a[0] ?? "";
  switch (node.op) {
    case "col":
      return `col(${JSON.stringify(node.name)})`;
    case "lit":
      return node.dtype === undefined ? `lit(${literalText(node.value)})` : `lit(${literalText(node.value)}, "${dtypeOfId(node.dtype)}")`;
    case "alias":
      return `${recv()}.alias(${JSON.stringify(node.name)})`;
    case "cast":
      return `${recv()}.cast("${dtypeOfId(node.dtype as number)}")`;
    case "agg": {
      const kind = node.agg?.kind ?? "?";
      if (kind === "len" && a.length === 0) return "len()";
      if (kind === "corr" || kind === "cov") return `${kind}(${a.join(", ")})`;
      if (kind === "strJoin") {
        const opts = node.agg?.ignoreNulls === false ? ", { ignoreNulls: false }" : "";
        return `${recv()}.str.join(${JSON.stringify(node.agg?.sep ?? "")}${opts})`;
      }
      const extra = kind === "quantile" ? String(node.agg?.q) : (kind === "std" || kind === "var") && node.agg?.ddof !== 1 ? String(node.agg?.ddof) : "";
      return `${recv()}.${kind}(${extra})`;
    }
    case "when": {
      let out = "";
      for (let i = 0; i + 1 < a.length; i += 2) out += `${i === 0 ? "when" : ".when"}(${a[i]}).then(${a[i + 1]})`;
      return `${out}.otherwise(${a[a.length - 1]})`;
    }
    case "str.strptime":
      return `${recv()}.str.strptime("${dtypeOfId(node.dtype as number)}"${node.value === undefined ? "" : `, ${literalText(node.value)}`})`;
    case "dt.toString":
      return `${recv()}.dt.toString(${node.value === undefined ? "" : literalText(node.value)})`;
    case "dt.truncate":
    case "dt.round":
    case "dt.offsetBy": {
      const [months = 0, secs = 0, nanos = 0] = node.params ?? [];
      const neg = months < 0 || secs < 0 || nanos < 0;
      const parts = [months && `${Math.abs(months)}mo`, secs && `${Math.abs(secs)}s`, nanos && `${Math.abs(nanos)}ns`].filter(Boolean).join("");
      return `${recv()}.${node.op}("${neg ? "-" : ""}${parts || "0s"}")`;
    }
    case "forwardFill":
    case "backwardFill": {
      const limit = node.params?.[0] ?? -1;
      return `${recv()}.${node.op}(${limit < 0 ? "" : String(limit)})`;
    }
    case "concatStr":
      return `concatStr([${a.join(", ")}], ${literalText(node.value)}${node.params?.[0] ? ", ignoreNulls" : ""})`;
    case "format":
      return `format(${JSON.stringify((node.list ?? []).join("{}"))}, ${a.join(", ")})`;
    case "over": {
      const [nk, no] = [node.params?.[0] ?? 0, node.params?.[1] ?? 0];
      const keys = a.slice(1, 1 + nk);
      const order = a.slice(1 + nk, 1 + nk + no);
      const opts = order.length ? `, { orderBy: [${order.join(", ")}] }` : "";
      return `${recv()}.over([${keys.join(", ")}]${opts})`;
    }
    case "isIn":
      return `${recv()}.isIn([${(node.list ?? []).map(literalText).join(", ")}])`;
    case "selector": {
      const kind = node.name as string;
      if (["or", "and", "sub", "xor"].includes(kind)) return `${a[0]}.${kind}(${a[1]})`;
      if (kind === "byDtype") return `cs.byDtype(${(node.params ?? []).map((id) => JSON.stringify(dtypeOfId(id))).join(", ")})`;
      if (kind === "nameOrDtype") return `col([${literalText(node.list?.[0])}])`;
      return `cs.${kind}(${(node.list ?? []).map(literalText).join(", ")})`;
    }
    case "name":
      return `${recv()}.name.${node.name as string}(${node.name === "prefix" || node.name === "suffix" ? literalText(node.list?.[0]) : ""})`;
    case "sortBy": {
      const k = a.length - 1;
      const flags = (node.params ?? []).map((p) => p !== 0);
      const opts = [
        flags.slice(0, k).some(Boolean) ? `descending: [${flags.slice(0, k).join(", ")}]` : "",
        flags.slice(k).some((f) => !f) ? `nullsLast: [${flags.slice(k).join(", ")}]` : "",
      ].filter(Boolean);
      return `${recv()}.sortBy([${a.slice(1).join(", ")}]${opts.length ? `, { ${opts.join(", ")} }` : ""})`;
    }
    case "intRange": {
      const [start, end, step] = node.list ?? [];
      return `intRange(${literalText(start)}, ${node.params?.[0] === 1 ? "len()" : literalText(end)}, ${literalText(step)}, { dtype: "${dtypeOfId(node.dtype as number)}" })`;
    }
    case "str.contains":
    case "str.countMatches":
    case "str.find":
    case "str.extract":
    case "str.replace":
      return formatRegex(node, recv());
    default: {
      const infix = INFIX[node.op];
      if (infix !== undefined && a.length === 2) return `(${a[0]} ${infix} ${a[1]})`;
      const params = [...a.slice(1), ...(node.params ?? []).map(String), ...("value" in node && node.op.startsWith("str.") ? [literalText(node.value)] : [])];
      return `${recv()}.${node.op}(${params.join(", ")})`;
    }
  }
}
