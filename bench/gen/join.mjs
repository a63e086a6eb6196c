// The db-benchmark join tables, as _data/join-datagen.R describes them, for J1_<N>_NA_0_0:
//   keys   for each id level (N/1e6, N/1e3, N distinct values) a random permutation of
//          1..1.1n split into x (90%: in both sides), l (10%: left only), r (10%: right only)
//   x      N rows: id1, id2, id3 drawn so that every key of x+l appears at least once
//          ("sample_all"), id4..id6 = "id" + id1..id3, v1 uniform [0, 100) rounded to 6 dp
//   small  N/1e6 rows: id1 (keys x+r), id4, v2
//   medium N/1e3 rows: id1, id2, id4, id5, v2
//   big    N rows:     id1, id2, id3, id4, id5, id6, v2
// Unlike the row-wise groupby table, the key permutations and shuffles are global, so these
// tables are drawn in one thread (index.mjs then has the worker pool format their CSV). The R script accepts N >= 1e7 only; at N = 1e6 the
// id1 level has a single key (x = {k}, l = r = {}), so small has one row that every x row matches.
import { Rng } from './prng.mjs';
import { idFormat } from './chunk.mjs';

const SEED = 108;

/** split_xlr: permutation of 1..round(1.1 n) cut into x (0.9 n), l (0.1 n), r (0.1 n). */
function splitKeys(n, rng) {
  const total = Math.round(n * 1.1);
  const perm = new Int32Array(total);
  for (let i = 0; i < total; i++) perm[i] = i + 1;
  rng.shuffle(perm);
  const nx = Math.round(n * 0.9);
  return { x: perm.subarray(0, nx), l: perm.subarray(nx, n), r: perm.subarray(n, total) };
}

/** sample_all: `size` draws from the keys a ∪ b, each key at least once, in random order. */
function sampleAll(a, b, size, rng) {
  const pool = a.length + b.length;
  const out = new Int32Array(size);
  out.set(a, 0);
  out.set(b, a.length);
  for (let i = pool; i < size; i++) {
    const j = rng.int1(pool) - 1;
    out[i] = j < a.length ? a[j] : b[j - a.length];
  }
  return rng.shuffle(out);
}

function measure(n, rng) {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.round(rng.float() * 1e8) / 1e6;
  return v;
}

const intCol = (name, values) => ({ name, type: 'int32', values, valid: null });
const strCol = (name, values) => ({ name, type: 'utf8', values, valid: null, str: idFormat(0), idWidth: 0 });   // idWidth: str for a worker

/**
 * One table: for each key level i (1-based) of `keys`, an int column id<i> and its string twin
 * id<i+3>, then the measure column. Draw order (keys, then measure) fixes the data.
 */
function table(role, n, keys, measureName, rng) {
  const ints = keys.map((k, i) => intCol(`id${i + 1}`, k));
  const strs = keys.map((k, i) => strCol(`id${i + 4}`, k));
  return { role, n, columns: [...ints, ...strs, { name: measureName, type: 'float64', values: measure(n, rng), valid: null }] };
}

/** The four join tables: [{ role, n, columns }] for x, small, medium, big. */
export function joinTables(N) {
  const rng = new Rng(SEED, 3_000_000);
  const levels = [splitKeys(Math.max(1, N / 1e6), rng), splitKeys(N / 1e3, rng), splitKeys(N, rng)];
  // x draws from the keys on both sides + left-only ones; right tables from both + right-only.
  const draw = (n, depth, side) => levels.slice(0, depth).map((k) => sampleAll(k.x, k[side], n, rng));
  const nSmall = Math.max(1, N / 1e6), nMedium = N / 1e3;
  return [
    table('x', N, draw(N, 3, 'l'), 'v1', rng),
    table('small', nSmall, draw(nSmall, 1, 'r'), 'v2', rng),
    table('medium', nMedium, draw(nMedium, 2, 'r'), 'v2', rng),
    table('big', N, draw(N, 3, 'r'), 'v2', rng),
  ];
}

/** Rows [start, start + n) of a full table, as a chunk. */
export function sliceTable(table, start, n) {
  return {
    n,
    columns: table.columns.map((c) => ({ ...c, values: c.values.subarray(start, start + n), valid: c.valid && c.valid.subarray(start, start + n) })),
  };
}
