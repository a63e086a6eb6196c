/**
 * TPC-H at a small scale factor for the tests: the benchmark's generator (bench/tpch/gen/)
 * writes the tables into a fresh temporary folder, DuckDB loads the CSV files with the
 * schema's types, gpudf reads the same files.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { DuckDBConnection } from "@duckdb/node-api";

import { readCSV, type DataFrame, type DType } from "../../src/index.js";
import { duckdbConnection } from "./duckdb.js";

export type TableFiles = Record<string, { csv: string; parquet: string }>;
export interface TpchDataset { sf: number; dir: string; tables: TableFiles; seconds: { csv: number; parquet: number } }

interface GenModule {
  ensureTpch(sf: number, o: { workers?: number; parquet?: boolean; dir?: string }): Promise<TpchDataset>;
}
interface SchemaModule {
  TABLES: Record<string, [string, DType][]>;
  TABLE_NAMES: string[];
  duckdbColumns(table: string): string;
  gpudfDtypes(table: string): Record<string, DType>;
}

const bench = (path: string) => new URL(`../../bench/tpch/${path}`, import.meta.url).href;
export const schema = async (): Promise<SchemaModule> => (await import(bench("schema.mjs"))) as SchemaModule;

/** Generates SF `sf` into a new temporary folder (`remove()` deletes it). */
export async function generate(sf: number, o: { workers?: number; parquet?: boolean } = {}): Promise<TpchDataset & { remove(): void }> {
  const root = mkdtempSync(join(tmpdir(), "gpudf-tpch-"));
  const gen = (await import(bench("gen/index.mjs"))) as GenModule;
  const d = await gen.ensureTpch(sf, { dir: root, workers: o.workers ?? 2, parquet: o.parquet ?? false });
  return { ...d, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A DuckDB connection holding the eight tables, read from the CSV files. */
export async function duckdbTpch(d: TpchDataset): Promise<DuckDBConnection> {
  const s = await schema();
  const conn = await duckdbConnection();
  for (const t of s.TABLE_NAMES) {
    const csv = (d.tables[t] as { csv: string }).csv;
    await conn.run(`CREATE TABLE ${t} AS SELECT * FROM read_csv('${csv}', header = true, delim = ',', quote = '"', columns = ${s.duckdbColumns(t)})`);
  }
  return conn;
}

/** The eight tables as gpudf frames, read from the CSV files with the schema's dtypes. */
export async function gpudfTpch(d: TpchDataset): Promise<Record<string, DataFrame>> {
  const s = await schema();
  const out: Record<string, DataFrame> = {};
  for (const t of s.TABLE_NAMES) out[t] = await readCSV((d.tables[t] as { csv: string }).csv, { dtypes: s.gpudfDtypes(t) });
  return out;
}
