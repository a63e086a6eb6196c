import { describe, expect, it } from "vitest";

import { col, DataFrame, len } from "gpudf";
import { REDUCER_RATIO, semiJoinReduction } from "../../src/lazy/optimizer/semi_join_reduction.js";
import { expectSameFrame } from "../helpers.js";
import { after, sameWithAndWithout } from "./support.js";

// 200 fact rows over 40 keys (k = i % 40, some null), and a dimension of `n` keys.
const facts = new DataFrame({
  k: Array.from({ length: 200 }, (_, i) => (i % 23 === 0 ? null : i % 40)),
  g: Array.from({ length: 200 }, (_, i) => i % 3),
  v: Array.from({ length: 200 }, (_, i) => i * 0.5),
});
const dim = (keys: (number | null)[]) => new DataFrame({ dk: keys, name: keys.map((k) => `n${k}`) });
const small = dim([3, 7, null, 11]);
const REDUCER = `(reducer: when left rows >= ${REDUCER_RATIO} x right rows)`;

/** The reducer's row counts in a profile: [rows in (both sides), rows out]. */
async function reducerRows(lf: ReturnType<DataFrame["lazy"]>): Promise<[bigint, bigint]> {
  const { profile } = await lf.profile();
  const row = profile.toRecords().find((r) => String(r.name).includes("reducer"));
  expect(row, "the plan has a reducer").toBeDefined();
  return [row!.rows_in as bigint, row!.rows_out as bigint];
}

describe("semiJoinReduction", () => {
  it("an aggregation joined on its group key groups only the rows whose key the other side has", async () => {
    const sums = facts.lazy().groupBy("k").agg(col("v").sum().alias("total"), len());
    const lf = small.lazy().join(sums, { leftOn: "dk", rightOn: "k" });
    expect(after(lf, semiJoinReduction)).toBe(
      [
        "INNER JOIN ON dk = k",
        "  SCAN DataFrame [2 columns]",
        '  AGGREGATE col("v").sum().alias("total"), len() as "len" BY col("k")',
        `    SEMI JOIN ON k = dk ${REDUCER}`,
        "      SCAN DataFrame [3 columns]",
        '      SELECT col("dk")',
        "        SCAN DataFrame [2 columns]",
      ].join("\n"),
    );
    const got = lf.sort("dk").collectSync().toRecords();
    const want = [3, 7, 11].map((k) => {
      const rows = Array.from({ length: 200 }, (_, i) => i).filter((i) => i % 23 !== 0 && i % 40 === k);
      return { dk: k, name: `n${k}`, total: rows.reduce((s, i) => s + i * 0.5, 0), len: BigInt(rows.length) };
    });
    expect(got).toEqual(want);
    sameWithAndWithout(lf, "semiJoinReduction");
    // 200 fact rows against 4 keys: the reducer ran and kept the 3 keys' rows.
    const [rowsIn, rowsOut] = await reducerRows(lf);
    expect(rowsIn).toBe(204n);
    expect(rowsOut).toBe(BigInt(want.reduce((s, w) => s + Number(w.len), 0)));
  });

  it("passes the rows through when the other side is not much smaller, with the same answer", async () => {
    const many = dim(Array.from({ length: 60 }, (_, i) => i));
    const lf = facts.lazy().groupBy("k").agg(col("v").max().alias("top")).join(many.lazy(), { leftOn: "k", rightOn: "dk", how: "semi" });
    expect(after(lf, semiJoinReduction)).toContain(`SEMI JOIN ON k = dk ${REDUCER}`);
    sameWithAndWithout(lf, "semiJoinReduction");
    const [rowsIn, rowsOut] = await reducerRows(lf);
    expect(rowsIn).toBe(260n);
    expect(rowsOut).toBe(200n);
  });

  it("looks through filters on the groups, keeps group order, and honours nullsEqual", () => {
    const nullKey = dim([null, 5]);
    for (const nullsEqual of [false, true]) {
      const groups = facts.lazy().groupBy("k", { maintainOrder: true }).agg(col("v").sum().alias("total")).filter(col("total").gt(10));
      const lf = groups.join(nullKey.lazy(), { leftOn: "k", rightOn: "dk", nullsEqual, maintainOrder: "left" });
      const plan = after(lf, semiJoinReduction);
      expect(plan).toContain(`SEMI JOIN ON k = dk (order: left; reducer`);
      expect(plan.indexOf("FILTER")).toBeLessThan(plan.indexOf("AGGREGATE"));
      expectSameFrame(lf.collectSync(), lf.collectSync({ optimizations: { semiJoinReduction: false } }));
      // The null key's group appears first (row 0); it matches the null dk only with nullsEqual.
      expect(lf.collectSync().getColumn("k").toArray()).toEqual(nullsEqual ? [null, 5] : [5]);
    }
  });

  it("two-column keys; the aggregation on the left of an inner join", () => {
    const pairs = new DataFrame({ pk: [3, 3, 7], pg: [0, 1, 2], w: [1, 2, 3] });
    const lf = facts.lazy().groupBy("k", "g").agg(col("v").mean().alias("m")).join(pairs.lazy(), { leftOn: ["k", "g"], rightOn: ["pk", "pg"] });
    expect(after(lf, semiJoinReduction)).toContain(`SEMI JOIN ON k = pk, g = pg ${REDUCER}`);
    sameWithAndWithout(lf.sort(["k", "g"]), "semiJoinReduction");
  });

  it("reduces by the join keys that are group keys when another key is an aggregation's result (TPC-H Q2's shape)", () => {
    const cheapest = facts.lazy().groupBy("k").agg(col("v").min().alias("min_v"));
    const offers = new DataFrame({ pk: [3, 3, 7, 7, 11], cost: [1.5, 99, 3.5, 3.5, 0] });
    const lf = offers.lazy().join(cheapest, { leftOn: ["pk", "cost"], rightOn: ["k", "min_v"] });
    expect(after(lf, semiJoinReduction)).toContain(`SEMI JOIN ON k = pk ${REDUCER}`);
    // min v of k = 3 is 1.5 (row 3), of k = 7 is 3.5 (row 7); k = 11's minimum is 5.5.
    expect(lf.sort("cost").collectSync().toRecords()).toEqual([
      { pk: 3, cost: 1.5 },
      { pk: 7, cost: 3.5 },
      { pk: 7, cost: 3.5 },
    ]);
    sameWithAndWithout(lf.sort("cost"), "semiJoinReduction");
  });

  it("leaves joins it cannot reduce as they are", () => {
    const sums = facts.lazy().groupBy("k").agg(col("v").sum().alias("total"));
    // A left join keeps every left group; an anti join keeps the left groups the right lacks.
    for (const how of ["left", "anti", "full"] as const) {
      const lf = sums.join(small.lazy(), { leftOn: "k", rightOn: "dk", how });
      expect(semiJoinReduction(lf.plan)).toBe(lf.plan);
    }
    // A key computed from the input, not one of its columns.
    const computed = facts.lazy().groupBy(col("k").add(1).alias("k1")).agg(len());
    const byExpr = small.lazy().join(computed, { leftOn: "dk", rightOn: "k1" });
    expect(semiJoinReduction(byExpr.plan)).toBe(byExpr.plan);
    // An aggregation read by another node too.
    const shared = small.lazy().join(sums, { leftOn: "dk", rightOn: "k" });
    const both = shared.join(sums, { leftOn: "dk", rightOn: "k", suffix: "_again" });
    expect(after(both, semiJoinReduction)).not.toContain("reducer");
    sameWithAndWithout(both.sort("dk"), "semiJoinReduction");
  });
});
