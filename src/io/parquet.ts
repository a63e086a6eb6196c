/**
 * Parquet, natively both ways. Writing (native/io/parquet_writer.cpp): pages encoded and
 * compressed in parallel off the JS thread, the Arrow schema stored in the footer
 * ("ARROW:schema") so every gpudf dtype reads back as itself. Reading
 * (native/io/parquet_reader.cpp, options resolved in ./parquet_read.ts): row groups x column
 * chunks decoded in parallel on the CPU pool, off the JS thread for readParquet.
 */
import { Field, Schema, Table, tableToIPC } from "apache-arrow";

import { arrowTypeOf } from "../dtypes.js";
import { dtypeOfHandle } from "../zones.js";
import { InvalidArgumentError, IoError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";

export {
  parquetMetadata,
  parquetSchema,
  readParquet,
  readParquetSync,
  type ParquetMetadata,
  type ReadParquetOptions,
  type ParquetSource,
} from "./parquet_read.js";

/** Options of DataFrame.writeParquet. */
export interface WriteParquetOptions {
  /**
   * Page compression; default "zstd" (through the system's libzstd; where it cannot be loaded,
   * the pages are zstd frames of stored blocks: valid zstd, but not smaller).
   */
  compression?: "zstd" | "snappy" | "none";
  /** Rows per row group (the last may hold fewer); default 1,048,576. */
  rowGroupSize?: number;
}

const DEFAULT_ROW_GROUP_SIZE = 1 << 20;

const CODECS = ["zstd", "snappy", "none"] as const;

/** The options as the native writer takes them; InvalidArgumentError when one is off. */
function resolveWriteOptions(options: WriteParquetOptions): { compression: (typeof CODECS)[number]; rowGroupSize: number } {
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("options must be an object");
  const compression = options.compression ?? "zstd";
  if (typeof compression !== "string" || !(CODECS as readonly string[]).includes(compression)) {
    throw new InvalidArgumentError(`compression must be "zstd", "snappy" or "none", got ${JSON.stringify(compression)}`);
  }
  const rowGroupSize = options.rowGroupSize ?? DEFAULT_ROW_GROUP_SIZE;
  if (!Number.isSafeInteger(rowGroupSize) || rowGroupSize < 1) {
    throw new InvalidArgumentError(`rowGroupSize must be a positive integer, got ${String(rowGroupSize)}`);
  }
  return { compression: compression as (typeof CODECS)[number], rowGroupSize };
}

/**
 * The Arrow schema as Arrow writers store it in a Parquet footer: the IPC schema message
 * (continuation marker, length, flatbuffer), base64-encoded.
 */
function arrowSchemaBase64(names: readonly string[], handles: readonly ColumnHandle[]): string {
  const schema = new Schema(names.map((n, i) => new Field(n, arrowTypeOf(dtypeOfHandle(handles[i] as ColumnHandle)), true)));
  const ipc = tableToIPC(new Table(schema), "stream");
  const length = new DataView(ipc.buffer, ipc.byteOffset, ipc.byteLength).getInt32(4, true);
  return Buffer.from(ipc.buffer, ipc.byteOffset, 8 + length).toString("base64");
}

/** Writes a frame's columns to a Parquet file (used by DataFrame.writeParquet). */
export async function writeParquet(
  names: readonly string[],
  handles: readonly ColumnHandle[],
  path: string,
  options: WriteParquetOptions = {},
): Promise<void> {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  const resolved = resolveWriteOptions(options);
  const arrowSchema = arrowSchemaBase64(names, handles);
  await native.writeParquet([...names], [...handles], { ...resolved, arrowSchema }, path);
}
