// Expression trees that share subtrees: `e = e.add(e)` thirty times is 31 distinct nodes but
// 2^31 paths. Every walk over such a tree must take time linear in the distinct nodes (each of
// these hung before, walking every path).
import { describe, expect, it } from "vitest";
import { col, DataFrame, lit, type Expr } from "../src/index.js";
import { readsColumns } from "../src/expr.js";
import { columnsOf, hasAggregates, nodeKey, occurrences } from "../src/expr_tree.js";

function doubled(times: number, leaf: Expr = col("a")): Expr {
  let e = leaf;
  for (let i = 0; i < times; i++) e = e.add(e);
  return e;
}

describe("walks over shared subtrees", () => {
  it("columnsOf, hasAggregates, readsColumns and occurrences visit each distinct node once", () => {
    const e = doubled(40).node;
    expect([...columnsOf(e)]).toEqual(["a"]);
    expect(hasAggregates(e)).toBe(false);
    expect(hasAggregates(doubled(40, col("a").sum()).node)).toBe(true);
    expect(readsColumns(e)).toBe(true);
    expect(readsColumns(doubled(40, lit(1)).node)).toBe(false);
    const counts = occurrences([e]);
    expect(counts.size).toBe(41);
    expect(counts.get(e)).toBe(1);
    let leaf = e;
    while (leaf.args.length > 0) leaf = leaf.args[0]!;
    expect(counts.get(leaf)).toBe(2 ** 40);
  });

  it("nodeKey stays short and still tells structures apart", () => {
    const k = nodeKey(doubled(40).node);
    expect(k.length).toBeLessThan(200);
    expect(nodeKey(doubled(40).node)).toBe(k); // built again: the same key
    expect(nodeKey(doubled(39).node)).not.toBe(k);
    expect(nodeKey(doubled(40, col("b")).node)).not.toBe(k);
    expect(nodeKey(doubled(40, col("a").mul(1)).node)).not.toBe(k);
  });

  it("select, groupBy().agg, the lazy optimizer and plan labels handle a 2^30-path tree exactly", async () => {
    const df = new DataFrame({ k: ["x", "y", "x"], a: [1, 2, 3] });
    const e = doubled(30);
    expect(df.select(e.alias("v")).getColumn("v").toArray()).toEqual([2 ** 30, 2 ** 31, 3 * 2 ** 30]);
    const g = df.groupBy("k").agg(doubled(30, col("a").sum()).alias("s")).sort("k");
    expect(g.toRecords()).toEqual([
      { k: "x", s: 4 * 2 ** 30 },
      { k: "y", s: 2 * 2 ** 30 },
    ]);
    const lazy = await df.lazy().filter(e.gt(2 ** 30)).select(e.alias("v"), e.mul(2).alias("w")).collect();
    expect(lazy.toRecords()).toEqual([
      { v: 2 ** 31, w: 2 ** 32 },
      { v: 3 * 2 ** 30, w: 3 * 2 ** 31 },
    ]);
    const agg = await df.lazy().groupBy("k").agg(e.sum().alias("s"), e.max().alias("m")).sort("k").collect();
    expect(agg.toRecords()).toEqual([
      { k: "x", s: 4 * 2 ** 30, m: 3 * 2 ** 30 },
      { k: "y", s: 2 * 2 ** 31 / 2, m: 2 ** 31 },
    ]);
    // Printing cuts each shared subtree's text instead of writing 2^30 copies.
    expect(String(e).length).toBeLessThan(20_000);
    expect(String(e).startsWith("((((")).toBe(true);
  }, 30_000);
});
