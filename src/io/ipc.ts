/**
 * Arrow IPC files and streams, through apache-arrow's reader and writer; the frame crosses to
 * and from native buffers with fromArrow / toArrow (no extra serialisation).
 */
import { tableFromIPC, tableToIPC } from "apache-arrow";

import type { DataFrame } from "../dataframe.js";
import { fromArrow } from "../dataframe.js";
import { InvalidArgumentError } from "../errors.js";
import { decodeOrThrow, readBytes, readBytesSync, writeBytes } from "./files.js";
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

/** Encodes a frame as Arrow IPC bytes. */
export function toIPCBytes(df: DataFrame, options: WriteIPCOptions = {}): Uint8Array {
  const format = options.format ?? "file";
  if (format !== "file" && format !== "stream") {
    throw new InvalidArgumentError(`format must be "file" or "stream", got ${JSON.stringify(format)}`);
  }
  return tableToIPC(df.toArrow(), format);
}

/** Writes a frame to an Arrow IPC file (used by DataFrame.writeIPC). */
export async function writeIPC(df: DataFrame, path: string, options: WriteIPCOptions = {}): Promise<void> {
  await writeBytes(path, toIPCBytes(df, options));
}
