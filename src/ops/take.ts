/**
 * take / sample: argument checks and the native calls (row work runs in native/ops/gather and
 * ops/sample).
 */
import { randomBytes } from "node:crypto";

import { columnFromValues, type ColumnValues } from "../columns.js";
import { dtypeOfId } from "../dtypes.js";
import { DtypeError, InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { Series } from "../series.js";
import { checkOptions } from "../suggest.js";

/** What `take` accepts as row indices. */
export type TakeIndices = readonly number[] | readonly bigint[] | ArrayBufferView | Series;

/** Options of `DataFrame.sample`. */
export interface SampleOptions {
  /** Same seed, same rows (on both backends). Default: a random seed. */
  seed?: number | bigint;
  /** Draw rows independently (a row may repeat). Default false. */
  withReplacement?: boolean;
}

/** The rows at `indices` of every column (bounds checked natively). */
export function takeColumns(columns: ColumnHandle[], height: number, indices: TakeIndices): ColumnHandle[] {
  let idx: ColumnHandle;
  if (indices instanceof Series) idx = indices.shareHandle();
  else if (Array.isArray(indices) || ArrayBuffer.isView(indices)) {
    idx = Array.isArray(indices) ? columnFromValues(indices, "int64") : columnFromValues(indices as ColumnValues);
  } else {
    throw new InvalidArgumentError("take expects an array, an integer typed array or an integer Series");
  }
  try {
    return native.take(columns, idx, height);
  } finally {
    idx.dispose();
  }
}

function resolveSeed(seed: unknown): bigint {
  if (seed === undefined) return randomBytes(8).readBigUInt64LE(0);
  if (typeof seed === "number" && Number.isSafeInteger(seed) && seed >= 0) return BigInt(seed);
  if (typeof seed === "bigint" && seed >= 0n && seed < 2n ** 64n) return seed;
  throw new InvalidArgumentError("sample `seed` must be a non-negative integer (number or bigint below 2^64)");
}

/** n sampled rows of every column. */
export function sampleColumns(columns: ColumnHandle[], height: number, n: unknown, opts: unknown): ColumnHandle[] {
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new InvalidArgumentError(`sample size must be a non-negative integer, got ${String(n)}`);
  }
  if (opts !== undefined && (opts === null || typeof opts !== "object")) throw new InvalidArgumentError("sample options must be an object");
  checkOptions("sample", opts, ["seed", "withReplacement"]);
  const o = (opts ?? {}) as SampleOptions;
  const replace = o.withReplacement ?? false;
  if (typeof replace !== "boolean") throw new InvalidArgumentError("sample `withReplacement` must be a boolean");
  return native.sample(columns, height, n, replace, resolveSeed(o.seed));
}
