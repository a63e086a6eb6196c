/**
 * File access for the readers and writers: every failure becomes an IoError naming the path.
 */
import { readFile, writeFile } from "node:fs/promises";
import { readFileSync, writeFileSync } from "node:fs";

import { IoError } from "../errors.js";

function ioError(action: string, path: string, err: unknown): IoError {
  const reason = err instanceof Error ? err.message : String(err);
  return new IoError(`cannot ${action} ${path}: ${reason}`);
}

/** The whole file's bytes. */
export async function readBytes(path: string): Promise<Uint8Array> {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  try {
    return await readFile(path);
  } catch (err) {
    throw ioError("read", path, err);
  }
}

/** The whole file's bytes, synchronously. */
export function readBytesSync(path: string): Uint8Array {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  try {
    return readFileSync(path);
  } catch (err) {
    throw ioError("read", path, err);
  }
}

/** Writes (replaces) a file. */
export async function writeBytes(path: string, bytes: Uint8Array): Promise<void> {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  try {
    await writeFile(path, bytes);
  } catch (err) {
    throw ioError("write", path, err);
  }
}

/** Writes (replaces) a file, synchronously. */
export function writeBytesSync(path: string, bytes: Uint8Array): void {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  try {
    writeFileSync(path, bytes);
  } catch (err) {
    throw ioError("write", path, err);
  }
}

/** Runs a decoder; its failure (corrupt or foreign bytes) becomes an IoError naming the path. */
export function decodeOrThrow<T>(path: string, format: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof IoError) throw err;
    throw ioError(`decode ${format} file`, path, err);
  }
}
