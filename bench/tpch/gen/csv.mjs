// CSV rows written straight as bytes (the generator's hot loop: no JS strings per field).
// Integers in decimal, money as cents with two decimals ("-999.99", "0.05"), dates as
// YYYY-MM-DD, free text (comments, addresses) always double-quoted, since it may hold commas
// and leading or trailing spaces (it never holds a quote or a line break).
import { STARTDATE } from './dists.mjs';

const COMMA = 44, NL = 10, QUOTE = 34, DOT = 46, MINUS = 45, ZERO = 48;
export const ascii = (s) => Uint8Array.from(s, (c) => c.charCodeAt(0));

// 'YYYY-MM-DD' bytes of each day from STARTDATE on (orders and lineitems stay before 1999-02).
const DATE_DAYS = 2700;
const DATES = new Uint8Array(DATE_DAYS * 10);
for (let d = 0; d < DATE_DAYS; d++) DATES.set(ascii(new Date((STARTDATE + d) * 86_400_000).toISOString().slice(0, 10)), d * 10);

export class ByteWriter {
  constructor(capacity = 1 << 20) {
    this.buf = new Uint8Array(capacity);
    this.n = 0;
  }

  reserve(k) {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }

  comma() { this.buf[this.n++] = COMMA; }
  newline() { this.buf[this.n++] = NL; }

  /** A non-negative integer's digits, zero-padded to `width`. */
  digits(v, width = 0) {
    const b = this.buf;
    let len = 1;
    for (let t = v; t >= 10; t = Math.floor(t / 10)) len++;
    if (len < width) { for (let k = len; k < width; k++) b[this.n++] = ZERO; }
    let at = this.n + len;
    this.n = at;
    do { b[--at] = ZERO + (v % 10); v = Math.floor(v / 10); } while (v > 0);
  }

  int(v) {
    if (v < 0) { this.buf[this.n++] = MINUS; v = -v; }
    this.digits(v);
  }

  /** A money value given in integer cents. */
  cents(c) {
    if (c < 0) { this.buf[this.n++] = MINUS; c = -c; }
    this.digits(Math.floor(c / 100));
    this.buf[this.n++] = DOT;
    this.digits(c % 100, 2);
  }

  date(days) {
    const at = (days - STARTDATE) * 10;
    this.buf.set(DATES.subarray(at, at + 10), this.n);
    this.n += 10;
  }

  /** Constant bytes (a name, a type word ...), unquoted. */
  bytes(u8) {
    this.buf.set(u8, this.n);
    this.n += u8.length;
  }

  /** `len` bytes of `src` from `off`, double-quoted. */
  quoted(src, off, len) {
    const b = this.buf;
    b[this.n++] = QUOTE;
    for (let k = 0; k < len; k++) b[this.n++] = src[off + k];
    b[this.n++] = QUOTE;
  }

  /** The bytes written so far (a view on the buffer, which is transferred whole). */
  result() { return this.buf.subarray(0, this.n); }
}
