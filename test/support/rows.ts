/**
 * Comparing result rows whose order is unspecified (groupBy, hash-ordered results): a total
 * order to sort them by their keys, and float equality with a relative tolerance.
 */

export type Row = Record<string, unknown>;

/** A total order on JS values (null last, NaN above every number, Dates by time). */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : 1;
    if (Number.isNaN(b)) return -1;
  }
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** Rows sorted by the given columns, in order. */
export function sortRows(rows: readonly Row[], keys: readonly string[]): Row[] {
  return [...rows].sort((x, y) => {
    for (const k of keys) {
      const c = compareValues(x[k], y[k]);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/**
 * Equal values, with a relative tolerance for finite numbers (sums may add in another order);
 * NaN equals NaN; a bigint compares with a number by value.
 */
export function closeValues(got: unknown, want: unknown, rel = 1e-9): boolean {
  if (typeof got === "bigint" && typeof want === "number") got = Number(got);
  if (typeof want === "bigint" && typeof got === "number") want = Number(want);
  if (typeof got === "number" && typeof want === "number") {
    if (Object.is(got, want) || (Number.isNaN(got) && Number.isNaN(want))) return true;
    if (!Number.isFinite(got) || !Number.isFinite(want)) return false;
    return Math.abs(got - want) <= rel * Math.max(1, Math.abs(want));
  }
  if (got instanceof Date && want instanceof Date) return got.getTime() === want.getTime();
  return got === want;
}
