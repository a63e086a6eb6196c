/**
 * The only module that touches the native addon: loading it, and the hand-written type of its
 * exports. Everything here takes fully resolved, positional arguments.
 */
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { ERROR_CLASSES, InternalError } from "../errors.js";
import { prebuiltPackageName } from "./platform.js";
import type { SerializedNode } from "../expr.js";

/** A native column: shared, ref-counted buffers on one device. */
export interface ColumnHandle {
  readonly typeId: number;
  readonly length: number;
  readonly disposed: boolean;
  /** Bytes of the buffers this column references. */
  readonly bytes: number;
  nullCount(): number;
  /** O(1): a new handle sharing these buffers. */
  slice(offset: number, length: number): ColumnHandle;
  dispose(): void;
}

/** One Arrow chunk as passed to importArrow (buffers read in place). */
export interface NativeArrowChunk {
  length: number;
  offset: number;
  validity: Uint8Array | null;
  offsets: ArrayBufferView | null;
  values: ArrayBufferView | null;
  dictionary?: { indexType: number; chunks: NativeArrowChunk[] };
}

export interface NativeArrowExport {
  length: number;
  nullCount: number;
  validity: ArrayBuffer | null;
  offsets: ArrayBuffer | null;
  values: ArrayBuffer;
}

export interface NativeDeviceInfo {
  name: "cpu" | "cuda";
  reason: string;
  cudaCompiled: boolean;
  gpu?: { name: string; memoryBytes: number };
}

export interface NativeMemoryStats {
  liveBytes: number;
  peakBytes: number;
  allocations: number;
  /** The device's memory limit (-1: none). */
  limitBytes: number;
}

/** CSV reader options, fully resolved (see src/io/csv.ts). */
export interface NativeCsvOptions {
  sep: string;
  quoteChar: string;
  hasHeader: boolean;
  commentPrefix: string;
  skipRows: number;
  nRows: number;
  nullValues: string[];
  trueValues: string[];
  falseValues: string[];
  tryParseDates: boolean;
  inferSchemaLength: number;
  truncateRaggedLines: boolean;
  columnNames: string[];
  columnIndices: number[];
  dtypesByName: [string, number][];
  dtypesByIndex: [number, number][];
}

/** CSV writer options, fully resolved (see src/io/csv.ts). */
export interface NativeCsvWriteOptions {
  sep: string;
  quoteChar: string;
  header: boolean;
  quoteStyle: string;
  nullValue: string;
}

/** JSON / NDJSON reader options, fully resolved (see src/io/json.ts). */
export interface NativeJsonOptions {
  ndjson: boolean;
  nRows: number;
  columns: string[];
  exactSchema: boolean;
  dtypesByName: [string, number][];
}

export interface NativeAddon {
  registerErrors(classes: Record<string, new (message: string) => Error>): void;
  selectDevice(mode: string): NativeDeviceInfo;
  memory(): { cpu: NativeMemoryStats; cuda?: NativeMemoryStats };
  setMemoryLimit(device: "cpu" | "cuda", bytes: number): number;
  importArrow(typeId: number, chunks: NativeArrowChunk[]): ColumnHandle;
  exportArrow(column: ColumnHandle): NativeArrowExport;
  /** exportArrow of each column, the bytes copied on a worker thread. */
  exportArrowAsync(columns: ColumnHandle[]): Promise<NativeArrowExport[]>;
  /** typeId -1: infer from the values. */
  fromValues(values: unknown[], typeId: number): ColumnHandle;
  toValues(column: ColumnHandle, start: number, count: number): unknown[];
  toRecords(names: string[], columns: ColumnHandle[], start: number, count: number): Record<string, unknown>[];
  readCSV(
    source: string | Uint8Array,
    options: NativeCsvOptions,
    onProgress?: (done: number, total: number) => void,
  ): Promise<{ names: string[]; columns: ColumnHandle[] }>;
  readCSVSync(source: string | Uint8Array, options: NativeCsvOptions): { names: string[]; columns: ColumnHandle[] };
  /** Resolves with the text (no path) or once the file is written; runs off the JS thread. */
  writeCSV(names: string[], columns: ColumnHandle[], options: NativeCsvWriteOptions, path: string | null): Promise<string | undefined>;
  writeCSVSync(names: string[], columns: ColumnHandle[], options: NativeCsvWriteOptions, path: string | null): string | undefined;
  /** Reads one or more sources (an array: files read as one table), off the JS thread. */
  readJSON(source: string | string[] | Uint8Array, options: NativeJsonOptions): Promise<{ names: string[]; columns: ColumnHandle[] }>;
  readJSONSync(source: string | string[] | Uint8Array, options: NativeJsonOptions): { names: string[]; columns: ColumnHandle[] };
  /** Resolves with the text (no path) or once the file is written; runs off the JS thread. */
  writeJSON(names: string[], columns: ColumnHandle[], ndjson: boolean, path: string | null): Promise<string | undefined>;
  writeJSONSync(names: string[], columns: ColumnHandle[], ndjson: boolean, path: string | null): string | undefined;
  /** Resolves once the file is written (encoding runs off the JS thread). */
  writeParquet(
    names: string[],
    columns: ColumnHandle[],
    options: { compression: string; rowGroupSize: number; arrowSchema: string },
    path: string,
  ): Promise<void>;
  /** Reads a Parquet file or bytes on a worker thread (chunks decoded on the CPU pool). */
  readParquet(
    source: string | Uint8Array,
    options: NativeParquetReadOptions,
    onProgress?: (done: number, total: number) => void,
  ): Promise<{ names: string[]; columns: ColumnHandle[] }>;
  readParquetSync(source: string | Uint8Array, options: NativeParquetReadOptions): { names: string[]; columns: ColumnHandle[] };
  /** The footer of a Parquet file or bytes (see ParquetMetadata in src/io/parquet.ts). */
  parquetMetadata(source: string | Uint8Array): NativeParquetMetadata;
  /** kind: a ReduceKind id (src/ops/reduce.ts); returns a one-row column. */
  reduce(column: ColumnHandle, kind: number, ddof: number, q: number): ColumnHandle;
  /** [distinct values, int64 counts]. */
  valueCounts(column: ColumnHandle, sort: boolean): [ColumnHandle, ColumnHandle];
  /** Compiles and runs a serialised expression over the frame's columns (`rows` = its height). */
  evalExpr(nodes: SerializedNode[], names: string[], columns: ColumnHandle[], rows: number): ColumnHandle;
  /** Between these two calls the overs of the evaluated expressions share their partition groupings and sorts. */
  overCacheOpen(): void;
  overCacheClose(): void;
  /** over()'s grouping and sort passes since the process started (tests count them). */
  overPasses(): { groupings: number; sorts: number };
  /** evalExpr of a bool expression for a filter: where the result is null the mask may say false. */
  evalPredicate(nodes: SerializedNode[], names: string[], columns: ColumnHandle[], rows: number): ColumnHandle;
  /** The rows of `columns` where the bool `mask` is true (null counts as false). */
  filter(columns: ColumnHandle[], mask: ColumnHandle): ColumnHandle[];
  /** The stable permutation (int64 row indices) ordering rows by the keys. */
  argSort(keys: ColumnHandle[], descending: boolean[], nullsLast: boolean[]): ColumnHandle;
  /** `columns` reordered by the keys (stable). */
  sortTable(columns: ColumnHandle[], keys: ColumnHandle[], descending: boolean[], nullsLast: boolean[]): ColumnHandle[];
  /** Distinct rows by `keys`; keep: 0 first, 1 last, 2 any, 3 none. */
  unique(columns: ColumnHandle[], keys: ColumnHandle[], keep: number, maintainOrder: boolean): ColumnHandle[];
  /** Rows at integer `indices` (each in [0, rows)) of every column. */
  take(columns: ColumnHandle[], indices: ColumnHandle, rows: number): ColumnHandle[];
  /** n rows drawn with splitmix64(seed) (see native/ops/sample/sample.hpp). */
  sample(columns: ColumnHandle[], rows: number, n: number, withReplacement: boolean, seed: bigint): ColumnHandle[];
  /** The parts' rows, in order, as one column (same dtype). */
  concat(parts: ColumnHandle[]): ColumnHandle;
  /** The rows at int64 `indices` in [-1, rows), null where an index is -1. */
  gatherOrNull(column: ColumnHandle, indices: ColumnHandle): ColumnHandle;
  /**
   * A pivot's grid (native/ops/nulls/fill.hpp): int64, cols * rows entries, entry c * rows + r
   * the index k with rowOf[k] == r and colOf[k] == c, else -1.
   */
  pivotCells(rowOf: ColumnHandle, colOf: ColumnHandle, rows: number, cols: number): ColumnHandle;

  // join
  /**
   * Joins on the key pairs (promoted to a common dtype natively). how: 0 inner, 1 left, 2 right,
   * 3 full, 4 semi, 5 anti, 6 cross (keys ignored); order: 0 none, 1 left, 2 right,
   * 3 left_right, 4 right_left. Returns the coalesced keys (when asked; one per pair) and the
   * given left and right columns gathered to the output rows (null where a side has no row).
   */
  join(
    leftKeys: ColumnHandle[],
    rightKeys: ColumnHandle[],
    leftColumns: ColumnHandle[],
    rightColumns: ColumnHandle[],
    leftRows: number,
    rightRows: number,
    how: number,
    nullsEqual: boolean,
    order: number,
    coalesceKeys: boolean,
  ): { keys: ColumnHandle[]; left: ColumnHandle[]; right: ColumnHandle[] };

  // groupBy (native/ops/groupby/groupby.hpp)
  /**
   * Group ids of the rows by `keys`: `groups` holds one int32 (int64 from 2^31 rows) per row in
   * [0, count), or -1 for a row dropped for a null key when `dropNulls`; `firstRows` (int64) the
   * first row of each group. maintainOrder: ids numbered by first appearance.
   */
  groupRows(
    keys: ColumnHandle[],
    dropNulls: boolean,
    maintainOrder: boolean,
  ): { groups: ColumnHandle; firstRows: ColumnHandle; count: number };
  /** One row per group: its most frequent value of `values` (null a value too), the smallest among ties, null last. */
  groupMode(values: ColumnHandle, groups: ColumnHandle, count: number): ColumnHandle;
  /** str.join of each group (groups null: the whole column as one group); one row per group. */
  groupJoin(values: ColumnHandle, groups: ColumnHandle | null, count: number, sep: string, ignoreNulls: boolean): ColumnHandle;
  /** One row per group: ReduceKind `kind` (REDUCE_KINDS incl. product 17, len 18) of `values`. */
  groupAggregate(values: ColumnHandle, groups: ColumnHandle, count: number, kind: number, ddof: number, q: number): ColumnHandle;
  /**
   * groupAggregate of each values[i] by kinds[i] (with ddofs[i], qs[i]) over the same groups;
   * the one-fold kinds run in one pass over the rows (results equal groupAggregate's).
   */
  groupAggregateMany(values: ColumnHandle[], groups: ColumnHandle, count: number, kinds: number[], ddofs: number[], qs: number[]): ColumnHandle[];
  /**
   * An aggregation's chosen rows (native/ops/groupby/group_input.hpp): filter (extra: the mask;
   * grouped: unchosen rows' ids become -1, else the values compacted) or sortBy (extra: the keys).
   */
  chooseRows(sortBy: boolean, values: ColumnHandle, groups: ColumnHandle | null, extra: ColumnHandle[], descending: boolean[], nullsLast: boolean[]): ColumnHandle[];
  /** float64 per group: corr (cov false) or cov with divisor n - ddof over pairs both non-null. */
  groupCorr(a: ColumnHandle, b: ColumnHandle, groups: ColumnHandle, count: number, cov: boolean, ddof: number): ColumnHandle;
  /** int64 rows: each group's (ascending id) first n (fromEnd: last n) rows, ascending. */
  groupHeadRows(groups: ColumnHandle, count: number, n: number, fromEnd: boolean): ColumnHandle;
  /**
   * int64 rows: each group's (ascending id) n rows with the largest (`largest`) or smallest `by`,
   * best first; nulls after every value, ties in row order (native/ops/groupby/group_top.hpp).
   */
  groupTopRows(groups: ColumnHandle, count: number, by: ColumnHandle, n: number, largest: boolean): ColumnHandle;

  // dynamic and rolling windows (native/ops/dynamic/dynamic.hpp)
  /**
   * group_by_dynamic's non-empty windows over a sorted index, by (segment, start): lower/upper
   * (the index's dtype), firstRow (int64 index position), and the row expansion: rows (int64
   * index positions) with windows (int32 window id per row) — or, when no row lies in two windows,
   * rows null and windows one id per index row (-1: none). segments: int32 ids in runs, or null.
   */
  dynamicWindows(
    index: ColumnHandle,
    segments: ColumnHandle | null,
    spec: import("../dynamic.js").NativeWindowSpec,
  ): { lower: ColumnHandle; upper: ColumnHandle; firstRow: ColumnHandle; rows: ColumnHandle | null; windows: ColumnHandle; count: number };
  /** rolling's window per index row (window i = row i, possibly empty) as a row expansion. */
  rollingWindows(
    index: ColumnHandle,
    segments: ColumnHandle | null,
    spec: import("../dynamic.js").NativeWindowSpec,
  ): { rows: ColumnHandle; windows: ColumnHandle; count: number };

  // query engine (native/exec, native/bindings/exec.cpp)
  /** Runs a physical plan (src/lazy/lower.ts) off the JS thread. */
  execute(nodes: NativePlanNode[], frames: NativePlanFrame[], profile: boolean): Promise<NativeExecResult>;
  /** execute on the calling thread. */
  executeSync(nodes: NativePlanNode[], frames: NativePlanFrame[], profile: boolean): NativeExecResult;
  /** The dtype id of an expression over columns `names` of dtype ids `typeIds` (aggregations typed too). */
  exprType(nodes: SerializedNode[], names: string[], typeIds: number[]): number;
  /** The names of a regex's capture groups ("" for an unnamed one); InvalidArgumentError for a bad pattern. */
  regexGroups(pattern: string): string[];
  /** The dtype id a join key pair of these dtype ids is compared in (DtypeError when none). */
  keySupertype(a: number, b: number): number;
}

/** One node of a physical plan: `kind`, its inputs (earlier nodes) and its kind's fields. */
export interface NativePlanNode {
  kind: string;
  inputs: number[];
  label: string;
  [field: string]: unknown;
}

/** An in-memory input of a plan. */
export interface NativePlanFrame {
  columns: ColumnHandle[];
  rows: number;
}

export interface NativeOperatorProfile {
  name: string;
  rowsIn: number;
  rowsOut: number;
  startNs: number;
  endNs: number;
  /** Host <-> device bytes copied during the operator (CUDA; 0 on the CPU). */
  copiedBytes: number;
}

export interface NativeExecResult {
  names: string[];
  columns: ColumnHandle[];
  rows: number;
  profile: NativeOperatorProfile[];
}

function findAddon(): string {
  // GPUDF_ADDON: another build of the addon (the CUDA simulator's, a sanitizer build), by path.
  const override = process.env.GPUDF_ADDON;
  if (override) {
    if (!existsSync(override)) throw new InternalError(`GPUDF_ADDON names ${override}, which does not exist`);
    return override;
  }
  // src/native/addon.ts and dist/native/addon.js both sit two levels below the package root.
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const candidates = [join(root, "build", "Release", "gpudf.node"), join(root, "build", "Debug", "gpudf.node")];
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  // No source build: the prebuilt package for this platform, when it is installed.
  const prebuilt = `${prebuiltPackageName()}/gpudf.node`;
  try {
    return createRequire(import.meta.url).resolve(prebuilt);
  } catch {
    throw new InternalError(
      `gpudf's native addon is not built (looked for ${candidates.join(", ")} and the package ${prebuilt}); ` +
        "run `npm run build:native`",
    );
  }
}

function load(): NativeAddon {
  const require = createRequire(import.meta.url);
  const addon = require(findAddon()) as NativeAddon;
  addon.registerErrors(ERROR_CLASSES);
  return addon;
}

/** The loaded addon (loaded once, at import). */
export const native: NativeAddon = load();

/** readParquet's options as the addon takes them (resolved in src/io/parquet.ts). */
export interface NativeParquetReadOptions {
  columns: string[] | null;
  rowGroups: number[] | null;
  nRows: number;
  dtypeHints: [string, number][];
}

export interface NativeParquetMetadata {
  numRows: number;
  createdBy: string;
  arrowSchema: string;
  keyValues: [string, string][];
  columns: { name: string; typeId: number; nested: boolean; nullable: boolean; hintable: boolean; parquetType: string }[];
  rowGroups: {
    numRows: number;
    totalByteSize: number;
    compressedSize: number;
    columns: {
      name: string;
      codec?: string;
      encodings?: string[];
      numValues?: number;
      dataPageOffset?: number;
      dictionaryPageOffset?: number | null;
      compressedSize?: number;
      uncompressedSize?: number;
      nullCount?: number | null;
      min?: number | bigint | string | boolean | null;
      max?: number | bigint | string | boolean | null;
    }[];
  }[];
}
