import { col, scanCSV } from "gpudf";

const top = await scanCSV("trips.csv", { tryParseDates: true })
  .filter(col("pickup_at").dt.day().eq(1))
  .groupBy("vendor")
  .agg(col("fare").max().alias("best_fare"))
  .sort("vendor")
  .collect(); // the whole plan is optimised, then run natively off the JS thread
console.log(top.toRecords());
