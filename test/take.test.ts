import { describe, expect, it } from "vitest";
import { DataFrame, DtypeError, InvalidArgumentError, Series, concat } from "../src/index.js";
import { ALL_DTYPES, LENGTHS, NULL_PATTERNS, diffValues, makeArrowTable, rawColumn } from "./helpers.js";
import { fromArrow } from "../src/index.js";
import { dupColumn, frameOf, ids, rawOf } from "./order.js";

describe("DataFrame.take", () => {
  it("every dtype, the edge-case lengths, null patterns and repeated indices", () => {
    for (const length of LENGTHS) {
      if (length === 0) continue;
      for (const nulls of NULL_PATTERNS) {
        const df = fromArrow(makeArrowTable(length, nulls));
        const idx = Array.from({ length: length + 5 }, (_, i) => (i * 7919) % length);
        const out = df.take(idx);
        for (const dtype of ALL_DTYPES) {
          const raw = rawColumn(dtype, length, nulls);
          expect(diffValues(rawOf(out, dtype), idx.map((i) => raw[i]!)), `${dtype} n=${length} ${nulls}`).toBeNull();
        }
        expect(out.dtypes).toEqual(df.dtypes);
      }
    }
  });

  it("accepts arrays, bigints, typed arrays and integer Series", () => {
    const df = new DataFrame({ a: ["x", "y", "z"] });
    expect(df.take([2, 0]).getColumn("a").toArray()).toEqual(["z", "x"]);
    expect(df.take([1n, 1n]).getColumn("a").toArray()).toEqual(["y", "y"]);
    expect(df.take(Int32Array.of(0, 2)).getColumn("a").toArray()).toEqual(["x", "z"]);
    expect(df.take(BigInt64Array.of(2n)).getColumn("a").toArray()).toEqual(["z"]);
    expect(df.take(Uint8Array.of(1)).getColumn("a").toArray()).toEqual(["y"]);
    expect(df.take(new Series("i", [2, 1], "int16")).getColumn("a").toArray()).toEqual(["z", "y"]);
    expect(df.take([]).shape).toEqual([0, 1]);
  });

  it("sliced input", () => {
    const df = frameOf({ k: ["utf8", dupColumn("utf8", 100, "some")] }, 100).slice(3, 40);
    expect(ids(df.take([0, 39, 5]))).toEqual([3, 42, 8]);
  });

  it("errors: negative, out of range, non-integer, null or float indices", () => {
    const df = new DataFrame({ a: [1, 2, 3] });
    for (const bad of [[-1], [3], [0, 100], [1.5]]) {
      expect(() => df.take(bad), String(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => df.take(new Series("f", [0.0]))).toThrow(InvalidArgumentError);
    expect(() => df.take(new Series("n", [0n, null]))).toThrow(InvalidArgumentError);
    expect(() => df.take(Float64Array.of(0))).toThrow(InvalidArgumentError);
    expect(() => df.take(BigUint64Array.of(2n ** 64n - 1n))).toThrow(InvalidArgumentError);
    expect(() => new DataFrame({ a: [] as number[] }).take([0])).toThrow(InvalidArgumentError);
    expect(() => df.take("0" as unknown as number[])).toThrow(InvalidArgumentError);
  });
});

describe("DataFrame.sample", () => {
  const df = frameOf({ s: ["utf8", dupColumn("utf8", 1000, "some")] }, 1000);

  it("is deterministic for a seed and draws distinct rows without replacement", () => {
    const a = ids(df.sample(100, { seed: 42 }));
    expect(ids(df.sample(100, { seed: 42 }))).toEqual(a);
    expect(ids(df.sample(100, { seed: 42n }))).toEqual(a);
    expect(new Set(a).size).toBe(100);
    expect(a.every((i) => i >= 0 && i < 1000)).toBe(true);
    expect(ids(df.sample(100, { seed: 43 }))).not.toEqual(a);
    // A smaller sample is a prefix of a larger one for the same seed (one shuffle).
    expect(ids(df.sample(10, { seed: 42 }))).toEqual(a.slice(0, 10));
    const all = ids(df.sample(1000, { seed: 1 }));
    expect([...all].sort((x, y) => x - y)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    const out = df.sample(5, { seed: 9 });
    const src = rawOf(df, "s");
    expect(rawOf(out, "s")).toEqual(ids(out).map((i) => src[i]));
  });

  it("with replacement may exceed the height; no seed still works", () => {
    const r = ids(df.sample(5000, { seed: 3, withReplacement: true }));
    expect(r.length).toBe(5000);
    expect(new Set(r).size).toBeLessThan(1000 + 1);
    expect(df.sample(3).height).toBe(3);
    expect(new DataFrame({ a: [] as number[] }).sample(0).height).toBe(0);
  });

  it("errors", () => {
    expect(() => df.sample(1001, { seed: 1 })).toThrow(InvalidArgumentError);
    expect(() => df.sample(-1)).toThrow(InvalidArgumentError);
    expect(() => df.sample(1.5)).toThrow(InvalidArgumentError);
    expect(() => df.sample(1, { seed: -1 })).toThrow(InvalidArgumentError);
    expect(() => df.sample(1, { seed: 2n ** 64n })).toThrow(InvalidArgumentError);
    expect(() => new DataFrame({ a: [] as number[] }).sample(1, { withReplacement: true })).toThrow(InvalidArgumentError);
  });
});

describe("concat", () => {
  it("every dtype, validity included, across sliced and unsliced parts", () => {
    for (const nulls of NULL_PATTERNS) {
      const a = fromArrow(makeArrowTable(65, nulls));
      const b = fromArrow(makeArrowTable(33, nulls === "some" ? "none" : "some"));
      const parts = [a.slice(3, 40), b, a.slice(0, 0), a.slice(61)];
      const out = concat(parts);
      expect(out.height).toBe(40 + 33 + 0 + 4);
      for (const dtype of ALL_DTYPES) {
        const ra = rawColumn(dtype, 65, nulls);
        const rb = rawColumn(dtype, 33, nulls === "some" ? "none" : "some");
        const want = [...ra.slice(3, 43), ...rb, ...ra.slice(61)];
        expect(diffValues(rawOf(out, dtype), want), `${dtype} ${nulls}`).toBeNull();
      }
      expect(out.dtypes).toEqual(a.dtypes);
    }
  });

  it("multi-block parts and a single part", () => {
    const big = fromArrow(makeArrowTable(100_003, "some", ["int64", "utf8"]));
    const out = concat([big, big.slice(7, 100)]);
    expect(out.height).toBe(100_103);
    const raw = rawColumn("utf8", 100_003, "some");
    expect(diffValues(rawOf(out, "utf8"), [...raw, ...raw.slice(7, 107)])).toBeNull();
    expect(concat([big]).height).toBe(100_003);
  });

  it("schema errors name the column", () => {
    const a = new DataFrame({ x: [1], y: ["a"] });
    expect(() => concat([a, new DataFrame({ y: ["a"], x: [1] })])).toThrow(InvalidArgumentError);
    expect(() => concat([a, new DataFrame({ x: [1] })])).toThrow(InvalidArgumentError);
    expect(() => concat([a, new DataFrame({ x: [1n], y: ["a"] })])).toThrow(/"x"/);
    expect(() => concat([a, new DataFrame({ x: [1n], y: ["a"] })])).toThrow(DtypeError);
    expect(() => concat([])).toThrow(InvalidArgumentError);
    expect(() => concat([a, {} as DataFrame])).toThrow(InvalidArgumentError);
  });
});
