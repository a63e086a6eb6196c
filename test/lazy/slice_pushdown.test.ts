import { describe, expect, it } from "vitest";

import { col, concat, DataFrame } from "gpudf";
import { slicePushdown } from "../../src/lazy/optimizer/slice_pushdown.js";
import { after, sameWithAndWithout } from "./support.js";

const df = new DataFrame({ k: [5, 3, 9, 1, 7, 3, null, 2], v: ["a", "b", "c", "d", "e", "f", "g", "h"] });

describe("slicePushdown", () => {
  it("a head of a sort becomes a sort with a limit", () => {
    const lf = df.lazy().sort("k", { descending: true }).head(3);
    expect(after(lf, slicePushdown)).toBe(['SLICE offset 0, length 3', '  SORT BY col("k") DESC LIMIT 3', "    SCAN DataFrame [2 columns]"].join("\n"));
    expect(lf.collectSync().toRecords()).toEqual([
      { k: 9, v: "c" },
      { k: 7, v: "e" },
      { k: 5, v: "a" },
    ]);
    sameWithAndWithout(df.lazy().sort("k").slice(2, 3), "slicePushdown");
  });
  it("moves through row-wise projections into the scan, and merges slices", () => {
    const lf = df.lazy().withColumns(col("k").mul(10).alias("k10")).slice(1, 5).head(2);
    expect(after(lf, slicePushdown)).toBe(
      ['SELECT col("k"), col("v"), (col("k") * lit(10)).alias("k10")', "  SLICE offset 1, length 2", "    SCAN DataFrame [2 columns]"].join("\n"),
    );
    sameWithAndWithout(lf, "slicePushdown");
    const scan = df.lazy().head(4);
    expect(after(scan, slicePushdown)).toBe("SCAN DataFrame [2 columns]; first 4 rows");
    sameWithAndWithout(scan, "slicePushdown");
  });
  it("a head of a union takes a head of each input; a tail is not moved", () => {
    const lf = concat([df.lazy(), df.lazy()]).head(3);
    expect(after(lf, slicePushdown)).toBe(["SLICE offset 0, length 3", "  UNION of 2", "    SCAN DataFrame [2 columns]; first 3 rows", "    SCAN DataFrame [2 columns]; first 3 rows"].join("\n"));
    sameWithAndWithout(lf, "slicePushdown");
    const tail = df.lazy().sort("k").tail(2);
    expect(slicePushdown(tail.plan)).toBe(tail.plan);
  });
  it("stops at whole-frame aggregations", () => {
    const lf = df.lazy().select(col("k").sub(col("k").mean()).alias("d")).head(2);
    expect(slicePushdown(lf.plan)).toBe(lf.plan);
    sameWithAndWithout(lf, "slicePushdown");
  });
});
