// Writes small customer, orders and lineitem tables in TPC-H's layout (a few of its columns,
// deterministic values) for the TPC-H-style snippet.
import { writeFileSync } from "node:fs";

const segments = ["BUILDING", "AUTOMOBILE", "MACHINERY"];
const day = (n: number) => new Date(Date.UTC(1995, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
const customer = ["c_custkey,c_name,c_mktsegment"];
for (let c = 1; c <= 30; c++) customer.push(`${c},Customer#${String(c).padStart(9, "0")},${segments[c % 3]}`);
const orders = ["o_orderkey,o_custkey,o_orderdate,o_shippriority,o_comment"];
const lineitem = ["l_orderkey,l_linenumber,l_extendedprice,l_discount,l_shipdate,l_comment"];
for (let o = 1; o <= 120; o++) {
  orders.push(`${o},${1 + ((o * 7) % 30)},${day((o * 13) % 120)},0,order ${o}`);
  for (let l = 1; l <= 1 + (o % 4); l++) {
    lineitem.push(`${o},${l},${(1000 + ((o * 37 + l * 11) % 9000)).toFixed(2)},0.0${(o + l) % 10},${day(((o * 13) % 120) + l * 9)},line ${l}`);
  }
}
writeFileSync("customer.csv", customer.join("\n") + "\n");
writeFileSync("orders.csv", orders.join("\n") + "\n");
writeFileSync("lineitem.csv", lineitem.join("\n") + "\n");
