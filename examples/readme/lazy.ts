import { col, len, scanCSV } from "gpudf";

const lf = scanCSV("trips-*.csv")                       // schema read now; data at collect()
  .filter(col("fare").gt(0))
  .groupBy("city")
  .agg(col("fare").sum().alias("total"), len())
  .sort("total", { descending: true })
  .head(10);
console.log(lf.schema);      // { city: 'utf8', total: 'float64', len: 'int64' }, before running
console.log(lf.explain());   // the optimised plan (only city and fare are parsed)
const top = await lf.collect();
console.log(top.toRecords()); // [{ city: 'NYC', total: 53.5, len: 2n }, …] (int64 as bigint)
const { result, profile } = await lf.profile(); // the result, and rows in/out and time per operator
console.log(profile.columns); // [ 'name', 'rows_in', 'rows_out', 'start_us', 'end_us', 'copied_bytes' ]
top.dispose(); result.dispose(); profile.dispose();
