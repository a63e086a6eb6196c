// The groupBy addon functions called directly (the binding layer): results, dtypes, nulls, and
// argument errors that must be typed errors, never crashes. The GroupBy API is tested elsewhere.
import { describe, expect, it } from "vitest";
import { DisposedError, InvalidArgumentError, DtypeError } from "../src/index.js";
import { ensureDevice } from "../src/device.js";
import { native, type ColumnHandle } from "../src/native/addon.js";

const INT32 = 3;
const INT64 = 4;
const FLOAT64 = 10;
const UTF8 = 11;
const KIND = { sum: 0, mean: 1, min: 2, count: 4, median: 9, first: 13, argMax: 16, product: 17, len: 18 };

const col = (values: unknown[], typeId: number): ColumnHandle => native.fromValues(values, typeId);
const vals = (h: ColumnHandle): unknown[] => native.toValues(h, 0, h.length);

ensureDevice();

describe("native groupRows", () => {
  it("numbers groups by first appearance with maintainOrder; null keys form a group", () => {
    const k = col(["b", "a", null, "b", "é", null, "a"], UTF8);
    const g = native.groupRows([k], false, true);
    expect(g.count).toBe(4);
    expect(g.groups.typeId).toBe(INT32);
    expect(vals(g.groups)).toEqual([0, 1, 2, 0, 3, 2, 1]);
    expect(g.firstRows.typeId).toBe(INT64);
    expect(vals(g.firstRows)).toEqual([0n, 1n, 2n, 4n]);
  });

  it("drops null keys with dropNulls; NaN and -0.0 group with NaN and 0.0; multi-key; sliced", () => {
    const a = col([1, 1, 2, null, 1, 2], INT32);
    const b = col([NaN, NaN, -0, 5, 0, 0], FLOAT64);
    const g = native.groupRows([a, b], true, true);
    // (1, NaN) (1, NaN) (2, -0) dropped (1, 0) (2, 0): three groups.
    expect(g.count).toBe(3);
    expect(vals(g.groups)).toEqual([0, 0, 1, -1, 2, 1]);
  });

  it("groups sliced columns and the empty column", () => {
    const k = col([9, 9, 9, 1, 2, 1, 2, 3], INT32).slice(3, 5);
    const g = native.groupRows([k], false, true);
    expect(vals(g.groups)).toEqual([0, 1, 0, 1, 2]);
    const e = native.groupRows([col([], INT32)], false, false);
    expect(e.count).toBe(0);
    expect(e.groups.length).toBe(0);
  });

  it("rejects no keys, mismatched lengths, bad handles", () => {
    expect(() => native.groupRows([], false, false)).toThrow(InvalidArgumentError);
    expect(() => native.groupRows([col([1], INT32), col([1, 2], INT32)], false, false)).toThrow(InvalidArgumentError);
    expect(() => native.groupRows([{} as ColumnHandle], false, false)).toThrow(InvalidArgumentError);
    expect(() => native.groupRows("x" as unknown as ColumnHandle[], false, false)).toThrow(InvalidArgumentError);
    const d = col([1], INT32);
    d.dispose();
    expect(() => native.groupRows([d], false, false)).toThrow(DisposedError);
  });
});

describe("native groupAggregate / groupCorr / groupHeadRows", () => {
  const k = col([0, 1, 0, 1, 2, 0], INT32);
  const v = col([1.5, null, 2.5, null, 4, 8], FLOAT64);
  const g = native.groupRows([k], false, true);

  it("computes the reduce kinds per group with the ungrouped dtype and null rules", () => {
    const agg = (kind: number, ddof = 1, q = 0.5) => vals(native.groupAggregate(v, g.groups, g.count, kind, ddof, q));
    expect(agg(KIND.sum)).toEqual([12, 0, 4]);
    expect(agg(KIND.mean)).toEqual([4, null, 4]);
    expect(agg(KIND.min)).toEqual([1.5, null, 4]);
    expect(agg(KIND.count)).toEqual([3n, 0n, 1n]);
    expect(agg(KIND.len)).toEqual([3n, 2n, 1n]);
    expect(agg(KIND.median)).toEqual([2.5, null, 4]);
    expect(agg(KIND.first)).toEqual([1.5, null, 4]);
    expect(agg(KIND.argMax)).toEqual([2n, null, 0n]);
    expect(agg(KIND.product)).toEqual([30, 1, 4]);
  });

  it("computes corr and cov over pairs where both are non-null", () => {
    const a = col([1, 2, 3, 1, 5, 6], FLOAT64);
    const b = col([2, 4, 6, null, 1, 12], INT32); // group 0: b = 2a
    const r = vals(native.groupCorr(a, b, g.groups, g.count, false, 1)) as (number | null)[];
    expect(r[0]).toBeCloseTo(1, 12);
    expect(r[1]).toBeNull();
    expect(r[2]).toBeNull();
    expect(vals(native.groupCorr(a, b, g.groups, g.count, true, 1))[0]).toBeCloseTo(38 / 3, 12);
  });

  it("returns each group's first / last n rows", () => {
    expect(vals(native.groupHeadRows(g.groups, g.count, 2, false))).toEqual([0n, 2n, 1n, 3n, 4n]);
    expect(vals(native.groupHeadRows(g.groups, g.count, 1, true))).toEqual([5n, 3n, 4n]);
  });

  it("rejects bad kinds, dtypes, counts and lengths with typed errors", () => {
    const s = col(["a", "b", "a", "b", "c", "a"], UTF8);
    expect(() => native.groupAggregate(v, g.groups, g.count, 99, 1, 0.5)).toThrow(InvalidArgumentError);
    expect(() => native.groupAggregate(s, g.groups, g.count, KIND.sum, 1, 0.5)).toThrow(DtypeError);
    expect(() => native.groupAggregate(v, g.groups, -1, KIND.sum, 1, 0.5)).toThrow(InvalidArgumentError);
    expect(() => native.groupAggregate(v, g.groups, 1e9, KIND.sum, 1, 0.5)).toThrow(InvalidArgumentError);
    expect(() => native.groupAggregate(v, v, g.count, KIND.sum, 1, 0.5)).toThrow(InvalidArgumentError);
    expect(() => native.groupAggregate(col([1], FLOAT64), g.groups, g.count, KIND.sum, 1, 0.5)).toThrow(InvalidArgumentError);
    expect(() => native.groupAggregate(v, g.groups, g.count, 10, 1, 2)).toThrow(InvalidArgumentError);
    expect(() => native.groupCorr(s, v, g.groups, g.count, false, 1)).toThrow(DtypeError);
    expect(() => native.groupHeadRows(g.groups, g.count, -1, false)).toThrow(InvalidArgumentError);
    expect(() => native.groupHeadRows(v, g.count, 1, false)).toThrow(InvalidArgumentError);
  });

  it("extends the ungrouped reduce with product and len", () => {
    expect(vals(native.reduce(col([2, -3, null, 7], INT32), KIND.product, 1, 0.5))).toEqual([-42n]);
    expect(vals(native.reduce(col([2, -3, null, 7], INT32), KIND.len, 1, 0.5))).toEqual([4n]);
    expect(vals(native.reduce(col([], FLOAT64), KIND.product, 1, 0.5))).toEqual([1]);
  });
});
