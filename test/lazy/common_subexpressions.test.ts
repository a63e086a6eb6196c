import { describe, expect, it } from "vitest";

import { col, DataFrame } from "gpudf";
import { commonSubexpressions } from "../../src/lazy/optimizer/common_subexpressions.js";
import { after, sameWithAndWithout } from "./support.js";

const li = new DataFrame({
  flag: ["A", "N", "A", "R", "N"],
  price: [100, 200, 300, 400, 500],
  disc: [0.1, 0, 0.05, 0.2, 0.1],
  tax: [0.01, 0.02, 0, 0.08, 0.05],
});

describe("commonSubexpressions", () => {
  it("computes a subexpression shared by aggregation inputs once (TPC-H Q1's shape)", () => {
    const disc = col("price").mul(col("disc").neg().add(1));
    const lf = li
      .lazy()
      .groupBy("flag", { sort: true })
      .agg(disc.sum().alias("disc_price"), disc.mul(col("tax").add(1)).sum().alias("charge"), col("price").mean());
    expect(after(lf, commonSubexpressions)).toBe(
      [
        'AGGREGATE col("__gpudf_cse_0").sum().alias("disc_price"), (col("__gpudf_cse_0") * (col("tax") + lit(1))).sum().alias("charge"), col("price").mean() as "price" BY col("flag") (sorted)',
        '  SELECT col("flag"), col("price"), col("tax"), (col("price") * (col("disc").neg() + lit(1))) as "__gpudf_cse_0"',
        "    SCAN DataFrame [4 columns]",
      ].join("\n"),
    );
    sameWithAndWithout(lf, "commonSubexpressions");
  });
  it("computes a subexpression repeated across a projection's outputs once", () => {
    const x = col("price").mul(col("tax"));
    const lf = li.lazy().select(x.add(1).alias("p1"), x.sub(1).alias("m1"), "flag");
    expect(after(lf, commonSubexpressions)).toBe(
      [
        'SELECT (col("__gpudf_cse_0") + lit(1)).alias("p1"), (col("__gpudf_cse_0") - lit(1)).alias("m1"), col("flag")',
        '  SELECT col("flag"), (col("price") * col("tax")) as "__gpudf_cse_0"',
        "    SCAN DataFrame [4 columns]",
      ].join("\n"),
    );
    sameWithAndWithout(lf, "commonSubexpressions");
  });
  it("leaves plans without repeats unchanged", () => {
    const lf = li.lazy().select(col("price").add(1), col("tax").mul(2));
    expect(commonSubexpressions(lf.plan)).toBe(lf.plan);
  });
});
