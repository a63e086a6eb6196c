/**
 * gpudf quickstart: build a frame from JS arrays, inspect it, round-trip it through
 * Apache Arrow, reshape it, and free the native memory explicitly.
 *
 * Run: npm run example:quickstart   (GPUDF_DEVICE=cpu|cuda|auto picks the backend)
 */
import { isDeepStrictEqual } from "node:util";
import { tableFromArrays } from "apache-arrow";
import { DataFrame, device, fromArrow, memory } from "gpudf";

// 1. Which backend runs this process (chosen once, on first use).
const dev = device();
console.log(`device: ${dev.name} (${dev.reason})${dev.gpu ? ` on ${dev.gpu.name}` : ""}`);

// 2. A small trips table from plain JS arrays. Types are inferred per column:
//    number -> float64, bigint -> int64, string -> utf8, Date -> timestamp[ms];
//    typed arrays keep their type; null marks a missing value, NaN stays a float.
const trips = new DataFrame({
  trip_id: new Int32Array([101, 102, 103, 104, 105, 106]),
  vendor: ["acme", "zoom", "acme", null, "zoom", "acme"],
  fare: [12.5, 7.25, null, 30, NaN, 18],
  tip_cents: [150n, 0n, 225n, null, 90n, 300n],
  passengers: new Uint8Array([1, 2, 1, 3, 1, 4]),
  pickup: [
    new Date("2024-03-01T08:15:00Z"),
    new Date("2024-03-01T08:47:30.250Z"),
    new Date("2024-03-01T09:02:00Z"),
    new Date("2024-03-01T09:30:00Z"),
    null,
    new Date("2024-03-01T10:05:00Z"),
  ],
});
console.log(trips);
console.log("dtypes:", trips.dtypes);
console.log("shape:", trips.shape);

// 3. Arrow in: tableFromArrays dictionary-encodes string arrays; gpudf decodes them to utf8.
const cityTable = tableFromArrays({
  city: ["NYC", "SF", "NYC", "LA"],
  distance_km: new Float64Array([3.2, 11.0, 0.8, 24.5]),
});
const cities = fromArrow(cityTable);
console.log(cities);
console.log("cities schema:", cities.schema);

// 4. Arrow out and back in: the round trip keeps names, dtypes, values and nulls.
const arrowTrips = trips.toArrow();
console.log(
  "toArrow:",
  arrowTrips.numRows,
  "rows;",
  arrowTrips.schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(", "),
);
const roundTrip = fromArrow(arrowTrips);
const same =
  isDeepStrictEqual(roundTrip.dtypes, trips.dtypes) &&
  isDeepStrictEqual(roundTrip.toRecords(), trips.toRecords());
console.log("Arrow round trip identical:", same);
if (!same) throw new Error("Arrow round trip changed the data");

// 5. Reshape: pick and rename columns, then take rows. Each verb returns a new frame
//    and leaves its input unchanged; slice shares buffers (no copy).
const fares = trips.select("trip_id", "vendor", "fare", "pickup");
const renamed = fares.rename({ fare: "fare_usd", pickup: "pickup_at" });
const middle = renamed.slice(1, 3); // rows 1..3
const lastTwo = renamed.slice(-2); // a negative offset counts from the end
console.log(middle);
console.log(lastTwo);

// 6. Back to plain JS: records of the first rows (int64 comes back as bigint, timestamps as Date).
const head = trips.head(3);
console.log(head.toRecords());

// 7. Free native (host or device) memory now rather than waiting for the GC.
for (const df of [head, lastTwo, middle, renamed, fares, roundTrip, cities, trips]) df.dispose();
console.log("live native bytes after dispose:", memory());
