import { describe, expect, it } from "vitest";

import { col, DataFrame } from "gpudf";
import { mergeFilters } from "../../src/lazy/optimizer/merge_filters.js";
import { after, sameWithAndWithout } from "./support.js";

const df = new DataFrame({ a: [1, 2, null, 4, 5], b: ["x", "y", "x", null, "x"] });

describe("mergeFilters", () => {
  it("joins consecutive filters with AND", () => {
    const lf = df.lazy().filter(col("a").gt(1)).filter(col("b").eq("x"));
    expect(after(lf, mergeFilters)).toBe(['FILTER ((col("a") > lit(1)) & (col("b") == lit("x")))', "  SCAN DataFrame [2 columns]"].join("\n"));
    expect(lf.collectSync().toRecords()).toEqual([{ a: 5, b: "x" }]);
    sameWithAndWithout(lf, "mergeFilters");
  });
  it("leaves a single filter as it is", () => {
    const lf = df.lazy().filter(col("a").gt(1));
    expect(mergeFilters(lf.plan)).toBe(lf.plan);
  });
});
