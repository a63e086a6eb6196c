// Child process: runs one engine over one suite, talking to the parent (run.mjs) through the IPC
// channel. Messages: hello, load, start {q}, result {q, ...}, done. The parent kills this process
// when a question runs past the timeout and starts a new one from the next question.
//
// argv[2]: JSON { engine, suite, dataset, from, only }
import { SUITES } from './questions.mjs';

const send = (m) => new Promise((resolve) => process.send(m, resolve));
const seconds = (t0) => (performance.now() - t0) / 1000;
const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const gc = () => globalThis.gc?.();

const cfg = JSON.parse(process.argv[2]);
const engine = (await import(`../engines/${cfg.engine}.mjs`)).default;

function unsupportedReason(e) {
  return e && e.unsupported ? e.message : null;
}

async function main() {
  await send({ type: 'hello', version: await engine.version() });
  await engine.prepare?.(cfg.suite); // untimed set-up (e.g. loading the query module)
  let ctx;
  const t0 = performance.now();
  try {
    ctx = await engine.load(cfg.suite, cfg.dataset);
  } catch (e) {
    await send({ type: 'load', error: String(e?.stack ?? e), rss_mb: rssMb() });
    return;
  }
  await send({ type: 'load', seconds: seconds(t0), csv: ctx.csvLoad ?? 'csv', note: ctx.note ?? null, rss_mb: rssMb() });

  const questions = SUITES[cfg.suite].slice(cfg.from).filter((q) => !cfg.only || cfg.only.includes(q.id));
  for (const q of questions) {
    await send({ type: 'start', q: q.id });
    const impl = engine.questions[cfg.suite]?.[q.id];
    if (!impl) {
      await send({ type: 'result', q: q.id, status: 'unsupported', reason: 'not expressible in this engine' });
      continue;
    }
    const runs = [];
    let chk = null, rows = null, answer;
    try {
      for (let run = 0; run < 2; run++) {
        gc();
        const t = performance.now();
        const ans = await impl(ctx, cfg.dataset);
        runs.push(seconds(t));
        ({ chk, rows, answer } = await engine.check(ans, q.measures, ctx));
        await engine.release?.(ans);
      }
      // answer: the whole answer as plain rows, for suites compared row by row (tpch)
      await send({ type: 'result', q: q.id, status: 'ok', runs, chk, rows, ...(answer ? { answer } : {}), rss_mb: rssMb() });
    } catch (e) {
      const reason = unsupportedReason(e);
      await send(reason
        ? { type: 'result', q: q.id, status: 'unsupported', reason }
        : { type: 'result', q: q.id, status: 'error', error: String(e?.message ?? e).slice(0, 500), rss_mb: rssMb() });
    }
  }
  await send({ type: 'done' });
}

await main();
process.exit(0);
