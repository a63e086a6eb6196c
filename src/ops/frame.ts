/**
 * What the verb modules in src/ops/ see of a DataFrame: names, native handles and height.
 * Verbs return new names and handles (owned by the caller); the DataFrame wraps them.
 */
import { InvalidArgumentError } from "../errors.js";
import type { ColumnHandle } from "../native/addon.js";
import { sameZone } from "../zones.js";

/** A frame's parts, borrowed (the handles stay owned by the frame). */
export interface FrameParts {
  readonly names: readonly string[];
  readonly columns: readonly ColumnHandle[];
  readonly height: number;
}

/** A verb's result: new handles the caller owns. */
export interface FrameResult {
  names: string[];
  columns: ColumnHandle[];
}

/** Disposes handles made so far when building a result fails, then rethrows. */
export function disposeOnError<T>(made: ColumnHandle[], body: () => T): T {
  try {
    return body();
  } catch (err) {
    for (const h of made) h.dispose();
    throw err;
  }
}

/** A new handle sharing `h`'s buffers. */
export function share(h: ColumnHandle): ColumnHandle {
  return sameZone(h, h.slice(0, h.length));
}

/** Throws InvalidArgumentError on a non-string or repeated name; `hint` ends the message. */
export function checkUniqueNames(names: readonly unknown[], hint = ""): void {
  const seen = new Set<unknown>();
  for (const n of names) {
    if (typeof n !== "string") throw new InvalidArgumentError("column names must be strings");
    if (seen.has(n)) throw new InvalidArgumentError(`duplicate column name "${n}"${hint}`);
    seen.add(n);
  }
}
