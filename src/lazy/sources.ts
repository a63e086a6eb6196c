/**
 * Sources read before a plan runs (Parquet and NDJSON by the native readers; Arrow IPC files in
 * JS until their reader is native): each such scan is read with its projection, Parquet with the
 * predicate pushed into the scan for row-group pruning, and becomes a scan of the frame read.
 * "eager" scans (windowed groupings) are computed here the same way. CSV scans and in-memory
 * frames go to native as they are.
 */
import type { DataFrame } from "../dataframe.js";
import type { DType } from "../dtypes.js";
import { readIPC, readIPCSync } from "../io/ipc.js";
import { readNDJSON, readNDJSONSync, type ReadJSONOptions } from "../io/json.js";
import type { ExprNode } from "../expr.js";
import { readParquet, readParquetSync, type ReadParquetOptions } from "../io/parquet.js";
import { PRUNE_ONLY } from "../io/parquet_read.js";
import { inputsOf, withInputs, type LogicalPlan, type ScanNode } from "./plan.js";

export interface ReadyPlan {
  plan: LogicalPlan;
  /** Releases the frames read for this run. */
  dispose: () => void;
}

function fileScans(plan: LogicalPlan, out: Set<ScanNode> = new Set()): Set<ScanNode> {
  if (plan.kind === "scan" && (plan.source.type === "parquet" || plan.source.type === "ipc" || plan.source.type === "ndjson" || plan.source.type === "eager")) out.add(plan);
  for (const p of inputsOf(plan)) fileScans(p, out);
  return out;
}

function replaceScans(plan: LogicalPlan, read: Map<ScanNode, DataFrame>, memo: Map<LogicalPlan, LogicalPlan> = new Map()): LogicalPlan {
  const seen = memo.get(plan);
  if (seen) return seen;
  let out: LogicalPlan;
  if (plan.kind === "scan" && read.has(plan)) {
    const df = read.get(plan) as DataFrame;
    out = { ...plan, source: { type: "frame", frame: df }, sourceSchema: plan.schema, columns: [...plan.columns] };
  } else {
    out = withInputs(plan, inputsOf(plan).map((p) => replaceScans(p, read, memo)));
  }
  memo.set(plan, out);
  return out;
}

function ready(plan: LogicalPlan, read: Map<ScanNode, DataFrame>): ReadyPlan {
  return { plan: replaceScans(plan, read), dispose: () => read.forEach((df) => df.dispose()) };
}

/** The plan with its file scans read (asynchronously). */
export async function readSources(plan: LogicalPlan): Promise<ReadyPlan> {
  const read = new Map<ScanNode, DataFrame>();
  try {
    for (const scan of fileScans(plan)) {
      const src = scan.source;
      if (src.type === "eager") {
        read.set(scan, await src.read(false));
        continue;
      }
      const path = (src as { path: string }).path;
      const df =
        src.type === "parquet"
          ? await readParquet(path, parquetOptions(scan))
          : src.type === "ndjson"
            ? await readNDJSON(path, ndjsonOptions(scan))
            : await readIPC(path);
      read.set(scan, src.type === "ipc" ? selectOwned(df, scan.columns) : df);
    }
  } catch (e) {
    read.forEach((df) => df.dispose());
    throw e;
  }
  return ready(plan, read);
}

/** readSources on the calling thread (IPC only: Parquet is read asynchronously). */
export function readSourcesSync(plan: LogicalPlan): ReadyPlan {
  const read = new Map<ScanNode, DataFrame>();
  try {
    for (const scan of fileScans(plan)) {
      const path = (scan.source as { path: string }).path;
      if (scan.source.type === "eager") read.set(scan, scan.source.read(true) as DataFrame);
      else if (scan.source.type === "parquet") read.set(scan, readParquetSync(path, parquetOptions(scan)));
      else if (scan.source.type === "ndjson") read.set(scan, readNDJSONSync(path, ndjsonOptions(scan)));
      else read.set(scan, selectOwned(readIPCSync(path), scan.columns));
    }
  } catch (e) {
    read.forEach((df) => df.dispose());
    throw e;
  }
  return ready(plan, read);
}

/** A Parquet scan's read: its columns, its pushed-down predicate to prune row groups with. */
function parquetOptions(scan: ScanNode): ReadParquetOptions {
  const options: ReadParquetOptions & { [PRUNE_ONLY]?: ExprNode } = { columns: [...scan.columns] };
  if (scan.predicate !== null) options[PRUNE_ONLY] = scan.predicate;
  if (scan.nRows !== null) options.nRows = scan.nRows;
  return options;
}

/** An NDJSON scan's read: only its columns, with the dtypes fixed when the scan was made. */
function ndjsonOptions(scan: ScanNode): ReadJSONOptions {
  const schema = Object.fromEntries(scan.columns.map((c) => [c, scan.sourceSchema.dtypes[scan.sourceSchema.names.indexOf(c)]]));
  const limits = [scan.nRows, (scan.source as { nRows: number | null }).nRows].filter((n): n is number => n !== null);
  return { schema: schema as Record<string, DType>, ...(limits.length > 0 ? { nRows: Math.min(...limits) } : {}) };
}

function selectOwned(df: DataFrame, columns: readonly string[]): DataFrame {
  try {
    return df.select([...columns]);
  } finally {
    df.dispose();
  }
}
