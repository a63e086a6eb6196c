/**
 * Arrow IPC files and streams, through apache-arrow's reader and writer; the frame crosses to
 * and from native buffers with fromArrow / toArrow (no extra serialisation).
 */
import { RecordBatchFileWriter, RecordBatchStreamWriter, tableFromIPC, tableToIPC } from "apache-arrow";

import type { DataFrame } from "../dataframe.js";
import { framePartsOf, fromArrow } from "../dataframe.js";
import { tableOfColumnsAsync } from "../arrow.js";
import { InvalidArgumentError } from "../errors.js";
import { checkOptions } from "../suggest.js";
import { decodeOrThrow, readBytes, readBytesSync, writeBytesSync, writeChunks } from "./files.js";
import { validateIPCFraming } from "./ipc_validate.js";

/** Options of DataFrame.writeIPC. */
export interface WriteIPCOptions {
  /** "file" (random access, the default) or "stream". */
  format?: "file" | "stream";
}

function fromIPCBytes(path: string, bytes: Uint8Array): DataFrame {
  // The framing is checked first: apache-arrow's decoder trusts every length it reads.
  const table = decodeOrThrow(path, "Arrow IPC", () => {
    validateIPCFraming(bytes);
    return tableFromIPC(bytes);
  });
  return fromArrow(table);
}

/**
 * Reads an Arrow IPC file or stream (the format is detected from the bytes).
 *
 * @example
 * import { readIPC } from "gpudf";
 * const df = await readIPC("trips.arrow");
 */
export async function readIPC(path: string): Promise<DataFrame> {
  return fromIPCBytes(path, await readBytes(path));
}

/**
 * Reads an Arrow IPC file or stream synchronously.
 *
 * @example
 * const df = readIPCSync("trips.arrow");
 */
export function readIPCSync(path: string): DataFrame {
  return fromIPCBytes(path, readBytesSync(path));
}

function ipcFormat(options: WriteIPCOptions, fn: string): "file" | "stream" {
  checkOptions(fn, options, ["format"]);
  const format = options.format ?? "file";
  if (format !== "file" && format !== "stream") {
    throw new InvalidArgumentError(`format must be "file" or "stream", got ${JSON.stringify(format)}`);
  }
  return format;
}

/** Encodes a frame as Arrow IPC bytes. */
export function toIPCBytes(df: DataFrame, options: WriteIPCOptions = {}, fn = "writeIPC"): Uint8Array {
  const format = ipcFormat(options, fn);
  return tableToIPC(df.toArrow(), format);
}

/**
 * A frame's Arrow IPC encoding as the writer's chunks, in file order: message metadata and
 * padding, and views of the exported column buffers for the bodies. The columns are copied out
 * on a worker thread; the JS thread only frames the messages (the bodies are not joined).
 */
export async function toIPCChunks(df: DataFrame, options: WriteIPCOptions = {}, fn = "writeIPC"): Promise<Uint8Array[]> {
  const format = ipcFormat(options, fn);
  const p = framePartsOf(df);
  const table = await tableOfColumnsAsync(p.names, p.handles);
  const writer = format === "file" ? RecordBatchFileWriter.writeAll(table) : RecordBatchStreamWriter.writeAll(table);
  const chunks: Uint8Array[] = [];
  for await (const chunk of writer) chunks.push(chunk);
  return chunks;
}

/**
 * Writes a frame to an Arrow IPC file (used by DataFrame.writeIPC): the column bytes are copied
 * out on a worker thread, the JS thread frames the messages around them (metadata only, the
 * bodies are not joined) and libuv's thread pool writes the file, so the event loop stays free.
 * A failed write leaves what was at the path.
 */
export async function writeIPC(df: DataFrame, path: string, options?: WriteIPCOptions): Promise<void> {
  await writeChunks(path, await toIPCChunks(df, options, "writeIPC"));
}

/** writeIPC's blocking form (used by DataFrame.writeIPCSync). */
export function writeIPCSync(df: DataFrame, path: string, options?: WriteIPCOptions): void {
  writeBytesSync(path, toIPCBytes(df, options, "writeIPCSync"));
}
