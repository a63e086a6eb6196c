/**
 * Arrow IPC files and streams, through apache-arrow's reader and writer; the frame crosses to
 * and from native buffers with fromArrow / toArrow (no extra serialisation).
 */
import { tableFromIPC, tableToIPC } from "apache-arrow";

import type { DataFrame } from "../dataframe.js";
import { fromArrow } from "../dataframe.js";
import { InvalidArgumentError } from "../errors.js";
import { checkOptions } from "../suggest.js";
import { decodeOrThrow, readBytes, readBytesSync, writeBytes, writeBytesSync } from "./files.js";
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
export function toIPCBytes(df: DataFrame, options: WriteIPCOptions = {}, fn = "writeIPC"): Uint8Array {
  checkOptions(fn, options, ["format"]);
  const format = options.format ?? "file";
  if (format !== "file" && format !== "stream") {
    throw new InvalidArgumentError(`format must be "file" or "stream", got ${JSON.stringify(format)}`);
  }
  return tableToIPC(df.toArrow(), format);
}

/**
 * Writes a frame to an Arrow IPC file (used by DataFrame.writeIPC): the table is encoded over
 * the native buffers (no copy of the values: the IPC body is their bytes), and the file is
 * written without blocking the event loop. A failed write leaves what was at the path.
 */
export async function writeIPC(df: DataFrame, path: string, options?: WriteIPCOptions): Promise<void> {
  await writeBytes(path, toIPCBytes(df, options, "writeIPC"));
}

/** writeIPC's blocking form (used by DataFrame.writeIPCSync). */
export function writeIPCSync(df: DataFrame, path: string, options?: WriteIPCOptions): void {
  writeBytesSync(path, toIPCBytes(df, options, "writeIPCSync"));
}
