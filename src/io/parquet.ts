/**
 * Parquet through parquet-wasm (the Rust arrow/parquet crates compiled to WebAssembly): Parquet
 * bytes <-> Arrow IPC stream <-> native columns. The Arrow schema is stored in the file's
 * metadata, so every gpudf dtype reads back as itself.
 */
import { tableFromIPC, tableToIPC } from "apache-arrow";
import * as pq from "parquet-wasm";

import type { DataFrame } from "../dataframe.js";
import { fromArrow } from "../dataframe.js";
import { InvalidArgumentError } from "../errors.js";
import { decodeOrThrow, readBytes, writeBytes } from "./files.js";

/** Options of readParquet. */
export interface ReadParquetOptions {
  /** Read only these columns (in this order). */
  columns?: readonly string[];
}

/** Options of DataFrame.writeParquet. */
export interface WriteParquetOptions {
  /** Page compression; default "zstd". */
  compression?: "zstd" | "snappy" | "none";
}

const CODECS = {
  zstd: pq.Compression.ZSTD,
  snappy: pq.Compression.SNAPPY,
  none: pq.Compression.UNCOMPRESSED,
} as const;

/**
 * Reads a Parquet file.
 *
 * @example
 * import { readParquet } from "gpudf";
 * const df = await readParquet("trips.parquet", { columns: ["vendor", "fare"] });
 */
export async function readParquet(path: string, options: ReadParquetOptions = {}): Promise<DataFrame> {
  const columns = options.columns;
  if (columns !== undefined && (!Array.isArray(columns) || columns.some((c) => typeof c !== "string"))) {
    throw new InvalidArgumentError("columns must be an array of column names");
  }
  const bytes = await readBytes(path);
  const table = decodeOrThrow(path, "Parquet", () => {
    const wasmTable = pq.readParquet(bytes, columns ? { columns: [...columns] } : undefined);
    return tableFromIPC(wasmTable.intoIPCStream());
  });
  const df = fromArrow(table);
  if (!columns) return df;
  // Keep the requested order (the reader returns file order).
  try {
    return df.select(...columns);
  } finally {
    df.dispose();
  }
}

/** Encodes a frame as Parquet bytes. */
export function toParquetBytes(df: DataFrame, options: WriteParquetOptions = {}): Uint8Array {
  const compression = options.compression ?? "zstd";
  const codec = CODECS[compression as keyof typeof CODECS];
  if (codec === undefined) {
    throw new InvalidArgumentError(`compression must be "zstd", "snappy" or "none", got ${JSON.stringify(compression)}`);
  }
  const wasmTable = pq.Table.fromIPCStream(tableToIPC(df.toArrow(), "stream"));
  const props = new pq.WriterPropertiesBuilder().setCompression(codec).build();
  return pq.writeParquet(wasmTable, props);
}

/** Writes a frame to a Parquet file (used by DataFrame.writeParquet). */
export async function writeParquet(df: DataFrame, path: string, options: WriteParquetOptions = {}): Promise<void> {
  await writeBytes(path, toParquetBytes(df, options));
}
