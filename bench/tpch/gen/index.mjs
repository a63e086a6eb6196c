#!/usr/bin/env node
// TPC-H data at scale factor SF, generated here from the specification (see bench/README.md),
// into bench/data/tpch/sf<SF>/<table>.csv (header line, comma separated, free text quoted) and
// <table>.parquet (the same rows and types, written by DuckDB's COPY from the CSV).
//
//   node bench/tpch/gen/index.mjs --sf 1 [--workers W] [--no-parquet] [--dir DIR]
//
// Files are written under a temporary name and renamed when complete, so an existing file is a
// finished one and is reused.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_DIR } from '../../gen/index.mjs';
import { pooledChunks } from '../../gen/pool.mjs';
import { TABLES, TABLE_NAMES, duckdbColumns } from '../schema.mjs';
import { CHUNK, SEED, STREAM, fixedTables, scale, specialSuppliers } from './tables.mjs';
import { buildTextPool } from './text.mjs';

export const TPCH_DIR = join(DATA_DIR, 'tpch');
const WORKER = new URL('./worker.mjs', import.meta.url);
/** Which tables each chunk kind writes. */
const WRITES = { supplier: ['supplier'], part: ['part', 'partsupp'], customer: ['customer'], orders: ['orders', 'lineitem'] };

/** Scale factors accepted: 0.01 .. 300 (int32 keys hold o_orderkey up to SF 350). */
export function checkScale(sf) {
  if (!(Number.isFinite(sf) && sf >= 0.01 && sf <= 300)) throw new Error(`TPC-H scale factor must be in [0.01, 300], got ${sf}`);
  return sf;
}

/** The files of the SF dataset: { kind, sf, dir, tables: { name: { csv, parquet } } }. */
export function tpchDataset(sf, root = TPCH_DIR) {
  const dir = join(root, `sf${checkScale(sf)}`);
  const tables = Object.fromEntries(TABLE_NAMES.map((t) => [t, { name: t, csv: join(dir, `${t}.csv`), parquet: join(dir, `${t}.parquet`) }]));
  return { kind: 'tpch', sf, dir, tables };
}

/** The chunk tasks of every chunk kind that writes one of `tables`, in file order. */
function tasks(sf, tables) {
  const n = scale(sf);
  const special = [...specialSuppliers(sf)];
  const out = [];
  for (const kind of ['supplier', 'part', 'customer', 'orders']) {
    if (!WRITES[kind].some((t) => tables.includes(t))) continue;
    for (let index = 0, start = 0; start < n[kind]; index++, start += CHUNK[kind]) {
      const end = Math.min(n[kind], start + CHUNK[kind]);
      const task = { kind, index, start, end, sf };
      if (kind === 'supplier') task.special = special.filter(([row]) => row >= start && row < end);
      out.push(task);
    }
  }
  return out;
}

/** Writes the missing CSV files (all their chunks through the worker pool). */
async function writeCsv(d, missing, workers) {
  const pool = buildTextPool(SEED, STREAM.pool);
  const files = new Map(missing.map((t) => {
    const fd = openSync(`${d.tables[t].csv}.tmp`, 'w');
    writeSync(fd, TABLES[t].map(([name]) => name).join(',') + '\n');
    return [t, fd];
  }));
  const put = (parts) => { for (const [t, bytes] of Object.entries(parts)) if (files.has(t)) writeSync(files.get(t), bytes); };
  put(fixedTables(pool));
  const list = tasks(d.sf, missing);
  for await (const m of pooledChunks(WORKER, list.length, (i) => ({ message: { ...list[i], seq: i }, transfer: [] }), workers, { pool: pool.buffer })) {
    put(m.parts);
  }
  for (const [t, fd] of files) {
    closeSync(fd);
    renameSync(`${d.tables[t].csv}.tmp`, d.tables[t].csv);
  }
}

/** Parquet copies of the CSV files (DuckDB reads each CSV with the schema's types). */
async function writeParquet(d, missing) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  for (const t of missing) {
    const { csv, parquet } = d.tables[t];
    rmSync(`${parquet}.tmp`, { force: true });
    await con.run(`COPY (SELECT * FROM read_csv('${csv}', header = true, delim = ',', quote = '"', columns = ${duckdbColumns(t)}))
                   TO '${parquet}.tmp' (FORMAT parquet, COMPRESSION snappy)`);
    renameSync(`${parquet}.tmp`, parquet);
  }
  con.closeSync?.();
}

/**
 * Generates what is missing of the SF dataset; returns tpchDataset(sf) plus `seconds` spent
 * ({ csv, parquet }). options: workers, parquet (default true), dir, log.
 */
export async function ensureTpch(sf, { workers = availableParallelism(), parquet = true, dir = TPCH_DIR, log = () => {} } = {}) {
  const d = tpchDataset(sf, dir);
  mkdirSync(d.dir, { recursive: true });
  const seconds = { csv: 0, parquet: 0 };
  const csvMissing = TABLE_NAMES.filter((t) => !existsSync(d.tables[t].csv));
  if (csvMissing.length) {
    const t0 = performance.now();
    await writeCsv(d, csvMissing, workers);
    seconds.csv = (performance.now() - t0) / 1000;
    log(`TPC-H SF ${sf}: CSV of ${csvMissing.join(', ')} in ${seconds.csv.toFixed(1)} s (${workers} workers)`);
  }
  const pqMissing = parquet ? TABLE_NAMES.filter((t) => !existsSync(d.tables[t].parquet)) : [];
  if (pqMissing.length) {
    const t0 = performance.now();
    await writeParquet(d, pqMissing);
    seconds.parquet = (performance.now() - t0) / 1000;
    log(`TPC-H SF ${sf}: Parquet of ${pqMissing.join(', ')} in ${seconds.parquet.toFixed(1)} s`);
  }
  return { ...d, seconds };
}

function parseCli(argv) {
  const o = { sf: 1, workers: availableParallelism(), parquet: true, dir: TPCH_DIR };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--sf') o.sf = Number(argv[++i]);
    else if (a === '--workers') o.workers = Number(argv[++i]);
    else if (a === '--no-parquet') o.parquet = false;
    else if (a === '--dir') o.dir = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const o = parseCli(process.argv.slice(2));
  const d = await ensureTpch(o.sf, { workers: o.workers, parquet: o.parquet, dir: o.dir, log: console.log });
  console.log(JSON.stringify({ dir: d.dir, seconds: d.seconds }));
}
