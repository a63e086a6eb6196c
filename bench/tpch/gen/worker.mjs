// worker_threads entry of the TPC-H generator: makes one chunk (tables.mjs) and posts its CSV
// bytes back, transferred. workerData.pool is the shared text pool.
import { parentPort, workerData } from 'node:worker_threads';
import { customerChunk, ordersChunk, partChunk, supplierChunk } from './tables.mjs';

const pool = new Uint8Array(workerData.pool);
const MAKE = { part: partChunk, supplier: supplierChunk, customer: customerChunk, orders: ordersChunk };

parentPort.on('message', (task) => {
  const parts = MAKE[task.kind](task, pool);
  const transfer = [...new Set(Object.values(parts).map((b) => b.buffer))];
  parentPort.postMessage({ index: task.seq, parts }, transfer); // index: the position in the pool's task list
});
