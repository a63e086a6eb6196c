/**
 * Bounded validation of Arrow IPC framing, run before the bytes reach apache-arrow's decoder.
 * That decoder trusts every length it reads: a footer whose record-batch count is off by one
 * inserted byte reads as billions of batches and loops for hours. Here every message length,
 * flatbuffer offset, vector length, body length, footer offset and buffer range is checked to
 * lie inside the bytes, and every walk is bounded by the input's size (flatbuffer offsets only
 * point forward, so no walk can cycle, and shared subtrees are bounded by a visit budget).
 *
 * Flatbuffer layout (https://flatbuffers.dev/internals): a table starts with an int32 that is
 * the distance back to its vtable; the vtable holds its own byte length, the table's byte length
 * and one uint16 offset per field (0: absent). References are uint32 offsets from where they
 * are stored; vectors and strings start with a uint32 element count.
 */

/** Why the bytes were refused; turned into an IoError naming the file by the caller. */
export class IpcFramingError extends Error {}

const CONTINUATION = -1;
const MAGIC = "ARROW1";
/** Fields visited in one schema, shared subtrees counted each time (refuses schema bombs). */
const FIELD_BUDGET = 100_000;
const MAX_FIELD_DEPTH = 64;
/**
 * A record batch or field node may claim at most 8 values per body byte plus this many: no
 * layout but Null stores fewer than one bit per value, and a length that a flipped byte made
 * huge would otherwise become a column of billions of values over a few bytes.
 */
const LENGTH_SLACK = 1 << 16;

// MessageHeader union members and the Type union members that carry references.
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY_BATCH = 2;
const HEADER_RECORD_BATCH = 3;
const TYPE_TIMESTAMP = 10;
const TYPE_UNION = 14;
const TYPE_LAST = 26; // LargeListView

function fail(message: string): never {
  throw new IpcFramingError(message);
}

/** Reads one flatbuffer that occupies bytes [start, end) of the file, checking every access. */
class Flatbuffer {
  private readonly view: DataView;
  constructor(
    bytes: Uint8Array,
    private readonly start: number,
    private readonly end: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(pos: number, size: number, what: string): void {
    if (!(pos >= this.start && pos + size <= this.end)) fail(`${what} at byte ${pos} lies outside its message`);
  }
  u8(pos: number): number {
    this.need(pos, 1, "a field");
    return this.view.getUint8(pos);
  }
  i16(pos: number): number {
    this.need(pos, 2, "a field");
    return this.view.getInt16(pos, true);
  }
  u16(pos: number): number {
    this.need(pos, 2, "a vtable entry");
    return this.view.getUint16(pos, true);
  }
  i32(pos: number): number {
    this.need(pos, 4, "a field");
    return this.view.getInt32(pos, true);
  }
  u32(pos: number): number {
    this.need(pos, 4, "an offset");
    return this.view.getUint32(pos, true);
  }
  /** An int64 that must be a non-negative safe integer (lengths, counts, offsets). */
  count64(pos: number, what: string): number {
    this.need(pos, 8, what);
    const v = this.view.getBigInt64(pos, true);
    if (v < 0n || v > BigInt(Number.MAX_SAFE_INTEGER)) fail(`${what} is ${v}`);
    return Number(v);
  }

  /** The root table's position. */
  root(): number {
    return this.table(this.start + this.u32(this.start));
  }

  /** Checks the table at `pos` and its vtable; returns pos. */
  table(pos: number): number {
    const vtable = pos - this.i32(pos);
    const vtableLength = this.u16(vtable);
    const tableLength = this.u16(vtable + 2);
    if (vtableLength < 4 || vtableLength % 2 !== 0) fail(`a vtable at byte ${vtable} has length ${vtableLength}`);
    this.need(vtable, vtableLength, "a vtable");
    if (tableLength < 4) fail(`a table at byte ${pos} has length ${tableLength}`);
    this.need(pos, tableLength, "a table");
    for (let entry = vtable + 4; entry < vtable + vtableLength; entry += 2) {
      const offset = this.u16(entry);
      if (offset !== 0 && (offset < 4 || offset >= tableLength)) fail(`a table at byte ${pos} has a field outside it`);
    }
    return pos;
  }

  /** The absolute position of field `id` of the table at `pos`, or 0 when absent. */
  field(pos: number, id: number): number {
    const vtable = pos - this.i32(pos);
    const entry = 4 + 2 * id;
    if (entry >= this.u16(vtable)) return 0;
    const offset = this.u16(vtable + entry);
    return offset === 0 ? 0 : pos + offset;
  }

  /** Where the reference stored in field `id` points, or 0 when absent. */
  ref(pos: number, id: number): number {
    const at = this.field(pos, id);
    return at === 0 ? 0 : at + this.u32(at);
  }
  childTable(pos: number, id: number): number {
    const at = this.ref(pos, id);
    return at === 0 ? 0 : this.table(at);
  }

  /** A vector of `elementSize`-byte elements in field `id`: its first element and length. */
  vector(pos: number, id: number, elementSize: number): { first: number; length: number } {
    const at = this.ref(pos, id);
    if (at === 0) return { first: 0, length: 0 };
    const length = this.u32(at);
    if (length > (this.end - at - 4) / elementSize) fail(`a vector at byte ${at} claims ${length} elements`);
    return { first: at + 4, length };
  }
  string(pos: number, id: number): void {
    this.vector(pos, id, 1);
  }
  /** The tables of a vector of tables in field `id`. */
  tables(pos: number, id: number): number[] {
    const { first, length } = this.vector(pos, id, 4);
    const out: number[] = [];
    for (let i = 0; i < length; i++) {
      const at = first + 4 * i;
      out.push(this.table(at + this.u32(at)));
    }
    return out;
  }
  fieldI16(pos: number, id: number, fallback: number): number {
    const at = this.field(pos, id);
    return at === 0 ? fallback : this.i16(at);
  }
  fieldU8(pos: number, id: number, fallback: number): number {
    const at = this.field(pos, id);
    return at === 0 ? fallback : this.u8(at);
  }
}

function checkKeyValues(fb: Flatbuffer, table: number, id: number): void {
  for (const kv of fb.tables(table, id)) {
    fb.string(kv, 0);
    fb.string(kv, 1);
  }
}

/** Schema { endianness, fields, custom_metadata, features }. */
function checkSchema(fb: Flatbuffer, schema: number): void {
  if (fb.fieldI16(schema, 0, 0) !== 0) fail("the schema is big-endian, which is not supported");
  const budget = { fields: 0 };
  for (const field of fb.tables(schema, 1)) checkField(fb, field, 1, budget);
  checkKeyValues(fb, schema, 2);
  fb.vector(schema, 3, 8);
}

/** Field { name, nullable, type_type, type, dictionary, children, custom_metadata }. */
function checkField(fb: Flatbuffer, field: number, depth: number, budget: { fields: number }): void {
  if (depth > MAX_FIELD_DEPTH) fail(`fields are nested deeper than ${MAX_FIELD_DEPTH}`);
  if (++budget.fields > FIELD_BUDGET) fail(`the schema has more than ${FIELD_BUDGET} fields`);
  fb.string(field, 0);
  const typeType = fb.fieldU8(field, 2, 0);
  if (typeType === 0 || typeType > TYPE_LAST) fail(`a field has type tag ${typeType}`);
  const type = fb.childTable(field, 3);
  if (type === 0) fail("a field has no type");
  if (typeType === TYPE_TIMESTAMP) fb.string(type, 1);
  if (typeType === TYPE_UNION) fb.vector(type, 1, 4);
  const dictionary = fb.childTable(field, 4);
  if (dictionary !== 0) {
    // DictionaryEncoding { id, indexType, isOrdered, dictionaryKind }.
    const idAt = fb.field(dictionary, 0);
    if (idAt !== 0) fb.count64(idAt, "a dictionary id");
    fb.childTable(dictionary, 1);
  }
  for (const child of fb.tables(field, 5)) checkField(fb, child, depth + 1, budget);
  checkKeyValues(fb, field, 6);
}

/** RecordBatch { length, nodes, buffers, compression, variadicBufferCounts } over a body. */
function checkRecordBatch(fb: Flatbuffer, batch: number, bodyLength: number): void {
  const lengthAt = fb.field(batch, 0);
  const maxLength = bodyLength * 8 + LENGTH_SLACK;
  const rows = lengthAt === 0 ? 0 : fb.count64(lengthAt, "a record batch's length");
  if (rows > maxLength) fail(`a record batch claims ${rows} rows over a ${bodyLength}-byte body`);
  const nodes = fb.vector(batch, 1, 16);
  for (let i = 0; i < nodes.length; i++) {
    const at = nodes.first + 16 * i;
    const length = fb.count64(at, "a field node's length");
    const nulls = fb.count64(at + 8, "a field node's null count");
    if (nulls > length) fail(`a field node has ${nulls} nulls in ${length} values`);
    if (length > maxLength) fail(`a field node claims ${length} values over a ${bodyLength}-byte body`);
  }
  const buffers = fb.vector(batch, 2, 16);
  for (let i = 0; i < buffers.length; i++) {
    const at = buffers.first + 16 * i;
    const offset = fb.count64(at, "a buffer's offset");
    const length = fb.count64(at + 8, "a buffer's length");
    if (offset + length > bodyLength) fail(`a buffer [${offset}, ${offset + length}) lies outside its ${bodyLength}-byte body`);
  }
  fb.childTable(batch, 3);
  fb.vector(batch, 4, 8);
}

/**
 * Message { version, header_type, header, bodyLength, custom_metadata } stored in bytes
 * [start, end), its body following in [end, end + bodyLength) which must fit before `limit`.
 * Returns the body length.
 */
function checkMessage(bytes: Uint8Array, start: number, end: number, limit: number, expect?: number): number {
  const fb = new Flatbuffer(bytes, start, end);
  const message = fb.root();
  const headerType = fb.fieldU8(message, 1, 0);
  const header = fb.childTable(message, 2);
  if (header === 0) fail(`a message at byte ${start} has no header`);
  const bodyAt = fb.field(message, 3);
  const bodyLength = bodyAt === 0 ? 0 : fb.count64(bodyAt, "a message's body length");
  if (end + bodyLength > limit) fail(`a message at byte ${start} has a ${bodyLength}-byte body past the end`);
  if (expect !== undefined && headerType !== expect) fail(`a message at byte ${start} has header type ${headerType}`);
  if (headerType === HEADER_SCHEMA) checkSchema(fb, header);
  else if (headerType === HEADER_RECORD_BATCH) checkRecordBatch(fb, header, bodyLength);
  else if (headerType === HEADER_DICTIONARY_BATCH) {
    const data = fb.childTable(header, 1);
    if (data === 0) fail(`a dictionary batch at byte ${start} has no data`);
    checkRecordBatch(fb, data, bodyLength);
  } else fail(`a message at byte ${start} has header type ${headerType}`);
  checkKeyValues(fb, message, 4);
  return bodyLength;
}

function int32At(bytes: Uint8Array, pos: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(pos, true);
}

/**
 * Reads the encapsulated message prefix at `pos` (optional continuation marker, then the
 * metadata length); returns the metadata's [start, end), or null at an end-of-stream marker.
 */
function messageAt(bytes: Uint8Array, pos: number, limit: number): { start: number; end: number } | null {
  if (pos + 4 > limit) fail(`a message prefix at byte ${pos} runs past the end`);
  let length = int32At(bytes, pos);
  pos += 4;
  if (length === CONTINUATION) {
    if (pos + 4 > limit) fail(`a message prefix at byte ${pos - 4} runs past the end`);
    length = int32At(bytes, pos);
    pos += 4;
  }
  if (length === 0) return null;
  if (length < 8 || pos + length > limit) fail(`a message at byte ${pos} claims ${length} bytes of metadata`);
  return { start: pos, end: pos + length };
}

function checkStream(bytes: Uint8Array): void {
  let pos = 0;
  let first = true;
  // Each message consumes at least 12 bytes, so the loop ends within bytes.length / 12 turns.
  while (pos + 4 <= bytes.length) {
    const meta = messageAt(bytes, pos, bytes.length);
    if (meta === null) return;
    const body = checkMessage(bytes, meta.start, meta.end, bytes.length, first ? HEADER_SCHEMA : undefined);
    first = false;
    pos = meta.end + body;
  }
  if (first) fail("the stream has no schema message");
}

/** Footer { version, schema, dictionaries: [Block], recordBatches: [Block], custom_metadata }. */
function checkFile(bytes: Uint8Array): void {
  const n = bytes.length;
  if (n < 8 + 4 + MAGIC.length || !hasMagic(bytes, n - MAGIC.length)) fail("the file does not end with ARROW1");
  const footerLength = int32At(bytes, n - MAGIC.length - 4);
  const footerEnd = n - MAGIC.length - 4;
  const footerStart = footerEnd - footerLength;
  if (footerLength < 8 || footerStart < 8) fail(`the footer claims ${footerLength} bytes`);
  const fb = new Flatbuffer(bytes, footerStart, footerEnd);
  const footer = fb.root();
  const schema = fb.childTable(footer, 1);
  if (schema === 0) fail("the footer has no schema");
  checkSchema(fb, schema);
  for (const [id, header] of [
    [2, HEADER_DICTIONARY_BATCH],
    [3, HEADER_RECORD_BATCH],
  ] as const) {
    // Block { offset: int64, metaDataLength: int32, (4 bytes padding), bodyLength: int64 }.
    const blocks = fb.vector(footer, id, 24);
    for (let i = 0; i < blocks.length; i++) {
      const at = blocks.first + 24 * i;
      const offset = fb.count64(at, "a block's offset");
      const metaLength = fb.i32(at + 8);
      const bodyLength = fb.count64(at + 16, "a block's body length");
      if (offset < 8 || metaLength < 8 || offset + metaLength + bodyLength > footerStart) {
        fail(`block ${i} [${offset}, +${metaLength}, +${bodyLength}] lies outside the file's messages`);
      }
      const meta = messageAt(bytes, offset, offset + metaLength);
      if (meta === null) fail(`block ${i} points at an end-of-stream marker`);
      const body = checkMessage(bytes, meta.start, meta.end, footerStart, header);
      if (body > bodyLength) fail(`block ${i}'s message has a longer body than the block`);
    }
  }
  checkKeyValues(fb, footer, 4);
}

function hasMagic(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < MAGIC.length; i++) if (bytes[at + i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

/**
 * Throws IpcFramingError unless `bytes` is a well-framed Arrow IPC file or stream. Runs in
 * time linear in the input (plus at most FIELD_BUDGET schema fields).
 *
 * @example
 * validateIPCFraming(readFileSync("trips.arrow")); // throws on a truncated or corrupt file
 */
export function validateIPCFraming(bytes: Uint8Array): void {
  if (bytes.length >= MAGIC.length && hasMagic(bytes, 0)) checkFile(bytes);
  else checkStream(bytes);
}
