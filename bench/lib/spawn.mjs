// Runs one engine over one suite in child processes (lib/child.mjs), with a per-question (and
// per-load) timeout: on timeout the child is killed, the question is marked "timeout", and a new
// child continues from the next question (it loads the data again).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SUITES } from './questions.mjs';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));

/** One child process from question index `from`; resolves when it ends. */
function runChild({ engine, suite, dataset, from, only, timeoutS, env, onEvent }) {
  return new Promise((resolve) => {
    const child = fork(CHILD, [JSON.stringify({ engine, suite, dataset, from, only })], {
      execArgv: ['--expose-gc', '--max-old-space-size=65536'],
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let log = '';
    const keep = (d) => { log = (log + d).slice(-4000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timer = null, current = 'load', timedOut = null;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { timedOut = current; child.kill('SIGKILL'); }, timeoutS * 1000);
    };
    arm();
    child.on('message', (m) => {
      if (m.type === 'start') { current = m.q; arm(); }
      if (m.type === 'result' || m.type === 'load') clearTimeout(timer);
      onEvent(m);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ timedOut, code, signal, log });
    });
  });
}

/**
 * Runs engine × suite; returns { version, load, questions: { qid: result } }.
 * `log` receives one line per event.
 */
export async function runEngine({ engine, suite, dataset, only, timeoutS, env, log }) {
  const ids = SUITES[suite].map((q) => q.id);
  const out = { version: null, load: null, questions: {} };
  let from = 0;
  while (from < ids.length) {
    let started = null;
    const finished = new Set();
    const r = await runChild({
      engine, suite, dataset, from, only, timeoutS, env,
      onEvent: (m) => {
        if (m.type === 'hello') out.version = m.version;
        if (m.type === 'start') started = m.q;
        if (m.type === 'load' && out.load === null) {
          out.load = m.error ? { status: 'error', error: m.error.slice(0, 500) } : { status: 'ok', seconds: m.seconds, csv: m.csv, note: m.note, rss_mb: m.rss_mb };
          log(`${engine} ${suite} load: ${m.error ? 'ERROR ' + m.error.split('\n')[0] : `${m.seconds.toFixed(2)} s${m.csv === 'unsupported' ? ' (csv: unsupported; ' + m.note + ')' : ''}`}`);
        }
        if (m.type === 'result') {
          const { type, q, ...rest } = m;
          out.questions[q] = rest;
          finished.add(q);
          log(`${engine} ${suite} ${q}: ${describe(rest)}`);
        }
      },
    });
    if (r.timedOut === 'load') {
      out.load ??= { status: 'timeout' };
      for (const id of ids.slice(from)) if (!only || only.includes(id)) out.questions[id] = { status: 'skipped', reason: 'load timed out' };
      log(`${engine} ${suite} load: TIMEOUT after ${timeoutS} s`);
      break;
    }
    if (r.timedOut) {
      out.questions[r.timedOut] = { status: 'timeout', limit_s: timeoutS };
      log(`${engine} ${suite} ${r.timedOut}: TIMEOUT after ${timeoutS} s`);
      from = ids.indexOf(r.timedOut) + 1;
      continue;
    }
    if (r.code !== 0 || r.signal) {
      const failed = started !== null && !finished.has(started) ? started : undefined;
      const msg = `child exited (${r.signal ?? 'code ' + r.code}): ${r.log.split('\n').filter(Boolean).slice(-3).join(' | ')}`;
      if (out.load === null) { out.load = { status: 'error', error: msg }; log(`${engine} ${suite} load: ${msg}`); break; }
      if (failed === undefined) break;
      out.questions[failed] = { status: 'error', error: msg.slice(0, 500) };
      log(`${engine} ${suite} ${failed}: ${msg}`);
      from = ids.indexOf(failed) + 1;
      continue;
    }
    if (out.load?.status === 'error') {
      for (const id of ids) if (!only || only.includes(id)) out.questions[id] = { status: 'skipped', reason: 'load failed' };
    }
    break;
  }
  return out;
}

export function describe(r) {
  if (r.status === 'ok') return `${r.runs.map((t) => t.toFixed(3)).join(' / ')} s, rows ${r.rows}, chk [${r.chk.map(fmtChk).join('; ')}], rss ${r.rss_mb} MB`;
  if (r.status === 'unsupported') return `unsupported (${r.reason})`;
  if (r.status === 'error') return `ERROR ${r.error}`;
  return r.status;
}

/** db-benchmark's str_round: floats to 3 decimals. */
export const fmtChk = (v) => (v === null ? 'NA' : Number.isInteger(v) ? String(v) : v.toFixed(3));
