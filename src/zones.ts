/**
 * Time zones of columns. A zoned timestamp column holds UTC instants natively, as a plain
 * timestamp does; its IANA zone lives here, beside the native handle, and the dtype a frame or
 * Series reports is the handle's type with that zone (`"timestamp[us, tz=Europe/Berlin]"`).
 *
 * Who sets a handle's zone: an expression's result is tagged with the zone src/expr_zones.ts
 * infers for it (or none), Arrow import with the Arrow type's timezone, and a verb that moves
 * rows (filter, sort, join, slice, ...) carries each input column's zone to the output column of
 * the same name (`carryZones`). The native code sees zones only as arguments of the ops that
 * need one (dt.toLocal / dt.fromLocal).
 */
import { dtypeOfId, timeZoneOf, withTimeZone, type DType } from "./dtypes.js";
import { LocalTime } from "./format.js";
import { native, type ColumnHandle } from "./native/addon.js";

// handle -> zone; "" marks a timestamp that is known to have none (an expression's result), so
// that carryZones leaves it alone.
const zones = new WeakMap<ColumnHandle, string>();

const isTimestampId = (id: number): boolean => dtypeOfId(id).startsWith("timestamp[");

/** The zone of a handle, or undefined. */
export function zoneOfHandle(h: ColumnHandle): string | undefined {
  return zones.get(h) || undefined;
}

/** Tags `h` (a timestamp; others are left alone) with `zone`, or as having none. Returns `h`. */
export function tagZone(h: ColumnHandle, zone: string | undefined): ColumnHandle {
  if (isTimestampId(h.typeId)) zones.set(h, zone ?? "");
  return h;
}

/** Tags `h` with the zone of dtype `dtype` (undefined when it has none). Returns `h`. */
export function tagDType(h: ColumnHandle, dtype: DType): ColumnHandle {
  return tagZone(h, timeZoneOf(dtype));
}

/** `to` tagged as `from` is (a handle sharing or copied from `from`'s values). Returns `to`. */
export function sameZone(from: ColumnHandle, to: ColumnHandle): ColumnHandle {
  const z = zones.get(from);
  if (z !== undefined && to.typeId === from.typeId) zones.set(to, z);
  return to;
}

/** A handle's dtype, with its zone. */
export function dtypeOfHandle(h: ColumnHandle): DType {
  return withTimeZone(dtypeOfId(h.typeId), zoneOfHandle(h));
}

/**
 * After a verb that moves rows: each untagged timestamp column of `to` takes the zone of the
 * column of `from` with the same name and type. `suffixed` maps further output names to input
 * names (a join's right-hand columns renamed with its suffix).
 */
export function carryZones(
  from: { readonly names: readonly string[]; readonly columns: readonly ColumnHandle[] },
  to: { readonly names: readonly string[]; readonly columns: readonly ColumnHandle[] },
  suffixed?: ReadonlyMap<string, ColumnHandle>,
): void {
  to.names.forEach((name, i) => {
    const h = to.columns[i] as ColumnHandle;
    if (zones.has(h) || !isTimestampId(h.typeId)) return;
    const j = from.names.indexOf(name);
    const src = j >= 0 ? from.columns[j] : suffixed?.get(name);
    if (src !== undefined && src.typeId === h.typeId) zones.set(h, zones.get(src) ?? "");
  });
}

/**
 * Rows [start, start + count) of a column as printed: a zoned timestamp's values as LocalTime
 * (local time by the native zone rules, and the offset); other columns as toValues gives them.
 */
export function displayValues(h: ColumnHandle, start: number, count: number): unknown[] {
  const zone = zoneOfHandle(h);
  const utc = native.toValues(h, start, count);
  if (zone === undefined) return utc;
  const part = h.slice(start, count);
  try {
    const local = localTimesOf(part, zone);
    try {
      const wall = native.toValues(local, 0, count);
      return utc.map((u, i) => {
        const w = wall[i];
        if (!(u instanceof Date) || !(w instanceof Date)) return u;
        return new LocalTime(w, Math.round((w.getTime() - u.getTime()) / 60000));
      });
    } finally {
      local.dispose();
    }
  } finally {
    part.dispose();
  }
}

/** A new handle of `h`'s instants as local wall-clock times of `zone` (a plain timestamp). */
export function localTimesOf(h: ColumnHandle, zone: string): ColumnHandle {
  return native.evalExpr([{ op: "col", args: [], name: "v" }, { op: "dt.toLocal", args: [0], value: zone }], ["v"], [h], h.length);
}

/**
 * A new handle of local wall-clock times of `zone` as its instants, tagged with the zone: a
 * repeated local time takes the earlier instant, a skipped one the instant the gap ends (as
 * truncate and the calendar offsets do).
 */
export function instantsOf(h: ColumnHandle, zone: string): ColumnHandle {
  const nodes = [{ op: "col", args: [], name: "v" }, { op: "dt.fromLocal", args: [0], value: zone, params: [1, 2] }];
  return tagZone(native.evalExpr(nodes, ["v"], [h], h.length), zone);
}
