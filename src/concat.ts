/**
 * concat: frames stacked vertically, eagerly (DataFrames) or as a plan (LazyFrames).
 */
import { concat as concatFrames, type DataFrame } from "./dataframe.js";
import { InvalidArgumentError } from "./errors.js";
import { LazyFrame } from "./lazy/lazy_frame.js";
import { unionNode } from "./lazy/plan.js";

/**
 * Frames stacked vertically. Every frame must have the same column names in the same order
 * (else InvalidArgumentError) and the same dtypes (else DtypeError naming the column). An
 * array of LazyFrames gives a LazyFrame (the frames are checked when it is made).
 *
 * @example
 * import { concat } from "gpudf";
 * const all = concat([january, february, march]);
 * const lazyAll = concat([scanCSV("a.csv"), scanCSV("b.csv")]);
 */
export function concat(frames: readonly DataFrame[]): DataFrame;
export function concat(frames: readonly LazyFrame[]): LazyFrame;
export function concat(frames: readonly (DataFrame | LazyFrame)[]): DataFrame | LazyFrame {
  if (Array.isArray(frames) && frames.length > 0 && frames.every((f) => f instanceof LazyFrame)) {
    return new LazyFrame(unionNode((frames as LazyFrame[]).map((f) => f.plan)));
  }
  if (Array.isArray(frames) && frames.some((f) => f instanceof LazyFrame)) {
    throw new InvalidArgumentError("concat: mix of DataFrames and LazyFrames (call .lazy() on the DataFrames)");
  }
  return concatFrames(frames as DataFrame[]);
}
