/**
 * Row-group pruning: whether a filter can match any row of a row group, judged from the
 * group's column statistics (min, max, null count). Comparisons of a column with a literal,
 * and/or, isNull/isNotNull and isIn are judged; anything else may match.
 */
import type { ExprNode } from "../expr.js";

/** One column's statistics in one row group (null: unknown). */
export interface ColumnStats {
  min: number | bigint | string | boolean | null;
  max: number | bigint | string | boolean | null;
  nullCount: number | null;
}

type Scalar = number | bigint | string | boolean;

/** a < b: -1, a == b: 0, a > b: 1; null when they cannot be compared. */
function compare(a: Scalar, b: Scalar): number | null {
  if (typeof a === "string" || typeof b === "string") {
    if (typeof a !== "string" || typeof b !== "string") return null;
    // Parquet orders strings by their UTF-8 bytes.
    return Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
  }
  if (typeof a === "boolean" || typeof b === "boolean") {
    if (typeof a !== "boolean" || typeof b !== "boolean") return null;
    return a === b ? 0 : a ? 1 : -1;
  }
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return null;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  // bigint against number: exactly, where the number is an integer.
  const num = (typeof a === "number" ? a : b) as number;
  if (!Number.isFinite(num)) return typeof a === "number" ? (num < 0 ? -1 : 1) : num < 0 ? 1 : -1;
  if (Number.isInteger(num)) {
    const x = typeof a === "bigint" ? a : BigInt(a as number);
    const y = typeof b === "bigint" ? b : BigInt(b as number);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const d = Number(typeof a === "bigint" ? a : b);
  if (d === num) return null; // too close to tell after rounding
  return typeof a === "bigint" ? (d < num ? -1 : 1) : num < d ? -1 : 1;
}

const FLIP: Record<string, string> = { lt: "gt", lte: "gte", gt: "lt", gte: "lte", eq: "eq", neq: "neq" };

function isScalar(v: unknown): v is Scalar {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "string" || typeof v === "boolean";
}

/**
 * False only when no row of a group of `rows` rows with these statistics can satisfy `node`.
 *
 * @example
 * mayMatch(col("x").gt(10).node, new Map([["x", { min: 0, max: 5, nullCount: 0 }]]), 100); // false
 */
export function mayMatch(node: ExprNode, stats: Map<string, ColumnStats>, rows: number): boolean {
  const colOf = (n: ExprNode | undefined): ColumnStats | undefined =>
    n !== undefined && n.op === "col" && n.name !== undefined ? stats.get(n.name) : undefined;
  const litOf = (n: ExprNode | undefined): Scalar | undefined =>
    n !== undefined && n.op === "lit" && isScalar(n.value) ? n.value : undefined;
  switch (node.op) {
    case "and":
      return mayMatch(node.args[0]!, stats, rows) && mayMatch(node.args[1]!, stats, rows);
    case "or":
      return mayMatch(node.args[0]!, stats, rows) || mayMatch(node.args[1]!, stats, rows);
    case "isNull": {
      const s = colOf(node.args[0]);
      return s === undefined || s.nullCount === null || s.nullCount > 0;
    }
    case "isNotNull": {
      const s = colOf(node.args[0]);
      return s === undefined || s.nullCount === null || s.nullCount < rows;
    }
    case "isIn": {
      const s = colOf(node.args[0]);
      if (s === undefined || node.list === undefined) return true;
      if (s.nullCount !== null && s.nullCount === rows) return false;
      if (s.min === null || s.max === null) return true;
      return node.list.some((v) => {
        if (!isScalar(v)) return v !== null; // null never matches; a Date is not judged
        const lo = compare(v, s.min as Scalar);
        const hi = compare(v, s.max as Scalar);
        return lo === null || hi === null || (lo >= 0 && hi <= 0);
      });
    }
    case "eq": case "neq": case "lt": case "lte": case "gt": case "gte": {
      let op: string = node.op;
      let s = colOf(node.args[0]);
      let v = litOf(node.args[1]);
      if (s === undefined || v === undefined) {
        s = colOf(node.args[1]);
        v = litOf(node.args[0]);
        op = FLIP[op]!;
      }
      if (s === undefined || v === undefined) return true;
      if (s.nullCount !== null && s.nullCount === rows && rows > 0) return false; // all null: no comparison holds
      if (s.min === null || s.max === null) return true;
      const vsMin = compare(v, s.min);
      const vsMax = compare(v, s.max);
      if (vsMin === null || vsMax === null) return true;
      switch (op) {
        case "eq": return vsMin >= 0 && vsMax <= 0;
        case "neq": return !(vsMin === 0 && vsMax === 0);
        case "lt": return vsMin > 0; // some value below v: min < v
        case "lte": return vsMin >= 0;
        case "gt": return vsMax < 0;
        case "gte": return vsMax <= 0;
      }
      return true;
    }
    default:
      return true;
  }
}

/** The column names an expression reads. */
export function columnsOf(node: ExprNode, out: Set<string> = new Set()): Set<string> {
  if (node.op === "col" && node.name !== undefined) out.add(node.name);
  for (const a of node.args) columnsOf(a, out);
  return out;
}
