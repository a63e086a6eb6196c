import { col, readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const ranked = trips.select(
  "trip_id", "city", "fare",
  col("fare").rank({ method: "dense", descending: true }).over("city").alias("rank_in_city"),
  col("fare").cumSum().over("city", { orderBy: "pickup_at" }).alias("running_fare"),
  col("fare").div(col("fare").sum().over("city")).round(3).alias("share_of_city"),
);
console.log(ranked);
