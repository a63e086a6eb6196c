/**
 * Time zones in expressions. A zoned timestamp is UTC instants plus a zone (src/zones.ts); the
 * native compiler knows no zones, so before an expression is serialized `localizeZones` rewrites
 * the parts that read or set local time into the two native ops that take a zone:
 *
 * - `dt.toLocal(x, Z)`: each instant as Z's local wall-clock time (a plain timestamp);
 * - `dt.fromLocal(x, Z, ambiguous, nonExistent)`: local wall-clock times back to instants.
 *
 * Fields and formatting of a zoned value (year ... second, weekday, week, toString, a cast to
 * date32 or utf8) read its local time; truncate, round, monthStart / monthEnd and the calendar
 * part of offsetBy work in local time and return instants (an ambiguous result takes the earlier
 * instant, one in a gap the first instant after it); everything else works on the instants.
 * `convertTimeZone` only changes the zone; `replaceTimeZone` keeps the local time and changes the
 * instant. It also infers each result's zone: a cast or parse to a zoned dtype sets it, and any
 * other op returning a timestamp takes the zone of its first timestamp argument that has one.
 */
import { dtypeOfId, parseDType, timeZoneOf, typeIdOf, type DType } from "./dtypes.js";
import { ensureDevice } from "./device.js";
import { DtypeError, InvalidArgumentError } from "./errors.js";
import type { ExprNode } from "./expr.js";
import { serializeExpr } from "./expr_node.js";
import { native } from "./native/addon.js";

/** Ambiguous local times: the codes of dt.fromLocal's first param. */
export const AMBIGUOUS = { raise: 0, earliest: 1, latest: 2, null: 3 } as const;
/** Local times in a gap: the codes of dt.fromLocal's second param. */
export const NON_EXISTENT = { raise: 0, null: 1, shiftForward: 2, shiftBackward: 3 } as const;

/** What a rewritten expression is evaluated against: names and dtypes (zones included). */
export interface ZoneSchema {
  readonly names: readonly string[];
  readonly dtypes: readonly DType[];
}

const FIELDS = new Set([
  "dt.year", "dt.month", "dt.day", "dt.hour", "dt.minute", "dt.second", "dt.weekday", "dt.quarter",
  "dt.week", "dt.isoYear", "dt.ordinalDay", "dt.toString",
]);
const ROUND_TRIPS = new Set(["dt.truncate", "dt.round", "dt.monthStart", "dt.monthEnd"]);
const DATE32 = typeIdOf("date32");
const UTF8 = typeIdOf("utf8");
const LARGE_UTF8 = typeIdOf("large_utf8");

const toLocal = (x: ExprNode, zone: string): ExprNode => ({ op: "dt.toLocal", args: [x], value: zone });
const fromLocal = (x: ExprNode, zone: string, ambiguous: number, nonExistent: number): ExprNode => ({
  op: "dt.fromLocal", args: [x], value: zone, params: [ambiguous, nonExistent],
});

const literal = (value: string | number): ExprNode => ({ op: "lit", args: [], value });
const binary = (op: string, a: ExprNode, b: ExprNode): ExprNode => ({ op, args: [a, b] });
const twoDigits = (n: ExprNode): ExprNode => ({ op: "str.zfill", args: [{ op: "cast", args: [n], dtype: UTF8 }], params: [2] });

/**
 * dt.toString of a zoned `x` by a format with `%z` / `%:z` (the row's UTC offset, "+0200" /
 * "+02:00"): the format's other pieces format the local time, and the offset is the local time
 * minus the instant. Undefined when the format has neither. `%Z` (an abbreviation) is refused.
 */
function formatZoned(x: ExprNode, zone: string, format: string): ExprNode | undefined {
  const pieces: (string | { colon: boolean })[] = [];
  let text = "";
  for (let i = 0; i < format.length; i++) {
    const rest = format.slice(i);
    if (rest.startsWith("%%")) {
      text += "%%";
      i++;
    } else if (rest.startsWith("%z") || rest.startsWith("%:z")) {
      if (text !== "") pieces.push(text);
      text = "";
      pieces.push({ colon: rest.startsWith("%:z") });
      i += rest.startsWith("%z") ? 1 : 2;
    } else if (rest.startsWith("%Z")) {
      throw new InvalidArgumentError("dt.toString: %Z (the zone's abbreviation) is not supported on a zoned timestamp; use %z for the offset");
    } else {
      text += format[i];
    }
  }
  if (text !== "") pieces.push(text);
  if (!pieces.some((p) => typeof p !== "string")) return undefined;
  const local = toLocal(x, zone);
  const secs: ExprNode = { op: "dt.totalSeconds", args: [binary("sub", local, x)] };
  const abs: ExprNode = { op: "abs", args: [secs] };
  const sign: ExprNode = { op: "when", args: [binary("lt", secs, literal(0)), literal("-"), literal("+")] };
  const hours = twoDigits(binary("floorDiv", abs, literal(3600)));
  const minutes = twoDigits(binary("floorDiv", binary("mod", abs, literal(3600)), literal(60)));
  const args = pieces.map((p): ExprNode => {
    if (typeof p === "string") return { op: "dt.toString", args: [local], value: p };
    const offset = p.colon ? [sign, hours, literal(":"), minutes] : [sign, hours, minutes];
    return { op: "concatStr", args: offset, value: "", params: [0] };
  });
  return args.length === 1 ? (args[0] as ExprNode) : { op: "concatStr", args, value: "", params: [0] };
}

function withoutZone(n: ExprNode): ExprNode {
  const { zone: _zone, ...rest } = n;
  return rest;
}

/** True when no node of the tree can involve a zone (then nothing is rewritten). */
function zoneFree(node: ExprNode, schema: ZoneSchema): boolean {
  const seen = new Set<ExprNode>();
  const free = (n: ExprNode): boolean => {
    if (seen.has(n)) return true;
    seen.add(n);
    if (n.op === "dt.convertTimeZone" || n.op === "dt.replaceTimeZone" || n.zone !== undefined) return false;
    if (n.op === "col") {
      const i = schema.names.indexOf(n.name as string);
      if (i >= 0 && timeZoneOf(schema.dtypes[i] as DType) !== undefined) return false;
    }
    return n.args.every(free);
  };
  return free(node);
}

/**
 * `node` with its zone-dependent parts rewritten for the native compiler, and the zone of its
 * result (undefined: none, or not a timestamp).
 */
export function localizeZones(node: ExprNode, schema: ZoneSchema): { node: ExprNode; zone: string | undefined } {
  if (zoneFree(node, schema)) return { node, zone: undefined };
  const names = [...schema.names];
  const ids = schema.dtypes.map((d) => typeIdOf(d));
  const typeMemo = new Map<ExprNode, number | undefined>();
  // The native type of a rewritten node (undefined where typing fails: the error is raised when
  // the whole expression is compiled).
  const typeOf = (n: ExprNode): number | undefined => {
    if (typeMemo.has(n)) return typeMemo.get(n);
    let t: number | undefined;
    try {
      t = native.exprType(serializeExpr(n), names, ids);
    } catch {
      t = undefined;
    }
    typeMemo.set(n, t);
    return t;
  };
  const isTimestamp = (n: ExprNode): boolean => {
    const t = typeOf(n);
    return t !== undefined && dtypeOfId(t).startsWith("timestamp[");
  };
  const memo = new Map<ExprNode, { node: ExprNode; zone: string | undefined }>();
  const visit = (n: ExprNode): { node: ExprNode; zone: string | undefined } => {
    const seen = memo.get(n);
    if (seen !== undefined) return seen;
    const args = n.args.map(visit);
    const rebuilt: ExprNode = args.every((a, i) => a.node === n.args[i]) ? n : { ...n, args: args.map((a) => a.node) };
    const out = rewriteOne(rebuilt, args.map((a) => a.zone), schema, isTimestamp);
    memo.set(n, out);
    return out;
  };
  return visit(node);
}

function rewriteOne(
  n: ExprNode,
  argZones: (string | undefined)[],
  schema: ZoneSchema,
  isTimestamp: (n: ExprNode) => boolean,
): { node: ExprNode; zone: string | undefined } {
  const x = n.args[0] as ExprNode;
  const z = argZones[0];
  const local = z !== undefined && z !== "UTC";
  switch (n.op) {
    case "lit":
      return { node: n, zone: n.zone };
    // Already rewritten (a plan's expressions are rewritten once more after the optimizer moves
    // them): a local time has no zone unless it stands for a convertTimeZone.
    case "dt.toLocal":
      return { node: n, zone: n.zone };
    case "dt.fromLocal":
      return { node: n, zone: n.value as string };
    case "col": {
      const i = schema.names.indexOf(n.name as string);
      return { node: n, zone: i >= 0 ? timeZoneOf(schema.dtypes[i] as DType) : undefined };
    }
    case "dt.convertTimeZone":
      if (z === undefined && isTimestamp(x)) {
        throw new DtypeError("dt.convertTimeZone: the timestamp has no time zone; give it one with dt.replaceTimeZone");
      }
      // Only the zone changes; toLocal to UTC is the identity that still checks x is a timestamp
      // (its TS-only zone field keeps the new zone for a later pass).
      return { node: { ...toLocal(x, "UTC"), zone: n.value as string }, zone: n.value as string };
    case "dt.replaceTimeZone": {
      const wall = z === undefined ? toLocal(x, "UTC") : toLocal(x, z);
      const to = n.value as string | null;
      const params = n.params ?? [AMBIGUOUS.raise, NON_EXISTENT.raise];
      return to === null ? { node: wall, zone: undefined } : { node: fromLocal(wall, to, params[0] as number, params[1] as number), zone: to };
    }
    case "cast": {
      const reads = local && (n.dtype === DATE32 || n.dtype === UTF8 || n.dtype === LARGE_UTF8) && isTimestamp(x);
      return { node: reads ? { ...n, args: [toLocal(x, z as string)] } : n, zone: n.zone };
    }
    case "str.strptime":
      if (n.zone === undefined) return { node: n, zone: undefined };
      // An offset in the text (%z) gives instants already; otherwise the text is local time.
      if (typeof n.value === "string" && /%:?z/.test(n.value)) return { node: n, zone: n.zone };
      return { node: fromLocal(withoutZone(n), n.zone, AMBIGUOUS.raise, NON_EXISTENT.raise), zone: n.zone };
  }
  if (local && n.op === "dt.toString" && typeof n.value === "string") {
    const zoned = formatZoned(x, z, n.value);
    if (zoned !== undefined) return { node: zoned, zone: undefined };
  }
  if (local && FIELDS.has(n.op)) return { node: { ...n, args: [toLocal(x, z), ...n.args.slice(1)] }, zone: undefined };
  if (local && (ROUND_TRIPS.has(n.op) || (n.op === "dt.offsetBy" && n.local === true))) {
    const inner: ExprNode = { ...n, args: [toLocal(x, z), ...n.args.slice(1)] };
    return { node: fromLocal(inner, z, AMBIGUOUS.earliest, NON_EXISTENT.shiftForward), zone: z };
  }
  // Any other op: a timestamp result takes the zone of its first timestamp argument that has one.
  if (argZones.every((a) => a === undefined) || !isTimestamp(n)) return { node: n, zone: undefined };
  const k = n.args.findIndex((a, i) => argZones[i] !== undefined && isTimestamp(a));
  return { node: n, zone: k >= 0 ? argZones[k] : undefined };
}

/**
 * Throws TimeZoneError (ERR_TIME_ZONE) unless the system's tz database has `zone`: the native
 * loader reads it once, so a bad name fails where the expression is built.
 */
export function checkZone(zone: unknown, fn: string): string {
  if (typeof zone !== "string") throw new InvalidArgumentError(`${fn} expects a time zone name such as "Europe/Berlin"`);
  ensureDevice();
  const nodes = serializeExpr(toLocal({ op: "lit", args: [], value: 0, dtype: typeIdOf("timestamp[s]") }, zone));
  native.evalExpr(nodes, [], [], 1).dispose();
  return zone;
}

/** A node's dtype fields for a user's dtype: the native type id, and a zoned timestamp's zone. */
export function dtypeFields(dtype: unknown): { dtype: number; zone?: string } {
  const d = parseDType(dtype);
  const zone = timeZoneOf(d);
  return zone === undefined ? { dtype: typeIdOf(d) } : { dtype: typeIdOf(d), zone: checkZone(zone, "a zoned dtype") };
}
