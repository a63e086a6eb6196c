// The micro-benchmark table M1_<N> (not part of the db-benchmark): one column per micro-benchmark
//   k  int64 uniform in [0, 1e12)        sort of int64
//   s  utf8, one of 26 letters "a".."z"  multi-key sort (s, f); filter s == "x"; unique (s, a)
//   f  float64 uniform in [0, 1)         multi-key sort
//   a  int32 uniform in [-50, 49]        filter a > 0; unique (s, a)
// No nulls. Rows are independent: chunked like the groupby table.
import { Rng } from './prng.mjs';

const SEED = 108;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const letter = (code) => LETTERS[code];

export function microChunk({ index, n }) {
  const rng = new Rng(SEED, 2_000_000 + index);
  const k = new Float64Array(n); // integral values below 2^53: exact in a double
  const s = new Int32Array(n);
  const f = new Float64Array(n);
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    k[i] = Math.floor(rng.float() * 1e12);
    s[i] = rng.int1(26) - 1;
    f[i] = rng.float();
    a[i] = rng.int1(100) - 51;
  }
  return {
    n,
    columns: [
      { name: 'k', type: 'int64', values: k, valid: null },
      { name: 's', type: 'utf8', values: s, valid: null, str: letter },
      { name: 'f', type: 'float64', values: f, valid: null },
      { name: 'a', type: 'int32', values: a, valid: null },
    ],
  };
}
