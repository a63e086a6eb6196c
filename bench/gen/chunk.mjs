// One chunk of a generated table: column arrays -> CSV text (on disk) and Arrow buffers.
//
// A chunk is { n, columns: [{ name, type, values, valid, str? }] } where
//   type   'int32' | 'int64' | 'float64' | 'utf8'
//   values Int32Array (int32, and the codes of utf8 columns) or Float64Array (float64, and
//          int64 as integral doubles below 2^53)
//   valid  Uint8Array of 0/1 per row, or null when the column has no nulls
//   str    for utf8 only: code -> string (e.g. 7 -> "id007")
// CSV follows data.table::fwrite as the db-benchmark writes it: header line, comma separated,
// no quotes, a null is an empty field.
const FLUSH_ROWS = 32768;

/** Formats the chunk's rows as CSV, handing `emit` one piece of text per FLUSH_ROWS rows. */
export function csvRows(chunk, emit) {
  const cols = chunk.columns.map((c) => ({
    valid: c.valid,
    fmt: c.type === 'utf8' ? c.str : String,
    values: c.values,
  }));
  const last = cols.length - 1;
  let text = '';
  for (let i = 0; i < chunk.n; i++) {
    for (let j = 0; j <= last; j++) {
      const c = cols[j];
      if (c.valid === null || c.valid[i] === 1) text += c.fmt(c.values[i]);
      text += j === last ? '\n' : ',';
    }
    if ((i + 1) % FLUSH_ROWS === 0) {
      emit(text);
      text = '';
    }
  }
  if (text.length > 0) emit(text);
}

export const csvHeader = (chunk) => chunk.columns.map((c) => c.name).join(',') + '\n';

/** Arrow validity bitmap (LSB first, 1 = valid) and null count from a 0/1 byte per row. */
function bitmap(valid, n) {
  if (valid === null) return { nullBitmap: null, nullCount: 0 };
  const bits = new Uint8Array((n + 7) >> 3);
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    if (valid[i] === 1) bits[i >> 3] |= 1 << (i & 7);
    else nulls++;
  }
  return { nullBitmap: bits, nullCount: nulls };
}

/** Utf8 value bytes and int32 offsets for an ASCII utf8 column (nulls are empty slots). */
function utf8Buffers(col, n) {
  const offsets = new Int32Array(n + 1);
  const parts = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const s = col.valid === null || col.valid[i] === 1 ? col.str(col.values[i]) : '';
    parts[i] = s;
    total += s.length;
    offsets[i + 1] = total;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const s = parts[i];
    for (let k = 0; k < s.length; k++) bytes[at++] = s.charCodeAt(k);
  }
  return { offsets, bytes };
}

/** Little-endian int64 words of integral doubles below 2^53 (the 'int64' column type). */
function int64Words(values) {
  const words = new Int32Array(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    words[2 * i] = v % 4294967296;
    words[2 * i + 1] = Math.floor(v / 4294967296);
  }
  return new BigInt64Array(words.buffer);
}

/**
 * Plain, transferable buffers for each column (what a worker posts to the main thread):
 * [{ name, type, length, nullCount, nullBitmap, data, offsets? }].
 */
export function arrowBuffers(chunk) {
  return chunk.columns.map((col) => {
    const { nullBitmap, nullCount } = bitmap(col.valid, chunk.n);
    const base = { name: col.name, type: col.type, length: chunk.n, nullCount, nullBitmap };
    if (col.type === 'int64') return { ...base, data: int64Words(col.values) };
    if (col.type !== 'utf8') return { ...base, data: col.values };
    const { offsets, bytes } = utf8Buffers(col, chunk.n);
    return { ...base, data: bytes, offsets };
  });
}

/** The ArrayBuffers of arrowBuffers() output, for postMessage's transfer list. */
export function transferList(buffers) {
  const out = [];
  for (const b of buffers) {
    out.push(b.data.buffer);
    if (b.offsets) out.push(b.offsets.buffer);
    if (b.nullBitmap) out.push(b.nullBitmap.buffer);
  }
  return out;
}

const pad = (width) => (v) => 'id' + String(v).padStart(width, '0');
/** "id%03d"-style formatters (width 0 = "id%.0f": no padding). */
export const idFormat = (width) => (width === 0 ? (v) => 'id' + v : pad(width));
