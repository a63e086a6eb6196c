#!/usr/bin/env node
// Data generation for the benchmark: db-benchmark groupby (G1_*) and join (J1_*) tables and the
// micro-benchmark table (M1_*), each as CSV and as an Arrow IPC file, into bench/data/.
//
//   node bench/gen/index.mjs --kind groupby|join|micro --size 1e6 [--nas 0|5] [--workers W] [--no-arrow]
//
// Files are written under a temporary name and renamed when complete, so an existing file is a
// finished one and is reused.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvHeader } from './chunk.mjs';
import { groupbyChunk } from './groupby.mjs';
import { microChunk } from './micro.mjs';
import { joinTables, sliceTable } from './join.mjs';
import { openArrowFile, recordBatch } from './arrow-file.mjs';
import { pooledChunks } from './pool.mjs';

const WORKER = new URL('./worker.mjs', import.meta.url);

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'data');
const CHUNK_ROWS = 250_000; // fixed: the data depend on N only, never on the worker count
const K = 100;

/** 1e6-style name of a row count, as the R scripts' pretty_sci. */
export function sci(n) {
  const e = Math.floor(Math.log10(n));
  const m = n / 10 ** e;
  return Number.isInteger(m) ? `${m}e${e}` : String(n);
}

/** File names of a dataset: { tables: { role: { name, csv, arrow } } }. */
export function dataset(kind, N, nas = 0, dir = DATA_DIR) {
  const files = (name) => ({ name, csv: join(dir, `${name}.csv`), arrow: join(dir, `${name}.arrow`) });
  if (kind === 'groupby') return { kind, N, tables: { x: files(`G1_${sci(N)}_1e2_${nas}_0`) } };
  if (kind === 'micro') return { kind, N, tables: { x: files(`M1_${sci(N)}`) } };
  if (kind === 'join') {
    const base = `J1_${sci(N)}_NA_0_0`;
    const right = (n) => base.replace('NA', sci(Math.max(1, n)));
    return {
      kind, N, tables: {
        x: files(base), small: files(right(N / 1e6)), medium: files(right(N / 1e3)), big: files(right(N)),
      },
    };
  }
  throw new Error(`unknown dataset kind ${kind}`);
}

const complete = (d, arrow) => Object.values(d.tables).every((t) => existsSync(t.csv) && (!arrow || existsSync(t.arrow)));

/** Writes one table, given its chunks in order (an async iterable of {csv: Uint8Array[], buffers}). */
async function writeTable(files, header, chunks, arrow) {
  const tmpCsv = `${files.csv}.tmp`, tmpArrow = `${files.arrow}.tmp`;
  const fd = openSync(tmpCsv, 'w');
  writeSync(fd, header);
  const out = arrow ? openArrowFile(tmpArrow) : null;
  for await (const c of chunks) {
    for (const piece of c.csv) writeSync(fd, piece);
    if (out) out.write(recordBatch(c.buffers));
  }
  closeSync(fd);
  if (out) await out.close();
  renameSync(tmpCsv, files.csv);
  if (arrow) renameSync(tmpArrow, files.arrow);
}

/** Row-wise tables (groupby, micro): each worker makes its chunks from the seed. */
function rowWiseChunks(task0, N, workers) {
  const count = Math.ceil(N / CHUNK_ROWS);
  return pooledChunks(WORKER, count, (index) => ({
    message: { ...task0, N, index, n: Math.min(CHUNK_ROWS, N - index * CHUNK_ROWS) }, transfer: [],
  }), workers);
}

/**
 * A table drawn here in full (join): its rows are cut into chunks, copied to the workers, which
 * format the CSV (and the Arrow buffers) in parallel.
 */
function tableChunks(table, arrow, workers) {
  const count = Math.max(1, Math.ceil(table.n / CHUNK_ROWS));
  return pooledChunks(WORKER, count, (index) => {
    const chunk = sliceTable(table, index * CHUNK_ROWS, Math.min(CHUNK_ROWS, table.n - index * CHUNK_ROWS));
    const transfer = [];
    const columns = chunk.columns.map(({ str, ...c }) => {
      const values = c.values.slice(), valid = c.valid && c.valid.slice();   // compact copies
      transfer.push(values.buffer, ...(valid ? [valid.buffer] : []));
      return { ...c, values, valid };
    });
    return { message: { kind: 'table', index, arrow, chunk: { n: chunk.n, columns } }, transfer };
  }, workers);
}
/**
 * Generates the dataset unless its files exist; returns dataset(). options: nas, workers,
 * arrow (default true), dir, log (a function).
 */
export async function ensureData(kind, N, { nas = 0, workers = availableParallelism(), arrow = true, dir = DATA_DIR, log = () => {} } = {}) {
  const d = dataset(kind, N, nas, dir);
  if (complete(d, arrow)) return d;
  mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  if (kind === 'join') {
    for (const t of joinTables(N)) {
      await writeTable(d.tables[t.role], csvHeader(sliceTable(t, 0, 0)), tableChunks(t, arrow, workers), arrow);
    }
  } else {
    const header = kind === 'micro' ? csvHeader(microChunk({ index: 0, n: 0 })) : csvHeader(groupbyChunk({ N, K, nas, index: 0, n: 0, nullPlan: null }));
    await writeTable(d.tables.x, header, rowWiseChunks({ kind, K, nas, arrow }, N, workers), arrow);
  }
  log(`generated ${Object.values(d.tables).map((t) => t.name).join(', ')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return d;
}

function parseCli(argv) {
  const o = { kind: 'groupby', size: 1e6, nas: 0, workers: availableParallelism(), arrow: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--kind') o.kind = argv[++i];
    else if (a === '--size') o.size = Number(argv[++i]);
    else if (a === '--nas') o.nas = Number(argv[++i]);
    else if (a === '--workers') o.workers = Number(argv[++i]);
    else if (a === '--no-arrow') o.arrow = false;
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const o = parseCli(process.argv.slice(2));
  const d = await ensureData(o.kind, o.size, { nas: o.nas, workers: o.workers, arrow: o.arrow, log: console.log });
  console.log(JSON.stringify(d.tables));
}
