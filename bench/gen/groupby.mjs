// The db-benchmark groupby table G1_<N>_<K>_<NA>_0, as _data/groupby-datagen.R describes it:
//   id1, id2  one of K strings "id001".."id100"       (sample of sprintf("id%03d", 1:K))
//   id3       one of N/K strings "id0000000001"...     (sprintf("id%010d", 1:(N/K)))
//   id4, id5  int in 1..K;  id6 int in 1..N/K
//   v1 int 1..5;  v2 int 1..15;  v3 uniform [0, 100) rounded to 6 decimals
// With NA% > 0: for each id column, NA% of its distinct values become null in every row that
// holds them; for each v column, exactly NA% of the rows (chosen at random) are null.
// Rows are independent, so the table is generated in fixed-size chunks, each from its own
// random stream: the output is the same whatever the number of workers.
import { Rng } from './prng.mjs';
import { idFormat } from './chunk.mjs';

const SEED = 108; // the seed of the R generators
const STREAM_NA_VALUES = 1_000_000; // stream ids above any chunk index

/** Column domains of the table (the `n` of each sample(n, N, TRUE)). */
export function groupbyDomains(N, K) {
  const big = Math.max(1, Math.floor(N / K));
  return { id1: K, id2: K, id3: big, id4: K, id5: K, id6: big };
}

/**
 * The null plan shared by all chunks: for each id column, a 0/1 mask over its domain of the
 * values that become null (floor(domain * NA / 100) of them, as R's as.integer()).
 */
export function groupbyNullPlan(N, K, nas) {
  if (nas === 0) return null;
  const plan = {};
  const domains = groupbyDomains(N, K);
  Object.entries(domains).forEach(([name, size], i) => {
    const rng = new Rng(SEED, STREAM_NA_VALUES + i);
    const picks = rng.pickMask(size, Math.floor((size * nas) / 100));
    plan[name] = new Uint8Array(size + 1); // indexed by value, 1-based
    plan[name].set(picks, 1);
  });
  return plan;
}

/** Generates rows [start, start + n) of the table as chunk index `index`. */
export function groupbyChunk({ N, K, nas, index, n, nullPlan }) {
  const rng = new Rng(SEED, index);
  const d = groupbyDomains(N, K);
  const ints = (domain) => {
    const a = new Int32Array(n);
    for (let i = 0; i < n; i++) a[i] = rng.int1(domain);
    return a;
  };
  const id1 = ints(d.id1), id2 = ints(d.id2), id3 = ints(d.id3);
  const id4 = ints(d.id4), id5 = ints(d.id5), id6 = ints(d.id6);
  const v1 = ints(5), v2 = ints(15);
  const v3 = new Float64Array(n);
  for (let i = 0; i < n; i++) v3[i] = Math.round(rng.float() * 1e8) / 1e6;

  const idValid = (name, values) => {
    if (nullPlan === null) return null;
    const mask = nullPlan[name];
    const valid = new Uint8Array(n);
    for (let i = 0; i < n; i++) valid[i] = mask[values[i]] ? 0 : 1;
    return valid;
  };
  const rowValid = () => {
    if (nullPlan === null) return null;
    const nulls = rng.pickMask(n, Math.floor((n * nas) / 100));
    for (let i = 0; i < n; i++) nulls[i] ^= 1;
    return nulls;
  };
  const small = idFormat(3), large = idFormat(10);
  return {
    n,
    columns: [
      { name: 'id1', type: 'utf8', values: id1, valid: idValid('id1', id1), str: small },
      { name: 'id2', type: 'utf8', values: id2, valid: idValid('id2', id2), str: small },
      { name: 'id3', type: 'utf8', values: id3, valid: idValid('id3', id3), str: large },
      { name: 'id4', type: 'int32', values: id4, valid: idValid('id4', id4) },
      { name: 'id5', type: 'int32', values: id5, valid: idValid('id5', id5) },
      { name: 'id6', type: 'int32', values: id6, valid: idValid('id6', id6) },
      { name: 'v1', type: 'int32', values: v1, valid: rowValid() },
      { name: 'v2', type: 'int32', values: v2, valid: rowValid() },
      { name: 'v3', type: 'float64', values: v3, valid: rowValid() },
    ],
  };
}
