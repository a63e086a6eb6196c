/**
 * concat: frames stacked vertically (or side by side, or diagonally), eagerly (DataFrames) or
 * as a plan (LazyFrames, vertically).
 */
import { DataFrame, frameFromColumns, framePartsOf } from "./dataframe.js";
import { InvalidArgumentError } from "./errors.js";
import { LazyFrame } from "./lazy/lazy_frame.js";
import { unionNode } from "./lazy/plan.js";
import { concatParts, type ConcatHow } from "./ops/concat_how.js";
import { checkOptions } from "./suggest.js";

export type { ConcatHow } from "./ops/concat_how.js";

/** Options of `concat`. */
export interface ConcatOptions {
  /**
   * "vertical" (default): same names in the same order and the same dtypes. "verticalRelaxed":
   * same names, dtypes cast to their supertype. "horizontal": the columns side by side (names
   * must differ; shorter frames are padded with nulls). "diagonal": the union of the columns
   * (in order of first appearance), null where a frame lacks one; a column's dtypes must agree.
   * "diagonalRelaxed": as diagonal, dtypes cast to their supertype.
   */
  how?: ConcatHow;
}

const HOWS: readonly ConcatHow[] = ["vertical", "verticalRelaxed", "horizontal", "diagonal", "diagonalRelaxed"];

/**
 * Frames combined, stacked vertically by default. Vertically, every frame must have the same
 * column names in the same order (else InvalidArgumentError) and the same dtypes (else
 * DtypeError naming the column); `how` picks the other modes (ConcatOptions). An array of
 * LazyFrames gives a LazyFrame (vertical only; the frames are checked when it is made).
 *
 * @example
 * import { concat } from "gpudf";
 * const all = concat([january, february, march]);
 * const wide = concat([ids, scores], { how: "horizontal" });
 * const lazyAll = concat([scanCSV("a.csv"), scanCSV("b.csv")]);
 */
export function concat(frames: readonly DataFrame[], options?: ConcatOptions): DataFrame;
export function concat(frames: readonly LazyFrame[], options?: ConcatOptions): LazyFrame;
export function concat(frames: readonly (DataFrame | LazyFrame)[], options?: ConcatOptions): DataFrame | LazyFrame {
  checkOptions("concat", options, ["how"]);
  const how = options?.how ?? "vertical";
  if (!HOWS.includes(how)) throw new InvalidArgumentError(`concat \`how\` must be one of ${HOWS.join(", ")}`);
  if (Array.isArray(frames) && frames.length > 0 && frames.every((f) => f instanceof LazyFrame)) {
    if (how !== "vertical") throw new InvalidArgumentError(`concat: how "${how}" is not supported for LazyFrames (collect them first)`);
    return new LazyFrame(unionNode((frames as LazyFrame[]).map((f) => f.plan)));
  }
  if (Array.isArray(frames) && frames.some((f) => f instanceof LazyFrame)) {
    throw new InvalidArgumentError("concat: mix of DataFrames and LazyFrames (call .lazy() on the DataFrames)");
  }
  if (!Array.isArray(frames) || frames.length === 0) throw new InvalidArgumentError("concat expects a non-empty array of DataFrames");
  const parts = frames.map((f, k) => {
    if (!(f instanceof DataFrame)) throw new InvalidArgumentError(`concat: item ${k} is not a DataFrame`);
    return framePartsOf(f);
  });
  const r = concatParts(parts, how);
  return frameFromColumns(r.names, r.columns);
}
