/**
 * A groupBy whose keys are attributes of a joined dimension (cells through the join's row map)
 * groups the dimension's distinct rows once and each row by its dimension row's group
 * (native/exec/aggregate.cpp, over_factored). The answer must be the one grouping the gathered
 * keys gives: the same groups (dimension rows with equal attributes share one), in the same
 * order, with the same null rule. The reference is the eager groupBy over the join's
 * materialised result, whose keys are plain columns.
 */
import { describe, expect, it } from "vitest";

import { col, DataFrame, len } from "../src/index.js";
import { expectSameFrame } from "./helpers.js";

const N = 6000;
// Facts: a customer (0..299, one in 7 rows past the last customer, so the join drops it), a
// region (0..4), an int key and values.
const facts = new DataFrame({
  cust: Int32Array.from({ length: N }, (_, r) => (r % 7 === 6 ? 300 + (r % 3) : (r * 37) % 300)),
  region: Int32Array.from({ length: N }, (_, r) => (r * 11) % 5),
  k: Int32Array.from({ length: N }, (_, r) => r % 4),
  v: Int32Array.from({ length: N }, (_, r) => (r % 101) - 50),
  x: Float64Array.from({ length: N }, (_, r) => (r % 13) / 4),
});
// Customers: attributes repeat every 100 rows (customers c, c + 100 and c + 200 are equal in
// name, segment and balance), segment null for one in 9.
const customers = new DataFrame({
  cust: Int32Array.from({ length: 300 }, (_, c) => c),
  name: Array.from({ length: 300 }, (_, c) => `customer ${c % 100}`),
  seg: Array.from({ length: 300 }, (_, c) => ((c % 100) % 9 === 4 ? null : ["BUILDING", "MACHINERY", "AUTO"][c % 3]!)),
  bal: Float64Array.from({ length: 300 }, (_, c) => ((c % 100) * 7) % 23),
});
const regions = new DataFrame({ region: Int32Array.from([0, 1, 2, 3, 4]), rname: ["ASIA", "EUROPE", null, "AFRICA", "ASIA"] });

const aggs = [col("v").sum().alias("sv"), col("x").sum().alias("sx"), col("v").max().alias("mv"), len().alias("n")];

describe("groupBy over a joined dimension's attributes (factored keys)", () => {
  const cases: [string, string[], { maintainOrder?: boolean; sort?: boolean; dropNulls?: boolean }][] = [
    ["three customer attributes, in order of appearance", ["name", "seg", "bal"], { maintainOrder: true }],
    ["the attributes with dropNulls", ["name", "seg", "bal"], { maintainOrder: true, dropNulls: true }],
    ["one string attribute, sorted", ["seg"], { sort: true }],
    ["attributes of two dimensions and a fact key", ["k", "rname", "name", "seg"], { maintainOrder: true }],
    ["two dimensions with dropNulls", ["rname", "seg"], { maintainOrder: true, dropNulls: true }],
  ];
  it.each(cases)("%s: the groups, order and values of grouping the gathered keys", (_, keys, options) => {
    const joined = facts.join(customers, { on: "cust" }).join(regions, { on: "region" });
    const want = joined.groupBy(keys, options).agg(...aggs);
    const got = facts.lazy().join(customers.lazy(), { on: "cust" }).join(regions.lazy(), { on: "region" }).groupBy(keys, options).agg(...aggs).collectSync();
    expectSameFrame(got, want);
    // Equal attributes of different customers make one group: count the distinct key tuples.
    const tuples = new Set(
      (joined.toRecords() as Record<string, unknown>[])
        .filter((r) => !options.dropNulls || keys.every((k) => r[k] !== null))
        .map((r) => JSON.stringify(keys.map((k) => r[k]))),
    );
    expect(got.height).toBe(tuples.size);
    expect(got.height).toBeGreaterThan(3);
  });

  it("a dimension used about once per row keeps the plain grouping and the same answer", () => {
    const few = facts.head(400).withColumns(col("cust").mul(3).mod(300).alias("cust"));
    const want = few.join(customers, { on: "cust" }).groupBy(["name", "bal"], { maintainOrder: true }).agg(...aggs);
    const got = few.lazy().join(customers.lazy(), { on: "cust" }).groupBy(["name", "bal"], { maintainOrder: true }).agg(...aggs).collectSync();
    expectSameFrame(got, want);
  });
});
