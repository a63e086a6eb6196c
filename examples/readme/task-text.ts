import { col, readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const tagged = trips.select(
  "trip_id",
  col("note").str.contains("(?i)jfk|lax").alias("airport"),       // a regex, as in Polars
  col("note").str.extract("terminal (\\d+)", 1).cast("int32").alias("terminal"),
  col("pickup_at").dt.toString("%a %d %b").alias("day"),
);
console.log(tagged.filter(col("airport")).toRecords());
