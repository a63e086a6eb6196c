/**
 * CSV: the native, multi-threaded reader (readCSV parses off the JS thread) and the writer.
 * This module resolves every option to the fully specified form the native side takes.
 */
import { readerTypeId, type DType } from "../dtypes.js";
import { ensureDevice } from "../device.js";
import type { DataFrame } from "../dataframe.js";
import { frameFromColumns } from "../dataframe.js";
import { InvalidArgumentError } from "../errors.js";
import { native, type ColumnHandle, type NativeCsvOptions, type NativeCsvWriteOptions } from "../native/addon.js";
import { checkOptions } from "../suggest.js";

/** Options of readCSV / readCSVSync. */
export interface ReadCSVOptions {
  /** The first row holds column names (default true); otherwise columns are column_1, column_2… */
  hasHeader?: boolean;
  /** Field separator, one ASCII character (default ","). */
  sep?: string;
  /** Quote character (default '"'; a doubled quote inside quotes is one quote); "" disables quoting. */
  quoteChar?: string;
  /** Rows starting with this text are skipped. */
  commentPrefix?: string;
  /** Raw lines skipped before the header (default 0). */
  skipRows?: number;
  /** Read at most this many data rows. */
  nRows?: number;
  /** Keep only these columns, by name or 0-based index, in this order. */
  columns?: readonly string[] | readonly number[];
  /** Dtypes by column name (or, as an array, by position); other columns are inferred. */
  dtypes?: Record<string, DType> | readonly DType[];
  /** Unquoted fields equal to one of these are null (default: only the empty field). */
  nullValues?: string | readonly string[];
  /** Text read as true for bool columns (default "true", "True", "TRUE"). */
  trueValues?: readonly string[];
  /** Text read as false for bool columns (default "false", "False", "FALSE"). */
  falseValues?: readonly string[];
  /** Infer date32 (YYYY-MM-DD) and timestamp[us] (YYYY-MM-DD[T ]HH:MM[:SS[.f]]) columns. */
  tryParseDates?: boolean;
  /** Rows used to infer dtypes (default 100; 0 or Infinity: all rows). */
  inferSchemaLength?: number;
  /** Rows with too many fields are cut, too few are padded with nulls (default: an error). */
  truncateRaggedLines?: boolean;
  /** Only "utf8" (a leading BOM is skipped). */
  encoding?: "utf8";
  /** Called with (bytesDone, bytesTotal) while readCSV parses. */
  onProgress?: (bytesDone: number, bytesTotal: number) => void;
}

function count(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (value === Infinity) return -1;
  if (!Number.isInteger(value) || value < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
  return value;
}

function stringList(value: string | readonly string[] | undefined, name: string, fallback: string[]): string[] {
  if (value === undefined) return fallback;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
    throw new InvalidArgumentError(`${name} must be a string or an array of strings`);
  }
  return [...list];
}

const READ_OPTIONS = [
  "hasHeader", "sep", "quoteChar", "commentPrefix", "skipRows", "nRows", "columns", "dtypes", "nullValues",
  "trueValues", "falseValues", "tryParseDates", "inferSchemaLength", "truncateRaggedLines", "encoding", "onProgress",
] as const;

/** Every option resolved to the native form (`fn` names the caller in errors). */
export function resolveCsvOptions(options: ReadCSVOptions = {}, fn = "readCSV"): NativeCsvOptions {
  checkOptions(fn, options, READ_OPTIONS);
  if (options.encoding !== undefined && options.encoding !== "utf8") {
    throw new InvalidArgumentError(`encoding must be "utf8", got ${JSON.stringify(options.encoding)}`);
  }
  const columns = options.columns ?? [];
  if (!Array.isArray(columns)) throw new InvalidArgumentError("columns must be an array of names or indices");
  const columnNames = columns.filter((c): c is string => typeof c === "string");
  const columnIndices = columns.filter((c): c is number => typeof c === "number");
  if (columnNames.length && columnIndices.length) throw new InvalidArgumentError("columns mixes names and indices");
  if (columnIndices.some((i) => !Number.isInteger(i) || i < 0)) {
    throw new InvalidArgumentError("column indices must be non-negative integers");
  }
  const dtypesByName: [string, number][] = [];
  const dtypesByIndex: [number, number][] = [];
  if (Array.isArray(options.dtypes)) {
    options.dtypes.forEach((d, i) => dtypesByIndex.push([i, readerTypeId(d, "readCSV")]));
  } else if (options.dtypes !== undefined) {
    for (const [name, d] of Object.entries(options.dtypes)) dtypesByName.push([name, readerTypeId(d, "readCSV")]);
  }
  const infer = count(options.inferSchemaLength, "inferSchemaLength", 100);
  return {
    sep: options.sep ?? ",",
    quoteChar: options.quoteChar ?? '"',
    hasHeader: options.hasHeader ?? true,
    commentPrefix: options.commentPrefix ?? "",
    skipRows: count(options.skipRows, "skipRows", 0),
    nRows: count(options.nRows, "nRows", -1),
    nullValues: stringList(options.nullValues, "nullValues", [""]),
    trueValues: stringList(options.trueValues, "trueValues", ["true", "True", "TRUE"]),
    falseValues: stringList(options.falseValues, "falseValues", ["false", "False", "FALSE"]),
    tryParseDates: options.tryParseDates ?? false,
    inferSchemaLength: infer < 0 ? 0 : infer,
    truncateRaggedLines: options.truncateRaggedLines ?? false,
    columnNames,
    columnIndices,
    dtypesByName,
    dtypesByIndex,
  };
}

function checkSource(source: unknown): string | Uint8Array {
  if (typeof source === "string" || source instanceof Uint8Array) return source;
  throw new InvalidArgumentError("readCSV expects a path or a Buffer");
}

/**
 * Reads a CSV file (or Buffer) with the native multi-threaded parser, off the JS thread.
 *
 * @example
 * import { readCSV } from "gpudf";
 * const df = await readCSV("trips.csv", { dtypes: { vendor: "utf8" }, tryParseDates: true });
 */
export async function readCSV(source: string | Uint8Array, options: ReadCSVOptions = {}): Promise<DataFrame> {
  const resolved = resolveCsvOptions(options);
  ensureDevice();
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    throw new InvalidArgumentError("onProgress must be a function");
  }
  const out = await native.readCSV(checkSource(source), resolved, options.onProgress);
  return frameFromColumns(out.names, out.columns);
}

/**
 * Reads a CSV file (or Buffer) synchronously (same options as readCSV, without onProgress).
 *
 * @example
 * const df = readCSVSync(Buffer.from("a,b\n1,x\n"));
 */
export function readCSVSync(source: string | Uint8Array, options: ReadCSVOptions = {}): DataFrame {
  const resolved = resolveCsvOptions(options, "readCSVSync");
  ensureDevice();
  const out = native.readCSVSync(checkSource(source), resolved);
  return frameFromColumns(out.names, out.columns);
}

/** Options of DataFrame.writeCSV. */
export interface WriteCSVOptions {
  /** Field separator (default ","). */
  sep?: string;
  /** Quote character (default '"'). */
  quoteChar?: string;
  /** Write the column names first (default true). */
  header?: boolean;
  /**
   * "necessary" (default: strings that are empty or hold the separator, a quote, a line break or
   * the null text), "always" / "non_numeric" (every string), or "never".
   */
  quoteStyle?: "necessary" | "always" | "non_numeric" | "never";
  /** Text written for nulls (default: the empty field). */
  nullValue?: string;
}

const WRITE_OPTIONS = ["sep", "quoteChar", "header", "quoteStyle", "nullValue"] as const;

function resolveWriteOptions(fn: string, path: unknown, options: WriteCSVOptions | undefined): NativeCsvWriteOptions {
  if (path !== undefined && typeof path !== "string") throw new InvalidArgumentError(`${fn}: path must be a string`);
  checkOptions(fn, options, WRITE_OPTIONS);
  const o = options ?? {};
  const resolved = {
    sep: o.sep ?? ",",
    quoteChar: o.quoteChar ?? '"',
    header: o.header ?? true,
    quoteStyle: o.quoteStyle ?? "necessary",
    nullValue: o.nullValue ?? "",
  };
  if (typeof resolved.nullValue !== "string") throw new InvalidArgumentError(`${fn}: nullValue must be a string`);
  return resolved;
}

/**
 * Writes CSV to `path` off the JS thread, or resolves with the text when no path is given
 * (used by DataFrame.writeCSV). A failed write leaves what was at the path.
 */
export function writeCSV(
  names: string[],
  columns: ColumnHandle[],
  path: string | undefined,
  options?: WriteCSVOptions,
): Promise<string | undefined> {
  const resolved = resolveWriteOptions("writeCSV", path, options);
  return native.writeCSV(names, columns, resolved, path ?? null);
}

/** writeCSV's blocking form (used by DataFrame.writeCSVSync). */
export function writeCSVSync(
  names: string[],
  columns: ColumnHandle[],
  path: string | undefined,
  options?: WriteCSVOptions,
): string | undefined {
  const resolved = resolveWriteOptions("writeCSVSync", path, options);
  return native.writeCSVSync(names, columns, resolved, path ?? null);
}
