/**
 * JSON and NDJSON: the native reader (records parsed off the JS thread, NDJSON in parallel
 * chunks) and the writer (native/io/json_reader.cpp, json_writer.cpp). This module resolves
 * every option to the fully specified form the native side takes.
 */
import { readerTypeId, type DType } from "../dtypes.js";
import { ensureDevice } from "../device.js";
import type { DataFrame } from "../dataframe.js";
import { frameFromColumns } from "../dataframe.js";
import { InvalidArgumentError } from "../errors.js";
import { lit } from "../expr.js";
import { native, type ColumnHandle, type NativeJsonOptions } from "../native/addon.js";
import { checkOptions } from "../suggest.js";
import { expandPaths } from "./paths.js";

/** What the JSON readers read: a path, several, a glob, or the bytes of one document. */
export type JsonSource = string | readonly string[] | Uint8Array;

/** Options of readNDJSON / readJSON and their Sync forms. */
export interface ReadJSONOptions {
  /** Keep only these columns (by key), in this order; other keys are skipped unparsed. */
  columns?: readonly string[];
  /** Exactly these columns, in this order, with these dtypes (keys not named are skipped; a name no record has is all null). */
  schema?: Record<string, DType>;
  /** Dtypes by column name; other columns are inferred. */
  dtypes?: Record<string, DType>;
  /**
   * Records used to infer dtypes (default 100; 0 or Infinity: all). Every record is parsed before
   * the columns are built, so a later value that does not fit an inferred dtype widens it (as in
   * readCSV): a read's dtypes are those of all its values. scanNDJSON fixes its schema from
   * this many records.
   */
  inferSchemaLength?: number;
  /** Read at most this many records (over all files, in order). */
  nRows?: number;
  /** Add an int64 column first holding each record's position (from `offset`, default 0). */
  rowIndex?: string | { name: string; offset?: number };
}

const READ_OPTIONS = ["columns", "schema", "dtypes", "inferSchemaLength", "nRows", "rowIndex"] as const;

function dtypePairs(value: unknown, name: string): [string, number][] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError(`${name} must be an object of column name to dtype`);
  }
  return Object.entries(value as Record<string, DType>).map(([k, d]) => [k, readerTypeId(d, name)]);
}

function rowIndexOf(value: ReadJSONOptions["rowIndex"]): { name: string; offset: number } | null {
  if (value === undefined) return null;
  const name = typeof value === "string" ? value : value?.name;
  const offset = typeof value === "string" ? 0 : (value?.offset ?? 0);
  if (typeof name !== "string" || name === "" || !Number.isSafeInteger(offset) || offset < 0) {
    throw new InvalidArgumentError("rowIndex must be a column name or { name, offset } with a non-negative integer offset");
  }
  return { name, offset };
}

/** Every option resolved to the native form (`fn` names the caller in errors). */
export function resolveJsonOptions(options: ReadJSONOptions = {}, ndjson: boolean, fn: string): NativeJsonOptions {
  checkOptions(fn, options, READ_OPTIONS);
  const { columns, schema, dtypes, inferSchemaLength, nRows } = options;
  if (columns !== undefined && (!Array.isArray(columns) || columns.some((c) => typeof c !== "string"))) {
    throw new InvalidArgumentError(`${fn}: columns must be an array of column names`);
  }
  if (schema !== undefined && (columns !== undefined || dtypes !== undefined)) {
    throw new InvalidArgumentError(`${fn}: schema names the columns and their dtypes; it does not combine with columns or dtypes`);
  }
  if (nRows !== undefined && (!Number.isSafeInteger(nRows) || nRows < 0)) {
    throw new InvalidArgumentError(`${fn}: nRows must be a non-negative integer, got ${String(nRows)}`);
  }
  if (inferSchemaLength !== undefined && inferSchemaLength !== Infinity && (!Number.isSafeInteger(inferSchemaLength) || inferSchemaLength < 0)) {
    throw new InvalidArgumentError(`${fn}: inferSchemaLength must be a non-negative integer or Infinity`);
  }
  rowIndexOf(options.rowIndex);
  const schemaPairs = dtypePairs(schema, "schema");
  return {
    ndjson,
    nRows: nRows ?? -1,
    columns: schema !== undefined ? schemaPairs.map(([k]) => k) : [...(columns ?? [])],
    exactSchema: schema !== undefined,
    dtypesByName: schema !== undefined ? schemaPairs : dtypePairs(dtypes, "dtypes"),
  };
}

function sourcesOf(source: unknown, fn: string): string | string[] | Uint8Array {
  if (source instanceof Uint8Array) return source;
  const ok = typeof source === "string" || (Array.isArray(source) && source.length > 0 && source.every((s) => typeof s === "string"));
  if (!ok) throw new InvalidArgumentError(`${fn} expects a path, an array of paths, a glob or a Buffer`);
  const paths = expandPaths(source as string | string[]);
  return paths.length === 1 ? (paths[0] as string) : paths;
}

function finish(out: { names: string[]; columns: ColumnHandle[] }, options: ReadJSONOptions): DataFrame {
  const df = frameFromColumns(out.names, out.columns);
  const index = rowIndexOf(options.rowIndex);
  if (index === null) return df;
  try {
    const idx = lit(0).cumCount().cast("int64").sub(lit(BigInt(1 - index.offset))).alias(index.name);
    return df.select(idx, ...df.columns.filter((c) => c !== index.name));
  } finally {
    df.dispose();
  }
}

async function read(source: JsonSource, options: ReadJSONOptions, ndjson: boolean, fn: string): Promise<DataFrame> {
  const resolved = resolveJsonOptions(options, ndjson, fn);
  ensureDevice();
  return finish(await native.readJSON(sourcesOf(source, fn), resolved), options);
}

function readSync(source: JsonSource, options: ReadJSONOptions, ndjson: boolean, fn: string): DataFrame {
  const resolved = resolveJsonOptions(options, ndjson, fn);
  ensureDevice();
  return finish(native.readJSONSync(sourcesOf(source, fn), resolved), options);
}

/**
 * Reads newline-delimited JSON (one object per line; blank lines skipped) from a file, several
 * files, a glob or a Buffer as one frame. Parsing runs natively off the JS thread, the lines cut
 * into chunks parsed in parallel; the files' keys are unified (a key a record lacks is null).
 *
 * @example
 * import { readNDJSON } from "gpudf";
 * const df = await readNDJSON("events-*.ndjson", { columns: ["user", "ts"], dtypes: { ts: "timestamp[us]" } });
 */
export function readNDJSON(source: JsonSource, options: ReadJSONOptions = {}): Promise<DataFrame> {
  return read(source, options, true, "readNDJSON");
}

/**
 * readNDJSON on the calling thread.
 *
 * @example
 * const df = readNDJSONSync(Buffer.from('{"a":1}\n{"a":2,"b":"x"}\n'));
 */
export function readNDJSONSync(source: JsonSource, options: ReadJSONOptions = {}): DataFrame {
  return readSync(source, options, true, "readNDJSONSync");
}

/**
 * Reads a JSON document holding a top-level array of records (objects of scalar values) as a
 * frame, natively and off the JS thread (a large document in parallel chunks of records).
 *
 * @example
 * import { readJSON } from "gpudf";
 * const df = await readJSON(Buffer.from('[{"a":1,"b":"x"},{"a":2.5}]')); // a: float64, b: utf8
 */
export function readJSON(source: JsonSource, options: ReadJSONOptions = {}): Promise<DataFrame> {
  return read(source, options, false, "readJSON");
}

/**
 * readJSON on the calling thread.
 *
 * @example
 * const df = readJSONSync("records.json", { schema: { id: "int32", day: "date32" } });
 */
export function readJSONSync(source: JsonSource, options: ReadJSONOptions = {}): DataFrame {
  return readSync(source, options, false, "readJSONSync");
}

function checkPath(fn: string, path: unknown): void {
  if (path !== undefined && typeof path !== "string") throw new InvalidArgumentError(`${fn}: path must be a string`);
}

/**
 * Writes JSON (`ndjson`: one object per line; otherwise an array of objects) to `path` off the
 * JS thread, or resolves with the text when no path is given (used by DataFrame.writeNDJSON and
 * writeJSON). A failed write leaves what was at the path.
 */
export function writeJsonText(names: string[], columns: ColumnHandle[], ndjson: boolean, path: string | undefined): Promise<string | undefined> {
  checkPath(ndjson ? "writeNDJSON" : "writeJSON", path);
  return native.writeJSON(names, columns, ndjson, path ?? null);
}

/** writeJsonText's blocking form (used by DataFrame.writeNDJSONSync and writeJSONSync). */
export function writeJsonTextSync(names: string[], columns: ColumnHandle[], ndjson: boolean, path: string | undefined): string | undefined {
  checkPath(ndjson ? "writeNDJSONSync" : "writeJSONSync", path);
  return native.writeJSONSync(names, columns, ndjson, path ?? null);
}

function frameOf(df: unknown, fn: string): DataFrame {
  if (typeof df !== "object" || df === null || typeof (df as DataFrame).writeNDJSON !== "function") {
    throw new InvalidArgumentError(`${fn} expects a DataFrame`);
  }
  return df as DataFrame;
}

/**
 * Writes a frame as NDJSON to `path` (off the JS thread), or resolves with the text when no
 * path is given. Same as df.writeNDJSON(path).
 *
 * @example
 * import { writeNDJSON } from "gpudf";
 * await writeNDJSON(df, "out.ndjson");
 */
export function writeNDJSON(df: DataFrame, path?: string): Promise<string | undefined> {
  return frameOf(df, "writeNDJSON").writeNDJSON(path);
}

/** writeNDJSON's blocking form. @example writeNDJSONSync(df, "out.ndjson"); */
export function writeNDJSONSync(df: DataFrame, path?: string): string | undefined {
  return frameOf(df, "writeNDJSONSync").writeNDJSONSync(path);
}

/**
 * Writes a frame as a JSON array of records to `path` (off the JS thread), or resolves with the
 * text when no path is given. Same as df.writeJSON(path).
 *
 * @example
 * import { writeJSON } from "gpudf";
 * await writeJSON(df, "out.json");
 */
export function writeJSON(df: DataFrame, path?: string): Promise<string | undefined> {
  return frameOf(df, "writeJSON").writeJSON(path);
}

/** writeJSON's blocking form. @example writeJSONSync(df, "out.json"); */
export function writeJSONSync(df: DataFrame, path?: string): string | undefined {
  return frameOf(df, "writeJSONSync").writeJSONSync(path);
}
