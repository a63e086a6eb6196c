/**
 * Friendly failures for names: the nearest of the names that exist (for "did you mean"), the
 * list of available columns, and the check that an options object holds only known keys.
 */
import { ColumnNotFoundError, InvalidArgumentError } from "./errors.js";

/** Edit distance (insertions, deletions, substitutions; a swap of neighbours counts one). */
function distance(a: string, b: string): number {
  const al = a.length;
  const bl = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: bl + 1 }, (_, j) => j);
  for (let i = 1; i <= al; i++) {
    const row = [i];
    for (let j = 1; j <= bl; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prev2[j - 2] as number) + 1);
      row.push(d);
    }
    prev2 = prev;
    prev = row;
  }
  return prev[bl] as number;
}

/**
 * The candidate closest to `name` (case differences count as half an edit), or undefined when
 * none is close: one edit for names of up to 3 characters, else 2 or a third of the longer
 * name's characters, whichever is more.
 *
 * @example
 * nearestName("pric", ["price", "qty"]); // "price"
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c === name) return c;
    const folded = distance(name.toLowerCase(), c.toLowerCase());
    const score = folded + (distance(name, c) - folded) / 2;
    const longer = Math.max(name.length, c.length);
    const limit = longer <= 3 ? 1 : Math.max(2, Math.floor(longer / 3));
    if (score <= limit && score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

const SHOWN = 20;

/**
 * The tail of a column-not-found message: the nearest name and the available columns.
 *
 * @example
 * columnHint("pric", ["price", "qty"]); // ' (did you mean "price"?); available columns: "price", "qty"'
 */
export function columnHint(name: string, available: readonly string[]): string {
  const near = nearestName(name, available);
  const shown = available.slice(0, SHOWN).map((n) => JSON.stringify(n));
  const more = available.length > SHOWN ? `, … (${available.length} in all)` : "";
  const list = available.length === 0 ? "the frame has no columns" : `available columns: ${shown.join(", ")}${more}`;
  return `${near !== undefined ? ` (did you mean ${JSON.stringify(near)}?)` : ""}; ${list}`;
}

/**
 * Rejects an options object holding a key outside `known` with ERR_INVALID_ARGUMENT, naming
 * the nearest known key. Undefined options are fine; anything else but a plain object is not.
 *
 * @example
 * checkOptions("readCSV", { sepp: ";" }, ["sep", "hasHeader"]); // throws: did you mean "sep"?
 */
export function checkOptions(fn: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(`${fn}: options must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = nearestName(key, known);
    const hint = near !== undefined ? ` (did you mean "${near}"?)` : "";
    throw new InvalidArgumentError(`${fn}: unknown option "${key}"${hint}; options are ${known.join(", ")}`);
  }
}

/**
 * The error for a column a frame (or schema) lacks, naming the nearest and the available ones.
 *
 * @example
 * throw columnNotFound("pric", ["price", "qty"]);
 */
export function columnNotFound(name: string, available: readonly string[]): ColumnNotFoundError {
  return new ColumnNotFoundError(`column ${JSON.stringify(name)} not found${columnHint(name, available)}`);
}
