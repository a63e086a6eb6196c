/**
 * scanCSV / scanParquet / scanIPC / scanNDJSON: lazy frames over files. The schema is read when the scan is
 * made (CSV: inferred from the first `inferSchemaLength` rows, as Polars does; Parquet and IPC:
 * the file's schema; NDJSON: inferred from the first `inferSchemaLength` records), so later verbs are checked against it; the data is read by collect(),
 * only the columns the plan uses. Several paths, or a glob, read as one frame (their schemas
 * must agree).
 */
import { readFileSync } from "node:fs";

import * as arrow from "apache-arrow";

import { fromArrow } from "../dataframe.js";
import type { DType } from "../dtypes.js";
import { ensureDevice } from "../device.js";
import { InvalidArgumentError, IoError } from "../errors.js";
import { readCSVSync, resolveCsvOptions, type ReadCSVOptions } from "../io/csv.js";
import { decodeOrThrow } from "../io/files.js";
import { readNDJSONSync, resolveJsonOptions, type ReadJSONOptions } from "../io/json.js";
import { parquetSchema } from "../io/parquet.js";
import { expandPaths } from "../io/paths.js";
import { LazyFrame } from "./lazy_frame.js";
import { unionNode, type ScanSource, type Schema } from "./plan.js";

/** Options of scanCSV: readCSV's, less onProgress. */
export type ScanCSVOptions = Omit<ReadCSVOptions, "onProgress">;

function schemaOfFrame(df: { schema: Record<string, DType>; dispose(): void }): Schema {
  try {
    const s = df.schema;
    return { names: Object.keys(s), dtypes: Object.values(s) };
  } finally {
    df.dispose();
  }
}

function union(frames: LazyFrame[]): LazyFrame {
  return frames.length === 1 ? (frames[0] as LazyFrame) : new LazyFrame(unionNode(frames.map((f) => f.plan)));
}

export { expandPaths };

/**
 * A lazy frame over CSV files: only the columns the plan uses are parsed, natively, at collect().
 * Dtypes are inferred from the first `inferSchemaLength` rows (default 100) when the scan is
 * made and then fixed (a later value that does not parse as its column's dtype is an error at
 * collect; pass `dtypes` or a larger `inferSchemaLength`).
 *
 * @example
 * import { col, scanCSV } from "gpudf";
 * const big = await scanCSV("trips-*.csv").filter(col("fare").gt(100)).select("city", "fare").collect();
 */
export function scanCSV(source: string | readonly string[], options: ScanCSVOptions = {}): LazyFrame {
  if ((options as ReadCSVOptions).onProgress !== undefined) throw new InvalidArgumentError("scanCSV does not take onProgress");
  resolveCsvOptions(options, "scanCSV");
  ensureDevice();
  return union(
    expandPaths(source).map((path) => {
      const sampleRows = options.inferSchemaLength === 0 ? (options.nRows ?? Infinity) : Math.min(options.inferSchemaLength ?? 100, options.nRows ?? Infinity);
      const sample = readCSVSync(path, { ...options, nRows: sampleRows });
      const schema = schemaOfFrame(sample);
      // The full read parses the kept columns with the sampled dtypes and no inference.
      const resolved = resolveCsvOptions({ ...options, dtypes: Object.fromEntries(schema.names.map((n, i) => [n, schema.dtypes[i] as DType])) }, "scanCSV");
      const src: ScanSource = { type: "csv", path, options: resolved };
      return LazyFrame.scan(src, schema);
    }),
  );
}

/**
 * A lazy frame over Parquet files (the schema is read natively from each file's footer; the
 * data at collect(): only the columns the plan uses, and only the row groups whose statistics
 * can match a predicate pushed into the scan).
 *
 * @example
 * import { scanParquet } from "gpudf";
 * const lf = scanParquet("lineitem.parquet").select("l_quantity", "l_extendedprice");
 */
export function scanParquet(source: string | readonly string[]): LazyFrame {
  ensureDevice();
  return union(
    expandPaths(source).map((path) => {
      const schema = parquetSchema(path);
      return LazyFrame.scan({ type: "parquet", path }, { names: Object.keys(schema), dtypes: Object.values(schema) });
    }),
  );
}

/**
 * A lazy frame over Arrow IPC files or streams.
 *
 * @example
 * import { scanIPC } from "gpudf";
 * const lf = scanIPC("trips.arrow");
 */
export function scanIPC(source: string | readonly string[]): LazyFrame {
  ensureDevice();
  return union(
    expandPaths(source).map((path) => {
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(path);
      } catch (e) {
        throw new IoError(`cannot read ${path}: ${(e as Error).message}`);
      }
      const table = decodeOrThrow(path, "Arrow IPC", () => {
        const reader = arrow.RecordBatchReader.from(bytes);
        reader.open();
        return new arrow.Table(reader.schema);
      });
      return LazyFrame.scan({ type: "ipc", path }, schemaOfFrame(fromArrow(table)));
    }),
  );
}

/** Options of scanNDJSON: readNDJSON's, less rowIndex. */
export type ScanNDJSONOptions = Omit<ReadJSONOptions, "rowIndex">;

/**
 * A lazy frame over NDJSON files: at collect() only the keys the plan uses are parsed, natively
 * and in parallel. The schema is inferred from the first `inferSchemaLength` records (default
 * 100) when the scan is made and then fixed: a key first seen later is not read, and a later
 * value that its column's dtype cannot hold is an error at collect (pass `schema` or `dtypes`,
 * or a larger `inferSchemaLength`).
 *
 * @example
 * import { col, scanNDJSON } from "gpudf";
 * const out = await scanNDJSON("events-*.ndjson").filter(col("ms").gt(100)).select("user", "ms").collect();
 */
export function scanNDJSON(source: string | readonly string[], options: ScanNDJSONOptions = {}): LazyFrame {
  if ((options as ReadJSONOptions).rowIndex !== undefined) throw new InvalidArgumentError("scanNDJSON does not take rowIndex");
  resolveJsonOptions(options, true, "scanNDJSON");
  ensureDevice();
  return union(
    expandPaths(source).map((path) => {
      const infer = options.inferSchemaLength ?? 100;
      const limit = infer === 0 || infer === Infinity ? options.nRows : Math.min(infer, options.nRows ?? Infinity);
      const schema = schemaOfFrame(readNDJSONSync(path, { ...options, ...(limit === undefined ? {} : { nRows: limit }) }));
      return LazyFrame.scan({ type: "ndjson", path, nRows: options.nRows ?? null }, schema);
    }),
  );
}
