// Results: the JSON file (all runs of one day on one host) and its markdown rendering.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SUITES, isTpchData } from './questions.mjs';

export const ENGINE_ORDER = ['gpudf', 'gpudf-lazy', 'polars', 'duckdb', 'arquero', 'danfo'];

/** gpudf's own engines (eager and lazy); the others are its peers. */
const ours = (e) => e.startsWith('gpudf');

/** Reads a results file, or a fresh one for `machine`. */
export function openResults(path, machine) {
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  return { schema: 1, machine, runs: [] };
}

export function saveResults(path, results) {
  writeFileSync(path, JSON.stringify(results, null, 1) + '\n');
  writeFileSync(path.replace(/\.json$/, '.md'), renderMarkdown(results));
}

const sec = (t) => (t < 10 ? t.toFixed(3) : t.toFixed(1));
const best = (r) => (r?.status === 'ok' ? Math.min(...r.runs) : null);

function cell(r, mark = '✗ chk') {
  if (!r) return '';
  if (r.status === 'ok') return `${r.runs.map(sec).join(' / ')}${r.correct === false ? ` ${mark}` : ''}`;
  if (r.status === 'timeout') return `timeout (${r.limit_s} s)`;
  if (r.status === 'error') return 'error';
  return r.status;
}

function loadCell(l) {
  if (!l) return '';
  if (l.status !== 'ok') return l.status;
  return l.csv === 'unsupported' ? `unsupported (Arrow IPC: ${sec(l.seconds)})` : sec(l.seconds);
}

/** A gpudf engine's best time over the fastest correct peer's best time. */
function ratio(engines, q, me) {
  const g = engines[me]?.questions[q];
  const mine = g?.correct === false ? null : best(g);
  const peers = Object.entries(engines).filter(([e]) => !ours(e))
    .map(([, r]) => r.questions[q]).filter((r) => r?.correct !== false).map(best).filter((t) => t !== null);
  if (mine === null || peers.length === 0) return '—';
  return `${(mine / Math.min(...peers)).toFixed(2)}×`;
}

function peakRss(e) {
  const all = [e.load?.rss_mb, ...Object.values(e.questions).map((r) => r.rss_mb)].filter((v) => typeof v === 'number');
  return all.length ? String(Math.max(...all)) : '';
}

/**
 * Geometric mean of each engine's best times over the questions every engine answered
 * correctly, and gpudf's over the fastest peer's.
 */
function geomeanRow(d, names) {
  const ids = SUITES[d.suite].map((q) => q.id)
    .filter((q) => names.every((e) => d.engines[e].questions[q]?.status === 'ok' && d.engines[e].questions[q].correct !== false));
  if (ids.length === 0) return null;
  const g = (e) => Math.exp(ids.reduce((s, q) => s + Math.log(Math.max(best(d.engines[e].questions[q]), 1e-6)), 0) / ids.length);
  const means = Object.fromEntries(names.map((e) => [e, g(e)]));
  const peers = names.filter((e) => !ours(e)).map((e) => means[e]);
  const r = names.filter(ours).map((e) => (peers.length ? `${(means[e] / Math.min(...peers)).toFixed(2)}×` : '—'));
  return `| geometric mean of best runs (${ids.length} queries) | ${names.map((e) => sec(means[e])).join(' | ')} | ${r.join(' | ')} |`;
}

/** Markdown for one dataset block of a run. */
export function renderDataset(d) {
  const names = ENGINE_ORDER.filter((e) => d.engines[e]);
  const tpch = d.suite === 'tpch';
  const tpchData = isTpchData(d.suite);
  const mark = tpch ? '✗ ans' : '✗ chk';
  const mine = names.filter(ours);
  const blanks = mine.map(() => '').join(' | ');
  const head = `| ${tpch ? 'TPC-H query' : `${d.suite} question`} | ${names.join(' | ')} | ${mine.map((e) => `${e} ÷ fastest peer`).join(' | ')} |`;
  const rule = `|---|${names.map(() => '---').join('|')}|${mine.map(() => '---').join('|')}|`;
  const rows = [`| ${tpchData ? `load into memory, ${d.format}` : 'CSV load'} (s) | ${names.map((e) => loadCell(d.engines[e].load)).join(' | ')} | ${blanks} |`];
  for (const q of SUITES[d.suite]) {
    if (!names.some((e) => d.engines[e].questions[q.id])) continue;
    rows.push(`| ${q.id} ${q.label} | ${names.map((e) => cell(d.engines[e].questions[q.id], mark)).join(' | ')} | ${mine.map((e) => ratio(d.engines, q.id, e)).join(' | ')} |`);
  }
  if (tpch) rows.push(geomeanRow(d, names) ?? '');
  rows.push(`| peak RSS (MB) | ${names.map((e) => peakRss(d.engines[e])).join(' | ')} | ${blanks} |`);
  const versions = names.map((e) => `${e}: ${d.engines[e].version ?? '?'}`).join('; ');
  const bad = d.mismatches.length
    ? `\n**${tpch ? 'ANSWER' : 'CHECKSUM'} MISMATCHES: ${d.mismatches.map((m) => `${m.engine} ${m.q}`).join(', ')}** (${mark} above)\n` : '';
  const title = tpchData
    ? `#### ${d.suite}: ${d.dataset}${!d.gen ? '' : d.gen.csv + d.gen.parquet === 0 ? ' (data files reused)'
      : ` (data generated: ${sec(d.gen.csv)} s CSV, ${sec(d.gen.parquet)} s Parquet)`}`
    : `#### ${d.suite}: ${d.dataset} (${d.rows.toLocaleString('en-US')} rows)`;
  return `${title}\n\n${head}\n${rule}\n${rows.filter(Boolean).join('\n')}\n${bad}\n<sub>${versions}</sub>\n`;
}

export function renderRun(run, machine) {
  return [
    `### ${run.started.slice(0, 10)} · ${machine.host} · ${run.device_label}`,
    '',
    `Machine: ${machineLine(machine)}. Command: \`${run.command}\`. Times in seconds, two runs each ("run 1 / run 2");`,
    'a question an engine cannot express is "unsupported"; ✗ chk = answer checksum differs from the reference engine;',
    '✗ ans = the whole answer differs from the reference engine\'s (TPC-H; see bench/tpch/answers.mjs).',
    ...(run.note ? ['', `Note: ${run.note}`] : []),
    '',
    ...run.datasets.map(renderDataset),
  ].join('\n');
}

export const machineLine = (m) => `${m.cpu} (${m.cores} cores), ${m.mem_gb} GiB RAM${m.gpu ? `, GPU ${m.gpu}` : ''}, Node ${m.node}`;

export function renderMarkdown(results) {
  return `# Benchmark results\n\n${results.runs.map((r) => renderRun(r, results.machine)).join('\n')}`;
}
