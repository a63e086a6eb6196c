/**
 * Turning user input (JS arrays, typed arrays) into native columns. Inference and conversion run
 * natively; this module only routes the input.
 */
import { dtypeOfTypedArray, typeIdOf, type DType } from "./dtypes.js";
import { ensureDevice } from "./device.js";
import { InvalidArgumentError } from "./errors.js";
import { native, type ColumnHandle } from "./native/addon.js";

/** What a column can be built from. */
export type ColumnValues = readonly unknown[] | ArrayLike<unknown> | ArrayBufferView;

/** A native column from JS values; `dtype` converts, otherwise it is inferred. */
export function columnFromValues(values: ColumnValues, dtype?: DType): ColumnHandle {
  ensureDevice();
  const typed = dtypeOfTypedArray(values);
  if (typed !== undefined && (dtype === undefined || dtype === typed)) {
    // Typed arrays keep their type and are read in place (one native copy).
    const view = values as ArrayBufferView & { length: number };
    return native.importArrow(typeIdOf(typed), [
      { length: view.length, offset: 0, validity: null, offsets: null, values: view },
    ]);
  }
  let array: unknown[];
  if (Array.isArray(values)) array = values;
  else if (typed !== undefined) array = Array.from(values as unknown as ArrayLike<unknown>);
  else if (values !== null && typeof values === "object" && typeof (values as { length?: unknown }).length === "number") {
    // A JS array holds at most 2^32 - 1 values (Array.from throws a RangeError past it).
    const length = (values as { length: number }).length;
    if (!Number.isInteger(length) || length < 0 || length > 2 ** 32 - 1) {
      throw new InvalidArgumentError(`an array-like's length must be an integer in [0, 2^32 - 1], got ${length}`);
    }
    array = Array.from(values as ArrayLike<unknown>);
  } else throw new InvalidArgumentError("column values must be an array, a typed array or an array-like");
  return native.fromValues(array, dtype === undefined ? -1 : typeIdOf(dtype));
}
