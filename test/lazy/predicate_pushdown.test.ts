import { describe, expect, it } from "vitest";

import { col, DataFrame, len } from "gpudf";
import { predicatePushdown } from "../../src/lazy/optimizer/predicate_pushdown.js";
import { after, sameWithAndWithout } from "./support.js";

const orders = new DataFrame({ id: [1, 2, 3, 4, 5, 6], cust: [10, 20, 10, 30, null, 20], total: [5.5, 12, 7, null, 3, 40] });
const custs = new DataFrame({ cust: [10, 20, 40], name: ["ann", "bob", "cy"], vip: [true, false, true] });

describe("predicatePushdown", () => {
  it("moves a filter through a projection into the scan (columns replaced by their definitions)", () => {
    const lf = orders.lazy().withColumns(col("total").mul(2).alias("t2")).filter(col("t2").gt(10).and(col("id").lt(6)));
    expect(after(lf, predicatePushdown)).toBe(
      [
        'SELECT col("id"), col("cust"), col("total"), (col("total") * lit(2)).alias("t2")',
        '  SCAN DataFrame [3 columns]; filter (((col("total") * lit(2)) > lit(10)) & (col("id") < lit(6)))',
      ].join("\n"),
    );
    sameWithAndWithout(lf, "predicatePushdown");
  });
  it("stops at whole-frame aggregations, slices and limited sorts", () => {
    const agg = orders.lazy().select("id", col("total").sub(col("total").mean()).alias("d")).filter(col("id").gt(2));
    expect(after(agg, predicatePushdown).split("\n")[0]).toBe('FILTER (col("id") > lit(2))');
    sameWithAndWithout(agg, "predicatePushdown");
    const head = orders.lazy().head(3).filter(col("id").gt(1));
    expect(after(head, predicatePushdown).split("\n")[0]).toBe('FILTER (col("id") > lit(1))');
    sameWithAndWithout(head, "predicatePushdown");
  });
  it("sends each part of a filter to the join side it reads; a left join keeps right-side parts above", () => {
    const inner = orders.lazy().join(custs.lazy(), { on: "cust" }).filter(col("total").gt(6).and(col("vip")).and(col("cust").gt(10)));
    expect(after(inner, predicatePushdown)).toBe(
      [
        "INNER JOIN ON cust",
        '  SCAN DataFrame [3 columns]; filter ((col("total") > lit(6)) & (col("cust") > lit(10)))',
        '  SCAN DataFrame [3 columns]; filter (col("vip") & (col("cust") > lit(10)))',
      ].join("\n"),
    );
    sameWithAndWithout(inner.sort("id"), "predicatePushdown");
    const left = orders.lazy().join(custs.lazy(), { on: "cust", how: "left", maintainOrder: "left" }).filter(col("total").gt(6).and(col("vip")));
    expect(after(left, predicatePushdown)).toBe(
      [
        'FILTER col("vip")',
        "  LEFT JOIN ON cust (order: left)",
        '    SCAN DataFrame [3 columns]; filter (col("total") > lit(6))',
        "    SCAN DataFrame [3 columns]",
      ].join("\n"),
    );
    sameWithAndWithout(left, "predicatePushdown");
  });
  it("passes group-key predicates below a groupBy, keeps aggregate predicates above", () => {
    const lf = orders
      .lazy()
      .groupBy("cust", { sort: true })
      .agg(col("total").sum().alias("s"), len())
      .filter(col("cust").gt(10).and(col("s").gt(1)));
    expect(after(lf, predicatePushdown)).toBe(
      [
        'FILTER (col("s") > lit(1))',
        '  AGGREGATE col("total").sum().alias("s"), len() as "len" BY col("cust") (sorted)',
        '    SCAN DataFrame [3 columns]; filter (col("cust") > lit(10))',
      ].join("\n"),
    );
    sameWithAndWithout(lf, "predicatePushdown");
  });
  it("pushes through sorts and into every input of a union", () => {
    const lf = orders.lazy().sort("total").filter(col("cust").eq(10));
    expect(after(lf, predicatePushdown)).toBe(['SORT BY col("total")', '  SCAN DataFrame [3 columns]; filter (col("cust") == lit(10))'].join("\n"));
    sameWithAndWithout(lf, "predicatePushdown");
  });
});
