import { DataFrame, col, device, len, readCSV, readNDJSON, when } from "gpudf";

console.log(device().name); // "cpu" here — "cuda" where a GPU and driver are present

const df = new DataFrame({
  city: ["NYC", "SF", null, "NYC"],
  fare: [12.5, 8, 30, 41],
  trips: new Int32Array([3, 1, 7, 2]),
});
console.log(df);            // boxed table with shape and dtypes
console.log(df.dtypes);     // [ 'utf8', 'float64', 'int32' ]

const out = df
  .filter(col("fare").gt(10).and(col("city").eq("NYC")))
  .withColumns(col("fare").sub(col("fare").mean()).alias("vs_mean"),
               when(col("trips").gt(2)).then("busy").otherwise("quiet").alias("load"))
  .sort("fare", { descending: true });
console.log(out.toRecords()); // [{ city: 'NYC', fare: 41, trips: 2, vs_mean: 14.25, load: 'quiet' }, …]

const byCity = df
  .groupBy("city", { maintainOrder: true })          // null keys form their own group
  .agg(col("fare").sum().alias("total"), col("fare").max().sub(col("fare").min()).alias("range"), len());
const names = new DataFrame({ city: ["NYC", "SF"], name: ["New York", "San Francisco"] });
const joined = byCity.join(names, { on: "city", how: "left" }); // hash join; no match -> nulls
console.log(joined.toRecords());

const table = out.toArrow(); // apache-arrow Table, built straight from native buffers
console.log(table.numRows);  // 2
await out.writeParquet("out.parquet");
await out.writeCSV("out.csv");  // written natively, off the JS thread (writeCSVSync blocks)
const back = await readCSV("out.csv", { tryParseDates: true }); // parsed natively, off the JS thread
console.log(back.shape);     // [ 2, 5 ]: height, width
await out.writeNDJSON("out.ndjson"); // writeJSON: an array of records
const events = await readNDJSON("out.ndjson"); // NDJSON (readJSON: an array of records), in parallel
console.log(events.columns); // [ 'city', 'fare', 'trips', 'vs_mean', 'load' ]
df.dispose();               // frees native memory now (the GC is only the safety net)
out.dispose(); back.dispose(); events.dispose();
byCity.dispose(); names.dispose(); joined.dispose();
