/**
 * Reading Parquet: options resolved here, files decoded natively (native/io/parquet_reader.cpp).
 * A read picks, per file, the row groups asked for whose statistics can match `filter`, reads
 * only the columns needed, then adds hive partition columns, the row index, and filters exactly.
 */
import { dirname, sep } from "node:path";

import { RecordBatchReader } from "apache-arrow";

import { ensureDevice } from "../device.js";
import { concat } from "../concat.js";
import { frameFromColumns, type DataFrame } from "../dataframe.js";
import { dtypeFromArrow, dtypeOfId, timeZoneOf, typeIdOf, withTimeZone, type DType } from "../dtypes.js";
import { tagZone } from "../zones.js";
import { InvalidArgumentError, ParquetError } from "../errors.js";
import { Expr, lit, type ExprNode } from "../expr.js";
import { native, type ColumnHandle, type NativeParquetMetadata, type NativeParquetReadOptions } from "../native/addon.js";
import { Series } from "../series.js";
import { validateIPCFraming } from "./ipc_validate.js";
import { columnsOf, mayMatch, type ColumnStats } from "./parquet_prune.js";
import { expandPaths } from "./paths.js";

/** What readParquet reads: a path, several, a glob, or the bytes of one file. */
export type ParquetSource = string | readonly string[] | Uint8Array;

/** Options of readParquet / readParquetSync. */
export interface ReadParquetOptions {
  /** Read only these columns (in this order); hive partition columns may be named too. */
  columns?: readonly string[];
  /** Read only these row groups (indices into each file's row groups). */
  rowGroups?: readonly number[];
  /** Stop after this many rows (after `filter`). */
  nRows?: number;
  /** Add an int64 column first holding each row's position in the files read (from `offset`). */
  rowIndex?: string | { name: string; offset?: number };
  /** Keep only the rows where this is true; row groups whose statistics cannot match are skipped. */
  filter?: Expr;
  /** Called as column chunks are decoded with (bytes done, bytes in all); readParquet only. */
  onProgress?: (done: number, total: number) => void;
}

/** @internal A predicate to prune row groups with, not applied (the query engine applies it). */
export const PRUNE_ONLY: unique symbol = Symbol("gpudf.parquet.pruneOnly");

const KEYS = new Set(["columns", "rowGroups", "nRows", "rowIndex", "filter", "onProgress"]);

/** Statistics and layout of one row group's column chunk. */
export interface ParquetColumnChunkMetadata {
  name: string;
  codec?: string;
  encodings?: string[];
  numValues?: number;
  /** File offsets of the chunk's first data page and its dictionary page (null: none). */
  dataPageOffset?: number;
  dictionaryPageOffset?: number | null;
  compressedSize?: number;
  uncompressedSize?: number;
  nullCount?: number | null;
  min?: number | bigint | string | boolean | null;
  max?: number | bigint | string | boolean | null;
}

/** What parquetMetadata returns. */
export interface ParquetMetadata {
  numRows: number;
  createdBy: string;
  /** The gpudf dtype each column reads as (null: a nested column, not readable yet). */
  schema: { name: string; dtype: DType | null; nullable: boolean; parquetType: string }[];
  rowGroups: { numRows: number; totalByteSize: number; compressedSize: number; columns: ParquetColumnChunkMetadata[] }[];
  keyValueMetadata: Record<string, string>;
}

function checkSource(source: unknown): void {
  const ok =
    typeof source === "string" ||
    source instanceof Uint8Array ||
    (Array.isArray(source) && source.length > 0 && source.every((s) => typeof s === "string"));
  if (!ok) throw new InvalidArgumentError("readParquet expects a path, an array of paths, a glob or a Buffer");
}

function resolveOptions(options: ReadParquetOptions): void {
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("options must be an object");
  for (const k of Object.keys(options)) {
    if (!KEYS.has(k)) throw new InvalidArgumentError(`unknown readParquet option "${k}"`);
  }
  const { columns, rowGroups, nRows, rowIndex, filter, onProgress } = options;
  if (columns !== undefined && (!Array.isArray(columns) || columns.some((c) => typeof c !== "string"))) {
    throw new InvalidArgumentError("columns must be an array of column names");
  }
  if (rowGroups !== undefined && (!Array.isArray(rowGroups) || rowGroups.some((g) => !Number.isSafeInteger(g) || g < 0))) {
    throw new InvalidArgumentError("rowGroups must be an array of non-negative integers");
  }
  if (nRows !== undefined && (!Number.isSafeInteger(nRows) || nRows < 0)) {
    throw new InvalidArgumentError(`nRows must be a non-negative integer, got ${String(nRows)}`);
  }
  if (rowIndex !== undefined) {
    const name = typeof rowIndex === "string" ? rowIndex : rowIndex?.name;
    const offset = typeof rowIndex === "string" ? 0 : (rowIndex?.offset ?? 0);
    if (typeof name !== "string" || name === "" || !Number.isSafeInteger(offset) || offset < 0) {
      throw new InvalidArgumentError("rowIndex must be a column name or { name, offset } with a non-negative integer offset");
    }
  }
  if (filter !== undefined && !(filter instanceof Expr)) throw new InvalidArgumentError("filter must be an Expr");
  if (onProgress !== undefined && typeof onProgress !== "function") throw new InvalidArgumentError("onProgress must be a function");
}

/** The dtype ids the footer's Arrow schema asks for, by column name (empty when there is none). */
function arrowHints(base64: string): [string, number][] {
  return arrowDTypes(base64).map(([n, d]) => [n, typeIdOf(d)]);
}

/** The zones of the footer's Arrow schema's zoned timestamps, by column name. */
function arrowZones(base64: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [n, d] of arrowDTypes(base64)) {
    const z = timeZoneOf(d);
    if (z !== undefined) out.set(n, z);
  }
  return out;
}

/** A frame of a file's columns; timestamps named as zoned in its Arrow schema take the zone. */
function zonedFrame(out: { names: string[]; columns: ColumnHandle[] }, zones: ReadonlyMap<string, string>): DataFrame {
  out.columns.forEach((h, i) => {
    const z = zones.get(out.names[i] as string);
    if (z !== undefined) tagZone(h, z);
  });
  return frameFromColumns(out.names, out.columns);
}

/** The dtypes the footer's Arrow schema asks for, by column name (empty when there is none). */
function arrowDTypes(base64: string): [string, DType][] {
  if (base64 === "") return [];
  try {
    const bytes = Buffer.from(base64, "base64");
    // The framing is checked first, as for IPC files: apache-arrow's decoder trusts every length
    // it reads, and a mutated schema could make it build fields without end.
    validateIPCFraming(bytes);
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    const out: [string, DType][] = [];
    for (const f of reader.schema.fields) {
      try {
        out.push([f.name, dtypeFromArrow(f.type)]);
      } catch {
        // A type gpudf has no dtype for: the Parquet types decide.
      }
    }
    return out;
  } catch {
    return [];
  }
}

/** Hive partitions of a path: the `key=value` folders it lies in, outermost first. */
function hivePartitions(path: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of dirname(path).split(sep)) {
    const eq = part.indexOf("=");
    if (eq > 0) out.push([part.slice(0, eq), decodeURIComponent(part.slice(eq + 1))]);
  }
  return out;
}

interface FilePlan {
  source: string | Uint8Array;
  meta: NativeParquetMetadata;
  native: NativeParquetReadOptions;
  /** Zoned timestamps of the footer's Arrow schema, by column name. */
  zones: Map<string, string>;
  /** The row index's first value of each row group read, and its rows. */
  groups: { start: number; rows: number }[];
}

interface ReadPlan {
  files: FilePlan[];
  /** Hive columns: name, dtype, value per file. */
  hive: { name: string; dtype: "int64" | "utf8"; values: string[] }[];
  output: string[] | undefined;
}

function plan(source: ParquetSource, options: ReadParquetOptions): ReadPlan {
  ensureDevice();
  checkSource(source);
  resolveOptions(options);
  const sources: (string | Uint8Array)[] = source instanceof Uint8Array ? [source] : expandPaths(source as string | string[]);
  const metas = sources.map((s) => native.parquetMetadata(s));
  // Hive columns: the keys of the first file's folders; every file must have the same keys.
  const parts = sources.map((s) => (typeof s === "string" ? hivePartitions(s) : []));
  const keys = (parts[0] ?? []).map(([k]) => k);
  parts.forEach((p, i) => {
    if (p.length !== keys.length || p.some(([k], j) => k !== keys[j])) {
      throw new ParquetError(`${String(sources[i])}: hive partition folders differ from ${String(sources[0])}'s`);
    }
  });
  const fileColumns = new Set((metas[0]?.columns ?? []).map((c) => c.name));
  const hive = keys
    .filter((k) => !fileColumns.has(k))
    .map((k) => {
      const values = parts.map((p) => (p.find(([key]) => key === k) as [string, string])[1]);
      const dtype: "int64" | "utf8" = values.every((v) => /^[+-]?\d{1,18}$/.test(v)) ? "int64" : "utf8";
      return { name: k, dtype, values };
    });
  const hiveNames = new Set(hive.map((h) => h.name));
  // Schemas must agree (names and dtypes of the first file).
  const schemaOf = (m: NativeParquetMetadata) => m.columns.map((c) => `${c.name}:${c.typeId}`).join(",");
  metas.forEach((m, i) => {
    if (schemaOf(m) !== schemaOf(metas[0] as NativeParquetMetadata)) {
      throw new ParquetError(`${String(sources[i])}: its schema differs from ${String(sources[0])}'s`);
    }
  });
  const filterNode = options.filter?.node ?? (options as { [PRUNE_ONLY]?: ExprNode })[PRUNE_ONLY];
  const needed =
    options.columns === undefined
      ? undefined
      : [...new Set([...options.columns, ...(filterNode ? columnsOf(filterNode) : [])])].filter((c) => !hiveNames.has(c));
  let rowBase = 0;
  const files = sources.map((src, i): FilePlan => {
    const meta = metas[i] as NativeParquetMetadata;
    const wanted = options.rowGroups ?? meta.rowGroups.map((_, g) => g);
    for (const g of wanted) {
      if (g >= meta.rowGroups.length) {
        throw new InvalidArgumentError(`${String(src)}: no row group ${g} (the file has ${meta.rowGroups.length})`);
      }
    }
    const starts: number[] = [];
    let r = rowBase;
    for (const g of meta.rowGroups) {
      starts.push(r);
      r += g.numRows;
    }
    rowBase = r;
    const groups = wanted.filter((g) => {
      if (filterNode === undefined) return true;
      const rg = meta.rowGroups[g]!;
      const stats = new Map<string, ColumnStats>();
      for (const c of rg.columns) stats.set(c.name, { min: c.min ?? null, max: c.max ?? null, nullCount: c.nullCount ?? null });
      return mayMatch(filterNode, stats, rg.numRows);
    });
    return {
      source: src,
      meta,
      native: {
        columns: needed ?? null,
        rowGroups: groups,
        nRows: options.filter === undefined && options.nRows !== undefined ? options.nRows : -1,
        dtypeHints: arrowHints(meta.arrowSchema),
      },
      zones: arrowZones(meta.arrowSchema),
      groups: groups.map((g) => ({ start: starts[g] as number, rows: meta.rowGroups[g]!.numRows })),
    };
  });
  return { files, hive, output: options.columns ? [...options.columns] : undefined };
}

/** One file's frame with its hive columns and row index added. */
function finishFile(df: DataFrame, p: ReadPlan, i: number, options: ReadParquetOptions): DataFrame {
  const extra: Expr[] = p.hive.map((h) => {
    const v = h.values[i] as string;
    return (h.dtype === "int64" ? lit(BigInt(v)).cast("int64") : lit(v)).alias(h.name);
  });
  let out = df;
  if (extra.length > 0) {
    out = df.withColumns(...extra);
    df.dispose();
  }
  if (options.rowIndex !== undefined) {
    const name = typeof options.rowIndex === "string" ? options.rowIndex : options.rowIndex.name;
    const offset = typeof options.rowIndex === "string" ? 0 : (options.rowIndex.offset ?? 0);
    const idx = new BigInt64Array(out.height);
    let k = 0;
    for (const g of p.files[i]!.groups) {
      for (let r = 0; r < g.rows && k < idx.length; r++) idx[k++] = BigInt(offset + g.start + r);
    }
    const withIndex = out.withColumn(new Series(name, idx));
    out.dispose();
    out = withIndex.select(name, ...withIndex.columns.filter((c) => c !== name));
    withIndex.dispose();
  }
  return out;
}

/** The frames of all files as one, filtered, cut to nRows and in the requested column order. */
function finish(frames: DataFrame[], p: ReadPlan, options: ReadParquetOptions): DataFrame {
  let df = frames.length === 1 ? (frames[0] as DataFrame) : concat(frames);
  if (frames.length > 1) frames.forEach((f) => f.dispose());
  const step = (next: DataFrame): void => {
    df.dispose();
    df = next;
  };
  if (options.filter !== undefined) step(df.filter(options.filter));
  if (options.filter !== undefined && options.nRows !== undefined && df.height > options.nRows) step(df.head(options.nRows));
  if (p.output !== undefined) {
    const names = options.rowIndex === undefined ? p.output : [typeof options.rowIndex === "string" ? options.rowIndex : options.rowIndex.name, ...p.output];
    step(df.select(...names));
  }
  return df;
}

/**
 * Reads Parquet files (a path, several, a glob, or a Buffer's bytes) as one frame. Decoding runs
 * off the JS thread, on every core; see ReadParquetOptions.
 *
 * @example
 * import { col, readParquet } from "gpudf";
 * const df = await readParquet("trips/*.parquet", { columns: ["vendor", "fare"], filter: col("fare").gt(100) });
 */
export async function readParquet(source: ParquetSource, options: ReadParquetOptions = {}): Promise<DataFrame> {
  const p = plan(source, options);
  const frames: DataFrame[] = [];
  try {
    let rowsLeft = options.filter === undefined ? options.nRows : undefined;
    for (let i = 0; i < p.files.length; i++) {
      const f = p.files[i]!;
      const nat = rowsLeft === undefined ? f.native : { ...f.native, nRows: rowsLeft };
      const out = await native.readParquet(f.source, nat, options.onProgress);
      const df = zonedFrame(out, f.zones);
      frames.push(finishFile(df, p, i, options));
      if (rowsLeft !== undefined) rowsLeft = Math.max(0, rowsLeft - df.height);
    }
    return finish(frames, p, options);
  } catch (e) {
    frames.forEach((f) => f.dispose());
    throw e;
  }
}

/**
 * readParquet on the calling thread (it blocks until the files are decoded).
 *
 * @example
 * import { readParquetSync } from "gpudf";
 * const df = readParquetSync("trips.parquet", { nRows: 1000 });
 */
export function readParquetSync(source: ParquetSource, options: ReadParquetOptions = {}): DataFrame {
  if (options?.onProgress !== undefined) throw new InvalidArgumentError("readParquetSync does not take onProgress");
  const p = plan(source, options);
  const frames: DataFrame[] = [];
  try {
    let rowsLeft = options.filter === undefined ? options.nRows : undefined;
    for (let i = 0; i < p.files.length; i++) {
      const f = p.files[i]!;
      const nat = rowsLeft === undefined ? f.native : { ...f.native, nRows: rowsLeft };
      const out = native.readParquetSync(f.source, nat);
      const df = zonedFrame(out, f.zones);
      frames.push(finishFile(df, p, i, options));
      if (rowsLeft !== undefined) rowsLeft = Math.max(0, rowsLeft - df.height);
    }
    return finish(frames, p, options);
  } catch (e) {
    frames.forEach((f) => f.dispose());
    throw e;
  }
}

/**
 * A Parquet file's footer: schema (as gpudf dtypes), row groups with each column chunk's
 * codec, encodings, sizes and statistics, and the key/value metadata.
 *
 * @example
 * import { parquetMetadata } from "gpudf";
 * const meta = parquetMetadata("trips.parquet");
 * console.log(meta.numRows, meta.rowGroups[0].columns[0].min);
 */
export function parquetMetadata(source: string | Uint8Array): ParquetMetadata {
  if (typeof source !== "string" && !(source instanceof Uint8Array)) {
    throw new InvalidArgumentError("parquetMetadata expects a path or a Buffer");
  }
  const m = native.parquetMetadata(source);
  const hints = new Map(arrowHints(m.arrowSchema));
  const zones = arrowZones(m.arrowSchema);
  return {
    numRows: m.numRows,
    createdBy: m.createdBy,
    schema: m.columns.map((c) => ({
      name: c.name,
      dtype: c.nested ? null : zonedIfTimestamp(dtypeOfId(hintedType(c.typeId, c.hintable, hints.get(c.name))), zones.get(c.name)),
      nullable: c.nullable,
      parquetType: c.parquetType,
    })),
    rowGroups: m.rowGroups.map((g) => ({ ...g, columns: g.columns.map((c) => ({ ...c })) })),
    keyValueMetadata: Object.fromEntries(m.keyValues),
  };
}

const WIDTH_4 = new Set<DType>(["int32", "uint32", "date32"]);
const WIDTH_8 = new Set<DType>([
  "int64", "uint64", "timestamp[s]", "timestamp[ms]", "timestamp[us]", "timestamp[ns]",
  "duration[s]", "duration[ms]", "duration[us]", "duration[ns]",
]);

/** A timestamp dtype with the zone the Arrow schema names for it (other dtypes unchanged). */
function zonedIfTimestamp(d: DType, zone: string | undefined): DType {
  return zone !== undefined && d.startsWith("timestamp[") ? withTimeZone(d, zone) : d;
}

/** The dtype a column reads as given the Arrow schema's wish: the rule of native apply_dtype_hint. */
function hintedType(id: number, hintable: boolean, hint: number | undefined): number {
  if (hint === undefined) return id;
  const a = dtypeOfId(id);
  const b = dtypeOfId(hint);
  const strings = (d: DType) => d === "utf8" || d === "large_utf8";
  if (strings(a) && strings(b)) return hint;
  if (hintable && ((WIDTH_4.has(a) && WIDTH_4.has(b)) || (WIDTH_8.has(a) && WIDTH_8.has(b)))) return hint;
  return id;
}

/** A file's columns and dtypes as a read gives them (nested columns left out), for scans. */
export function parquetSchema(path: string): Record<string, DType> {
  const out: Record<string, DType> = {};
  for (const c of parquetMetadata(path).schema) if (c.dtype !== null) out[c.name] = c.dtype;
  for (const [k, v] of hivePartitions(path)) if (!(k in out)) out[k] = /^[+-]?\d{1,18}$/.test(v) ? "int64" : "utf8";
  return out;
}
