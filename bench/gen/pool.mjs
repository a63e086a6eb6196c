// The worker pool of the data generators: chunk i of a table is made by whichever worker is
// free, and the chunks are yielded in index order, so the output never depends on the number of
// workers. Workers stay at most two chunks each ahead of the consumer (bounded memory when
// writing is slower than generating).
import { Worker } from 'node:worker_threads';

/**
 * Chunks made by a pool of `workers` threads running `workerUrl`, yielded in order: task(i) is
 * { message, transfer } for chunk i; the worker answers with a message holding `index`.
 * `workerData` (e.g. a SharedArrayBuffer every chunk reads) is handed to each worker once.
 */
export async function* pooledChunks(workerUrl, count, task, workers, workerData = undefined) {
  const size = Math.max(1, Math.min(workers, count));
  const pool = Array.from({ length: size }, () => new Worker(workerUrl, { workerData }));
  const done = new Map();
  const idle = [];
  let next = 0, consumed = 0, wake = null;
  const failures = [];
  const feed = (w) => {
    if (next >= count) return;
    if (next >= consumed + 2 * size) { idle.push(w); return; }
    const { message, transfer } = task(next++);
    w.postMessage(message, transfer);
  };
  for (const w of pool) {
    w.on('message', (m) => { done.set(m.index, m); feed(w); wake?.(); });
    w.on('error', (e) => { failures.push(e); wake?.(); });
    feed(w);
  }
  try {
    for (let i = 0; i < count; i++) {
      while (!done.has(i)) {
        if (failures.length) throw failures[0];
        await new Promise((r) => (wake = r));
      }
      const m = done.get(i);
      done.delete(i);
      consumed = i + 1;
      while (idle.length && next < consumed + 2 * size) feed(idle.pop());
      yield m;
    }
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
