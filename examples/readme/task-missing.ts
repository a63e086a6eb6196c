import { col, readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
console.log(trips.select(col("tip").isNull().sum().alias("missing_tips")).toRecords());
const filled = trips.select("trip_id", col("tip").forwardFill().alias("tip_ffill"), col("tip").fillNull(0).alias("tip_zero"));
console.log(filled.head(3).toRecords());
console.log(trips.dropNulls("tip").height); // rows that have a tip
