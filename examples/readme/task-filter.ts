import { col, readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const picked = trips.filter(col("fare").gt(10).and(col("city").isIn(["NYC", "LA"])));
console.log(picked.select("trip_id", "city", "fare").toRecords());
