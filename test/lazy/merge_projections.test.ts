import { describe, expect, it } from "vitest";

import { col, DataFrame, lit } from "gpudf";
import { mergeProjections } from "../../src/lazy/optimizer/merge_projections.js";
import { after, sameWithAndWithout } from "./support.js";

const df = new DataFrame({ a: [1, 2, 3], b: [10, 20, null] });

describe("mergeProjections", () => {
  it("writes the outer projection over the inner one's input", () => {
    const lf = df.lazy().withColumns(col("a").add(col("b")).alias("c")).select(col("c").mul(2).alias("c2"), "a");
    expect(after(lf, mergeProjections)).toBe(['SELECT ((col("a") + col("b")) * lit(2)).alias("c2"), col("a")', "  SCAN DataFrame [2 columns]"].join("\n"));
    sameWithAndWithout(lf, "mergeProjections");
  });
  it("does not repeat an inner expression read twice, nor merge over aggregations", () => {
    const twice = df.lazy().withColumns(col("a").add(col("b")).alias("c")).select(col("c").mul(col("c")).alias("sq"));
    expect(mergeProjections(twice.plan)).toBe(twice.plan);
    const agg = df.lazy().select(col("a").sub(col("a").mean()).alias("d")).select(col("d").mul(2));
    expect(mergeProjections(agg.plan)).toBe(agg.plan);
    sameWithAndWithout(agg, "mergeProjections");
  });
  it("keeps a one-row result one row (a column read inside an aggregation reads no rows)", () => {
    const lf = df.lazy().select("b", "a").select(col("a").mul(col("b")).sum().alias("s"));
    expect(after(lf, mergeProjections)).toBe(['SELECT (col("a") * col("b")).sum().alias("s")', "  SCAN DataFrame [2 columns]"].join("\n"));
    expect(lf.collectSync({ optimizations: { simplify: false } }).toRecords()).toEqual([{ s: 50 }]);
    sameWithAndWithout(lf, "mergeProjections");
  });
  it("keeps the height when the outer reads only a broadcast literal", () => {
    const lf = df.lazy().withColumns(lit(7).alias("k")).select("k");
    expect(lf.collectSync().height).toBe(3);
    sameWithAndWithout(lf, "mergeProjections");
  });
});
