// Arrow IPC file output: RecordBatches made from chunk buffers (see chunk.mjs arrowBuffers),
// streamed to disk one batch at a time.
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import * as arrow from 'apache-arrow';

const TYPES = {
  int32: () => new arrow.Int32(),
  int64: () => new arrow.Int64(),
  float64: () => new arrow.Float64(),
  utf8: () => new arrow.Utf8(),
};

function columnData(b) {
  const type = TYPES[b.type]();
  const common = { type, length: b.length, nullCount: b.nullCount, nullBitmap: b.nullBitmap ?? undefined };
  if (b.type === 'utf8') return arrow.makeData({ ...common, valueOffsets: b.offsets, data: b.data });
  return arrow.makeData({ ...common, data: b.data });
}

/** A RecordBatch from arrowBuffers() output. */
export function recordBatch(buffers) {
  const children = buffers.map(columnData);
  const fields = buffers.map((b, i) => new arrow.Field(b.name, children[i].type, true));
  const schema = new arrow.Schema(fields);
  const length = buffers[0]?.length ?? 0;
  return new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(fields), length, children }));
}

/** Opens an Arrow IPC file for writing: { write(batch), close(): Promise }. */
export function openArrowFile(path) {
  const writer = new arrow.RecordBatchFileWriter();
  const file = createWriteStream(path);
  writer.toNodeStream().pipe(file);
  return {
    write: (batch) => writer.write(batch),
    async close() {
      writer.finish();
      await finished(file);
    },
  };
}
