// The rows of each TPC-H table (specification clause 4.2.3), chunk by chunk as CSV bytes.
// A chunk is a fixed range of keys with its own random stream, so the data depend on the scale
// factor only, never on how many workers made them. PART chunks also make their PARTSUPP rows
// and ORDERS chunks their LINEITEM rows (o_totalprice and o_orderstatus come from the lines).
import { Rng } from '../../gen/prng.mjs';
import { ByteWriter, ascii } from './csv.mjs';
import {
  COLORS, CONTAINER_SYLLABLES, CURRENTDATE, ENDDATE, INSTRUCTIONS, MODES, NATIONS, PRIORITIES, REGIONS,
  SEGMENTS, STARTDATE, TYPE_SYLLABLES,
} from './dists.mjs';

export const SEED = 19_920_101;
export const STREAM = { pool: 0, nation: 1, region: 2, special: 3, part: 1e6, supplier: 2e6, customer: 3e6, orders: 4e6 };
export const CHUNK = { part: 25_000, supplier: 25_000, customer: 25_000, orders: 25_000 };

/** Row counts at scale factor sf: SF x the spec's base counts (at least one row each). */
export function scale(sf) {
  const n = (base) => Math.max(1, Math.round(base * sf));
  return { part: n(200_000), supplier: n(10_000), customer: n(150_000), orders: n(1_500_000), clerks: n(1_000) };
}

/** The spec's sparse order keys: the first 8 of every 32 (1..8, 33..40, ...); j is 0-based. */
export const orderKey = (j) => Math.floor(j / 8) * 32 + (j % 8) + 1;

/** P_RETAILPRICE in cents: 90000 + ((key / 10) mod 20001) + 100 * (key mod 1000). */
export const retailCents = (pk) => 90000 + (Math.floor(pk / 10) % 20001) + 100 * (pk % 1000);

/** The i-th (0..3) supplier of part pk among S suppliers (PS_SUPPKEY, also L_SUPPKEY). */
export const partSupplier = (pk, i, S) => ((pk + i * (Math.floor(S / 4) + Math.floor((pk - 1) / S))) % S) + 1;

const words = (list) => list.map(ascii);
const TYPES = TYPE_SYLLABLES[0].flatMap((a) => TYPE_SYLLABLES[1].flatMap((b) => TYPE_SYLLABLES[2].map((c) => ascii(`${a} ${b} ${c}`))));
const CONTAINERS = CONTAINER_SYLLABLES[0].flatMap((a) => CONTAINER_SYLLABLES[1].map((b) => ascii(`${a} ${b}`)));
const COLOR_BYTES = words(COLORS), SEGMENT_BYTES = words(SEGMENTS), PRIORITY_BYTES = words(PRIORITIES);
const INSTRUCT_BYTES = words(INSTRUCTIONS), MODE_BYTES = words(MODES);
const MFGR = ascii('Manufacturer#'), BRAND = ascii('Brand#'), SUPPLIER = ascii('Supplier#'), CUSTOMER = ascii('Customer#');
const CLERK = ascii('Clerk#');
const FLAG = { R: ascii('R'), A: ascii('A'), N: ascii('N'), O: ascii('O'), F: ascii('F'), P: ascii('P') };
// The 64 symbols of random v-strings (clause 4.2.2.7): letters, digits, comma and space.
const VSTRING = ascii('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789, ');

/** Shared per-chunk helpers over one random stream and the text pool. */
class Rows {
  constructor(stream, pool) {
    this.rng = new Rng(SEED, stream);
    this.pool = pool;
  }

  /** A text column value: pool bytes [off, off + len), len in [min, max], quoted. */
  text(w, min, max) {
    const len = this.rng.int(min, max);
    w.quoted(this.pool, this.rng.int(0, this.pool.length - len), len);
  }

  /** A random v-string of [min, max] symbols, quoted. */
  vstring(w, min, max) {
    const len = this.rng.int(min, max);
    const b = w.buf;
    b[w.n++] = 34;
    for (let k = 0; k < len; k++) b[w.n++] = VSTRING[this.rng.int(0, 63)];
    b[w.n++] = 34;
  }

  /** Phone (clause 4.2.2.9): country code nation + 10, then 3, 3 and 4 digits. */
  phone(w, nation) {
    w.digits(nation + 10);
    w.buf[w.n++] = 45;
    w.digits(this.rng.int(100, 999));
    w.buf[w.n++] = 45;
    w.digits(this.rng.int(100, 999));
    w.buf[w.n++] = 45;
    w.digits(this.rng.int(1000, 9999));
  }

  pick(list) { return list[this.rng.int(0, list.length - 1)]; }
}

/** PART rows for keys [start+1, end] and their four PARTSUPP rows each. */
export function partChunk({ index, start, end, sf }, pool) {
  const S = scale(sf).supplier;
  const r = new Rows(STREAM.part + index, pool);
  const rng = r.rng;
  const part = new ByteWriter((end - start) * 160), ps = new ByteWriter((end - start) * 4 * 160);
  const perm = Int32Array.from(COLORS, (_, i) => i);
  for (let pk = start + 1; pk <= end; pk++) {
    part.reserve(400);
    part.int(pk); part.comma();
    for (let k = 0; k < 5; k++) {  // five distinct colours: a partial Fisher-Yates shuffle
      const j = rng.int(k, perm.length - 1);
      const t = perm[k]; perm[k] = perm[j]; perm[j] = t;
      if (k > 0) part.buf[part.n++] = 32;
      part.bytes(COLOR_BYTES[perm[k]]);
    }
    const m = rng.int(1, 5), n = rng.int(1, 5);
    part.comma(); part.bytes(MFGR); part.int(m);
    part.comma(); part.bytes(BRAND); part.int(m * 10 + n);
    part.comma(); part.bytes(TYPES[rng.int(0, TYPES.length - 1)]);
    part.comma(); part.int(rng.int(1, 50));
    part.comma(); part.bytes(CONTAINERS[rng.int(0, CONTAINERS.length - 1)]);
    part.comma(); part.cents(retailCents(pk));
    part.comma(); r.text(part, 5, 22);
    part.newline();
    for (let i = 0; i < 4; i++) {
      ps.reserve(400);
      ps.int(pk); ps.comma();
      ps.int(partSupplier(pk, i, S)); ps.comma();
      ps.int(rng.int(1, 9999)); ps.comma();
      ps.cents(rng.int(100, 100_000)); ps.comma();
      r.text(ps, 49, 198);
      ps.newline();
    }
  }
  return { part: part.result(), partsupp: ps.result() };
}

const CUSTOMER_WORD = ascii('Customer'), COMPLAINTS = ascii('Complaints'), RECOMMENDS = ascii('Recommends');

/**
 * SUPPLIER rows for keys [start+1, end]. `special` maps a 0-based row index to 'C' or 'R': that
 * row's comment holds "Customer ... Complaints" (or "... Recommends") at a random position.
 */
export function supplierChunk({ index, start, end, special }, pool) {
  const r = new Rows(STREAM.supplier + index, pool);
  const rng = r.rng;
  const w = new ByteWriter((end - start) * 200);
  const marks = new Map(special);
  for (let sk = start + 1; sk <= end; sk++) {
    w.reserve(400);
    w.int(sk); w.comma();
    w.bytes(SUPPLIER); w.digits(sk, 9); w.comma();
    r.vstring(w, 10, 40); w.comma();
    const nation = rng.int(0, 24);
    w.int(nation); w.comma();
    r.phone(w, nation); w.comma();
    w.cents(rng.int(-99_999, 999_999)); w.comma();
    const mark = marks.get(sk - 1);
    if (mark === undefined) r.text(w, 25, 100);
    else {
      // The comment's bytes, then "Customer" + pool text + "Complaints|Recommends" over them.
      const len = rng.int(25, 100);
      const off = rng.int(0, pool.length - len);
      const bytes = pool.slice(off, off + len);
      const tail = mark === 'C' ? COMPLAINTS : RECOMMENDS;
      const gap = rng.int(1, len - CUSTOMER_WORD.length - tail.length);
      const at = rng.int(0, len - CUSTOMER_WORD.length - gap - tail.length);
      const from = rng.int(0, pool.length - gap);
      bytes.set(CUSTOMER_WORD, at);
      bytes.set(pool.subarray(from, from + gap), at + CUSTOMER_WORD.length);
      bytes.set(tail, at + CUSTOMER_WORD.length + gap);
      w.quoted(bytes, 0, len);
    }
    w.newline();
  }
  return { supplier: w.result() };
}

/** CUSTOMER rows for keys [start+1, end]. */
export function customerChunk({ index, start, end }, pool) {
  const r = new Rows(STREAM.customer + index, pool);
  const rng = r.rng;
  const w = new ByteWriter((end - start) * 220);
  for (let ck = start + 1; ck <= end; ck++) {
    w.reserve(400);
    w.int(ck); w.comma();
    w.bytes(CUSTOMER); w.digits(ck, 9); w.comma();
    r.vstring(w, 10, 40); w.comma();
    const nation = rng.int(0, 24);
    w.int(nation); w.comma();
    r.phone(w, nation); w.comma();
    w.cents(rng.int(-99_999, 999_999)); w.comma();
    w.bytes(r.pick(SEGMENT_BYTES)); w.comma();
    r.text(w, 29, 116);
    w.newline();
  }
  return { customer: w.result() };
}

/** ORDERS rows for order indices [start, end) and their 1..7 LINEITEM rows each. */
export function ordersChunk({ index, start, end, sf }, pool) {
  const { part: P, supplier: S, customer: C, clerks } = scale(sf);
  const r = new Rows(STREAM.orders + index, pool);
  const rng = r.rng;
  const o = new ByteWriter((end - start) * 130), l = new ByteWriter((end - start) * 4 * 150);
  const withOrders = C - Math.floor(C / 3); // customers whose key is not a multiple of 3
  for (let j = start; j < end; j++) {
    const ok = orderKey(j);
    const c = rng.int(0, withOrders - 1);
    const ck = c + Math.floor(c / 2) + 1;
    const od = rng.int(STARTDATE, ENDDATE - 151);
    const priority = r.pick(PRIORITY_BYTES);
    const clerk = rng.int(1, clerks);
    const clen = rng.int(19, 78), coff = rng.int(0, pool.length - clen);
    const lines = rng.int(1, 7);
    let total = 0, shipped = 0;
    for (let ln = 1; ln <= lines; ln++) {
      l.reserve(400);
      const pk = rng.int(1, P);
      const sk = partSupplier(pk, rng.int(0, 3), S);
      const qty = rng.int(1, 50);
      const ext = qty * retailCents(pk);
      const disc = rng.int(0, 10), tax = rng.int(0, 8);
      const ship = od + rng.int(1, 121), commit = od + rng.int(30, 90), receipt = ship + rng.int(1, 30);
      // Each line's charge rounded to cents, summed exactly.
      total += Math.round((ext * (100 + tax) * (100 - disc)) / 10_000);
      l.int(ok); l.comma(); l.int(pk); l.comma(); l.int(sk); l.comma(); l.int(ln); l.comma();
      l.int(qty); l.comma(); l.cents(ext); l.comma(); l.cents(disc); l.comma(); l.cents(tax); l.comma();
      l.bytes(receipt <= CURRENTDATE ? (rng.int(0, 1) ? FLAG.R : FLAG.A) : FLAG.N); l.comma();
      const open = ship > CURRENTDATE;
      if (!open) shipped++;
      l.bytes(open ? FLAG.O : FLAG.F); l.comma();
      l.date(ship); l.comma(); l.date(commit); l.comma(); l.date(receipt); l.comma();
      l.bytes(r.pick(INSTRUCT_BYTES)); l.comma(); l.bytes(r.pick(MODE_BYTES)); l.comma();
      r.text(l, 10, 43);
      l.newline();
    }
    o.reserve(400);
    o.int(ok); o.comma(); o.int(ck); o.comma();
    o.bytes(shipped === lines ? FLAG.F : shipped === 0 ? FLAG.O : FLAG.P); o.comma();
    o.cents(total); o.comma(); o.date(od); o.comma(); o.bytes(priority); o.comma();
    o.bytes(CLERK); o.digits(clerk, 9); o.comma(); o.int(0); o.comma();
    o.quoted(pool, coff, clen);
    o.newline();
  }
  return { orders: o.result(), lineitem: l.result() };
}

/** NATION and REGION (fixed rows, comments from the pool). */
export function fixedTables(pool) {
  const out = {};
  for (const [table, rows, min, max] of [['nation', NATIONS, 31, 114], ['region', REGIONS.map((n) => [n]), 31, 115]]) {
    const r = new Rows(STREAM[table], pool);
    const w = new ByteWriter(1 << 14);
    rows.forEach(([name, region], key) => {
      w.int(key); w.comma(); w.bytes(ascii(name)); w.comma();
      if (table === 'nation') { w.int(region); w.comma(); }
      r.text(w, min, max);
      w.newline();
    });
    out[table] = w.result();
  }
  return out;
}

/**
 * Which supplier rows get "Customer ... Complaints" and "Customer ... Recommends" comments:
 * SF x 5 distinct rows each (at least one), chosen from one stream (Floyd's algorithm).
 */
export function specialSuppliers(sf) {
  const S = scale(sf).supplier;
  const k = Math.min(Math.floor(S / 2), Math.max(1, Math.round(5 * sf)));
  const rng = new Rng(SEED, STREAM.special);
  const chosen = new Set(), order = [];
  for (let j = S - 2 * k; j < S; j++) {
    const t = rng.int(0, j);
    const pick = chosen.has(t) ? j : t;
    chosen.add(pick);
    order.push(pick);
  }
  return new Map(order.map((row, i) => [row, i < k ? 'C' : 'R']));
}
