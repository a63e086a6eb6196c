import { readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const cities = await readCSV("cities.csv");
const joined = trips.join(cities, { on: "city", how: "left" });
console.log(joined.select("trip_id", "city", "country", "population").head(3));
const unused = cities.join(trips, { on: "city", how: "anti" }); // cities with no trips
console.log(unused.toRecords());
