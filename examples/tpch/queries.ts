/**
 * The 22 TPC-H queries, written once with the verbs DataFrame and LazyFrame share (the
 * FrameVerbs interface): over DataFrames they run eagerly, verb by verb (eager.ts), over
 * LazyFrames they build one plan that collect() optimises and runs natively (lazy.ts). The
 * tables are those of bench/tpch/schema.mjs (load them with examples/tpch/run.ts or any reader). Parameters are the specification's validation values, as in the
 * DuckDB SQL of bench/tpch/queries/sql.mjs, whose answers the tests compare these with.
 *
 * How the SQL maps onto the API: each query first selects the columns it needs (free: columns
 * are shared), filters as early as it can, and joins on the keys; EXISTS / IN become semi joins,
 * NOT EXISTS / NOT IN anti joins, a correlated subquery a groupBy joined back, a scalar subquery
 * a one-row frame (an aggregation in `select`) joined with `how: "cross"`, LIKE `str.like`,
 * COUNT(DISTINCT) `nUnique()`. Intermediate frames are released by the garbage collector.
 *
 * @example
 * import { q1 } from "./queries.js";
 * const eager = q1(tables) as DataFrame;                      // tables: DataFrames
 * const lazy = await (q1(lazyTables) as LazyFrame).collect(); // tables: LazyFrames
 */
import { col, len, lit, when, type Expr, type FrameVerbs, type GroupVerbs } from "gpudf";

/** A DataFrame or a LazyFrame: what the queries use of either. */
export interface Frame extends FrameVerbs<Frame, GroupVerbs<Frame>, Frame> {}

/** The eight TPC-H tables, all DataFrames or all LazyFrames. */
export interface TpchTables<F extends Frame = Frame> {
  region: F;
  nation: F;
  part: F;
  supplier: F;
  partsupp: F;
  customer: F;
  orders: F;
  lineitem: F;
}

/**
 * A date32 literal. (A JS Date alone is a timestamp[ms] literal: it compares exactly too, but
 * every row's date32 is then converted to milliseconds first; date32 against date32 runs on
 * the integer fast path.)
 */
const date = (iso: string): Expr => lit(new Date(`${iso}T00:00:00Z`), "date32");
/** lo <= c < hi on dates. */
const during = (c: string, lo: string, hi: string): Expr => col(c).gte(date(lo)).and(col(c).lt(date(hi)));
/** l_extendedprice * (1 - l_discount). */
const revenue = (): Expr => col("l_extendedprice").mul(lit(1).sub(col("l_discount")));
/** The nation keys (and names) of one region. */
const nationsOf = (t: TpchTables, region: string): Frame =>
  t.region.filter(col("r_name").eq(region)).select("r_regionkey")
    .join(t.nation.select("n_nationkey", "n_name", "n_regionkey"), { leftOn: "r_regionkey", rightOn: "n_regionkey" });

/** Q1: pricing summary report. */
export function q1(t: TpchTables): Frame {
  const charge = revenue().mul(lit(1).add(col("l_tax")));
  return t.lineitem.select("l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount", "l_tax", "l_shipdate")
    .filter(col("l_shipdate").lte(date("1998-09-02")))
    .groupBy("l_returnflag", "l_linestatus")
    .agg(col("l_quantity").sum().alias("sum_qty"), col("l_extendedprice").sum().alias("sum_base_price"),
      revenue().sum().alias("sum_disc_price"), charge.sum().alias("sum_charge"),
      col("l_quantity").mean().alias("avg_qty"), col("l_extendedprice").mean().alias("avg_price"),
      col("l_discount").mean().alias("avg_disc"), len().alias("count_order"))
    .sort(["l_returnflag", "l_linestatus"]);
}

/** Q2: minimum cost supplier (the correlated minimum as a groupBy joined back on part and cost). */
export function q2(t: TpchTables): Frame {
  const suppliers = t.supplier.select("s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone", "s_acctbal", "s_comment")
    .join(nationsOf(t, "EUROPE"), { leftOn: "s_nationkey", rightOn: "n_nationkey" });
  const offers = t.partsupp.select("ps_partkey", "ps_suppkey", "ps_supplycost")
    .join(suppliers, { leftOn: "ps_suppkey", rightOn: "s_suppkey" });
  const cheapest = offers.groupBy("ps_partkey").agg(col("ps_supplycost").min().alias("min_cost"));
  return t.part.select("p_partkey", "p_mfgr", "p_size", "p_type")
    .filter(col("p_size").eq(15).and(col("p_type").str.like("%BRASS")))
    .join(offers, { leftOn: "p_partkey", rightOn: "ps_partkey" })
    .join(cheapest, { leftOn: ["p_partkey", "ps_supplycost"], rightOn: ["ps_partkey", "min_cost"] })
    .select("s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone", "s_comment")
    .sort(["s_acctbal", "n_name", "s_name", "p_partkey"], { descending: [true, false, false, false] })
    .head(100);
}

/** Q3: shipping priority. */
export function q3(t: TpchTables): Frame {
  return t.customer.select("c_custkey", "c_mktsegment").filter(col("c_mktsegment").eq("BUILDING"))
    .join(t.orders.select("o_orderkey", "o_custkey", "o_orderdate", "o_shippriority").filter(col("o_orderdate").lt(date("1995-03-15"))),
      { leftOn: "c_custkey", rightOn: "o_custkey" })
    .join(t.lineitem.select("l_orderkey", "l_extendedprice", "l_discount", "l_shipdate").filter(col("l_shipdate").gt(date("1995-03-15"))),
      { leftOn: "o_orderkey", rightOn: "l_orderkey" })
    .groupBy("o_orderkey", "o_orderdate", "o_shippriority")
    .agg(revenue().sum().alias("revenue"))
    .select(col("o_orderkey").alias("l_orderkey"), "revenue", "o_orderdate", "o_shippriority")
    .sort(["revenue", "o_orderdate"], { descending: [true, false] })
    .head(10);
}

/** Q4: order priority checking (EXISTS as a semi join). */
export function q4(t: TpchTables): Frame {
  const late = t.lineitem.select("l_orderkey", "l_commitdate", "l_receiptdate").filter(col("l_commitdate").lt(col("l_receiptdate")));
  return t.orders.select("o_orderkey", "o_orderdate", "o_orderpriority")
    .filter(during("o_orderdate", "1993-07-01", "1993-10-01"))
    .join(late, { leftOn: "o_orderkey", rightOn: "l_orderkey", how: "semi" })
    .groupBy("o_orderpriority").agg(len().alias("order_count"))
    .sort("o_orderpriority");
}

/** Q5: local supplier volume (supplier and customer of the same nation: a two-key join). */
export function q5(t: TpchTables): Frame {
  const suppliers = t.supplier.select("s_suppkey", "s_nationkey").join(nationsOf(t, "ASIA"), { leftOn: "s_nationkey", rightOn: "n_nationkey" });
  return t.customer.select("c_custkey", "c_nationkey")
    .join(t.orders.select("o_orderkey", "o_custkey", "o_orderdate").filter(during("o_orderdate", "1994-01-01", "1995-01-01")),
      { leftOn: "c_custkey", rightOn: "o_custkey" })
    .join(t.lineitem.select("l_orderkey", "l_suppkey", "l_extendedprice", "l_discount"), { leftOn: "o_orderkey", rightOn: "l_orderkey" })
    .join(suppliers, { leftOn: ["l_suppkey", "c_nationkey"], rightOn: ["s_suppkey", "s_nationkey"] })
    .groupBy("n_name").agg(revenue().sum().alias("revenue"))
    .sort("revenue", { descending: true });
}

/** Q6: forecasting revenue change. */
export function q6(t: TpchTables): Frame {
  return t.lineitem.select("l_extendedprice", "l_discount", "l_quantity", "l_shipdate")
    .filter(during("l_shipdate", "1994-01-01", "1995-01-01").and(col("l_discount").isBetween(0.05, 0.07)).and(col("l_quantity").lt(24)))
    .select(col("l_extendedprice").mul(col("l_discount")).sum().alias("revenue"));
}

/** Q7: volume shipping between two nations. */
export function q7(t: TpchTables): Frame {
  const pair = ["FRANCE", "GERMANY"];
  const n1 = t.nation.select(col("n_nationkey").alias("n1_key"), col("n_name").alias("supp_nation")).filter(col("supp_nation").isIn(pair));
  const n2 = t.nation.select(col("n_nationkey").alias("n2_key"), col("n_name").alias("cust_nation")).filter(col("cust_nation").isIn(pair));
  return t.supplier.select("s_suppkey", "s_nationkey").join(n1, { leftOn: "s_nationkey", rightOn: "n1_key" })
    .join(t.lineitem.select("l_orderkey", "l_suppkey", "l_extendedprice", "l_discount", "l_shipdate")
      .filter(col("l_shipdate").isBetween(date("1995-01-01"), date("1996-12-31"))), { leftOn: "s_suppkey", rightOn: "l_suppkey" })
    .join(t.orders.select("o_orderkey", "o_custkey"), { leftOn: "l_orderkey", rightOn: "o_orderkey" })
    .join(t.customer.select("c_custkey", "c_nationkey"), { leftOn: "o_custkey", rightOn: "c_custkey" })
    .join(n2, { leftOn: "c_nationkey", rightOn: "n2_key" })
    .filter(col("supp_nation").neq(col("cust_nation")))
    .groupBy("supp_nation", "cust_nation", col("l_shipdate").dt.year().alias("l_year"))
    .agg(revenue().sum().alias("revenue"))
    .sort(["supp_nation", "cust_nation", "l_year"]);
}

/** Q8: national market share. */
export function q8(t: TpchTables): Frame {
  const volume = revenue();
  const supplierNation = t.nation.select(col("n_nationkey").alias("n2_key"), col("n_name").alias("nation"));
  return t.part.select("p_partkey", "p_type").filter(col("p_type").eq("ECONOMY ANODIZED STEEL"))
    .join(t.lineitem.select("l_orderkey", "l_partkey", "l_suppkey", "l_extendedprice", "l_discount"), { leftOn: "p_partkey", rightOn: "l_partkey" })
    .join(t.orders.select("o_orderkey", "o_custkey", "o_orderdate").filter(col("o_orderdate").isBetween(date("1995-01-01"), date("1996-12-31"))),
      { leftOn: "l_orderkey", rightOn: "o_orderkey" })
    .join(t.customer.select("c_custkey", "c_nationkey"), { leftOn: "o_custkey", rightOn: "c_custkey" })
    .join(nationsOf(t, "AMERICA"), { leftOn: "c_nationkey", rightOn: "n_nationkey", how: "semi" })
    .join(t.supplier.select("s_suppkey", "s_nationkey"), { leftOn: "l_suppkey", rightOn: "s_suppkey" })
    .join(supplierNation, { leftOn: "s_nationkey", rightOn: "n2_key" })
    .groupBy(col("o_orderdate").dt.year().alias("o_year"))
    .agg(when(col("nation").eq("BRAZIL")).then(volume).otherwise(0).sum().div(volume.sum()).alias("mkt_share"))
    .sort("o_year");
}

/** Q9: product type profit measure. */
export function q9(t: TpchTables): Frame {
  const amount = revenue().sub(col("ps_supplycost").mul(col("l_quantity")));
  return t.part.select("p_partkey", "p_name").filter(col("p_name").str.like("%green%"))
    .join(t.lineitem.select("l_orderkey", "l_partkey", "l_suppkey", "l_quantity", "l_extendedprice", "l_discount"),
      { leftOn: "p_partkey", rightOn: "l_partkey" })
    .join(t.partsupp.select("ps_partkey", "ps_suppkey", "ps_supplycost"), { leftOn: ["p_partkey", "l_suppkey"], rightOn: ["ps_partkey", "ps_suppkey"] })
    .join(t.supplier.select("s_suppkey", "s_nationkey"), { leftOn: "l_suppkey", rightOn: "s_suppkey" })
    .join(t.nation.select("n_nationkey", "n_name"), { leftOn: "s_nationkey", rightOn: "n_nationkey" })
    .join(t.orders.select("o_orderkey", "o_orderdate"), { leftOn: "l_orderkey", rightOn: "o_orderkey" })
    .groupBy(col("n_name").alias("nation"), col("o_orderdate").dt.year().alias("o_year"))
    .agg(amount.sum().alias("sum_profit"))
    .sort(["nation", "o_year"], { descending: [false, true] });
}

/** Q10: returned item reporting. */
export function q10(t: TpchTables): Frame {
  return t.customer.select("c_custkey", "c_name", "c_acctbal", "c_nationkey", "c_address", "c_phone", "c_comment")
    .join(t.orders.select("o_orderkey", "o_custkey", "o_orderdate").filter(during("o_orderdate", "1993-10-01", "1994-01-01")),
      { leftOn: "c_custkey", rightOn: "o_custkey" })
    .join(t.lineitem.select("l_orderkey", "l_extendedprice", "l_discount", "l_returnflag").filter(col("l_returnflag").eq("R")),
      { leftOn: "o_orderkey", rightOn: "l_orderkey" })
    .join(t.nation.select("n_nationkey", "n_name"), { leftOn: "c_nationkey", rightOn: "n_nationkey" })
    .groupBy("c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment")
    .agg(revenue().sum().alias("revenue"))
    .select("c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment")
    .sort("revenue", { descending: true })
    .head(20);
}

/** Q11: important stock identification (the HAVING threshold as a one-row frame, joined cross). */
export function q11(t: TpchTables, sf = 1): Frame {
  const german = t.nation.filter(col("n_name").eq("GERMANY")).select("n_nationkey")
    .join(t.supplier.select("s_suppkey", "s_nationkey"), { leftOn: "n_nationkey", rightOn: "s_nationkey" });
  const stock = t.partsupp.select("ps_partkey", "ps_suppkey", "ps_availqty", "ps_supplycost")
    .join(german, { leftOn: "ps_suppkey", rightOn: "s_suppkey", how: "semi" })
    .select("ps_partkey", col("ps_supplycost").mul(col("ps_availqty")).alias("value"));
  const threshold = stock.select(col("value").sum().mul(0.0001 / sf).alias("threshold"));
  return stock.groupBy("ps_partkey").agg(col("value").sum().alias("value"))
    .join(threshold, { how: "cross" })
    .filter(col("value").gt(col("threshold")))
    .select("ps_partkey", "value")
    .sort("value", { descending: true });
}

/** Q12: shipping modes and order priority. */
export function q12(t: TpchTables): Frame {
  const high = col("o_orderpriority").isIn(["1-URGENT", "2-HIGH"]);
  return t.lineitem.select("l_orderkey", "l_shipmode", "l_commitdate", "l_receiptdate", "l_shipdate")
    .filter(col("l_shipmode").isIn(["MAIL", "SHIP"]).and(col("l_commitdate").lt(col("l_receiptdate")))
      .and(col("l_shipdate").lt(col("l_commitdate"))).and(during("l_receiptdate", "1994-01-01", "1995-01-01")))
    .join(t.orders.select("o_orderkey", "o_orderpriority"), { leftOn: "l_orderkey", rightOn: "o_orderkey" })
    .groupBy("l_shipmode")
    .agg(when(high).then(1).otherwise(0).sum().alias("high_line_count"), when(high.not()).then(1).otherwise(0).sum().alias("low_line_count"))
    .sort("l_shipmode");
}

/** Q13: customer distribution (a left join; count() skips the customers without orders). */
export function q13(t: TpchTables): Frame {
  return t.customer.select("c_custkey")
    .join(t.orders.select("o_orderkey", "o_custkey", "o_comment").filter(col("o_comment").str.like("%special%requests%").not()),
      { leftOn: "c_custkey", rightOn: "o_custkey", how: "left" })
    .groupBy("c_custkey").agg(col("o_orderkey").count().alias("c_count"))
    .groupBy("c_count").agg(len().alias("custdist"))
    .sort(["custdist", "c_count"], { descending: true });
}

/** Q14: promotion effect. */
export function q14(t: TpchTables): Frame {
  return t.lineitem.select("l_partkey", "l_extendedprice", "l_discount", "l_shipdate")
    .filter(during("l_shipdate", "1995-09-01", "1995-10-01"))
    .join(t.part.select("p_partkey", "p_type"), { leftOn: "l_partkey", rightOn: "p_partkey" })
    .select(lit(100).mul(when(col("p_type").str.like("PROMO%")).then(revenue()).otherwise(0).sum()).div(revenue().sum()).alias("promo_revenue"));
}

/** Q15: top supplier (the revenue view, then its rows equal to its maximum). */
export function q15(t: TpchTables): Frame {
  const revenueBySupplier = t.lineitem.select("l_suppkey", "l_extendedprice", "l_discount", "l_shipdate")
    .filter(during("l_shipdate", "1996-01-01", "1996-04-01"))
    .groupBy(col("l_suppkey").alias("supplier_no")).agg(revenue().sum().alias("total_revenue"));
  const top = revenueBySupplier.filter(col("total_revenue").eq(col("total_revenue").max()));
  return t.supplier.select("s_suppkey", "s_name", "s_address", "s_phone")
    .join(top, { leftOn: "s_suppkey", rightOn: "supplier_no" })
    .sort("s_suppkey");
}

/** Q16: parts/supplier relationship (NOT IN as an anti join, COUNT(DISTINCT) as nUnique). */
export function q16(t: TpchTables): Frame {
  const complaints = t.supplier.select("s_suppkey", "s_comment").filter(col("s_comment").str.like("%Customer%Complaints%"));
  return t.part.select("p_partkey", "p_brand", "p_type", "p_size")
    .filter(col("p_brand").neq("Brand#45").and(col("p_type").str.like("MEDIUM POLISHED%").not())
      .and(col("p_size").isIn([49, 14, 23, 45, 19, 3, 36, 9])))
    .join(t.partsupp.select("ps_partkey", "ps_suppkey"), { leftOn: "p_partkey", rightOn: "ps_partkey" })
    .join(complaints, { leftOn: "ps_suppkey", rightOn: "s_suppkey", how: "anti" })
    .groupBy("p_brand", "p_type", "p_size").agg(col("ps_suppkey").nUnique().alias("supplier_cnt"))
    .sort(["supplier_cnt", "p_brand", "p_type", "p_size"], { descending: [true, false, false, false] });
}

/** Q17: small-quantity-order revenue (the per-part average as a groupBy joined back). */
export function q17(t: TpchTables): Frame {
  const parts = t.part.select("p_partkey", "p_brand", "p_container").filter(col("p_brand").eq("Brand#23").and(col("p_container").eq("MED BOX")));
  const lines = t.lineitem.select("l_partkey", "l_quantity", "l_extendedprice").join(parts, { leftOn: "l_partkey", rightOn: "p_partkey", how: "semi" });
  const limit = lines.groupBy("l_partkey").agg(lit(0.2).mul(col("l_quantity").mean()).alias("limit"));
  return lines.join(limit, { on: "l_partkey" })
    .filter(col("l_quantity").lt(col("limit")))
    .select(col("l_extendedprice").sum().div(7).alias("avg_yearly"));
}

/** Q18: large volume customer. */
export function q18(t: TpchTables): Frame {
  const big = t.lineitem.select("l_orderkey", "l_quantity")
    .groupBy("l_orderkey").agg(col("l_quantity").sum().alias("sum_qty"))
    .filter(col("sum_qty").gt(300));
  return t.orders.select("o_orderkey", "o_custkey", "o_orderdate", "o_totalprice")
    .join(big, { leftOn: "o_orderkey", rightOn: "l_orderkey" })
    .join(t.customer.select("c_custkey", "c_name"), { leftOn: "o_custkey", rightOn: "c_custkey" })
    .select("c_name", col("o_custkey").alias("c_custkey"), "o_orderkey", "o_orderdate", "o_totalprice", "sum_qty")
    .sort(["o_totalprice", "o_orderdate"], { descending: [true, false] })
    .head(100);
}

/** Q19: discounted revenue (three brand / container / size / quantity arms). */
export function q19(t: TpchTables): Frame {
  const arm = (brand: string, containers: string[], lo: number, size: number): Expr =>
    col("p_brand").eq(brand).and(col("p_container").isIn(containers))
      .and(col("l_quantity").isBetween(lo, lo + 10)).and(col("p_size").isBetween(1, size));
  return t.lineitem.select("l_partkey", "l_quantity", "l_extendedprice", "l_discount", "l_shipinstruct", "l_shipmode")
    .filter(col("l_shipmode").isIn(["AIR", "AIR REG"]).and(col("l_shipinstruct").eq("DELIVER IN PERSON")))
    .join(t.part.select("p_partkey", "p_brand", "p_size", "p_container"), { leftOn: "l_partkey", rightOn: "p_partkey" })
    .filter(arm("Brand#12", ["SM CASE", "SM BOX", "SM PACK", "SM PKG"], 1, 5)
      .or(arm("Brand#23", ["MED BAG", "MED BOX", "MED PKG", "MED PACK"], 10, 10))
      .or(arm("Brand#34", ["LG CASE", "LG BOX", "LG PACK", "LG PKG"], 20, 15)))
    .select(revenue().sum().alias("revenue"));
}

/** Q20: potential part promotion (nested IN as semi joins, the correlated sum as a groupBy). */
export function q20(t: TpchTables): Frame {
  const shipped = t.lineitem.select("l_partkey", "l_suppkey", "l_quantity", "l_shipdate")
    .filter(during("l_shipdate", "1994-01-01", "1995-01-01"))
    .groupBy("l_partkey", "l_suppkey").agg(lit(0.5).mul(col("l_quantity").sum()).alias("half_qty"));
  const offers = t.partsupp.select("ps_partkey", "ps_suppkey", "ps_availqty")
    .join(t.part.select("p_partkey", "p_name").filter(col("p_name").str.like("forest%")), { leftOn: "ps_partkey", rightOn: "p_partkey", how: "semi" })
    .join(shipped, { leftOn: ["ps_partkey", "ps_suppkey"], rightOn: ["l_partkey", "l_suppkey"] })
    .filter(col("ps_availqty").gt(col("half_qty")));
  return t.supplier.select("s_suppkey", "s_name", "s_address", "s_nationkey")
    .join(t.nation.filter(col("n_name").eq("CANADA")).select("n_nationkey"), { leftOn: "s_nationkey", rightOn: "n_nationkey", how: "semi" })
    .join(offers, { leftOn: "s_suppkey", rightOn: "ps_suppkey", how: "semi" })
    .select("s_name", "s_address")
    .sort("s_name");
}

/**
 * Q21: suppliers who kept orders waiting. EXISTS (another supplier on the order) is "the
 * order has more than one distinct supplier"; NOT EXISTS (another late supplier) is "this is
 * the order's only late supplier". Both are counted only over the orders still in question.
 */
export function q21(t: TpchTables): Frame {
  const lines = t.lineitem.select("l_orderkey", "l_suppkey", "l_receiptdate", "l_commitdate");
  const isLate = col("l_receiptdate").gt(col("l_commitdate"));
  const saudi = t.nation.filter(col("n_name").eq("SAUDI ARABIA")).select("n_nationkey")
    .join(t.supplier.select("s_suppkey", "s_name", "s_nationkey"), { leftOn: "n_nationkey", rightOn: "s_nationkey" });
  const waiting = lines.filter(isLate)
    .join(saudi, { leftOn: "l_suppkey", rightOn: "s_suppkey" })
    .join(t.orders.select("o_orderkey", "o_orderstatus").filter(col("o_orderstatus").eq("F")), { leftOn: "l_orderkey", rightOn: "o_orderkey", how: "semi" });
  const candidates = lines.join(waiting.select("l_orderkey"), { on: "l_orderkey", how: "semi" });
  const shared = candidates.groupBy("l_orderkey").agg(col("l_suppkey").nUnique().alias("n_supp")).filter(col("n_supp").gt(1));
  const lateOnce = candidates.filter(isLate).groupBy("l_orderkey").agg(col("l_suppkey").nUnique().alias("n_late")).filter(col("n_late").eq(1));
  return waiting.join(shared, { on: "l_orderkey", how: "semi" })
    .join(lateOnce, { on: "l_orderkey", how: "semi" })
    .groupBy("s_name").agg(len().alias("numwait"))
    .sort(["numwait", "s_name"], { descending: [true, false] })
    .head(100);
}

/** Q22: global sales opportunity (the average balance as a one-row frame, joined cross). */
export function q22(t: TpchTables): Frame {
  const customers = t.customer.select(col("c_phone").str.slice(0, 2).alias("cntrycode"), "c_acctbal", "c_custkey")
    .filter(col("cntrycode").isIn(["13", "31", "23", "29", "30", "18", "17"]));
  const average = customers.filter(col("c_acctbal").gt(0)).select(col("c_acctbal").mean().alias("avg_acctbal"));
  return customers.join(average, { how: "cross" })
    .filter(col("c_acctbal").gt(col("avg_acctbal")))
    .join(t.orders.select("o_custkey"), { leftOn: "c_custkey", rightOn: "o_custkey", how: "anti" })
    .groupBy("cntrycode").agg(len().alias("numcust"), col("c_acctbal").sum().alias("totacctbal"))
    .sort("cntrycode");
}

/** The queries by id, each `(tables, sf) => answer` (a DataFrame or a LazyFrame, as the tables). */
export const QUERIES: Record<string, (t: TpchTables, sf: number) => Frame> = {
  q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15, q16, q17, q18, q19, q20, q21, q22,
};
