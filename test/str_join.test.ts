// str.join as an aggregation: over the whole column and per group (eager and lazy), against a JS
// reference on random strings with nulls (ASCII and not, both string dtypes, sliced frames),
// nulls skipped or making the result null, the order a sortBy / filter input gives, empty
// inputs, printing, and the refused uses.
import { describe, expect, it } from "vitest";
import { col, DataFrame, Series } from "../src/index.js";
import { expectCode } from "./helpers.js";
import { uniform } from "./support/random.js";

const UNITS = ["a", "b", "é", "日", "🦀", "xyz", ""];

function randomFrame(n: number, seed: number): { g: number[]; s: (string | null)[]; k: number[] } {
  const r = uniform(seed);
  const g: number[] = [], s: (string | null)[] = [], k: number[] = [];
  for (let i = 0; i < n; i++) {
    g.push(Math.floor(r() * 37));
    k.push(Math.floor(r() * 1000));
    if (r() < 0.08) s.push(null);
    else s.push(Array.from({ length: Math.floor(r() * 4) }, () => UNITS[Math.floor(r() * UNITS.length)]).join(""));
  }
  return { g, s, k };
}

/** The joined strings of `values`; null when a null counts. */
function joinRef(values: (string | null)[], sep: string, ignoreNulls: boolean): string | null {
  if (!ignoreNulls && values.includes(null)) return null;
  return values.filter((v): v is string => v !== null).join(sep);
}

describe("str.join", () => {
  const data = randomFrame(6_007, 3);
  for (const [label, df, rows] of [
    ["whole", new DataFrame(data), Array.from({ length: 6_007 }, (_, i) => i)],
    ["sliced", new DataFrame(data).slice(11, 4_000), Array.from({ length: 4_000 }, (_, i) => i + 11)],
  ] as const) {
    it(`joins the whole column and each group as the JS reference (${label} frame, large_utf8 too)`, async () => {
      for (const frame of [df, df.withColumns(col("s").cast("large_utf8").alias("s"))]) {
        const dtype = frame.getColumn("s").dtype;
        for (const [sep, ignoreNulls] of [[",", true], ["", true], ["é|", false]] as const) {
          const vals = rows.map((i) => data.s[i] as string | null);
          const all = frame.select(col("s").str.join(sep, { ignoreNulls }));
          expect(all.getColumn("s").dtype).toBe(dtype);
          expect(all.getColumn("s").toArray()).toEqual([joinRef(vals, sep, ignoreNulls)]);

          const groups = new Map<number, (string | null)[]>();
          for (const i of rows) {
            const list = groups.get(data.g[i] as number) ?? [];
            list.push(data.s[i] as string | null);
            groups.set(data.g[i] as number, list);
          }
          const want = [...groups.entries()].map(([g, v]) => [g, joinRef(v, sep, ignoreNulls)]);
          const agg = col("s").str.join(sep, { ignoreNulls }).alias("j");
          const eager = frame.groupBy("g", { maintainOrder: true }).agg(agg);
          expect(eager.getColumn("j").dtype).toBe(dtype);
          expect(eager.toRecords().map((r) => [r.g, r.j])).toEqual(want);
          const lazy = await frame.lazy().groupBy("g", { maintainOrder: true }).agg(agg).collect();
          expect(lazy.toRecords()).toEqual(eager.toRecords());
        }
      }
    });
  }

  it("follows the order of a sortBy input and the rows of a filter input", async () => {
    const df = new DataFrame({ g: [1, 2, 1, 1, 3, 2], s: ["a", null, "b", "c", null, "d"], x: [3, 1, 2, 1, 0, 5] });
    const sorted = df.groupBy("g", { maintainOrder: true }).agg(col("s").sortBy("x").str.join(","));
    expect(sorted.toRecords()).toEqual([{ g: 1, s: "c,b,a" }, { g: 2, s: "d" }, { g: 3, s: "" }]);
    const lazySorted = await df.lazy().groupBy("g", { maintainOrder: true }).agg(col("s").sortBy("x").str.join(",")).collect();
    expect(lazySorted.toRecords()).toEqual(sorted.toRecords());
    expect(df.select(col("s").filter(col("x").gt(1)).str.join("+")).toRecords()).toEqual([{ s: "a+b+d" }]);
    expect((await df.lazy().select(col("s").filter(col("x").gt(1)).str.join("+")).collect()).toRecords()).toEqual([{ s: "a+b+d" }]);
    // Two joins of one column differing only in their options are two aggregations.
    const both = df.groupBy("g", { maintainOrder: true }).agg(col("s").str.join(","), col("s").str.join("|", { ignoreNulls: false }).alias("strict"));
    expect(both.toRecords()).toEqual([{ g: 1, s: "a,b,c", strict: "a|b|c" }, { g: 2, s: "d", strict: null }, { g: 3, s: "", strict: null }]);
    // After a filter the lazy engine groups the base rows (the filtered-out ones dropped by id).
    const big = new DataFrame({
      g: Array.from({ length: 20_000 }, (_, i) => i % 7),
      s: Array.from({ length: 20_000 }, (_, i) => (i % 13 === 0 ? null : `v${i % 100}`)),
      x: Array.from({ length: 20_000 }, (_, i) => i % 10),
    });
    const filtered = big.filter(col("x").gt(1)).groupBy("g", { maintainOrder: true }).agg(col("s").str.join(",").alias("j"));
    const lazyFiltered = await big.lazy().filter(col("x").gt(1)).groupBy("g", { maintainOrder: true }).agg(col("s").str.join(",").alias("j")).collect();
    expect(lazyFiltered.toRecords()).toEqual(filtered.toRecords());
    const byGroup = new Map<number, string[]>();
    for (let i = 0; i < 20_000; i++) {
      if (i % 10 > 1 && i % 13 !== 0) byGroup.set(i % 7, [...(byGroup.get(i % 7) ?? []), `v${i % 100}`]);
    }
    expect(filtered.getColumn("j").toArray()).toEqual([...byGroup.values()].map((v) => v.join(",")));
    // Time windows aggregate through the same path.
    const timed = new DataFrame({ t: [1, 2, 3, 4, 5, 6].map((h) => new Date(h * 3_600_000)), s: ["a", "b", null, "d", "e", "f"] });
    expect(timed.groupByDynamic("t", { every: "2h" }).agg(col("s").str.join(",")).getColumn("s").toArray()).toEqual(["a", "b", "d,e", "f"]);
    expect(timed.rolling("t", { period: "2h" }).agg(col("s").str.join(",")).getColumn("s").toArray()).toEqual(["a", "a,b", "b", "d", "d,e", "e,f"]);
    // An expression over the joined value.
    expect(df.select(col("s").str.join("-").str.len().alias("n")).toRecords()).toEqual([{ n: 7 }]);
  });

  it("on a Series gives one value, as Polars' Series.str.join", () => {
    const s = new Series("s", ["a", null, "b"]);
    expect(s.str.join("-").toArray()).toEqual(["a-b"]);
    expect(s.str.join("-").name).toBe("s");
    expect(s.str.join("", { ignoreNulls: false }).toArray()).toEqual([null]);
  });

  it("gives \"\" for no rows, prints as written, and refuses what it cannot join", () => {
    const empty = new DataFrame({ s: ["x"] }).head(0);
    expect(empty.select(col("s").str.join(",")).toRecords()).toEqual([{ s: "" }]);
    expect(col("s").str.join(",").toString()).toBe('col("s").str.join(",")');
    expect(col("s").str.join("", { ignoreNulls: false }).toString()).toBe('col("s").str.join("", { ignoreNulls: false })');
    const df = new DataFrame({ g: [1, 1], s: ["a", "b"], n: [1, 2] });
    expectCode(() => df.select(col("n").str.join(",")), "ERR_DTYPE");
    expectCode(() => df.lazy().select(col("n").str.join(",")), "ERR_DTYPE");
    expectCode(() => df.select(col("s").str.join(",").over("g")), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.join(1 as unknown as string), "ERR_INVALID_ARGUMENT");
    expectCode(() => col("s").str.join(",", { ignoreNulls: "no" as unknown as boolean }), "ERR_INVALID_ARGUMENT");
    expect(df.toRecords()).toEqual([{ g: 1, s: "a", n: 1 }, { g: 1, s: "b", n: 2 }]);
  });
});
