/**
 * Reductions, describe() and valueCounts(): option checks here, all the work native
 * (native/ops/reduce). Rules and result dtypes: docs/semantics.md, "Reductions".
 */
import { DataFrame } from "../dataframe.js";
import type { DType } from "../dtypes.js";
import { InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { HandleBox, Series } from "../series.js";

/** Reduction kinds; the ids are native/ops/reduce/reduce.hpp's ReduceKind. */
export const REDUCE_KINDS = {
  sum: 0,
  mean: 1,
  min: 2,
  max: 3,
  count: 4,
  nullCount: 5,
  nUnique: 6,
  std: 7,
  var: 8,
  median: 9,
  quantile: 10,
  any: 11,
  all: 12,
  first: 13,
  last: 14,
  argMin: 15,
  argMax: 16,
  product: 17,
  len: 18,
} as const;

export type ReduceKind = keyof typeof REDUCE_KINDS;

/** A reduction's JS value, mapped as Series.toArray maps its result dtype. */
export type ReduceValue = number | bigint | string | boolean | Date | null;

/** Resolved options for std/var (ddof) and quantile (q). */
export interface ReduceOptions {
  ddof?: number;
  q?: number;
}

function checkDdof(ddof: unknown): number {
  if (typeof ddof !== "number" || !Number.isInteger(ddof) || ddof < 0) {
    throw new InvalidArgumentError(`ddof must be a non-negative integer, got ${String(ddof)}`);
  }
  return ddof;
}

function checkQuantile(q: unknown): number {
  if (typeof q !== "number" || !(q >= 0 && q <= 1)) {
    throw new InvalidArgumentError(`quantile must be a number in [0, 1], got ${String(q)}`);
  }
  return q;
}

/** The one-row native result of `kind` over `column`, as a JS value. */
export function reduceColumn(column: ColumnHandle, kind: ReduceKind, options: ReduceOptions = {}): ReduceValue {
  const ddof = options.ddof === undefined ? 1 : checkDdof(options.ddof);
  const q = kind === "quantile" ? checkQuantile(options.q) : 0.5;
  const result = native.reduce(column, REDUCE_KINDS[kind], ddof, q);
  try {
    return native.toValues(result, 0, 1)[0] as ReduceValue;
  } finally {
    result.dispose();
  }
}

/** The rows of describe(), in order. */
export const DESCRIBE_STATISTICS = ["count", "null_count", "mean", "std", "min", "25%", "50%", "75%", "max"] as const;

const NUMERIC = new Set<DType>([
  "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "bool",
]);

function toNumber(v: ReduceValue): number | null {
  if (v === null) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return Number(v);
}

/** One describe() column: the statistics of a numeric column as numbers (null where undefined). */
function describeColumn(series: Series, dtype: DType): (number | null)[] {
  const r = (kind: ReduceKind, options?: ReduceOptions) => toNumber(series.withHandle((h) => reduceColumn(h, kind, options)));
  const isBool = dtype === "bool";
  // As Polars: a bool column has no std or percentiles.
  const spread = (kind: ReduceKind, q = 0.5) => (isBool ? null : r(kind, { q }));
  return [
    r("count"), r("nullCount"), r("mean"), spread("std"), r("min"),
    spread("quantile", 0.25), spread("quantile", 0.5), spread("quantile", 0.75), r("max"),
  ];
}

/** Builds a frame column by column (withColumn keeps the order, whatever the names). */
function frameOf(columns: Series[]): DataFrame {
  let df = new DataFrame();
  for (const series of columns) {
    const next = df.withColumn(series);
    df.dispose();
    series.dispose();
    df = next;
  }
  return df;
}

/**
 * Summary statistics (see DataFrame.describe): the "statistic" column, then one float64 column
 * per numeric (int, float, bool) column of `df`.
 */
export function describeFrame(df: DataFrame): DataFrame {
  const names = df.columns;
  const dtypes = df.dtypes;
  if (names.includes("statistic")) {
    throw new InvalidArgumentError('describe: a column is named "statistic"; rename it first');
  }
  const columns = [new Series("statistic", [...DESCRIBE_STATISTICS])];
  names.forEach((name, i) => {
    const dtype = dtypes[i] as DType;
    if (!NUMERIC.has(dtype)) return;
    const series = df.getColumn(name);
    try {
      columns.push(new Series(name, describeColumn(series, dtype), "float64"));
    } finally {
      series.dispose();
    }
  });
  return frameOf(columns);
}

/** See Series.valueCounts. */
export function valueCountsFrame(series: Series, sort: unknown): DataFrame {
  if (typeof sort !== "boolean") throw new InvalidArgumentError("valueCounts: sort must be a boolean");
  if (series.name === "count") {
    throw new InvalidArgumentError('valueCounts: the Series is named "count", like the counts column; rename it first');
  }
  const [values, counts] = series.withHandle((h) => native.valueCounts(h, sort));
  return frameOf([new Series(series.name, new HandleBox(values)), new Series("count", new HandleBox(counts))]);
}
