import { readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true });
const wide = trips.pivot({ on: "vendor", index: "city", values: "fare", aggregateFunction: "sum" });
console.log(wide);
const long = wide.unpivot({ index: "city", variableName: "vendor", valueName: "fare" });
console.log(long.sort(["city", "vendor"]).toRecords().slice(0, 2));
