#!/usr/bin/env node
// Speed check (not a test) of a groupBy keyed on a joined dimension's attributes (TPC-H Q10's
// aggregation: 114794 joined rows grouped by seven customer and nation columns, five of them
// strings). Reports the AGGREGATE operator's time from gpudf's profile() and the whole query's,
// best and median of REPS runs after a warm-up, beside nodejs-polars' lazy form of the query.
// Needs the TPC-H data (node bench/tpch/gen/index.mjs --sf 1) and `npm run build`.
// Usage: node bench/micro/dimension_groupby.mjs [data dir = bench/data/tpch/sf1]
import { gpudf, pl } from "./peers.mjs";

const dir = process.argv[2] ?? "bench/data/tpch/sf1";
const REPS = 15;
const { col, lit } = gpudf;
const read = (t) => gpudf.readParquet(`${dir}/${t}.parquet`);
const [customer, orders, lineitem, nation] = await Promise.all(["customer", "orders", "lineitem", "nation"].map(read));
const plRead = (t) => pl.readParquet(`${dir}/${t}.parquet`).lazy();
const KEYS = ["c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment"];
const date = (iso) => lit(new Date(`${iso}T00:00:00Z`), "date32");

function q(lf) {
  return lf.customer
    .join(lf.orders.filter(col("o_orderdate").gte(date("1993-10-01")).and(col("o_orderdate").lt(date("1994-01-01")))), { leftOn: "c_custkey", rightOn: "o_custkey" })
    .join(lf.lineitem.filter(col("l_returnflag").eq("R")), { leftOn: "o_orderkey", rightOn: "l_orderkey" })
    .join(lf.nation, { leftOn: "c_nationkey", rightOn: "n_nationkey" })
    .groupBy(KEYS)
    .agg(col("l_extendedprice").mul(lit(1).sub(col("l_discount"))).sum().alias("revenue"));
}
function plQ(lf) {
  const d = (iso) => pl.lit(new Date(`${iso}T00:00:00Z`));
  return lf.customer
    .join(lf.orders.filter(pl.col("o_orderdate").gtEq(d("1993-10-01")).and(pl.col("o_orderdate").lt(d("1994-01-01")))), { leftOn: "c_custkey", rightOn: "o_custkey" })
    .join(lf.lineitem.filter(pl.col("l_returnflag").eq(pl.lit("R"))), { leftOn: "o_orderkey", rightOn: "l_orderkey" })
    .join(lf.nation, { leftOn: "c_nationkey", rightOn: "n_nationkey" })
    .groupBy(KEYS)
    .agg(pl.col("l_extendedprice").mul(pl.lit(1).sub(pl.col("l_discount"))).sum().alias("revenue"));
}
const lazy = { customer: customer.lazy(), orders: orders.lazy(), lineitem: lineitem.lazy(), nation: nation.lazy() };
const plLazy = { customer: plRead("customer"), orders: plRead("orders"), lineitem: plRead("lineitem"), nation: plRead("nation") };

const stats = (a) => {
  a.sort((x, y) => x - y);
  return `best ${a[0].toFixed(1)} ms, median ${a[a.length >> 1].toFixed(1)} ms`;
};
const agg = [], whole = [], peer = [];
let groups = 0, plGroups = 0;
for (let r = 0; r <= REPS; r++) {
  let t0 = performance.now();
  const { result, profile } = await q(lazy).profile({ optimizations: { pipelines: false } });
  const ms = performance.now() - t0;
  groups = result.height;
  result.dispose();
  t0 = performance.now();
  plGroups = plQ(plLazy).collectSync().height;
  const pms = performance.now() - t0;
  if (r === 0) continue; // warm-up
  whole.push(ms);
  peer.push(pms);
  for (const row of profile.toRecords()) if (String(row.name).startsWith("AGGREGATE")) agg.push((Number(row.end_us) - Number(row.start_us)) / 1000);
}
console.log(`groups: gpudf ${groups}, polars ${plGroups}`);
console.log(`gpudf AGGREGATE operator: ${stats(agg)}`);
console.log(`gpudf whole query (profile, pipelines off): ${stats(whole)}`);
console.log(`nodejs-polars lazy whole query: ${stats(peer)}`);
