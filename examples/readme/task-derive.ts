import { col, readCSV, when } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const derived = trips.withColumns(
  col("fare").add(col("tip").fillNull(0)).alias("total"),
  col("pickup_at").dt.hour().alias("hour"),
  when(col("fare").gt(20)).then("long").otherwise("short").alias("kind"),
);
console.log(derived.select("trip_id", "total", "hour", "kind").head(4));
