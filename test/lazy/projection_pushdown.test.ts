import { describe, expect, it } from "vitest";

import { col, concat, DataFrame, len, lit } from "gpudf";
import { projectionPushdown } from "../../src/lazy/optimizer/projection_pushdown.js";
import { after, sameWithAndWithout } from "./support.js";

const wide = new DataFrame({ a: [1, 2, 3, 4], b: ["p", "q", "p", "r"], c: [0.5, 1.5, 2.5, 3.5], d: [true, false, true, null], e: [9, 8, 7, 6] });
const right = new DataFrame({ b: ["p", "q", "z"], c: [10, 20, 30], f: ["x", "y", "z"] });

describe("projectionPushdown", () => {
  it("scans read only the columns used above", () => {
    const lf = wide.lazy().filter(col("d")).groupBy("b").agg(col("a").sum());
    expect(after(lf, projectionPushdown)).toBe(
      [
        'AGGREGATE col("a").sum() as "a" BY col("b")',
        '  FILTER col("d")',
        "    SCAN DataFrame [3 of 5 columns: a, b, d]",
      ].join("\n"),
    );
    sameWithAndWithout(lf.sort("b"), "projectionPushdown");
  });
  it("drops unread projection outputs but keeps the height when only literals remain", () => {
    const lf = wide.lazy().select("a", lit(1).alias("one")).select("one");
    expect(after(lf, projectionPushdown)).toBe(['SELECT col("one")', '  SELECT lit(1).alias("one")', "    SCAN DataFrame [0 of 5 columns: ]"].join("\n"));
    expect(lf.collectSync().height).toBe(4);
    sameWithAndWithout(lf, "projectionPushdown");
  });
  it("prunes join inputs but keeps the columns that decide the suffixes", () => {
    const lf = wide.lazy().join(right.lazy(), { on: "b", how: "left", maintainOrder: "left" }).select("a", "c_right");
    expect(after(lf, projectionPushdown)).toBe(
      [
        'SELECT col("a"), col("c_right")',
        "  LEFT JOIN ON b (order: left)",
        "    SCAN DataFrame [3 of 5 columns: a, b, c]",
        "    SCAN DataFrame [2 of 3 columns: b, c]",
      ].join("\n"),
    );
    sameWithAndWithout(lf, "projectionPushdown");
  });
  it("keeps every column under unique without a subset; unions keep one column order", () => {
    const lf = wide.lazy().unique({ maintainOrder: true }).select("a");
    expect(after(lf, projectionPushdown)).toContain("SCAN DataFrame [5 columns]");
    sameWithAndWithout(lf, "projectionPushdown");
    const u = concat([wide.lazy(), wide.lazy().select("e", "d", "c", "b", "a").select("a", "b", "c", "d", "e")]).groupBy("b").agg(len());
    sameWithAndWithout(u.sort("b"), "projectionPushdown");
  });
});
