import { describe, expect, it } from "vitest";
import { ColumnNotFoundError, DataFrame, InvalidArgumentError, Series } from "../src/index.js";
import { ALL_DTYPES, LENGTHS, NULL_PATTERNS, I64_MAX, I64_MIN, U64_MAX, type Raw, diffValues } from "./helpers.js";
import { dupColumn, frameOf, ids, rawOf, referenceOrder } from "./order.js";

describe("DataFrame.sort: one key, every dtype, the edge-case matrix", () => {
  for (const dtype of ALL_DTYPES) {
    it(dtype, () => {
      for (const length of LENGTHS) {
        for (const nulls of NULL_PATTERNS) {
          if (length === 100_003 && nulls !== "some") continue;
          const raw = dupColumn(dtype, length, nulls);
          const df = frameOf({ k: [dtype, raw] }, length);
          const options: [boolean, boolean][] = length === 100_003 ? [[false, true], [true, false]] : [[false, true], [true, true], [false, false], [true, false]];
          for (const [descending, nullsLast] of options) {
            const want = referenceOrder([raw], [descending], [nullsLast]);
            const out = df.sort("k", { descending, nullsLast });
            const where = `${dtype} n=${length} nulls=${nulls} desc=${descending} nullsLast=${nullsLast}`;
            expect(diffValues(ids(out), want), where).toBeNull();
            expect(diffValues(rawOf(out, "k"), want.map((i) => raw[i]!)), where).toBeNull();
            expect(out.dtypes).toEqual([dtype, "int32"]);
          }
        }
      }
    });
  }
});

describe("DataFrame.sort: rules", () => {
  it("nulls last by default, NaN above +Infinity, -0 equal to 0 (stable)", () => {
    const df = new DataFrame({ x: [0, -0, NaN, null, Infinity, -Infinity, -0, 0, 1], id: Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8]) });
    const out = df.sort("x");
    expect(out.getColumn("id").toArray()).toEqual([5, 0, 1, 6, 7, 8, 4, 2, 3]);
    expect(out.getColumn("x").toArray().map((v) => Object.is(v, -0) ? "-0" : v)).toEqual([-Infinity, 0, "-0", "-0", 0, 1, Infinity, NaN, null]);
    expect(df.sort("x", { descending: true }).getColumn("id").toArray()).toEqual([2, 4, 8, 0, 1, 6, 7, 5, 3]);
    expect(df.sort("x", { descending: true, nullsLast: false }).getColumn("id").toArray()).toEqual([3, 2, 4, 8, 0, 1, 6, 7, 5]);
  });

  it("int64 and uint64 extremes", () => {
    const df = new DataFrame({
      i: BigInt64Array.from([0n, I64_MAX, -1n, I64_MIN, 1n]),
      u: BigUint64Array.from([U64_MAX, 0n, 2n ** 63n, 1n, 2n ** 63n - 1n]),
    });
    expect(df.sort("i").getColumn("i").toArray()).toEqual([I64_MIN, -1n, 0n, 1n, I64_MAX]);
    expect(df.sort("u", { descending: true }).getColumn("u").toArray()).toEqual([U64_MAX, 2n ** 63n, 2n ** 63n - 1n, 1n, 0n]);
  });

  it("strings by UTF-8 bytes: empty first, prefixes before extensions, non-ASCII after ASCII", () => {
    const s = ["b", "", "ab", "a", "é", "🦀", "日本語", "Z", null, "a"];
    const df = new DataFrame({ s });
    expect(df.sort("s").getColumn("s").toArray()).toEqual(["", "Z", "a", "a", "ab", "b", "é", "日本語", "🦀", null]);
    expect(df.sort("s", { descending: true, nullsLast: false }).getColumn("s").toArray()).toEqual([null, "🦀", "日本語", "é", "b", "ab", "a", "a", "Z", ""]);
  });

  it("multi-key with per-key directions and null placement, stable", () => {
    for (const length of [33, 100_003]) {
      const a = dupColumn("utf8", length, "some", 1);
      const b = dupColumn("float64", length, "some", 2);
      const c = dupColumn("int32", length, "none", 3).map((v) => (v as number) % 3);
      const df = frameOf({ a: ["utf8", a], b: ["float64", b], c: ["int32", c] }, length);
      const cases: [string[], boolean[], boolean[]][] = [
        [["a", "b"], [false, true], [true, false]],
        [["c", "a", "b"], [true, false, false], [false, true, true]],
        [["b", "c"], [false, false], [true, true]],
      ];
      const cols: Record<string, Raw[]> = { a, b, c };
      for (const [by, descending, nullsLast] of cases) {
        const want = referenceOrder(by.map((n) => cols[n]!), descending, nullsLast);
        expect(diffValues(ids(df.sort(by, { descending, nullsLast })), want), `${by} n=${length}`).toBeNull();
      }
      // A single boolean applies to every key.
      const want = referenceOrder([a, b], [true, true], [true, true]);
      expect(diffValues(ids(df.sort(["a", "b"], { descending: true })), want)).toBeNull();
    }
  });

  it("sliced input (offset not a multiple of 8)", () => {
    const raw = dupColumn("int64", 100, "some");
    const df = frameOf({ k: ["int64", raw] }, 100).slice(3, 40);
    const part = raw.slice(3, 43);
    const want = referenceOrder([part], [false], [true]).map((i) => i + 3);
    expect(ids(df.sort("k"))).toEqual(want);
  });

  it("empty and zero-column frames, and the input is left unchanged", () => {
    const df = new DataFrame({ a: [] as number[] });
    expect(df.sort("a").shape).toEqual([0, 1]);
    const src = new DataFrame({ a: [3, 1, 2] });
    src.sort("a");
    expect(src.getColumn("a").toArray()).toEqual([3, 1, 2]);
  });

  it("errors: unknown column, bad by, per-key arrays of the wrong length", () => {
    const df = new DataFrame({ a: [1, 2], b: ["x", "y"] });
    expect(() => df.sort("nope")).toThrow(ColumnNotFoundError);
    expect(() => df.sort([])).toThrow(InvalidArgumentError);
    expect(() => df.sort(3 as unknown as string)).toThrow(InvalidArgumentError);
    expect(() => df.sort(["a", "b"], { descending: [true] })).toThrow(InvalidArgumentError);
    expect(() => df.sort(["a", "b"], { nullsLast: [true, false, true] })).toThrow(InvalidArgumentError);
    expect(() => df.sort("a", { descending: "yes" as unknown as boolean })).toThrow(InvalidArgumentError);
    try {
      df.sort("a", { descending: [true, true] });
    } catch (e) {
      expect((e as InvalidArgumentError).code).toBe("ERR_INVALID_ARGUMENT");
    }
  });
});

describe("Series.sort / argSort", () => {
  it("sorts values and returns int64 indices", () => {
    const s = new Series("x", [3, null, 1, NaN, 1]);
    expect(s.sort().toArray()).toEqual([1, 1, 3, NaN, null]);
    expect(s.sort({ descending: true, nullsLast: false }).toArray()).toEqual([null, NaN, 3, 1, 1]);
    const idx = s.argSort();
    expect(idx.dtype).toBe("int64");
    expect(idx.name).toBe("x");
    expect(idx.toArray()).toEqual([2n, 4n, 0n, 3n, 1n]);
    expect(s.argSort({ descending: true }).toArray()).toEqual([3n, 0n, 2n, 4n, 1n]);
    expect(new Series("e", []).argSort().toArray()).toEqual([]);
  });

  it("every dtype agrees with the reference order", () => {
    for (const dtype of ALL_DTYPES) {
      const raw = dupColumn(dtype, 65, "some");
      const s = frameOf({ k: [dtype, raw] }, 65).getColumn("k");
      const want = referenceOrder([raw], [false], [true]);
      expect(s.argSort().toArray(), dtype).toEqual(want.map((i) => BigInt(i)));
    }
  });
});
