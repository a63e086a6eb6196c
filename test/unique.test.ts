import { describe, expect, it } from "vitest";
import { ColumnNotFoundError, DataFrame, InvalidArgumentError } from "../src/index.js";
import { ALL_DTYPES, SMALL_LENGTHS, NULL_PATTERNS, type Raw, diffValues } from "./helpers.js";
import { dupColumn, frameOf, ids, keyOf, rawOf } from "./order.js";

type Keep = "first" | "last" | "any" | "none";

/** Row ids unique() must keep (in original order), from a Map of canonical keys. */
function expectedIds(keys: Raw[][], keep: Keep): number[] {
  const n = keys[0]?.length ?? 0;
  const groups = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const key = keys.map((k) => keyOf(k[i]!)).join("|");
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const out: number[] = [];
  for (const g of groups.values()) {
    if (keep === "none") {
      if (g.length === 1) out.push(g[0]!);
    } else out.push(keep === "last" ? g[g.length - 1]! : g[0]!);
  }
  return out.sort((a, b) => a - b);
}

describe("DataFrame.unique: every dtype as the key", () => {
  for (const dtype of ALL_DTYPES) {
    it(dtype, () => {
      for (const length of [...SMALL_LENGTHS, 100_003]) {
        for (const nulls of NULL_PATTERNS) {
          if (length === 100_003 && nulls !== "some") continue;
          const raw = dupColumn(dtype, length, nulls);
          const df = frameOf({ k: [dtype, raw] }, length);
          for (const keep of ["first", "last", "any", "none"] as Keep[]) {
            const where = `${dtype} n=${length} nulls=${nulls} keep=${keep}`;
            const want = expectedIds([raw], keep === "any" ? "first" : keep);
            const ordered = df.unique({ subset: "k", keep, maintainOrder: true });
            if (keep !== "any") expect(diffValues(ids(ordered), want), where).toBeNull();
            else expect(ids(ordered).length, where).toBe(want.length);
            expect(diffValues(rawOf(ordered, "k"), ids(ordered).map((i) => raw[i]!)), where).toBeNull();
            const unordered = df.unique({ subset: ["k"], keep });
            const got = ids(unordered);
            if (keep !== "any") expect(diffValues([...got].sort((a, b) => a - b), want), where).toBeNull();
            expect(ids(df.unique({ subset: ["k"], keep })), `${where} deterministic`).toEqual(got);
          }
        }
      }
    });
  }
});

describe("DataFrame.unique: rules", () => {
  it("nulls equal each other, NaN equals NaN, -0 equals 0; default subset is every column", () => {
    const df = new DataFrame({ x: [null, NaN, 0, -0, null, NaN, 1], y: ["a", "a", "a", "a", "a", "a", null] });
    expect(df.unique({ maintainOrder: true }).getColumn("x").toArray()).toEqual([null, NaN, 0, 1]);
    expect(df.unique({ keep: "last", maintainOrder: true }).getColumn("x").toArray().map((v) => (Object.is(v, -0) ? "-0" : v))).toEqual(["-0", null, NaN, 1]);
    expect(df.unique({ keep: "none", maintainOrder: true }).getColumn("x").toArray()).toEqual([1]);
    expect(df.unique({ subset: "y", maintainOrder: true }).shape).toEqual([2, 2]);
  });

  it("multi-column keys with utf8 and non-ASCII", () => {
    const length = 1000;
    const a = dupColumn("utf8", length, "some", 1);
    const b = dupColumn("int8", length, "some", 5).map((v) => (v === null ? null : (v as number) % 2));
    const df = frameOf({ a: ["utf8", a], b: ["int8", b] }, length);
    for (const keep of ["first", "last", "none"] as Keep[]) {
      expect(ids(df.unique({ subset: ["a", "b"], keep, maintainOrder: true }))).toEqual(expectedIds([a, b], keep));
    }
  });

  it("sliced input, empty frames and zero-column frames", () => {
    const raw = dupColumn("float64", 100, "some");
    const df = frameOf({ k: ["float64", raw] }, 100).slice(3, 40);
    const want = expectedIds([raw.slice(3, 43)], "first").map((i) => i + 3);
    expect(ids(df.unique({ subset: "k", keep: "first", maintainOrder: true }))).toEqual(want);
    expect(new DataFrame({ a: [] as number[] }).unique().shape).toEqual([0, 1]);
    expect(new DataFrame().unique().shape).toEqual([0, 0]);
  });

  it("errors", () => {
    const df = new DataFrame({ a: [1, 1] });
    expect(() => df.unique({ subset: "b" })).toThrow(ColumnNotFoundError);
    expect(() => df.unique({ subset: [] })).toThrow(InvalidArgumentError);
    expect(() => df.unique({ keep: "middle" as Keep })).toThrow(InvalidArgumentError);
    expect(() => df.unique({ maintainOrder: 1 as unknown as boolean })).toThrow(InvalidArgumentError);
  });
});
