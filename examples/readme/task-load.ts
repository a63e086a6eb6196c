import { readCSV } from "gpudf";

const trips = await readCSV("trips.csv", { tryParseDates: true }); // off the JS thread
console.log(trips.schema);
console.log(trips.head(3));
trips.dispose(); // native memory is freed now, not at the next GC
