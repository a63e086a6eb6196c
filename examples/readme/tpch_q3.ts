import { col, lit, scanCSV } from "gpudf";

const cutoff = new Date("1995-03-15");
const opts = { tryParseDates: true };
const q3 = scanCSV("customer.csv", opts)
  .filter(col("c_mktsegment").eq("BUILDING"))
  .join(scanCSV("orders.csv", opts), { leftOn: "c_custkey", rightOn: "o_custkey" })
  .join(scanCSV("lineitem.csv", opts), { leftOn: "o_orderkey", rightOn: "l_orderkey" })
  .filter(col("o_orderdate").lt(lit(cutoff)).and(col("l_shipdate").gt(lit(cutoff))))
  .groupBy("o_orderkey", "o_orderdate", "o_shippriority")
  .agg(col("l_extendedprice").mul(lit(1).sub(col("l_discount"))).sum().alias("revenue"))
  .sort(["revenue", "o_orderdate"], { descending: [true, false] })
  .head(5);
console.log(q3.explain()); // filters pushed into the scans, only the columns used are parsed
const top = await q3.collect();
console.log(top);
top.dispose();
