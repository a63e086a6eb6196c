#!/usr/bin/env node
// Rewrites a benchmark section of README.md from a results file: the machine, the date, the
// command and the tables. A file of TPC-H runs only (`--suite tpch`) goes between
// <!-- bench-tpch:start --> and <!-- bench-tpch:end -->, any other between <!-- bench:start -->
// and <!-- bench:end -->, so the two tables stand side by side.
//
//   node bench/readme-table.mjs [bench/results/<date>-<host>.json]   (default: the newest file)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderRun } from './lib/report.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const README = join(HERE, '..', 'README.md');

function newestResults() {
  const dir = join(HERE, 'results');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => join(dir, f));
  if (files.length === 0) throw new Error('no results in bench/results: run `npm run bench` first');
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

const path = process.argv[2] ?? newestResults();
const results = JSON.parse(readFileSync(path, 'utf8'));
const tpch = results.runs.every((r) => r.datasets.every((d) => d.suite === 'tpch'));
const tag = tpch ? 'bench-tpch' : 'bench';
const START = `<!-- ${tag}:start -->`, END = `<!-- ${tag}:end -->`;
const body = [
  `Source: \`${relative(join(HERE, '..'), path)}\` (full tables and checksums there).`,
  '',
  ...results.runs.map((r) => renderRun(r, results.machine)),
].join('\n');

const readme = readFileSync(README, 'utf8');
const a = readme.indexOf(START), b = readme.indexOf(END);
if (a < 0 || b < a) throw new Error(`README.md has no ${START} ... ${END} section`);
writeFileSync(README, `${readme.slice(0, a + START.length)}\n${body}\n${readme.slice(b)}`);
console.log(`README.md: ${tpch ? 'TPC-H' : 'benchmark'} section rewritten from ${relative(process.cwd(), path)}`);
