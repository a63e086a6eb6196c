/**
 * File access for the readers and writers: every failure becomes an IoError naming the path.
 */
import { open, readFile, rename, unlink, type FileHandle } from "node:fs/promises";
import { lstatSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

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

let tempCount = 0;

/**
 * Where a write goes so that a failure leaves the path as it was (the native writers' rule,
 * native/io/file_sink.hpp): a regular file or a new path is written to a temporary file beside
 * it (`temp`) and renamed over it; a path that is not a regular file (a device, a FIFO) is
 * written in place and never removed. A symbolic link is followed.
 */
function placeOf(path: string): { target: string; temp: string | null } {
  let target = path;
  try {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync(path);
  } catch {
    // absent, or a dangling link: written as a new file at the path
  }
  let regular = true;
  try {
    regular = statSync(target).isFile();
  } catch {
    // a new file
  }
  return { target, temp: regular ? join(dirname(target), `.${basename(target)}.gpudf-${process.pid}-${tempCount++}.tmp`) : null };
}

/** Most buffers handed to one writev call (under every system's IOV_MAX). */
const WRITEV_BATCH = 512;

/** Writes every byte of `chunks` in order through libuv's thread pool (partial writes resumed). */
async function writeAll(fh: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  for (let at = 0; at < chunks.length; ) {
    const batch = chunks.slice(at, at + WRITEV_BATCH).filter((c) => c.byteLength > 0);
    at += WRITEV_BATCH;
    while (batch.length > 0) {
      let { bytesWritten } = await fh.writev(batch);
      while (batch.length > 0 && bytesWritten >= batch[0]!.byteLength) bytesWritten -= batch.shift()!.byteLength;
      if (bytesWritten > 0) batch[0] = batch[0]!.subarray(bytesWritten);
    }
  }
}

/**
 * Writes (replaces) a file from byte chunks, in order, without joining them on the JS thread; a
 * failure leaves what was at the path untouched.
 */
export async function writeChunks(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  const { target, temp } = placeOf(path);
  let fh: FileHandle | null = null;
  try {
    fh = await open(temp ?? target, temp === null ? "w" : "wx");
    await writeAll(fh, chunks);
    await fh.close();
    fh = null;
    if (temp !== null) await rename(temp, target);
  } catch (err) {
    if (fh !== null) await fh.close().catch(() => undefined);
    if (temp !== null) await unlink(temp).catch(() => undefined);
    throw ioError("write", path, err);
  }
}

/** Writes (replaces) a file; a failure leaves what was at the path untouched. */
export async function writeBytes(path: string, bytes: Uint8Array): Promise<void> {
  await writeChunks(path, [bytes]);
}

/** Writes (replaces) a file, synchronously; a failure leaves what was at the path untouched. */
export function writeBytesSync(path: string, bytes: Uint8Array): void {
  if (typeof path !== "string") throw new IoError("a path must be a string");
  const { target, temp } = placeOf(path);
  try {
    if (temp === null) {
      writeFileSync(target, bytes);
      return;
    }
    writeFileSync(temp, bytes, { flag: "wx" });
    renameSync(temp, target);
  } catch (err) {
    if (temp !== null) {
      try {
        unlinkSync(temp);
      } catch {
        // never created
      }
    }
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
