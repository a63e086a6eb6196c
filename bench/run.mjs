#!/usr/bin/env node
// gpudf benchmark: the db-benchmark groupby/join questions and micro-benchmarks, every engine in
// its own child process. See bench/README.md.
//
//   npm run bench -- --size 1e6|1e7 [--engines gpudf,polars,duckdb,arquero,danfo]
//                    [--device cpu|cuda|auto] [--suite groupby,join,micro] [--timeout 300]
//                    [--nas 0,5] [--questions q1,q3] [--out bench/results] [--name NAME]
//   npm run bench -- --suite tpch --sf 1 [--format parquet|csv] [--engines gpudf,polars,duckdb]
//   npm run bench -- --suite tpch-ops --sf 1 [--format parquet|csv]   (the TPC-H hot-spot operations)
import { existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureData, sci } from './gen/index.mjs';
import { SUITES, isTpchData } from './lib/questions.mjs';
import { runEngine, describe } from './lib/spawn.mjs';
import { compareChecksums, compareWholeAnswers } from './lib/compare.mjs';
import { ensureTpch } from './tpch/gen/index.mjs';
import { ORDER as TPCH_ORDER } from './tpch/answers.mjs';
import { openResults, saveResults, renderDataset } from './lib/report.mjs';
import { machineInfo } from './lib/machine.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ALL_ENGINES = ['gpudf', 'gpudf-lazy', 'polars', 'duckdb', 'arquero', 'danfo'];
const TPCH_ENGINES = ['gpudf', 'gpudf-lazy', 'polars', 'duckdb'];

function parseArgs(argv) {
  const o = {
    size: 1e6, engines: ALL_ENGINES, device: process.env.GPUDF_DEVICE ?? 'auto', suites: ['groupby', 'join', 'micro'],
    timeout: 300, nas: [0, 5], questions: null, out: join(HERE, 'results'), name: null, workers: undefined,
    sf: 1, format: 'parquet',
  };
  let enginesGiven = false;
  const list = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => argv[++i];
    if (a === '--size') o.size = Number(v());
    else if (a === '--engines') { o.engines = list(v()); enginesGiven = true; }
    else if (a === '--sf') o.sf = Number(v());
    else if (a === '--format') o.format = v();
    else if (a === '--device') o.device = v();
    else if (a === '--suite' || a === '--suites') o.suites = list(v());
    else if (a === '--timeout') o.timeout = Number(v());
    else if (a === '--nas') o.nas = list(v()).map(Number);
    else if (a === '--questions') o.questions = list(v());
    else if (a === '--out') o.out = v();
    else if (a === '--name') o.name = v();
    else if (a === '--workers') o.workers = Number(v());
    else throw new Error(`unknown argument ${a} (see bench/README.md)`);
  }
  for (const e of o.engines) if (!ALL_ENGINES.includes(e)) throw new Error(`unknown engine ${e}`);
  if (o.engines.some((e) => e.startsWith('gpudf')) && !existsSync(join(HERE, '..', 'dist', 'index.js'))) {
    throw new Error('gpudf engine: dist/index.js is missing: run `npm run build:ts` (and `npm run build:native`) first');
  }
  for (const s of o.suites) if (!SUITES[s]) throw new Error(`unknown suite ${s}`);
  if (o.suites.some(isTpchData)) {
    if (!['parquet', 'csv'].includes(o.format)) throw new Error(`--format must be parquet or csv, got ${o.format}`);
    if (!enginesGiven) o.engines = o.suites.includes('tpch') ? TPCH_ENGINES : TPCH_ENGINES.filter((e) => e !== 'gpudf-lazy');
    const other = o.engines.filter((e) => !TPCH_ENGINES.includes(e));
    if (other.length) throw new Error(`the TPC-H suites run ${TPCH_ENGINES.join(', ')}; not ${other.join(', ')}`);
  }
  if (o.engines.includes('gpudf-lazy') && o.suites.some((s) => s !== 'tpch')) throw new Error('the gpudf-lazy engine runs the tpch suite only');
  if (!(o.size >= 1)) throw new Error('--size must be a row count such as 1e6');
  return o;
}

const log = (line) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);

async function main() {
  const argv = process.argv.slice(2);
  const o = parseArgs(argv);
  const machine = machineInfo();
  mkdirSync(o.out, { recursive: true });
  const tpchOnly = o.suites.every(isTpchData);  // own file: its README table is apart
  const defaultName = `${new Date().toISOString().slice(0, 10)}-${machine.host}${tpchOnly ? `-${o.suites.join('-')}-sf${o.sf}` : ''}`;
  const path = join(o.out, `${o.name ?? defaultName}.json`);
  const results = openResults(path, machine);
  const run = {
    started: new Date().toISOString(),
    command: `npm run bench -- ${argv.join(' ')}`.trim(),
    size: o.size, ...(o.suites.some(isTpchData) ? { sf: o.sf, format: o.format } : {}), device: o.device, device_label: `GPUDF_DEVICE=${o.device}`, timeout_s: o.timeout, engines: o.engines, datasets: [],
  };
  results.runs.push(run);
  const env = { ...process.env, GPUDF_DEVICE: o.device };
  let failures = 0;

  for (const suite of o.suites) {
    const variants = suite === 'groupby' ? o.nas : [0];
    for (const nas of variants) {
      const t0 = performance.now();
      const dataset = isTpchData(suite)
        ? { ...(await ensureTpch(o.sf, { workers: o.workers, parquet: o.format === 'parquet', log })), format: o.format }
        : await ensureData(suite, o.size, { nas, workers: o.workers, log });
      const genS = (performance.now() - t0) / 1000;
      const block = isTpchData(suite)
        ? { suite, dataset: `TPC-H SF ${o.sf} (${o.format})`, sf: o.sf, format: o.format, gen_s: genS, gen: dataset.seconds, engines: {}, mismatches: [] }
        : { suite, dataset: dataset.tables.x.name, rows: o.size, nas, gen_s: genS, engines: {}, mismatches: [] };
      run.datasets.push(block);
      log(`${suite} on ${block.dataset} (data ready in ${genS.toFixed(1)} s)`);
      for (const engine of o.engines) {
        block.engines[engine] = await runEngine({ engine, suite, dataset, only: o.questions, timeoutS: o.timeout, env, log });
        if (suite !== 'tpch') saveResults(path, results); // tpch answers are compared, then dropped, before saving
      }
      const ids = SUITES[suite].map((q) => q.id);
      block.mismatches = suite === 'tpch' ? compareWholeAnswers(block.engines, ids, TPCH_ORDER) : compareChecksums(block.engines, ids);
      for (const m of block.mismatches) {
        failures++;
        if (suite === 'tpch') {
          console.log(`\n!!!!!!!! ANSWER MISMATCH (correctness failure): ${m.engine} ${suite} ${m.q} on ${block.dataset}\n` +
            `!!!!!!!!   ${m.diff} (reference: ${m.reference})\n`);
          continue;
        }
        console.log(`\n!!!!!!!! CHECKSUM MISMATCH (correctness failure): ${m.engine} ${suite} ${m.q} on ${block.dataset}\n` +
          `!!!!!!!!   got      rows ${m.got.rows}, chk [${m.got.chk.join('; ')}]\n` +
          `!!!!!!!!   expected rows ${m.expected.rows}, chk [${m.expected.chk.join('; ')}] (from ${m.reference})\n`);
      }
      saveResults(path, results);
      console.log('\n' + renderDataset(block));
    }
  }
  run.finished = new Date().toISOString();
  saveResults(path, results);
  log(`results: ${path} and ${path.replace(/\.json$/, '.md')}${failures ? ` — ${failures} MISMATCH(ES)` : ''}`);
  process.exitCode = failures ? 2 : 0;
}

await main();
