/**
 * groupBy over many groups (the native high-cardinality paths: more than a few thousand
 * groups), with every group's values known exactly. A file of its own: a native crash here
 * fails this file only, not the rest of the groupBy suite.
 */
import { describe, expect, it } from "vitest";

import { DataFrame, col, len } from "../src/index.js";

describe("groupBy with many groups (the high-cardinality paths)", () => {
  for (const [n, groups] of [
    [300_000, 150_000],
    [1_000_000, 1_000_000],
  ] as const) {
    it(`${groups} groups over ${n} rows`, () => {
      const m = n / groups; // rows per group: group g (first-appearance order) holds rows g + j * groups
      const k = Int32Array.from({ length: n }, (_, i) => (i * 7) % groups);
      const v = Float64Array.from({ length: n }, (_, i) => i);
      const df = new DataFrame({ k, v });
      for (let round = 0; round < 2; round++) {
        const out = df.groupBy("k", { maintainOrder: true }).agg(len(), col("v").count().alias("c"), col("v").sum(), col("v").min().alias("mn"), col("v").median().alias("med"));
        expect(out.height).toBe(groups);
        const lens = out.getColumn("len").toArray() as bigint[];
        const counts = out.getColumn("c").toArray() as bigint[];
        const sums = out.getColumn("v").toArray() as number[];
        const mins = out.getColumn("mn").toArray() as number[];
        const meds = out.getColumn("med").toArray() as number[];
        const bad: string[] = [];
        for (let g = 0; g < groups && bad.length < 5; g++) {
          if (lens[g] !== BigInt(m) || counts[g] !== BigInt(m)) bad.push(`group ${g}: len ${lens[g]}, count ${counts[g]}`);
          const sum = m * g + (groups * m * (m - 1)) / 2;
          if (mins[g] !== g || sums[g] !== sum || meds[g] !== g + (groups * (m - 1)) / 2) {
            bad.push(`group ${g}: min ${mins[g]}, sum ${sums[g]}, median ${meds[g]}`);
          }
        }
        expect(bad).toEqual([]);
      }
    });
  }
});
