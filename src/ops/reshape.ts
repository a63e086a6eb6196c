/**
 * unpivot (melt) and transpose, composed from native concat, casts, constant columns and
 * take: each output column is a handful of native calls, whatever the height.
 */
import { columnFromValues } from "../columns.js";
import { dtypeOfId, type DType } from "../dtypes.js";
import { InvalidArgumentError } from "../errors.js";
import { col, lit } from "../expr.js";
import { native, type ColumnHandle } from "../native/addon.js";
import { checkOptions } from "../suggest.js";
import { checkUniqueNames, disposeOnError, type FrameParts, type FrameResult } from "./frame.js";
import { castTo, checkColumns, columnOf, constantColumn, disposeAll, nameList, nullColumn, supertypeOf } from "./reshape_util.js";
import { evaluate } from "./select.js";

/** Options of `DataFrame.unpivot` (Polars' names). */
export interface UnpivotOptions {
  /** Columns kept as identifiers, repeated for every `on` column. Default: none. */
  index?: string | readonly string[];
  /** Columns whose values are stacked. Default: every column not in `index`. */
  on?: string | readonly string[];
  /** Name of the column holding the source column names. Default "variable". */
  variableName?: string;
  /** Name of the column holding the values. Default "value". */
  valueName?: string;
}

/** Options of `DataFrame.transpose`. */
export interface TransposeOptions {
  /** Add the column names as the first column. Default false. */
  includeHeader?: boolean;
  /** Name of that column. Default "column". */
  headerName?: string;
  /**
   * Names of the output columns: one per row, or the name of a column whose values (as text)
   * name them (that column is then left out). Default "column_0", "column_1", ….
   */
  columnNames?: string | readonly string[];
}

function stringOption(value: unknown, fallback: string, what: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string") throw new InvalidArgumentError(`${what} must be a string`);
  return value;
}

/** unpivot's options resolved against a schema (shared by the eager verb and the lazy plan). */
export function resolveUnpivot(
  frameNames: readonly string[],
  frameDtypes: readonly DType[],
  options: UnpivotOptions = {},
): { index: string[]; on: string[]; names: string[]; valueType: DType } {
  checkOptions("unpivot", options, ["index", "on", "variableName", "valueName"]);
  const schema: FrameParts = { names: frameNames, columns: [], height: 0 };
  const index = nameList(options.index, "unpivot `index`") ?? [];
  checkColumns(schema, index);
  const on = nameList(options.on, "unpivot `on`") ?? frameNames.filter((n) => !index.includes(n));
  checkColumns(schema, on);
  const variableName = stringOption(options.variableName, "variable", "unpivot `variableName`");
  const valueName = stringOption(options.valueName, "value", "unpivot `valueName`");
  const names = [...index, variableName, valueName];
  checkUniqueNames(names, " in the unpivot output");
  const dtypes = on.map((n) => frameDtypes[frameNames.indexOf(n)] as DType);
  // No `on` columns: no rows (the value column is utf8, as the variable column).
  const valueType: DType = on.length === 0 ? "utf8" : supertypeOf(dtypes, "unpivot");
  return { index, on, names, valueType };
}

/**
 * unpivot: the `index` columns repeated once per `on` column, a utf8 `variable` column naming
 * the source column, and the `on` columns stacked (cast to their common supertype) as `value`;
 * all rows of the first `on` column, then those of the next.
 */
export function unpivot(frame: FrameParts, options: UnpivotOptions = {}): FrameResult {
  const { index, on, names, valueType } = resolveUnpivot(frame.names, frame.columns.map((h) => dtypeOfId(h.typeId)), options);
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    const columns: ColumnHandle[] = [];
    const keep = (h: ColumnHandle): void => {
      made.push(h);
      columns.push(h);
    };
    if (on.length === 0) {
      for (const n of index) keep(columnOf(frame, n).slice(0, 0));
      keep(nullColumn("utf8", 0));
      keep(nullColumn("utf8", 0));
      return { names, columns };
    }
    for (const n of index) keep(native.concat(on.map(() => columnOf(frame, n))));
    const labels: ColumnHandle[] = [];
    const values: ColumnHandle[] = [];
    try {
      for (const n of on) {
        labels.push(constantColumn(n, frame.height));
        values.push(castTo(columnOf(frame, n), valueType));
      }
      keep(native.concat(labels));
      keep(native.concat(values));
    } finally {
      disposeAll(labels);
      disposeAll(values);
    }
    return { names, columns };
  });
}

/** The output names of transpose: given, from a column, or column_<i>. */
function transposeNames(frame: FrameParts, option: unknown): { names: string[]; skip?: string } {
  if (option === undefined) return { names: Array.from({ length: frame.height }, (_, j) => `column_${j}`) };
  if (typeof option === "string") {
    const values = native.toValues(columnOf(frame, option), 0, frame.height);
    return { names: values.map((v) => (v === null ? "null" : String(v))), skip: option };
  }
  const names = nameList(option, "transpose `columnNames`") as string[];
  if (names.length !== frame.height) {
    throw new InvalidArgumentError(`transpose: ${names.length} columnNames for ${frame.height} rows`);
  }
  return { names };
}

/**
 * transpose: row j becomes column j. Every column is cast to their common supertype (else
 * DtypeError); the columns are stacked once and each output column is one take from them.
 */
export function transpose(frame: FrameParts, options: TransposeOptions = {}): FrameResult {
  checkOptions("transpose", options, ["includeHeader", "headerName", "columnNames"]);
  const includeHeader = options.includeHeader ?? false;
  if (typeof includeHeader !== "boolean") throw new InvalidArgumentError("transpose `includeHeader` must be a boolean");
  const headerName = stringOption(options.headerName, "column", "transpose `headerName`");
  const { names: outNames, skip } = transposeNames(frame, options.columnNames);
  const sources = frame.names.filter((n) => n !== skip);
  const names = includeHeader ? [headerName, ...outNames] : outNames;
  checkUniqueNames(names, " in the transpose output");
  const made: ColumnHandle[] = [];
  return disposeOnError(made, () => {
    const columns: ColumnHandle[] = [];
    if (includeHeader) {
      const header = columnFromValues(sources, "utf8");
      made.push(header);
      columns.push(header);
    }
    if (sources.length === 0 || frame.height === 0) {
      if (frame.height > 0) throw new InvalidArgumentError("transpose: no columns to transpose");
      return { names, columns };
    }
    const dtype = supertypeOf(sources.map((n) => dtypeOfId(columnOf(frame, n).typeId)), "transpose");
    const width = sources.length;
    const casts = sources.map((n) => castTo(columnOf(frame, n), dtype));
    let stacked: ColumnHandle | undefined;
    let starts: ColumnHandle | undefined;
    try {
      stacked = native.concat(casts);
      // Row k of output column j is row j of source column k: stacked[k * height + j].
      starts = columnFromValues(Array.from({ length: width }, (_, k) => BigInt(k) * BigInt(frame.height)), "int64");
      const base: FrameParts = { names: ["s"], columns: [starts], height: width };
      for (let j = 0; j < frame.height; j++) {
        const idx = evaluate(base, col("s").add(lit(BigInt(j))), width);
        try {
          const [out] = native.take([stacked], idx, stacked.length);
          made.push(out as ColumnHandle);
          columns.push(out as ColumnHandle);
        } finally {
          idx.dispose();
        }
      }
    } finally {
      disposeAll(casts);
      stacked?.dispose();
      starts?.dispose();
    }
    return { names, columns };
  });
}
