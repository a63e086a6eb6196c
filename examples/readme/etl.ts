import { col, len, readCSV, readParquet, when } from "gpudf";

// 1. Load: dates are recognised while parsing (tryParseDates), off the JS thread.
const orders = await readCSV("orders.csv", { tryParseDates: true });
const customers = await readCSV("customers.csv");
console.log(orders.schema);  // { order_id: 'int64', customer_id: 'int64', ordered_at: 'date32', status: 'utf8', amount: 'float64' }

// 2. Clean: tidy the text, drop cancelled orders, a missing amount counts as 0.
const clean = orders
  .withColumns(col("status").str.strip().str.toLowerCase().alias("status"),
               col("amount").fillNull(0))
  .filter(col("status").neq("cancelled"));

// 3. Derive: the month of each order, and returns as negative revenue.
const derived = clean.withColumns(
  col("ordered_at").dt.truncate("1mo").alias("month"),
  when(col("status").eq("returned")).then(col("amount").neg()).otherwise(col("amount")).alias("revenue"),
);

// 4. Join the customers (orders of unknown customers are kept, with null names).
const joined = derived.join(customers, { on: "customer_id", how: "left" });

// 5. Aggregate per month and country, largest revenue first.
const report = joined
  .groupBy(["month", "country"])
  .agg(col("revenue").sum().alias("revenue"), len().alias("orders"))
  .sort(["month", "revenue"], { descending: [false, true] });
console.log(report);

// 6. Write Parquet, and read it back to check.
await report.writeParquet("monthly_revenue.parquet");
const back = await readParquet("monthly_revenue.parquet");
console.log(back.shape, JSON.stringify(back) === JSON.stringify(report)); // [ 8, 4 ] true

for (const f of [orders, customers, clean, derived, joined, report, back]) f.dispose();
