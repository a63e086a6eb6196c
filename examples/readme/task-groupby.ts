import { col, len, readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const byCity = trips
  .groupBy("city")
  .agg(col("fare").sum().alias("fare_sum"), col("tip").mean().alias("tip_mean"), len().alias("trips"))
  .sort("fare_sum", { descending: true });
console.log(byCity); // tip_mean skips the missing tips, as pandas and Polars do
