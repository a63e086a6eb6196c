import { describe, expect, it } from "vitest";

import { col, DataFrame, lit } from "gpudf";
import { simplify } from "../../src/lazy/optimizer/simplify.js";
import { after, sameWithAndWithout } from "./support.js";

const df = new DataFrame({ a: [1, 2, 3], s: ["x", "yy", null], f: [true, null, false], d: Int32Array.of(1, 2, 3) });

describe("simplify", () => {
  it("removes identities of and/or/not/alias/cast and filters by true", () => {
    const lf = df
      .lazy()
      .filter(col("f").and(lit(true)).or(lit(false)).not().not())
      .select(col("a").alias("x").alias("y"), col("d").cast("int32"))
      .filter(lit(true));
    expect(after(lf, simplify)).toBe(['SELECT col("a").alias("y"), col("d")', '  FILTER col("f")', "    SCAN DataFrame [4 columns]"].join("\n"));
    sameWithAndWithout(lf, "simplify");
  });
  it("folds subtrees of literals with fixed dtypes, natively, keeping their dtype", () => {
    const lf = df.lazy().select(col("s").eq(lit("x").str.toUpperCase().str.toLowerCase()).alias("is_x"), lit(3, "int16").mul(lit(4, "int16")).alias("twelve"));
    expect(after(lf, simplify)).toBe(['SELECT (col("s") == lit("x", "utf8")).alias("is_x"), lit(12, "int16").alias("twelve")', "  SCAN DataFrame [4 columns]"].join("\n"));
    expect(lf.schema).toEqual({ is_x: "bool", twelve: "int16" });
    sameWithAndWithout(lf, "simplify");
  });
  it("leaves numbers without a dtype as written (they adapt to the column they meet)", () => {
    const lf = df.lazy().select(col("d").add(lit(1).add(lit(2))).alias("d3"));
    expect(simplify(lf.plan)).toBe(lf.plan);
    expect(lf.collectSync().dtypes).toEqual(["int32"]);
  });
  it("removes a projection that passes everything through and a slice of everything", () => {
    const lf = df.lazy().select("a", "s", "f", "d").slice(0);
    expect(after(lf, simplify)).toBe("SCAN DataFrame [4 columns]");
    sameWithAndWithout(lf, "simplify");
  });
});
