/**
 * DataFrame's outputs: records, JSON-safe records and Arrow tables, and the writers (CSV,
 * NDJSON / JSON, Arrow IPC, Parquet), installed on the prototype by declaration merging so
 * src/dataframe.ts holds the frame itself. Each runs natively; the async writers off the JS
 * thread. A failed write leaves what was at the path.
 */
import type * as arrow from "apache-arrow";

import { tableOfColumns } from "./arrow.js";
import { DataFrame, framePartsOf } from "./dataframe.js";
import { jsonRecords } from "./json_values.js";
import { native } from "./native/addon.js";
import { writeCSV, writeCSVSync, type WriteCSVOptions } from "./io/csv.js";
import { writeIPC, writeIPCSync, type WriteIPCOptions } from "./io/ipc.js";
import { writeJsonText, writeJsonTextSync } from "./io/json.js";
import { writeParquet, type WriteParquetOptions } from "./io/parquet.js";

declare module "./dataframe.js" {
  interface DataFrame {
    /**
     * Rows as plain objects; values as Series.toArray gives them.
     *
     * @example
     * new DataFrame({ a: [1, 2] }).toRecords(); // [{ a: 1 }, { a: 2 }]
     */
    toRecords(): Record<string, unknown>[];

    /**
     * The rows as JSON-safe records, so `JSON.stringify(df)` writes them: int64 and uint64 as
     * numbers when they are safe integers and as decimal strings beyond ±(2^53 - 1), date32 as
     * "YYYY-MM-DD", timestamps as ISO 8601 strings (UTC, milliseconds), NaN and ±inf as null.
     *
     * @example
     * JSON.stringify(new DataFrame({ a: [1, 2], s: ["x", null] })); // '[{"a":1,"s":"x"},{"a":2,"s":null}]'
     */
    toJSON(): Record<string, unknown>[];

    /**
     * An apache-arrow Table built straight from the native buffers (no IPC round trip).
     *
     * @example
     * const table = df.toArrow();
     */
    toArrow(): arrow.Table;

    /**
     * Writes CSV to `path`, or resolves with the CSV text when no path is given. Formatting and
     * writing run natively, off the JS thread; a failed write leaves what was at the path. Reads
     * back exactly with readCSV(…, { dtypes: df.schema }).
     *
     * @example
     * await df.writeCSV("out.csv");
     * const text = await df.writeCSV(undefined, { sep: ";" });
     */
    writeCSV(path: string, options?: WriteCSVOptions): Promise<undefined>;
    writeCSV(path?: undefined, options?: WriteCSVOptions): Promise<string>;

    /**
     * writeCSV's blocking form: writes `path`, or returns the text when no path is given.
     *
     * @example
     * df.writeCSVSync("out.csv");
     * const text = df.writeCSVSync(undefined, { header: false });
     */
    writeCSVSync(path: string, options?: WriteCSVOptions): undefined;
    writeCSVSync(path?: undefined, options?: WriteCSVOptions): string;

    /**
     * Writes NDJSON (one object per line) to `path`, or resolves with the text when no path is
     * given. Formatting and writing run natively, off the JS thread; a failed write leaves what
     * was at the path. NaN and infinities are written as null; dates and timestamps as ISO-8601
     * strings.
     *
     * @example
     * await df.writeNDJSON("out.ndjson");
     * const text = await df.writeNDJSON();
     */
    writeNDJSON(path: string): Promise<undefined>;
    writeNDJSON(path?: undefined): Promise<string>;
    writeNDJSON(path?: string): Promise<string | undefined>;

    /** writeNDJSON's blocking form. @example df.writeNDJSONSync("out.ndjson"); */
    writeNDJSONSync(path: string): undefined;
    writeNDJSONSync(path?: undefined): string;
    writeNDJSONSync(path?: string): string | undefined;

    /**
     * Writes a JSON array of records (`[{...},{...}]`) to `path`, or resolves with the text when
     * no path is given; as writeNDJSON otherwise.
     *
     * @example
     * await df.writeJSON("out.json");
     */
    writeJSON(path: string): Promise<undefined>;
    writeJSON(path?: undefined): Promise<string>;
    writeJSON(path?: string): Promise<string | undefined>;

    /** writeJSON's blocking form. @example df.writeJSONSync("out.json"); */
    writeJSONSync(path: string): undefined;
    writeJSONSync(path?: undefined): string;
    writeJSONSync(path?: string): string | undefined;

    /**
     * Writes an Arrow IPC file ("file", the default) or stream, without blocking the event loop
     * on the file; a failed write leaves what was at the path.
     *
     * @example
     * await df.writeIPC("trips.arrow");
     */
    writeIPC(path: string, options?: WriteIPCOptions): Promise<void>;

    /**
     * writeIPC's blocking form.
     *
     * @example
     * df.writeIPCSync("trips.arrows", { format: "stream" });
     */
    writeIPCSync(path: string, options?: WriteIPCOptions): void;

    /**
     * Writes a Parquet file (zstd by default; "snappy" or "none"), in row groups of
     * `rowGroupSize` rows (default 1,048,576). Encoding runs natively, off the JS thread.
     *
     * @example
     * await df.writeParquet("trips.parquet", { compression: "snappy" });
     * await df.writeParquet("small-groups.parquet", { rowGroupSize: 100_000 });
     */
    writeParquet(path: string, options?: WriteParquetOptions): Promise<void>;
  }
}

const methods = {
  toRecords(this: DataFrame): Record<string, unknown>[] {
    const p = framePartsOf(this);
    return native.toRecords(p.names, p.handles, 0, p.height);
  },
  toJSON(this: DataFrame): Record<string, unknown>[] {
    return jsonRecords(this.toRecords(), this.columns, this.dtypes);
  },
  toArrow(this: DataFrame): arrow.Table {
    const p = framePartsOf(this);
    return tableOfColumns(p.names, p.handles);
  },
  async writeCSV(this: DataFrame, path?: string, options?: WriteCSVOptions): Promise<string | undefined> {
    const p = framePartsOf(this);
    return await writeCSV(p.names, p.handles, path, options);
  },
  writeCSVSync(this: DataFrame, path?: string, options?: WriteCSVOptions): string | undefined {
    const p = framePartsOf(this);
    return writeCSVSync(p.names, p.handles, path, options);
  },
  async writeNDJSON(this: DataFrame, path?: string): Promise<string | undefined> {
    const p = framePartsOf(this);
    return await writeJsonText(p.names, p.handles, true, path);
  },
  writeNDJSONSync(this: DataFrame, path?: string): string | undefined {
    const p = framePartsOf(this);
    return writeJsonTextSync(p.names, p.handles, true, path);
  },
  async writeJSON(this: DataFrame, path?: string): Promise<string | undefined> {
    const p = framePartsOf(this);
    return await writeJsonText(p.names, p.handles, false, path);
  },
  writeJSONSync(this: DataFrame, path?: string): string | undefined {
    const p = framePartsOf(this);
    return writeJsonTextSync(p.names, p.handles, false, path);
  },
  async writeIPC(this: DataFrame, path: string, options?: WriteIPCOptions): Promise<void> {
    framePartsOf(this); // DisposedError on a disposed frame
    await writeIPC(this, path, options);
  },
  writeIPCSync(this: DataFrame, path: string, options?: WriteIPCOptions): void {
    framePartsOf(this); // DisposedError on a disposed frame
    writeIPCSync(this, path, options);
  },
  async writeParquet(this: DataFrame, path: string, options: WriteParquetOptions = {}): Promise<void> {
    const p = framePartsOf(this);
    await writeParquet(p.names, p.handles, path, options);
  },
};
for (const [name, fn] of Object.entries(methods)) {
  Object.defineProperty(DataFrame.prototype, name, { value: fn, writable: true, configurable: true });
}
