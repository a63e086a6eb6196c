// worker_threads entry: generates one chunk of a row-wise table (groupby or micro), or takes one
// chunk of a table drawn in the main thread (join: kind 'table', utf8 columns as id codes with
// their idWidth), and posts back its CSV text (as bytes) and its Arrow buffers, all
// transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { groupbyChunk, groupbyNullPlan } from './groupby.mjs';
import { microChunk } from './micro.mjs';
import { arrowBuffers, csvRows, idFormat, transferList } from './chunk.mjs';

let plan = { key: null, value: null };

function makeChunk(task) {
  if (task.kind === 'table') {
    const columns = task.chunk.columns.map((c) => (c.type === 'utf8' ? { ...c, str: idFormat(c.idWidth) } : c));
    return { n: task.chunk.n, columns };
  }
  if (task.kind === 'micro') return microChunk(task);
  const key = `${task.N}/${task.K}/${task.nas}`;
  if (plan.key !== key) plan = { key, value: groupbyNullPlan(task.N, task.K, task.nas) };
  return groupbyChunk({ ...task, nullPlan: plan.value });
}

parentPort.on('message', (task) => {
  const chunk = makeChunk(task);
  const csv = [];
  csvRows(chunk, (text) => csv.push(Buffer.from(text, 'latin1')));
  const buffers = task.arrow ? arrowBuffers(chunk) : null;
  const csvBuffers = csv.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.length));
  const transfer = buffers ? transferList(buffers) : [];
  // Buffer.from may share a pooled ArrayBuffer between small pieces: transfer each once.
  for (const b of csvBuffers) if (!transfer.includes(b.buffer) && b.byteLength === b.buffer.byteLength) transfer.push(b.buffer);
  parentPort.postMessage({ index: task.index, csv: csvBuffers, buffers }, transfer);
});
