// The db-benchmark join tables, as _data/join-datagen.R describes them, for J1_<N>_NA_0_0:
//   keys   for each id level (N/1e6, N/1e3, N distinct values) a random permutation of
//          1..1.1n split into x (90%: in both sides), l (10%: left only), r (10%: right only)
//   x      N rows: id1, id2, id3 drawn so that every key of x+l appears at least once
//          ("sample_all"), id4..id6 = "id" + id1..id3, v1 uniform [0, 100) rounded to 6 dp
//   small  N/1e6 rows: id1 (keys x+r), id4, v2
//   medium N/1e3 rows: id1, id2, id4, id5, v2
//   big    N rows:     id1, id2, id3, id4, id5, id6, v2
// Unlike the row-wise groupby table, the key permutations and shuffles are global, so this
// table is generated in one process. The R script accepts N >= 1e7 only; at N = 1e6 the
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
const strCol = (name, values) => ({ name, type: 'utf8', values, valid: null, str: idFormat(0) });

/** The four join tables: [{ name suffix, n, columns }] for x, small, medium, big. */
export function joinTables(N) {
  const rng = new Rng(SEED, 3_000_000);
  const key1 = splitKeys(Math.max(1, N / 1e6), rng);
  const key2 = splitKeys(N / 1e3, rng);
  const key3 = splitKeys(N, rng);
  const tables = [];

  const lhs = [sampleAll(key1.x, key1.l, N, rng), sampleAll(key2.x, key2.l, N, rng), sampleAll(key3.x, key3.l, N, rng)];
  tables.push({
    role: 'x', n: N,
    columns: [intCol('id1', lhs[0]), intCol('id2', lhs[1]), intCol('id3', lhs[2]),
      strCol('id4', lhs[0]), strCol('id5', lhs[1]), strCol('id6', lhs[2]),
      { name: 'v1', type: 'float64', values: measure(N, rng), valid: null }],
  });

  const nSmall = Math.max(1, N / 1e6);
  const s1 = sampleAll(key1.x, key1.r, nSmall, rng);
  tables.push({
    role: 'small', n: nSmall,
    columns: [intCol('id1', s1), strCol('id4', s1), { name: 'v2', type: 'float64', values: measure(nSmall, rng), valid: null }],
  });

  const nMedium = N / 1e3;
  const m1 = sampleAll(key1.x, key1.r, nMedium, rng), m2 = sampleAll(key2.x, key2.r, nMedium, rng);
  tables.push({
    role: 'medium', n: nMedium,
    columns: [intCol('id1', m1), intCol('id2', m2), strCol('id4', m1), strCol('id5', m2),
      { name: 'v2', type: 'float64', values: measure(nMedium, rng), valid: null }],
  });

  const b = [sampleAll(key1.x, key1.r, N, rng), sampleAll(key2.x, key2.r, N, rng), sampleAll(key3.x, key3.r, N, rng)];
  tables.push({
    role: 'big', n: N,
    columns: [intCol('id1', b[0]), intCol('id2', b[1]), intCol('id3', b[2]),
      strCol('id4', b[0]), strCol('id5', b[1]), strCol('id6', b[2]),
      { name: 'v2', type: 'float64', values: measure(N, rng), valid: null }],
  });
  return tables;
}

/** Rows [start, start + n) of a full table, as a chunk. */
export function sliceTable(table, start, n) {
  return {
    n,
    columns: table.columns.map((c) => ({ ...c, values: c.values.subarray(start, start + n), valid: c.valid && c.valid.subarray(start, start + n) })),
  };
}
